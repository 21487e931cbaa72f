import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { buildClusterViewFromRecords, diffClusterViews, NO_EVICTIONS, podsOnNode, type ClusterView } from '../../src/extension/viewModel';
import { RecordsView } from '../../src/extension/recordsView';
import { countdownsChanged, EvictionIndex, PathDeadlines, podsToCompare } from '../../src/extension/countdowns';
import type { Simulation } from '../../src/engine/simulation/api';
import type { ReadyKeys } from '../../src/engine/simulation/podReports';
import { emptyCluster } from '../../src/engine/model/cluster';
import type { NodeRecord, PodRecord } from '../../src/engine/model/types';
import type { Delta } from '../../src/protocol/webview';

// The kept view must say exactly what rebuilding the whole view and diffing it says
// (the removals as a set: the webview deletes them one by one), over the real engine.

const examples = resolve(__dirname, '../../examples');

/** Every pod-eviction path countdown, computed afresh (a new PathDeadlines told nothing is known). */
const podEvictionPathDeadlines = (sim: Simulation) => new PathDeadlines().update(sim, 'all');

/** The countdowns as the view of a new panel has them: the scheduled taint evictions, then the pod-eviction path's. */
function evictionsOf(sim: Simulation, index: EvictionIndex) {
  const scheduled = index.update(sim.trace);
  const byNode = podEvictionPathDeadlines(sim);
  return byNode.size ? new Map([...scheduled, ...byNode]) : scheduled;
}

const entries = (m: ReadonlyMap<string, unknown>) => [...m].sort(([a], [b]) => a.localeCompare(b));

/**
 * As the extension's session: the pod changes taken (those by Ready writes alone apart, `ready`), the pod-eviction
 * path's countdowns kept from the others (which must be the ones a new view computes), and only the pods that changed
 * compared when that can be said: `podKeys` with the Ready-only ones among them, `otherKeys` without.
 */
function keptPodKeys(
  sim: Simulation,
  index: EvictionIndex,
  paths: PathDeadlines,
): { podKeys?: ReadonlySet<string>; otherKeys?: ReadonlySet<string>; ready?: ReadyKeys } {
  const apart: { ready?: ReadyKeys } = {};
  const podChanges = sim.takePodChanges!(apart);
  const byNode = paths.update(sim, podChanges);
  assert.deepEqual(entries(byNode), entries(podEvictionPathDeadlines(sim)), 'the kept countdowns are the ones computed anew');
  const all = podChanges === 'all' ? podChanges : new Set([...podChanges, ...(apart.ready ?? []).flat()]);
  return { podKeys: podsToCompare(all, index.changed, paths.changed), otherKeys: podsToCompare(podChanges, index.changed, paths.changed), ready: apart.ready };
}

// as sets: the webview's store files upserts by ref and lists a node's pods sorted, so their order is not shown
const byRef = (a: unknown, b: unknown) =>
  ((a as { ref?: string; id?: string }).ref ?? (a as { id: string }).id).localeCompare((b as { ref?: string; id?: string }).ref ?? (b as { id: string }).id);
const sorted = <T>(d: Delta<T>) => ({ upsert: [...d.upsert].sort(byRef), remove: [...d.remove].sort() });

// by ref: the kept view's items are in the order they were made (a step back may give a map in another order)
function same(kept: ClusterView, built: ClusterView, where: string): void {
  assert.deepEqual(entries(kept.nodes), entries(built.nodes), `${where}: nodes`);
  assert.deepEqual(entries(kept.pods), entries(built.pods), `${where}: pods`);
  assert.deepEqual(entries(kept.replicaSets), entries(built.replicaSets), `${where}: ReplicaSets`);
  // the index of pods by node holds the view's items, grouped
  const grouped = new Map<string, string[]>();
  for (const p of built.pods.values()) grouped.set(p.node, [...(grouped.get(p.node) ?? []), p.ref]);
  assert.deepEqual(
    new Map([...kept.podsByNode!].map(([n, ps]) => [n, [...ps.keys()].sort()])),
    new Map([...grouped].map(([n, refs]) => [n, refs.sort()])),
    `${where}: pods by node`,
  );
  for (const [n, ps] of kept.podsByNode!) for (const p of ps.values()) assert.equal(kept.pods.get(p.ref), p, `${where}: ${p.ref} on ${n}`);
  for (const n of new Set([...built.pods.values()].map((p) => p.node)))
    assert.deepEqual(
      podsOnNode(kept, n)
        .map((p) => p.ref)
        .sort(),
      podsOnNode(built, n)
        .map((p) => p.ref)
        .sort(),
    );
}

