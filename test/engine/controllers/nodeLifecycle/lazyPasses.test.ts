/**
 * The monitor pass evaluates only the nodes with news (heartbeats, Lease
 * renewals, expiring grace periods, unhealthy nodes). Upstream evaluates
 * every node on every pass. These randomised timelines run both ways and
 * require identical decisions and identical controller memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, lease, pod, at, names, type Rig } from './helpers';
import type { ConditionStatus } from '../../../../src/engine/model/types';
import { mulberry32 } from '../../../helpers/random';
import type { FastPathStats } from '../../../../src/engine/controllers/nodeLifecycle/state';

const prng = mulberry32;

/**
 * evaluateEveryNode: upstream's pass; heartbeats: plain posts announced as the simulation's kubelets
 * announce them (batches of heartbeats), not as full node updates.
 */
function timeline(minor: number, seed: number, evaluateEveryNode: boolean, heartbeats = false): Rig & { trail: string[]; stats: FastPathStats } {
  const rnd = prng(seed);
  const all = names('n', 9);
  const stats: FastPathStats = { plainPosts: 0, unchangedReady: 0, unknownSettled: 0 };
  const r = rig({
    // verifyTracks: a track refreshed at the start of a pass must still be the node's when it is evaluated
    // verifyDeadlines: after each pass every Ready node has a grace deadline queued no later than its real one
    minor,
    options: { evaluateEveryNode, verifyTracks: true, verifyDeadlines: true, stats },
    // seeds 3 and 4 start from a reconstructed memory: the first pass evaluates every node with the saved heartbeat
    memory: seed > 2 ? 'reconstructed' : 'fresh',
    nodes: all.map((n, i) => node(n, { zone: `z${i % 3}` })),
    leases: minor >= 13 ? all.map((n) => lease(n, 0)) : [],
    pods: all.map((n) => pod('default', `p-${n}`, n)),
    // 1.12 and 1.17 without taint-based evictions take the pod-eviction path (1.17: with nodeEvictionMap)
    gates: minor === 12 || minor === 17 ? { TaintBasedEvictions: seed % 2 === 0 } : {},
  });
  const alive = new Set(all);
  // what the controller remembers of every node and its machine, second by second (a difference that heals later counts too)
  const trail: string[] = [];
  for (let s = 1; s <= 400; s++) {
    r.runUntil(at(s) - 1);
    // and every node's machine: the fast paths decide nothing the machine would not (strictMachines is on in the rig)
    trail.push(JSON.stringify(all.map((n) => [r.c.healthOf(n), r.c.nodeStateOf(n) ?? null])));
    r.host.now = at(s);
    // every second: maybe a kubelet stops or starts, or posts a new Ready status
    if (rnd() < 0.04) {
      const n = all[Math.floor(rnd() * all.length)];
      if (alive.has(n)) alive.delete(n);
      else alive.add(n);
    }
    if (rnd() < 0.02) {
      const n = [...alive][Math.floor(rnd() * alive.size)];
      if (n) r.post(n, (['True', 'False'] as ConditionStatus[])[Math.floor(rnd() * 2)]);
    }
    const plain = (list: string[]) => (heartbeats ? r.beat(list) : list.forEach((n) => r.post(n)));
    // each live kubelet heartbeats every 10 s, staggered by its index
    const due = [...alive].filter((n) => (s + all.indexOf(n)) % 10 === 0);
    if (minor >= 13) due.forEach((n) => r.renewLease(n));
    else plain(due);
    // 1.13+: every live kubelet also posts its status every 60 s (a new heartbeat, its Ready unchanged:
    // what NodeLifecycleController.readyFastPath takes), staggered differently from its renewals
    // now and then a node moves to another zone (a new label, announced)
    if (rnd() < 0.01) {
      const n = r.host.cluster.nodes.get(all[Math.floor(rnd() * all.length)])!;
      n.meta.labels = { ...n.meta.labels, 'topology.kubernetes.io/zone': `z${Math.floor(rnd() * 3)}` };
      r.c.onNodeEvent!(r.host, 'updated', n);
    }
    // now and then a user puts a NoExecute taint of the controller's on a node by hand (a Ready node's is removed)
    if (rnd() < 0.01) {
      const n = r.host.cluster.nodes.get(all[Math.floor(rnd() * all.length)])!;
      const key = rnd() < 0.5 ? 'node.kubernetes.io/unreachable' : 'node.kubernetes.io/not-ready';
      if (!n.taints.some((t) => t.key === key && t.effect === 'NoExecute')) {
        n.taints = [...n.taints, { key, effect: 'NoExecute', timeAdded: r.host.now }];
        r.c.onNodeEvent!(r.host, 'updated', n);
      }
    }
    // a kubelet that flaps between two passes: Ready again, with a new lastTransitionTime
    if (rnd() < 0.02) {
      const n = [...alive][Math.floor(rnd() * alive.size)];
      if (n) {
        r.post(n, 'False');
        r.post(n, 'True');
      }
    }
    if (minor >= 13) plain([...alive].filter((n) => (s + 7 * all.indexOf(n)) % 60 === 0));
    // now and then a user replaces or deletes a node's Lease, maybe just renewed (the pass must read the record that is there now)
    if (minor >= 13 && rnd() < 0.05) {
      const n = all[Math.floor(rnd() * all.length)];
      if (rnd() < 0.5) r.replaceLease(n);
      else r.deleteLease(n);
    }
  }
  r.runUntil(at(400));
  return Object.assign(r, { trail, stats });
}

