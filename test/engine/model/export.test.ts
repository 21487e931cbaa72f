import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { exportCluster, exportRecord, sameJson } from '../../../src/engine/model/export';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { nodeFs } from '../../../src/platform/nodeFs';
import { parseTimestamp, ZERO_TIME } from '../../../src/engine/model/time';
import type { KObject, ObjectRecord, PodRecord } from '../../../src/engine/model/types';

const REAL = resolve(__dirname, '../../../../shared/fixtures/real');

test('every real fixture object exports back to what was read (plus kind and apiVersion where the input had none)', () => {
  const c = loadSnapshot(REAL, nodeFs()).cluster;
  const records: ObjectRecord[] = [...c.nodes.values(), ...c.pods.values(), ...c.replicaSets.values(), ...c.daemonSets.values(), ...c.leases.values()];
  assert.equal(records.length, 18);
  for (const r of records) {
    const out = exportRecord(r);
    assert.deepEqual(out, { ...r.raw, kind: r.raw.kind ?? r.kind, apiVersion: r.raw.apiVersion ?? out.apiVersion }, `${r.kind}/${r.meta.name}`);
  }
});

test('exporting never changes raw, and writes back what the controllers changed', () => {
  const snap = loadSnapshot({
    file: 'n.yaml',
    text: `apiVersion: v1
kind: Node
metadata: {name: n, managedFields: [{manager: kubelet}]}
spec: {podCIDR: 10.0.0.0/24}
status:
  images: [{names: [nginx]}]
  conditions:
  - {type: Ready, status: "True", reason: KubeletReady, lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-01T00:00:00Z"}
`,
  });
  const node = snap.cluster.nodes.get('n')!;
  const before = JSON.stringify(node.raw);
  node.conditions[0] = {
    type: 'Ready',
    status: 'Unknown',
    reason: 'NodeStatusUnknown',
    message: 'Kubelet stopped posting node status.',
    lastHeartbeatTime: node.conditions[0].lastHeartbeatTime,
    lastTransitionTime: parseTimestamp('2026-01-01T00:00:40Z')!,
  };
  node.taints.push({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: parseTimestamp('2026-01-01T00:00:45Z')! });
  const out = exportRecord(node) as { spec: KObject; status: { conditions: KObject[]; images: unknown }; metadata: KObject };
  assert.equal(JSON.stringify(node.raw), before, 'raw is untouched');
  assert.deepEqual(out.status.conditions, [
    {
      type: 'Ready',
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: '2026-01-01T00:00:00Z',
      lastTransitionTime: '2026-01-01T00:00:40Z',
    },
  ]);
  assert.deepEqual(out.spec, {
    podCIDR: '10.0.0.0/24',
    taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:45Z' }],
  });
  assert.equal(out.status.images, (node.raw.status as KObject).images, 'untouched parts are shared, not copied');
  assert.deepEqual(out.metadata.managedFields, [{ manager: 'kubelet' }]);
});

test('a pod created in the run exports as a full object; the zero time is null; a MicroTime keeps six digits', () => {
  const pod: PodRecord = {
    kind: 'Pod',
    meta: {
      name: 'web-x',
      namespace: 'default',
      uid: 'u1',
      labels: { app: 'web' },
      annotations: {},
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs', controller: true }],
      creationTimestamp: parseTimestamp('2026-01-01T00:01:00Z')!,
    },
    nodeName: 'n1',
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: ZERO_TIME }],
    restartCount: 0,
    raw: {},
  };
  assert.deepEqual(exportRecord(pod), {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-x',
      namespace: 'default',
      uid: 'u1',
      labels: { app: 'web' },
      ownerReferences: pod.meta.ownerReferences,
      creationTimestamp: '2026-01-01T00:01:00Z',
    },
    spec: { nodeName: 'n1', tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }] },
  });
  const lease = loadSnapshot({
    file: 'l.yaml',
    text: 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: n, namespace: kube-node-lease}\nspec: {renewTime: "2026-01-01T00:00:00.000000Z"}\n',
  }).cluster.leases.get('n')!;
  lease.renewTime = parseTimestamp('2026-01-01T00:00:10.250000Z')!;
  assert.equal((exportRecord(lease).spec as KObject).renewTime, '2026-01-01T00:00:10.250000Z');
});

test('a ReplicaSet exports its new status and spec.replicas', () => {
  const rs = loadSnapshot({
    file: 'r.yaml',
    text: 'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web, namespace: d}\nspec: {replicas: 2, selector: {}}\nstatus: {replicas: 2, observedGeneration: 1}\n',
  }).cluster.replicaSets.get('d/web')!;
  rs.replicas = 5;
  rs.status.replicas = 3;
  rs.status.readyReplicas = 1;
  const out = exportRecord(rs) as { spec: KObject; status: KObject };
  assert.equal(out.spec.replicas, 5);
  assert.deepEqual(out.status, { replicas: 3, readyReplicas: 1, observedGeneration: 1 });
  rs.status.terminatingReplicas = 2;
  assert.equal((exportRecord(rs) as { status: KObject }).status.terminatingReplicas, 2, 'kept where the controller keeps it (1.35)');
});

test('the cluster exports as a kind: List, sorted by kind then name, with deleted pods absent', () => {
  const snap = loadSnapshot({
    file: 'x.json',
    text: JSON.stringify({
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b', namespace: 'd' } },
        { apiVersion: 'v1', kind: 'Node', metadata: { name: 'z' } },
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'd' } },
        { apiVersion: 'v1', kind: 'Node', metadata: { name: 'm' } },
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } },
      ],
    }),
  });
  snap.cluster.pods.delete('d/b');
  const list = exportCluster(snap.cluster);
  assert.equal(list.kind, 'List');
  assert.deepEqual(
    list.items.map((o) => `${o.kind}/${(o.metadata as KObject).name}`),
    ['Node/m', 'Node/z', 'Pod/a'],
  );
  assert.equal(exportCluster(snap.cluster, { includeIgnored: true }).items.length, 4);
});

test('sameJson answers as comparing the JSON texts would, and walks any depth without a stack', () => {
  const values: unknown[] = [
    null,
    undefined,
    0,
    1,
    'a',
    true,
    [],
    {},
    [1, 2],
    [2, 1],
    { a: 1, b: 2 },
    { b: 2, a: 1 },
    { a: 1, b: undefined },
    { a: 1 },
    [undefined],
    [null],
    { a: { b: [1, { c: 'x' }] } },
    { a: { b: [1, { c: 'y' }] } },
    { app: 'web' },
    [{ kind: 'ReplicaSet', name: 'web' }],
  ];
  for (const a of values)
    for (const b of values) {
      assert.equal(sameJson(a, b), JSON.stringify(a) === JSON.stringify(b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }
  const deep = (n: number, leaf: unknown): unknown => {
    let v: unknown = leaf;
    for (let i = 0; i < n; i++) v = { a: [v] };
    return v;
  };
  assert.equal(sameJson(deep(50_000, 1), deep(50_000, 1)), true);
  assert.equal(sameJson(deep(50_000, 1), deep(50_000, 2)), false);
});