for (const file of readdirSync(examples).filter((f) => f.endsWith('.yaml'))) {
  test(`the kept view says what a rebuilt view and a full diff say: ${file}`, () => {
    const o = openScenario(resolve(examples, file), '');
    const sim = o.make(o.options);
    assert.ok(sim.cluster, 'the engine offers its records');
    const kept = new RecordsView();
    // as the session keeps it: the pods whose node and countdown did not change made when read
    const lazy = new RecordsView();
    // the same, told the pods changed by Ready writes alone apart (as keptView: those go stale without a look-up each)
    const apart = new RecordsView();
    let readyApart = 0;
    let lazyWaited = 0;
    const index = new EvictionIndex();
    let prev: ClusterView | undefined;
    const paths = new PathDeadlines();
    let countdowns = 0;
    let compared = 0;
    let recordsCompared = 0;
    let backs = 0;
    let backsByChange = 0;
    // the view's maps are written only for what the engine reported (a step back that gives a new pod map refilled
    // all 150,000 pods at 5,000 nodes)
    let writes = 0;
    for (const m of [kept.view.nodes, kept.view.pods, kept.view.replicaSets] as Map<string, unknown>[]) {
      const set = m.set.bind(m);
      m.set = (k, v) => (writes++, set(k, v));
      m.clear = () => assert.fail('the view is never emptied to be refilled');
    }
    /** how many records the last check's update was told to compare */
    let reported = 0;
    const check = (full: boolean, where: string): boolean => {
      const evictions = evictionsOf(sim, index);
      if (podEvictionPathDeadlines(sim).size) countdowns++;
      const built = buildClusterViewFromRecords(sim.cluster!, evictions);
      const expected = diffClusterViews(full ? undefined : prev, built);
      const { podKeys, otherKeys, ready } = keptPodKeys(sim, index, paths);
      if (podKeys) compared++;
      if (podKeys) readyApart += ready?.reduce((n, keys) => n + keys.length, 0) ?? 0;
      // as the session: only the nodes and ReplicaSets the engine says changed are compared, when it can say
      const rc = sim.takeRecordChanges!();
      if (rc.nodes !== 'all' && rc.replicaSets !== 'all') recordsCompared++;
      const changed = { ...(rc.nodes !== 'all' ? { nodes: rc.nodes } : {}), ...(rc.replicaSets !== 'all' ? { replicaSets: rc.replicaSets } : {}) };
      reported = [podKeys, changed.nodes, changed.replicaSets].reduce((n, keys) => n + (keys ? [...keys].length : Infinity), 0);
      const got = kept.update(sim.cluster!, evictions, full, podKeys, changed);
      const lazyGot = lazy.update(sim.cluster!, evictions, full, podKeys, changed, false, { countdowns: countdownsChanged(index.changed, paths.changed) });
      assert.deepEqual(sorted(lazyGot.nodes), sorted(expected.nodes), `${where}: node delta (lazy)`);
      assert.deepEqual(sorted(lazyGot.replicaSets), sorted(expected.replicaSets), `${where}: ReplicaSet delta (lazy)`);
      const apartGot = apart.update(sim.cluster!, evictions, full, otherKeys, changed, false, {
        countdowns: countdownsChanged(index.changed, paths.changed),
        ready: otherKeys && ready,
      });
      assert.deepEqual(sorted(apartGot.nodes), sorted(expected.nodes), `${where}: node delta (Ready apart)`);
      assert.deepEqual(sorted(apartGot.replicaSets), sorted(expected.replicaSets), `${where}: ReplicaSet delta (Ready apart)`);
      lazyWaited += lazy.stalePods;
      // what a node's count reads is made at once; each node's pods, and any pod, are up to date when read
      for (const n of new Set([...built.pods.values()].map((p) => p.node)))
        for (const [view, how] of [
          [lazy, 'lazy'],
          [apart, 'Ready apart'],
        ] as const) {
          assert.deepEqual(
            podsOnNode(view.view, n).map((p) => [p.ref, p.evictionAt]),
            podsOnNode(built, n).map((p) => [p.ref, p.evictionAt]),
            `${where}: ${n}'s pods and countdowns, before they are read (${how})`,
          );
          assert.deepEqual(view.podsOn(sim.cluster!, n), podsOnNode(built, n), `${where}: ${n}'s pods when read (${how})`);
        }
      assert.equal(lazy.stalePods, 0, `${where}: every pod read`);
      assert.equal(apart.stalePods, 0, `${where}: every pod read (Ready apart)`);
      assert.ok(lazy.view.pods.size === built.pods.size, `${where}: as many pods (lazy)`);
      assert.ok(apart.view.pods.size === built.pods.size, `${where}: as many pods (Ready apart)`);
      assert.deepEqual(sorted(got.nodes), sorted(expected.nodes), `${where}: node delta`);
      assert.deepEqual(sorted(got.pods), sorted(expected.pods), `${where}: pod delta`);
      assert.deepEqual(sorted(got.replicaSets), sorted(expected.replicaSets), `${where}: ReplicaSet delta`);
      same(kept.view, built, where);
      prev = built;
      return podKeys !== undefined && rc.nodes !== 'all' && rc.replicaSets !== 'all';
    };
    check(true, 'start');
    let steps = 0;
    while (steps < 200 && sim.now < sim.startTime + 12 * 60_000_000) {
      sim.step();
      steps++;
      check(false, `pass ${sim.pass}`);
      // step back now and then, far enough to cross a checkpoint, and come forward again
      if (steps % 37 === 0 && (sim.pass ?? 0) > 15) {
        const to = (sim.pass as number) - 13;
        sim.goToPass(to);
        backs++;
        writes = 0;
        if (check(false, `back to pass ${to}`)) backsByChange++;
        assert.ok(writes <= reported, `back to pass ${to}: ${writes} items written to the view for ${reported} records reported`);
        if (steps % 74 === 0) check(true, `full at pass ${to}`);
        // as the panel's Reset from there: back to the first pass over everything since (the Ready writes undone), and on again
        if (steps % 74 === 37) {
          sim.goToPass(0);
          check(false, 'back to pass 0');
          sim.goToPass(to);
          check(false, `on again to pass ${to}`);
        }
      }
    }
    assert.ok(compared > 10, `the changed pods alone were compared (${compared} times)`);
    assert.ok(recordsCompared > 10, `the changed nodes and ReplicaSets alone were compared (${recordsCompared} times)`);
    // a step back reports the records it put back, not 'all' (which compared every pod: most of a step back's view at 5,000 nodes)
    assert.equal(backsByChange, backs, `steps back compared by what changed: ${backsByChange} of ${backs}`);
    if (file === 'outage-1.12.yaml') assert.ok(countdowns > 10, `the pod-eviction path's countdowns were shown (${countdowns} updates)`);
    if (file === 'one-node-stops.yaml') assert.ok(lazyWaited > 0, `some pods' items waited to be read (${lazyWaited})`);
    // MarkPodsNotReady, and the step backs over it, changed pods by Ready writes alone
    if (file.startsWith('outage-')) assert.ok(readyApart > 0, `pods changed by Ready writes alone were told apart (${readyApart})`);
    // a new simulation (Reset): the kept items are compared by value, so they still hold
    const again = o.make(o.options);
    const evictions = evictionsOf(again, new EvictionIndex());
    const built = buildClusterViewFromRecords(again.cluster!, evictions);
    const got = kept.update(again.cluster!, evictions, true);
    assert.deepEqual(got, diffClusterViews(undefined, built), 'full after reset');
    same(kept.view, built, 'after reset');
  });
}

