/**
 * One construction path per record kind (model/records.ts): what the run writes has the keys, in
 * the same order, of what the loader made, so that V8 gives both one hidden class and the code
 * compiled for the loaded records is not thrown away when the first written one arrives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toLeaseRecord, toNodeRecord, toPodRecord, toReplicaSetRecord } from '../../../src/engine/model/convert';
import { podFromTemplate } from '../../../src/engine/controllers/replicaSet/podTemplate';
import { calculateStatus } from '../../../src/engine/controllers/replicaSet/status';
import { conditionsSetUnknown } from '../../../src/engine/controllers/nodeLifecycle/tryUpdateNodeHealth';
import { swapTaints } from '../../../src/engine/controllers/nodeLifecycle/taints';
import { setCondition } from '../../../src/engine/controllers/scheduler/podConditions';
import { clonePod, cloneNode, cloneLease, cloneReplicaSet } from '../../../src/engine/simulation/checkpoint';
import { kubeletLease } from '../../../src/engine/kubelet/nodelease';
import { statesFrom } from '../../../src/engine/kubelet/checkpoint';
import { Kubelets } from '../../../src/engine/kubelet/kubelets';
import { emptyCluster, type ClusterState } from '../../../src/engine/model/cluster';
import type { KObject, NodeRecord, PodRecord, ReplicaSetRecord } from '../../../src/engine/model/types';

const T = Date.UTC(2026, 0, 1) * 1000;
const nodeRaw: KObject = {
  kind: 'Node',
  metadata: { name: 'n1', uid: 'u-n1', labels: { zone: 'a' }, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] },
  status: {
    conditions: [
      { type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'KubeletReady' },
      { type: 'NetworkUnavailable', status: 'False', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' },
    ],
  },
};
const rsRaw: KObject = {
  kind: 'ReplicaSet',
  metadata: { name: 'web-abc', namespace: 'default', uid: 'u-rs', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
  },
  status: { replicas: 1, observedGeneration: 1 },
};
// an export's pod: keys in the export's (alphabetical) order, bound, no deletion
const podRaw: KObject = {
  kind: 'Pod',
  metadata: {
    name: 'web-abc-1',
    namespace: 'default',
    uid: 'u-p1',
    labels: { app: 'web' },
    ownerReferences: [{ apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'ReplicaSet', name: 'web-abc', uid: 'u-rs' }],
    creationTimestamp: '2026-01-01T00:00:00Z',
  },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
};

const node = (): NodeRecord => toNodeRecord(nodeRaw)!;
const pod = (): PodRecord => toPodRecord(podRaw)!;
const rs = (): ReplicaSetRecord => toReplicaSetRecord(rsRaw)!;

/** the keys of an object, and of the objects and lists of objects under it, one level down */
function shape(o: object): string {
  const parts = [Object.keys(o).join(',')];
  for (const [k, v] of Object.entries(o)) {
    // kept as the export has them (raw, and lists of the export's own objects), or not records
    if (['raw', 'labels', 'annotations', 'template', 'selector', 'desired', 'tolerations', 'ownerReferences'].includes(k)) continue;
    if (Array.isArray(v)) v.forEach((x, i) => typeof x === 'object' && x !== null && parts.push(`${k}[${i}]: ${Object.keys(x).join(',')}`));
    else if (typeof v === 'object' && v !== null) parts.push(`${k}: ${Object.keys(v).join(',')}`);
  }
  return parts.join('\n');
}

const cases: { name: string; made: () => object; like: () => object }[] = [
  {
    name: 'a pod the ReplicaSet controller creates is shaped as a loaded pod (Pending: no conditions yet)',
    made: () => podFromTemplate(rs(), 'web-abc-2', 'u-p2', T),
    like: () => Object.assign(pod(), { conditions: [] }),
  },
  { name: 'a live copy of a loaded pod is shaped as the loaded pod', made: () => clonePod(pod()), like: pod },
  {
    name: 'a pod marked with a status reason keeps its shape',
    made: () => Object.assign(clonePod(pod()), { statusReason: 'NodeLost', statusMessage: 'm' }),
    like: pod,
  },
  {
    name: 'a pod condition the scheduler writes is shaped as a loaded one',
    made: () => setCondition(pod().conditions, { type: 'PodScheduled', status: 'True', lastTransitionTime: T })[1],
    like: () => pod().conditions[0],
  },
  { name: 'a live copy of a loaded node is shaped as the loaded node', made: () => cloneNode(node()), like: node },
  {
    name: 'a condition the controller sets Unknown, and one it adds, are shaped as loaded ones',
    made: () => conditionsSetUnknown(node(), ['Ready', 'MemoryPressure'], T).work,
    like: () => [...node().conditions, node().conditions[0]],
  },
  {
    name: 'a taint the controller adds is shaped as a loaded one',
    made: () => swapTaints(node().taints, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }], [], T).taints,
    like: () => [...node().taints, node().taints[0]],
  },
  {
    name: "a kubelet's Lease is shaped as a loaded Lease",
    made: () => kubeletLease('n1', T, 40),
    like: () =>
      toLeaseRecord({
        kind: 'Lease',
        metadata: { name: 'n1', namespace: 'kube-node-lease', uid: 'u-l' },
        spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: '2026-01-01T00:00:00.000000Z' },
      })!,
  },
  { name: 'a live copy of a Lease is shaped as the Lease', made: () => cloneLease(kubeletLease('n1', T, 40)), like: () => kubeletLease('n1', T, 40) },
  { name: 'a live copy of a ReplicaSet is shaped as the loaded one', made: () => cloneReplicaSet(rs()), like: rs },
  {
    name: "the ReplicaSet controller's status is shaped as a loaded one",
    made: () => calculateStatus(rs(), [pod()], undefined, T, 1),
    like: () => rs().status,
  },
  {
    name: "a restored kubelet's state is shaped as a new one",
    made: () => {
      const k = new Kubelets(cluster(), SETTINGS, HOOKS);
      k.init(T);
      return [...statesFrom(k.save() as never).values()][0];
    },
    like: () => new Kubelets(cluster(), SETTINGS, HOOKS).addNode(node(), T),
  },
];

const SETTINGS = { updateFrequency: 10e6, reportFrequency: 60e6, leaseRenewInterval: 10e6, leases: true, gracePeriod: 40e6 };
const HOOKS = { nodeStatusChanged() {}, leaseCreated() {} };
function cluster(): ClusterState {
  const c = emptyCluster();
  c.nodes.set('n1', node());
  return c;
}

describe('records: one shape per kind, however made', () => {
  for (const c of cases) it(c.name, () => assert.equal(shape(c.made()), shape(c.like())));
});
