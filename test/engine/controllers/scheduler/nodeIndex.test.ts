/**
 * The binder's node index against the plain rule: after every change of a
 * seeded random cluster (pods bound and deleted, nodes cordoned, tainted,
 * relabelled, turned NotReady, replaced with another allocatable, added and
 * removed, records edited as the controllers edit them), the index chooses the node, the score and the reason counts that
 * a look at every node gives, and lists the reasons in the order an index built afresh lists them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyCluster, type ClusterState } from '../../../../src/engine/model/cluster';
import { toNodeRecord, toPodRecord } from '../../../../src/engine/model/convert';
import type { KObject, PodRecord } from '../../../../src/engine/model/types';
import { countingNode, NodeIndex } from '../../../../src/engine/controllers/scheduler/nodeIndex';
import {
  emptyUsage,
  leastAllocatedScore,
  misfitReasons,
  naturalCompare,
  nodeFacts,
  placementReason,
  resourceMisfit,
} from '../../../../src/engine/controllers/scheduler/fit';
import { requiredPlacement } from '../../../../src/engine/controllers/scheduler/nodeAffinity';
import { fitErrorMessage, wordingFor } from '../../../../src/engine/controllers/scheduler/reasons';
import { nodeAllocatable, podRequests } from '../../../../src/engine/controllers/scheduler/resources';
import { Random } from '../../../../src/engine/generate/random';

const w = wordingFor(31);

/** varied: most nodes differ from each other; uniform: a few large classes, so the heaps' order matters */
function nodeObj(r: Random, name: string, varied: boolean): KObject {
  if (!varied) {
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, uid: name, labels: { 'kubernetes.io/hostname': name, zone: r.pick(['a', 'b']) }, creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: r.chance(0.1) ? { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] } : {},
      status: {
        conditions: [
          { type: 'Ready', status: r.chance(0.95) ? 'True' : 'False', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' },
        ],
        allocatable: { cpu: '2', memory: '2Gi', pods: '12' },
      },
    };
  }
  const taints = r.chance(0.3)
    ? [{ key: r.pick(['node.kubernetes.io/unreachable', 'dedicated', 'soft']), effect: r.pick(['NoSchedule', 'NoExecute', 'PreferNoSchedule']) }]
    : [];
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: name,
      labels: { 'kubernetes.io/hostname': name, zone: r.pick(['a', 'b']), ...(r.chance(0.5) ? { disk: 'ssd' } : {}) },
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    spec: { taints, ...(r.chance(0.1) ? { unschedulable: true } : {}) },
    status: {
      conditions: [
        { type: 'Ready', status: r.chance(0.85) ? 'True' : 'Unknown', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' },
      ],
      ...(r.chance(0.9) ? { allocatable: { cpu: r.pick(['1', '2', '1500m']), memory: r.pick(['1Gi', '2Gi']), pods: r.pick(['4', '6', '110']) } } : {}),
    },
  };
}

function podObj(r: Random, name: string, node?: string): KObject {
  const spec: KObject = {
    containers: [
      {
        name: 'c',
        image: 'x',
        ...(r.chance(0.8) ? { resources: { requests: { cpu: r.pick(['100m', '250m', '500m']), memory: r.pick(['64Mi', '256Mi']) } } } : {}),
      },
    ],
  };
  if (node) spec.nodeName = node;
  if (r.chance(0.2)) spec.tolerations = [{ key: r.pick(['dedicated', 'node.kubernetes.io/unreachable']), operator: 'Exists' }];
  const sel = r.int(0, 9);
  if (sel === 0) spec.nodeSelector = { disk: 'ssd' };
  if (sel === 1) spec.nodeSelector = { 'kubernetes.io/hostname': `n${r.int(1, 12)}` };
  if (sel === 2)
    spec.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }] },
      },
    };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: name, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec,
    status: { phase: r.chance(0.05) ? 'Succeeded' : 'Running' },
  };
}

/** The plain rule: every node, every pod counted from the cluster. */
function bruteForce(cluster: ClusterState, pod: PodRecord): { best?: string; score: number; message: string } {
  const req = podRequests(pod);
  const placement = requiredPlacement(pod);
  const reasons = new Map<string, number>();
  let best: string | undefined;
  let bestScore = -1;
  for (const node of cluster.nodes.values()) {
    const used = emptyUsage();
    for (const p of cluster.pods.values()) {
      if (p.nodeName !== node.meta.name || p.phase === 'Succeeded' || p.phase === 'Failed') continue;
      const q = podRequests(p);
      used.milliCpu += q.milliCpu;
      used.memory += q.memory;
      used.nonZeroMilliCpu += q.nonZeroMilliCpu;
      used.nonZeroMemory += q.nonZeroMemory;
      used.pods++;
    }
    const alloc = nodeAllocatable(node);
    const r = placementReason(pod, placement, nodeFacts(node), node.meta.name, w);
    const rs = r ? [r] : misfitReasons(resourceMisfit(req, alloc, used), w);
    for (const x of rs) reasons.set(x, (reasons.get(x) ?? 0) + 1);
    if (rs.length) continue;
    const s = leastAllocatedScore(req, alloc, used);
    if (s > bestScore || (s === bestScore && naturalCompare(node.meta.name, best!) < 0)) {
      best = node.meta.name;
      bestScore = s;
    }
  }
  return { best, score: best ? bestScore : 0, message: fitErrorMessage(cluster.nodes.size, reasons) };
}