const node = (name: string, labels: Record<string, string>, taints: NodeRecord['taints'], ready: string): NodeRecord => ({
  kind: 'Node',
  meta: { name, uid: name, labels, annotations: {}, ownerReferences: [], creationTimestamp: 0 },
  conditions: [{ type: 'Ready', status: ready as 'True', lastHeartbeatTime: 0, lastTransitionTime: 0 }],
  taints,
  unschedulable: false,
  raw: {},
});
const pod = (ns: string, name: string, owner?: string): PodRecord => ({
  kind: 'Pod',
  meta: {
    name,
    namespace: ns,
    uid: name,
    labels: {},
    annotations: {},
    ownerReferences: owner ? [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner, controller: true }] : [],
    creationTimestamp: 0,
  },
  nodeName: 'n1',
  tolerations: [],
  phase: 'Running',
  conditions: [],
  restartCount: 0,
  raw: {},
});

test('the kept view sees every shown field change in a record changed in place, and nothing else', () => {
  const cluster = emptyCluster();
  cluster.nodes.set('n1', node('n1', { 'topology.kubernetes.io/zone': 'a' }, [{ key: 'k', value: 'v', effect: 'NoSchedule' }], 'True'));
  cluster.pods.set('ns/p', pod('ns', 'p', 'rs'));
  cluster.pods.set('ns/q', pod('ns', 'q'));
  const kept = new RecordsView();
  kept.update(cluster);
  const refs = (d: Delta<{ ref: string }>) => d.upsert.map((i) => i.ref);
  assert.deepEqual(kept.update(cluster), { nodes: { upsert: [], remove: [] }, pods: { upsert: [], remove: [] }, replicaSets: { upsert: [], remove: [] } });
  const n1 = cluster.nodes.get('n1')!;
  // same length of text, other taint: k=w:NoSchedule
  n1.taints = [{ key: 'k', value: 'w', effect: 'NoSchedule' }];
  assert.deepEqual(
    kept.update(cluster).nodes.upsert.map((n) => n.taints),
    [['k=w:NoSchedule']],
  );
  n1.taints = [{ key: 'k=w', effect: 'NoSchedule' }];
  assert.deepEqual(kept.update(cluster).nodes.upsert, [], 'a key holding "=" writes the same text: not sent again');
  n1.meta = { ...n1.meta, labels: { 'topology.kubernetes.io/zone': 'b' } };
  assert.deepEqual(
    kept.update(cluster).nodes.upsert.map((n) => n.zone),
    ['Zone/b'],
  );
  n1.meta = { ...n1.meta, labels: { 'topology.kubernetes.io/zone': 'b' } };
  assert.deepEqual(kept.update(cluster).nodes.upsert, [], 'new labels, same zone');
  const p = cluster.pods.get('ns/p')!;
  p.meta.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs2', uid: 'x', controller: true }];
  assert.deepEqual(
    kept.update(cluster).pods.upsert.map((i) => i.owner),
    ['ReplicaSet/ns/rs2'],
  );
  p.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: 0 }];
  assert.deepEqual(refs(kept.update(cluster).pods), ['Pod/ns/p']);
  assert.deepEqual(refs(kept.update(cluster, new Map([['Pod/ns/q', { at: 'T', node: 'n1' }]])).pods), ['Pod/ns/q']);
  assert.deepEqual(
    refs(kept.update(cluster, new Map([['Pod/ns/q', { at: 'T', node: 'n2' }]])).pods),
    ['Pod/ns/q'],
    'a countdown for another node is not shown',
  );
  cluster.pods.delete('ns/p');
  const gone = kept.update(cluster);
  assert.deepEqual(gone.pods, { upsert: [], remove: ['Pod/ns/p'] });
  assert.deepEqual([...kept.view.pods.keys()], ['Pod/ns/q']);
});

