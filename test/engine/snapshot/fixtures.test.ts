import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { formatTime } from '../../../src/engine/model/time';
import { zoneKeyOf } from '../../../src/engine/model/zones';
import { taint } from '../../../src/engine/model/records';

// The shared real-world fixtures sit beside the checkout (../shared/fixtures/real).
const REAL = resolve(__dirname, '../../../../shared/fixtures/real');
const fs = nodeFs();

interface Case {
  name: string;
  path: string;
  counts: { nodes: number; pods: number; daemonSets: number; replicaSets: number; leases: number };
  /** problem codes with their severities, in order */
  problems: string[];
  latest: string;
}

const cases: Case[] = [
  {
    name: 'a sonobuoy NodeList whose kind comes after its items loads three nodes and warns that heartbeats disagree and Leases are missing',
    path: 'sonobuoy-kind-v1.20-core_v1_nodes.json',
    counts: { nodes: 3, pods: 0, daemonSets: 0, replicaSets: 0, leases: 0 },
    problems: ['warning no-leases', 'warning heartbeats-disagree'],
    latest: '2022-02-03T19:02:54.000Z',
  },
  {
    name: 'a single must-gather Node starting with --- and heavy managedFields loads without a kind warning',
    path: 'mustgather-ocp418-node-worker-0-5ddfx.yaml',
    counts: { nodes: 1, pods: 0, daemonSets: 0, replicaSets: 0, leases: 0 },
    problems: ['warning no-leases'],
    latest: '2024-12-04T02:21:19.000Z',
  },
  {
    name: 'a DaemonSetList with kind as its last key loads one DaemonSet',
    path: 'mustgather-ocp-kube-system-daemonsets.yaml',
    counts: { nodes: 0, pods: 0, daemonSets: 1, replicaSets: 0, leases: 0 },
    problems: [],
    latest: '2024-11-26T10:06:23.000Z',
  },
  {
    name: 'a ReplicaSetList with a dangling Deployment owner and a null template timestamp loads one ReplicaSet, with a warning that its pod is missing',
    path: 'mustgather-ocp-kube-system-replicasets.yaml',
    counts: { nodes: 0, pods: 0, daemonSets: 0, replicaSets: 1, leases: 0 },
    problems: ['warning replicaset-pods-missing'],
    latest: '2024-11-26T10:06:22.000Z',
  },
  {
    name: 'a single Pod on a node that is not in the snapshot loads, with a warning naming the pod and the missing node',
    path: 'mustgather-ocp-kube-system-pod-csi-nfs-node-2r5tx.yaml',
    counts: { nodes: 0, pods: 1, daemonSets: 0, replicaSets: 0, leases: 0 },
    problems: ['warning pods-on-missing-nodes'],
    latest: '2024-11-26T10:06:29.000Z',
  },
  {
    name: 'a folder of one-object JSON files without trailing newlines loads six nodes in three zones',
    path: 'insights-ocp44-gcp-nodes',
    counts: { nodes: 6, pods: 0, daemonSets: 0, replicaSets: 0, leases: 0 },
    problems: ['warning no-leases'],
    latest: '2020-06-24T11:13:35.000Z',
  },
  {
    name: 'a cluster-info dump directory whose list items have no kind takes the kind from the lists',
    path: 'aks-v1.16-cluster-info-dump-dir',
    counts: { nodes: 1, pods: 0, daemonSets: 2, replicaSets: 0, leases: 0 },
    problems: ['info kind-inferred', 'info kind-inferred', 'warning no-leases'],
    latest: '2020-06-07T08:01:09.000Z',
  },
  {
    name: 'a raw API Node with no kind at all is recognised by its shape, with a warning',
    path: 'gke-v1.10-node-from-raw-api.excerpt.json',
    counts: { nodes: 1, pods: 0, daemonSets: 0, replicaSets: 0, leases: 0 },
    problems: ['warning kind-guessed'],
    latest: '2018-11-07T00:22:40.000Z',
  },
  {
    name: 'a node Lease with a MicroTime renewTime loads, with an info that its Node is missing',
    path: 'eks-v1.29-node-lease.excerpt.yaml',
    counts: { nodes: 0, pods: 0, daemonSets: 0, replicaSets: 0, leases: 1 },
    problems: ['info leases-without-nodes'],
    latest: '2024-04-05T04:19:33.283Z',
  },
];