test('the node index chooses what a look at every node chooses, after every kind of change', () => {
  for (let seed = 1; seed <= 16; seed++) {
    const r = new Random(`index-${seed}`);
    const varied = seed % 2 === 0;
    const nodeCount = varied ? 10 : 40;
    const cluster = emptyCluster();
    const setPod = (p: PodRecord) => {
      const key = `${p.meta.namespace}/${p.meta.name}`;
      cluster.pods.set(key, p);
      if (p.nodeName) {
        let s = cluster.podsByNode.get(p.nodeName);
        if (!s) cluster.podsByNode.set(p.nodeName, (s = new Set()));
        s.add(key);
      }
    };
    for (let i = 1; i <= nodeCount; i++) {
      const n = toNodeRecord(nodeObj(r, `n${i}`, varied))!;
      cluster.nodes.set(n.meta.name, n);
    }
    for (let i = 0; i < 2 * nodeCount; i++) setPod(toPodRecord(podObj(r, `start-${i}`, `n${r.int(1, nodeCount)}`))!);
    const index = new NodeIndex(cluster);
    let next = 0;
    for (let step = 0; step < (varied ? 150 : 400); step++) {
      const op = r.int(0, 9);
      const names = [...cluster.nodes.keys()];
      if (op <= 3) {
        // place a new pod where the index says (or leave it pending), checking the rule first
        const pod = toPodRecord(podObj(r, `p-${next++}`))!;
        const got = index.place(pod, w);
        const want = bruteForce(cluster, pod);
        const ctx = `seed ${seed} step ${step}`;
        assert.equal(got.best?.name, want.best, `${ctx}: node`);
        assert.equal(got.score, want.score, `${ctx}: score`);
        if (!got.best) assert.equal(fitErrorMessage(index.size, got.reasons), want.message, `${ctx}: message`);
        // an index built afresh, as after stepping back to a checkpoint, lists the reasons in the same order (the trace shows them)
        assert.deepEqual([...got.reasons], [...new NodeIndex(cluster).place(pod, w).reasons], `${ctx}: reasons as a rebuilt index lists them`);
        if (got.best) {
          pod.nodeName = got.best.name;
          setPod(pod);
          index.podMoved(undefined, countingNode(pod.nodeName, pod.phase), pod);
        }
      } else if (op <= 5 && cluster.pods.size) {
        // a pod leaves (deleted) or finishes
        const keys = [...cluster.pods.keys()];
        const key = keys[r.int(0, keys.length - 1)]!;
        const pod = cluster.pods.get(key)!;
        if (r.chance(0.5)) {
          cluster.pods.delete(key);
          if (pod.nodeName) cluster.podsByNode.get(pod.nodeName)?.delete(key);
          index.podMoved(countingNode(pod.nodeName, pod.phase), undefined, pod);
        } else {
          const was = countingNode(pod.nodeName, pod.phase);
          pod.phase = 'Failed';
          index.podMoved(was, countingNode(pod.nodeName, pod.phase), pod);
        }
      } else if (op <= 6 && names.length) {
        // a node's record changed as the controllers change it: taints replaced, cordon, Ready edited in place
        const n = cluster.nodes.get(names[r.int(0, names.length - 1)]!)!;
        const what = r.int(0, 2);
        if (what === 0) n.taints = r.chance(0.5) ? [] : [{ key: 'node.kubernetes.io/unreachable', effect: r.pick(['NoSchedule', 'NoExecute'] as const) }];
        else if (what === 1) n.unschedulable = !n.unschedulable;
        else for (const c of n.conditions) if (c.type === 'Ready') c.status = c.status === 'True' ? 'Unknown' : 'True';
        index.nodeChanged(n, cluster);
      } else if (op <= 8 && names.length) {
        // a node replaced: other taints, cordon, labels, readiness or allocatable
        const name = names[r.int(0, names.length - 1)]!;
        const n = toNodeRecord(nodeObj(r, name, varied))!;
        cluster.nodes.set(name, n);
        index.nodeChanged(n, cluster);
      } else if (r.chance(0.5) && names.length > 2) {
        const name = names[r.int(0, names.length - 1)]!;
        cluster.nodes.delete(name);
        index.nodeDeleted(name);
      } else {
        const name = `n${r.int(1, nodeCount + 4)}`;
        if (cluster.nodes.has(name)) continue;
        const n = toNodeRecord(nodeObj(r, name, varied))!;
        cluster.nodes.set(name, n);
        index.nodeChanged(n, cluster);
      }
    }
  }
});