test('a pod whose Ready or phase changed is made when read; one that moved, went, came or whose countdown changed at once', () => {
  const cluster = emptyCluster();
  cluster.nodes.set('n1', node('n1', {}, [], 'True'));
  cluster.nodes.set('n2', node('n2', {}, [], 'True'));
  for (const name of ['p', 'q', 'r']) cluster.pods.set(`ns/${name}`, pod('ns', name));
  cluster.podsByNode.set('n1', new Set(['ns/p', 'ns/q', 'ns/r']));
  const kept = new RecordsView();
  kept.update(cluster, NO_EVICTIONS, true);
  const step = (keys: string[], evictions = NO_EVICTIONS, countdowns: string[] = []) =>
    kept.update(cluster, evictions, false, keys, { nodes: [], replicaSets: [] }, false, { countdowns: new Set(countdowns) });
  const refs = (d: Delta<{ ref: string }>) => [...d.upsert.map((i) => i.ref), ...d.remove].sort();
  cluster.pods.get('ns/p')!.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: 0 }];
  cluster.pods.get('ns/q')!.phase = 'Failed';
  assert.deepEqual(refs(step(['ns/p', 'ns/q']).pods), [], 'Ready and phase: not made at the step');
  assert.equal(kept.stalePods, 2);
  assert.equal(kept.view.pods.get('Pod/ns/p')!.ready, false, 'the item is as it was until read');
  assert.equal(kept.pod(cluster, 'Pod/ns/p')!.ready, true, 'read alone, it is made');
  assert.equal(kept.stalePods, 1);
  assert.deepEqual(
    kept.podsOn(cluster, 'n1').map((p) => `${p.ref} ${p.phase} ${p.ready}`),
    ['Pod/ns/p Running true', 'Pod/ns/q Failed false', 'Pod/ns/r Running false'],
    "a node's pods, read, are up to date",
  );
  assert.equal(kept.stalePods, 0);
  // moved, deleted, created, countdown: at once (a node's counts read them)
  cluster.pods.get('ns/p')!.conditions = [];
  cluster.pods.get('ns/q')!.nodeName = 'n2';
  cluster.podsByNode.set('n1', new Set(['ns/p', 'ns/r']));
  cluster.podsByNode.set('n2', new Set(['ns/q', 'ns/s']));
  cluster.pods.set('ns/s', { ...pod('ns', 's'), nodeName: 'n2' });
  cluster.pods.delete('ns/r');
  cluster.podsByNode.set('n1', new Set(['ns/p']));
  const counted = step(['ns/p', 'ns/q', 'ns/r', 'ns/s']).pods;
  assert.deepEqual(refs(counted), ['Pod/ns/q', 'Pod/ns/r', 'Pod/ns/s']);
  assert.equal(kept.stalePods, 1, 'p waits');
  const evictions = new Map([['Pod/ns/p', { at: 'T', node: 'n1' }]]);
  assert.deepEqual(refs(step(['ns/p'], evictions, ['ns/p']).pods), ['Pod/ns/p'], 'its countdown changed: made at once');
  assert.equal(kept.view.pods.get('Pod/ns/p')!.evictionAt, 'T');
  assert.equal(kept.view.pods.get('Pod/ns/p')!.ready, false);
  assert.equal(kept.stalePods, 0);
  // a full update (a new webview) makes every item
  cluster.pods.get('ns/s')!.phase = 'Pending';
  step(['ns/s']);
  assert.equal(kept.stalePods, 1);
  assert.equal(kept.update(cluster, evictions, true).pods.upsert.find((p) => p.ref === 'Pod/ns/s')!.phase, 'Pending');
  assert.equal(kept.stalePods, 0);
});