for (const c of cases) {
  test(c.name, () => {
    const snap = loadSnapshot(resolve(REAL, c.path), fs);
    const cl = snap.cluster;
    assert.deepEqual(
      { nodes: cl.nodes.size, pods: cl.pods.size, daemonSets: cl.daemonSets.size, replicaSets: cl.replicaSets.size, leases: cl.leases.size },
      c.counts,
    );
    assert.deepEqual(
      snap.problems.map((p) => `${p.severity} ${p.code}`),
      c.problems,
    );
    assert.equal(snap.partial, false);
    assert.equal(cl.ignored.length, 0);
    assert.equal(formatTime(snap.latestTimestamp!), c.latest);
  });
}

test('the whole fixture folder loads at once: 12 nodes, 1 pod, 1 ReplicaSet, 3 DaemonSets, 1 Lease, and SOURCES.md is skipped', () => {
  const snap = loadSnapshot(REAL, fs);
  const cl = snap.cluster;
  assert.deepEqual([cl.nodes.size, cl.pods.size, cl.replicaSets.size, cl.daemonSets.size, cl.leases.size], [12, 1, 1, 3, 1]);
  assert.equal(snap.files.length, 15);
  assert.ok(snap.problems.some((p) => p.code === 'skipped-file' && p.message.includes('SOURCES.md')));
  assert.equal(snap.problems.filter((p) => p.severity === 'error').length, 0);
});

test('the insights nodes keep their three zones and the master taints', () => {
  const cl = loadSnapshot(resolve(REAL, 'insights-ocp44-gcp-nodes'), fs).cluster;
  assert.deepEqual([...new Set([...cl.nodes.values()].map(zoneKeyOf))].sort(), ['us-east1/us-east1-b', 'us-east1/us-east1-c', 'us-east1/us-east1-d']);
  const master = cl.nodes.get('ci-ln-3z9y7mt-f76d1-69jcr-master-0')!;
  assert.deepEqual(master.taints, [taint('node-role.kubernetes.io/master', 'NoSchedule', undefined, undefined)]);
  // NetworkUnavailable has lastHeartbeatTime: null -> the zero time, as in Go
  const net = master.conditions.find((c) => c.type === 'NetworkUnavailable');
  assert.equal(formatTime(net!.lastHeartbeatTime), '0001-01-01T00:00:00.000Z');
});

test('the sonobuoy worker is NotReady with the kubelet reason, and the control plane is tainted', () => {
  const cl = loadSnapshot(resolve(REAL, 'sonobuoy-kind-v1.20-core_v1_nodes.json'), fs).cluster;
  const ready = cl.nodes.get('kind-worker')!.conditions.find((c) => c.type === 'Ready')!;
  assert.equal(ready.status, 'False');
  assert.equal(ready.reason, 'KubeletNotReady');
  assert.deepEqual(
    cl.nodes.get('kind-control-plane')!.taints.map((t) => `${t.key}:${t.effect}`),
    ['node-role.kubernetes.io/master:NoSchedule'],
  );
});

test('the must-gather pod keeps its nodeName, its Exists toleration and its DaemonSet owner', () => {
  const cl = loadSnapshot(resolve(REAL, 'mustgather-ocp-kube-system-pod-csi-nfs-node-2r5tx.yaml'), fs).cluster;
  const pod = cl.pods.get('kube-system/csi-nfs-node-2r5tx')!;
  assert.equal(pod.nodeName, 'qemtv-05-s8dvn-worker-0-486zc');
  assert.deepEqual(pod.tolerations, [{ operator: 'Exists' }]);
  assert.equal(pod.meta.ownerReferences[0].kind, 'DaemonSet');
  assert.equal(pod.phase, 'Running');
  assert.deepEqual(cl.podsByNode.get('qemtv-05-s8dvn-worker-0-486zc'), new Set(['kube-system/csi-nfs-node-2r5tx']));
});

test('the EKS Lease keeps its renewTime to the microsecond', () => {
  const lease = loadSnapshot(resolve(REAL, 'eks-v1.29-node-lease.excerpt.yaml'), fs).cluster.leases.get('ip-10-29-79-205.ap-northeast-2.compute.internal')!;
  assert.equal(lease.renewTime! % 1_000_000, 283190);
  assert.equal(lease.leaseDurationSeconds, 40);
});

test('a fixture given as a plain snapshot becomes a scenario that simulates the version its kubelets report', () => {
  const s = loadScenario(resolve(REAL, 'insights-ocp44-gcp-nodes'), fs);
  assert.equal(s.plainSnapshot, true);
  assert.equal(s.kubernetesVersion, '1.17');
  assert.equal(s.snapshot.cluster.nodes.size, 6);
  assert.deepEqual(s.events, []);
  assert.ok(s.problems.some((p) => p.code === 'version-assumed' && p.severity === 'info'));
});