const strip = (r: Rig) => r.host.decisions.map((d) => ({ ...d, because: undefined }));

/** the memory a checkpoint keeps: the zone queues (order, addedAt, processAt), health, machines */
const memory = (r: Rig) => {
  const m = r.c.save();
  return { queues: m.queues, health: m.health, nodeActors: m.nodeActors, zones: m.zones, retry: m.retry };
};

test('evaluating only the nodes with news gives exactly what evaluating every node gives', () => {
  for (const minor of [12, 17, 31, 35]) {
    for (const seed of [1, 2, 3, 4]) {
      const lazy = timeline(minor, seed, false);
      const eager = timeline(minor, seed, true);
      assert.deepEqual(strip(lazy), strip(eager), `1.${minor} seed ${seed}: decisions`);
      const second = lazy.trail.findIndex((h, i) => h !== eager.trail[i]);
      assert.equal(second, -1, `1.${minor} seed ${seed}: health or machine differs at second ${second + 1}`);
      assert.deepEqual(lazy.host.decisions, eager.host.decisions, `1.${minor} seed ${seed}: because`);
      for (const n of names('n', 9)) assert.deepEqual(lazy.c.healthOf(n), eager.c.healthOf(n), `1.${minor} seed ${seed}: ${n}`);
      assert.deepEqual(memory(lazy), memory(eager), `1.${minor} seed ${seed}: controller memory`);
      assert.ok(
        lazy.host.decisions.some((d) => d.action === 'NodeStatusUnknown'),
        'the timeline exercises outages',
      );
      // the fast path for a Ready node's plain status post is taken (off when eager)
      assert.ok(lazy.stats.plainPosts > 0, `1.${minor} seed ${seed}: plain status posts taken`);
      // (with a reconstructed memory: its first pass; later ones too when taints change on Ready nodes)
      if (seed > 2) assert.ok(lazy.stats.unchangedReady > 0, `1.${minor} seed ${seed}: Ready nodes with the saved heartbeat taken`);
      // the pod-eviction path settles Unknown nodes in place too
      if (!lazy.c._rules.taintBasedEvictions) assert.ok(lazy.stats.unknownSettled > 0, `1.${minor} seed ${seed}: Unknown nodes settled in place`);
      assert.equal(eager.stats.plainPosts + eager.stats.unchangedReady + eager.stats.unknownSettled, 0);
      // plain posts announced as batches of heartbeats (not dirty, not queued for the NoSchedule pass when
      // their taints match) decide and remember exactly what full node updates do
      const beats = timeline(minor, seed, false, true);
      assert.deepEqual(beats.host.decisions, eager.host.decisions, `1.${minor} seed ${seed}: heartbeats: decisions`);
      assert.equal(
        beats.trail.findIndex((h, i) => h !== eager.trail[i]),
        -1,
        `1.${minor} seed ${seed}: heartbeats: health`,
      );
      assert.deepEqual(memory(beats), memory(eager), `1.${minor} seed ${seed}: heartbeats: controller memory`);
    }
  }
});

test('the first pass of a reconstructed memory cites the Ready changes the world remembered, evaluated lazily or not', () => {
  // readyFastPath takes these nodes (the saved heartbeat, Ready True): the zone's first state must still
  // cite the seqs remembered for their Ready status, as the full evaluation pushes them
  const run = (evaluateEveryNode: boolean) => {
    const all = names('n', 6);
    const stats: FastPathStats = { plainPosts: 0, unchangedReady: 0, unknownSettled: 0 };
    const r = rig({
      minor: 35,
      options: { evaluateEveryNode, stats },
      memory: 'reconstructed',
      nodes: all.map((n, i) => node(n, { zone: `z${i % 2}` })),
      leases: all.map((n) => lease(n, 0)),
    });
    for (const [i, n] of all.entries()) if (i % 3 !== 2) r.host.remember(`Node/${n}`, 'ready-status', 100 + i);
    r.runUntil(at(1));
    return Object.assign(r, { stats });
  };
  const lazy = run(false);
  const eager = run(true);
  assert.deepEqual(lazy.host.decisions, eager.host.decisions);
  assert.ok(lazy.stats.unchangedReady >= 6, 'the fast path took the first pass');
  const zones = lazy.host.decisions.filter((d) => d.action === 'ZoneStateChanged');
  assert.ok(zones.length === 2 && zones.every((d) => (d.causes ?? []).length > 0), 'the zones cite the remembered Ready changes');
});