test('a step back that puts in new maps in another order: only the records reported are written, the view still says what a rebuilt one says', () => {
  const cluster = emptyCluster();
  cluster.nodes.set('n1', node('n1', { 'topology.kubernetes.io/zone': 'a' }, [], 'True'));
  for (const name of ['a', 'b', 'c', 'd', 'e']) cluster.pods.set(`ns/${name}`, pod('ns', name));
  const kept = new RecordsView();
  kept.update(cluster, NO_EVICTIONS, true);
  let writes = 0;
  const set = kept.view.pods.set.bind(kept.view.pods);
  kept.view.pods.set = (k, v) => (writes++, set(k, v));
  // as a restore does: the same records (b was changed back, e deleted, f created) in a new map, in the checkpoint's order
  const back = { ...cluster, pods: new Map<string, PodRecord>() };
  for (const name of ['d', 'c', 'b', 'a']) back.pods.set(`ns/${name}`, cluster.pods.get(`ns/${name}`)!);
  back.pods.set('ns/b', { ...pod('ns', 'b'), phase: 'Pending' });
  back.pods.set('ns/f', pod('ns', 'f'));
  const delta = kept.update(back, NO_EVICTIONS, false, ['ns/b', 'ns/e', 'ns/f'], { nodes: [], replicaSets: [] });
  assert.equal(writes, 2, 'b changed and f new are written; the four others are not refilled');
  assert.deepEqual(sorted(delta.pods), sorted(diffClusterViews(buildClusterViewFromRecords(cluster), buildClusterViewFromRecords(back)).pods));
  same(kept.view, buildClusterViewFromRecords(back), 'after the step back');
  // a full update (a new webview) still lists the items in the records' order
  assert.deepEqual(
    kept.update(back, NO_EVICTIONS, true).pods.upsert.map((p) => p.ref),
    [...back.pods.keys()].map((k) => `Pod/${k}`),
  );
});

