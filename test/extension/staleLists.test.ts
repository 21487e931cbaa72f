/**
 * The pods changed by Ready writes alone, kept as the engine's lists until read (RecordsView.staleLists): the update
 * that gets them reads none of their keys (a Reset over the Unknown pass gave it 50,000 at 5,000 nodes), and whatever
 * reads the view after it (a node's pods, one pod, every pod, the idle slices, the count) sees a fresh view's items.
 * On main the update put every key in the stale set (the lists read at the update).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyCluster } from '../../src/engine/model/cluster';
import type { ClusterState } from '../../src/engine/model/cluster';
import type { NodeRecord, PodRecord } from '../../src/engine/model/types';
import { RecordsView } from '../../src/extension/recordsView';
import { buildClusterViewFromRecords, NO_EVICTIONS, podsOnNode, type EvictionLookup } from '../../src/extension/viewModel';

const node = (name: string): NodeRecord => ({
  kind: 'Node',
  meta: { name, uid: name, labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: 0 },
  conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: 0, lastTransitionTime: 0 }],
  taints: [],
  unschedulable: false,
  raw: {},
});
const pod = (name: string, nodeName: string): PodRecord => ({
  kind: 'Pod',
  meta: { name, namespace: 'ns', uid: name, labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: 0 },
  nodeName,
  tolerations: [],
  phase: 'Running',
  conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 0 }],
  restartCount: 0,
  raw: {},
});

/** A list of keys that counts the reads of its elements (by index or by iteration). */
function counted(keys: string[]): { list: readonly string[]; reads: () => number } {
  let reads = 0;
  const list = new Proxy(keys, {
    get(target, prop, receiver) {
      if (prop === Symbol.iterator || (typeof prop === 'string' && /^\d+$/.test(prop))) reads++;
      return Reflect.get(target, prop, receiver);
    },
  });
  return { list, reads: () => reads };
}

type Read = (view: RecordsView, cluster: ClusterState) => void;
const everyNode: Read = (view, cluster) => {
  for (const n of cluster.nodes.keys()) view.podsOn(cluster, n);
};

const cases: { name: string; read: Read; open?: boolean; countdown?: string; stale: number }[] = [
  { name: "a node's pods read", read: (v, c) => v.podsOn(c, 'n1'), stale: 2 },
  { name: 'every node read', read: everyNode, stale: 0 },
  { name: 'one pod read', read: (v, c) => v.pod(c, 'Pod/ns/p1'), stale: 3 },
  { name: 'every pod read (the trees)', read: (v, c) => v.completePods(c), stale: 0 },
  {
    name: 'the idle slices, then every node read',
    read: (v, c) => (
      assert.equal(
        v.flushStaleSlice(() => true),
        false,
      ),
      everyNode(v, c)
    ),
    stale: 0,
  },
  { name: 'while the open’s items wait: only pods with an item go stale', open: true, read: (v, c) => v.podsOn(c, 'n1'), stale: 0 },
  { name: 'a listed pod whose countdown changed is made at the update', countdown: 'ns/p0', read: everyNode, stale: 0 },
];

for (const c of cases)
  test(`Ready-only pods are not read at the update: ${c.name}`, () => {
    const cluster = emptyCluster();
    for (const n of ['n1', 'n2']) cluster.nodes.set(n, node(n));
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) {
      const n = i < 2 ? 'n1' : 'n2';
      cluster.pods.set(`ns/p${i}`, pod(`p${i}`, n));
      cluster.podsByNode.set(n, (cluster.podsByNode.get(n) ?? new Set()).add(`ns/p${i}`));
      keys.push(`ns/p${i}`);
    }
    const view = new RecordsView();
    // the open: every item made, or (`open`) none, the first paint's
    view.update(cluster, NO_EVICTIONS, true, undefined, undefined, c.open === true);
    if (c.open) view.podsOn(cluster, 'n2');
    // MarkPodsNotReady's writes, reported apart
    for (const p of cluster.pods.values()) p.conditions[0].status = 'False';
    const ready = counted(keys);
    const evictions: EvictionLookup = c.countdown ? new Map([[`Pod/${c.countdown}`, { at: 'T', node: 'n1' }]]) : NO_EVICTIONS;
    const delta = view.update(cluster, evictions, false, c.countdown ? [c.countdown] : [], { nodes: [], replicaSets: [] }, false, {
      countdowns: new Set(c.countdown ? [c.countdown] : []),
      ready: [ready.list],
    });
    assert.equal(ready.reads(), 0, 'the update read no key of the list');
    assert.deepEqual(
      delta.pods.upsert.map((p) => p.ref),
      c.countdown ? [`Pod/${c.countdown}`] : [],
      'made at the update: only a pod whose countdown changed',
    );
    c.read(view, cluster);
    const fresh = buildClusterViewFromRecords(cluster, evictions);
    const read = c.open ? ['n2'] : c.name.startsWith('one pod') ? [] : c.name.startsWith("a node's") ? ['n1'] : ['n1', 'n2'];
    for (const n of read) assert.deepEqual(view.podsOn(cluster, n), podsOnNode(fresh, n), `${n}'s pods as a fresh view's`);
    if (c.name.startsWith('one pod')) assert.deepEqual(view.pod(cluster, 'Pod/ns/p1'), fresh.pods.get('Pod/ns/p1'));
    if (c.name.startsWith('one pod')) assert.equal(view.stalePods, c.stale);
    else if (!c.name.startsWith("a node's")) assert.equal(view.stalePods, c.stale, 'every pod read');
    else {
      assert.equal(view.stalePods, c.stale, "the other node's pods wait");
      assert.deepEqual(view.podsOn(cluster, 'n2'), podsOnNode(fresh, 'n2'));
    }
    assert.equal(view.staleListedPods, 0, 'nothing left listed once read');
  });