test('the pod-eviction path countdowns that appeared, went or moved are the pods compared again, and only those', () => {
  const o = openScenario(resolve(examples, 'outage-1.12.yaml'), '');
  const sim = o.make(o.options);
  while (podEvictionPathDeadlines(sim).size === 0 && sim.now < sim.startTime + 20 * 60_000_000) sim.step();
  const shown = podEvictionPathDeadlines(sim);
  assert.ok(shown.size > 0, 'the example shows countdowns');
  const paths = new PathDeadlines();
  const NO_CHANGES = new Set<string>();
  assert.deepEqual([...paths.update(sim, 'all')], [...shown]);
  assert.deepEqual([...paths.changed].sort(), [...shown.keys()].map((r) => r.slice(4)).sort(), 'all new at first');
  paths.update(sim, NO_CHANGES);
  assert.deepEqual([...paths.changed], [], 'nothing changed: nothing to compare');
  // one node's countdown goes (its controller says nothing fires), then comes back one second later
  const node = [...shown.values()][0].node;
  const onNode = [...shown]
    .filter(([, d]) => d.node === node)
    .map(([r]) => r.slice(4))
    .sort();
  // a pod of that node changed (the engine says so): the node's pods are listed again; a pod elsewhere changes nothing
  paths.update(sim, new Set([onNode[0]]));
  assert.deepEqual([...paths.changed].sort(), onNode, 'a pod of the node changed');
  paths.update(sim, new Set(['elsewhere/none']));
  assert.deepEqual([...paths.changed], [], 'a pod on no counted node changed');
  const later = (at: string) => new Date(Date.parse(at) + 1000).toISOString();
  const edited = (edit: (at: string | undefined) => string | undefined) =>
    ({
      config: sim.config,
      behaviour: sim.behaviour,
      cluster: sim.cluster,
      podEvictionDeadlines: (limit: number) => {
        const m = new Map(sim.podEvictionDeadlines!(limit));
        const at = edit(m.get(node));
        if (at === undefined) m.delete(node);
        else m.set(node, at);
        return m;
      },
      podsEvictedFrom: (n: string) => sim.podsEvictedFrom!(n),
    }) as unknown as Simulation;
  paths.update(
    edited(() => undefined),
    NO_CHANGES,
  );
  assert.deepEqual([...paths.changed].sort(), onNode, 'went');
  paths.update(sim, NO_CHANGES);
  assert.deepEqual([...paths.changed].sort(), onNode, 'came back');
  paths.update(
    edited((at) => (at ? later(at) : at)),
    NO_CHANGES,
  );
  assert.deepEqual([...paths.changed].sort(), onNode, 'moved');
  const keys = podsToCompare(new Set(['x/changed']), new Set(['Pod/y/evicted', 'Node/n']), paths.changed);
  assert.deepEqual([...keys!].sort(), ['x/changed', 'y/evicted', ...onNode].sort());
  assert.equal(podsToCompare('all', new Set(), paths.changed), undefined);
});
