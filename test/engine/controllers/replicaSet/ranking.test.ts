/**
 * Which pod a scale-down deletes first, after controller_utils_test.go
 * TestSortingActivePods / TestSortingActivePodsWithRanks (our own cases).
 * Each case pits a rule against the rule after it: the rule under test
 * prefers pod `a`, the next rule prefers pod `b`, so the case fails if the
 * rule is dropped or moved after the next one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toPodRecord } from '../../../../src/engine/model/convert';
import { ZERO_TIME, seconds } from '../../../../src/engine/model/time';
import type { PodRecord } from '../../../../src/engine/model/types';
import {
  decidingRule,
  getPodsToDelete,
  goLog2Floor,
  logarithmicRank,
  rankPods,
  rulesFor,
  type RankingRuleId,
  type RankingSettings,
} from '../../../../src/engine/controllers/replicaSet/ranking';
import { podObject, T0, type PodOpts } from './harness';

const V112: RankingSettings = { rankDoubledUp: false, podDeletionCost: false, logarithmicScaleDown: false, now: T0 };
const V120: RankingSettings = { rankDoubledUp: true, podDeletionCost: false, logarithmicScaleDown: false, now: T0 };
const V131: RankingSettings = { rankDoubledUp: true, podDeletionCost: true, logarithmicScaleDown: true, now: T0 };

const pod = (name: string, o: PodOpts): PodRecord => toPodRecord(podObject(name, 'web', { node: 'n1', ...o }))!;

interface Case {
  name: string;
  settings: RankingSettings;
  a: PodRecord;
  b: PodRecord;
  /** the rule expected to decide */
  rule: string;
  /** related pods for the doubled-up rank (default: a and b) */
  related?: PodRecord[];
  /** no later rule prefers b (the rule decides alone) */
  alone?: boolean;
}

const cases: Case[] = [
  // ---- 1.12: controller.ActivePods
  {
    name: 'an unassigned pod goes before an assigned one even when it is Running and the other Pending (1.12)',
    settings: V112,
    a: pod('a', { node: '', phase: 'Running' }),
    b: pod('b', { phase: 'Pending' }),
    rule: 'unassigned',
  },
  {
    name: 'a Pending pod goes before a Running one even when it is ready and the other is not (1.12)',
    settings: V112,
    a: pod('a', { phase: 'Pending', ready: true }),
    b: pod('b', { phase: 'Running', ready: false }),
    rule: 'phase',
  },
  {
    name: 'an Unknown pod goes before a Running one (1.12)',
    settings: V112,
    a: pod('a', { phase: 'Unknown', ready: true }),
    b: pod('b', { phase: 'Running', ready: false }),
    rule: 'phase',
  },
  {
    name: 'a not-ready pod goes before a ready one even with fewer restarts (1.12)',
    settings: V112,
    a: pod('a', { ready: false, restarts: [0] }),
    b: pod('b', { ready: true, restarts: [9] }),
    rule: 'ready',
  },
  {
    name: 'a pod ready for a shorter time goes first even with fewer restarts (1.12)',
    settings: V112,
    a: pod('a', { readyAgo: 10, restarts: [0] }),
    b: pod('b', { readyAgo: 3600, restarts: [5] }),
    rule: 'readyTime',
  },
  {
    name: 'the pod with more restarts of its most-restarted container goes first even when older (1.12)',
    settings: V112,
    a: pod('a', { restarts: [0, 4], createdAgo: 9000 }),
    b: pod('b', { restarts: [3, 3], createdAgo: 100 }),
    rule: 'restarts',
  },
  {
    name: 'the newer pod goes first when everything else is equal (1.12)',
    settings: V112,
    alone: true,
    a: pod('a', { createdAgo: 100 }),
    b: pod('b', { createdAgo: 9000 }),
    rule: 'creationTime',
  },
  {
    name: '1.12 ignores pod-deletion-cost: the pod ready for less time goes first',
    settings: V112,
    alone: true,
    a: pod('a', { readyAgo: 10, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } }),
    b: pod('b', { readyAgo: 3600, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' } }),
    rule: 'readyTime',
  },
  {
    name: '1.12 ignores doubled-up pods: the pod ready for less time goes first',
    settings: V112,
    alone: true,
    a: pod('a', { node: 'n2', readyAgo: 10 }),
    b: pod('b', { node: 'n1', readyAgo: 3600 }),
    rule: 'readyTime',
    related: [pod('a', { node: 'n2' }), pod('b', { node: 'n1' }), pod('c', { node: 'n1' }), pod('d', { node: 'n1' })],
  },
  {
    name: 'an exact ready-time difference of one second decides without log buckets (1.20)',
    settings: V120,
    a: pod('a', { readyAgo: 100, uid: 'uid-z' }),
    b: pod('b', { readyAgo: 101, uid: 'uid-a', restarts: [5] }),
    rule: 'readyTime',
  },

  // ---- 1.31: controller.ActivePodsWithRanks with PodDeletionCost and LogarithmicScaleDown
  {
    name: 'an unassigned pod goes before an assigned one even with a higher deletion cost (1.31)',
    settings: V131,
    a: pod('a', { node: '', phase: 'Running', annotations: { 'controller.kubernetes.io/pod-deletion-cost': '50' } }),
    b: pod('b', { phase: 'Pending' }),
    rule: 'unassigned',
  },
  {
    name: 'a not-ready pod goes before a ready one even with a higher deletion cost (1.31)',
    settings: V131,
    a: pod('a', { ready: false, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } }),
    b: pod('b', { ready: true, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' } }),
    rule: 'ready',
  },
  {
    name: 'the lower pod-deletion-cost goes first even when the other pod is doubled up (1.31)',
    settings: V131,
    a: pod('a', { node: 'n2', annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-1' } }),
    b: pod('b', { node: 'n1' }),
    rule: 'deletionCost',
    related: [pod('a', { node: 'n2' }), pod('b', { node: 'n1' }), pod('c', { node: 'n1' })],
  },
  {
    name: 'a pod doubled up on a node with more related pods goes first even when ready for longer (1.31)',
    settings: V131,
    a: pod('a', { node: 'n1', readyAgo: 86400 }),
    b: pod('b', { node: 'n2', readyAgo: 10 }),
    rule: 'doubledUp',
    related: [pod('a', { node: 'n1' }), pod('b', { node: 'n2' }), pod('c', { node: 'n1' })],
  },
  {
    name: 'pods being deleted do not count as doubled up (related pods must be active)',
    settings: V131,
    alone: true,
    a: pod('a', { node: 'n2', readyAgo: 10 }),
    b: pod('b', { node: 'n1', readyAgo: 86400 }),
    rule: 'readyTime',
    related: [pod('a', { node: 'n2' }), pod('b', { node: 'n1' }), pod('c', { node: 'n1', deleting: true })],
  },
  {
    name: 'a pod ready for less time on a log scale goes first even with fewer restarts (1.31)',
    settings: V131,
    a: pod('a', { readyAgo: 10, restarts: [0] }),
    b: pod('b', { readyAgo: 3600, restarts: [5] }),
    rule: 'readyTime',
  },
  {
    name: 'ready times in the same log2 bucket are ordered by UID and restarts are not consulted (1.31)',
    settings: V131,
    a: pod('a', { readyAgo: 110, uid: 'uid-a' }),
    b: pod('b', { readyAgo: 100, uid: 'uid-b', restarts: [5] }),
    rule: 'readyTime',
  },
  {
    name: 'the pod with more restarts goes first even when newer by a log bucket (1.31)',
    settings: V131,
    a: pod('a', { restarts: [2], createdAgo: 90000 }),
    b: pod('b', { restarts: [1], createdAgo: 100 }),
    rule: 'restarts',
  },
  {
    name: 'the newer pod goes first when the creation times are in different log2 buckets (1.31)',
    settings: V131,
    alone: true,
    a: pod('a', { createdAgo: 100, uid: 'uid-z' }),
    b: pod('b', { createdAgo: 9000, uid: 'uid-a' }),
    rule: 'creationTime',
  },
  {
    name: 'creation times in the same log2 bucket are ordered by UID, not by age (1.31)',
    settings: V131,
    alone: true,
    a: pod('a', { createdAgo: 8000, uid: 'uid-a' }),
    b: pod('b', { createdAgo: 7000, uid: 'uid-b' }),
    rule: 'creationTime',
  },
  {
    name: 'without LogarithmicScaleDown the same two pods are ordered by age: the newer goes first (1.20)',
    settings: V120,
    alone: true,
    a: pod('a', { createdAgo: 7000, uid: 'uid-b' }),
    b: pod('b', { createdAgo: 8000, uid: 'uid-a' }),
    rule: 'creationTime',
  },
  {
    name: 'a pod with no creation time goes first (afterOrZero)',
    settings: V131,
    alone: true,
    a: { ...pod('a', { createdAgo: 100 }), meta: { ...pod('a', {}).meta, creationTimestamp: ZERO_TIME } },
    b: pod('b', { createdAgo: 100 }),
    rule: 'creationTime',
  },
  {
    name: 'pods equal under every Kubernetes rule are taken by name',
    settings: V131,
    alone: true,
    a: pod('a', { uid: 'same' }),
    b: pod('b', { uid: 'same' }),
    rule: 'name',
  },
];

test('scale-down ranking: each rule decides before the next one', () => {
  for (const c of cases) {
    const related = c.related ?? [c.a, c.b];
    for (const input of [
      [c.a, c.b],
      [c.b, c.a],
    ]) {
      const r = getPodsToDelete(input, related, 1, c.settings);
      assert.deepEqual(
        r.deleted.map((d) => d.name),
        ['a'],
        `${c.name} (input order ${input.map((p) => p.meta.name)})`,
      );
      assert.equal(r.whyDeleted.get('a')?.rule, c.rule, c.name);
      assert.equal(r.whyKept.get('b')?.rule, c.rule, c.name);
    }
  }
});

test('without the rule under test, or with it moved after the next rule that decides, the other pod would go', () => {
  for (const c of cases) {
    if (c.alone) continue;
    const [a, b] = rankPods([c.a, c.b], c.related ?? [c.a, c.b]);
    const order = rulesFor(c.settings);
    const dropped = order.filter((r) => r !== c.rule);
    const next = decidingRule(a!, b!, c.settings, dropped);
    assert.ok(next.order > 0, `${c.name}: without ${c.rule}, ${next.rule} should prefer b`);
    const swapped = [...dropped];
    swapped.splice(swapped.indexOf(next.rule) + 1, 0, c.rule as RankingRuleId);
    assert.ok(decidingRule(a!, b!, c.settings, swapped).order > 0, `${c.name}: ${c.rule} after ${next.rule} should let b go first`);
  }
});

test('the rules apply in the order of the version', () => {
  assert.deepEqual(rulesFor(V112), ['unassigned', 'phase', 'ready', 'readyTime', 'restarts', 'creationTime', 'name']);
  assert.deepEqual(rulesFor(V120), ['unassigned', 'phase', 'ready', 'doubledUp', 'readyTime', 'restarts', 'creationTime', 'name']);
  assert.deepEqual(rulesFor(V131), ['unassigned', 'phase', 'ready', 'deletionCost', 'doubledUp', 'readyTime', 'restarts', 'creationTime', 'name']);
});

test('invalid pod-deletion-cost values count as 0, as GetDeletionCostFromPodAnnotations leaves them', () => {
  const cost = (v: string) => rankPods([pod('x', { annotations: { 'controller.kubernetes.io/pod-deletion-cost': v } })], [])[0]!.cost;
  const cases: [string, number][] = [
    ['10', 10],
    ['-5', -5],
    ['0', 0],
    ['+10', 0],
    ['007', 0],
    ['abc', 0],
    ['2147483648', 0],
    ['-2147483648', -2147483648],
    ['', 0],
    ['1.5', 0],
  ];
  for (const [v, want] of cases) assert.equal(cost(v), want, v);
});

test('log2 buckets are taken of the age in nanoseconds, as Go computes them', () => {
  assert.equal(goLog2Floor(1), 0);
  assert.equal(goLog2Floor(1024), 10);
  assert.equal(goLog2Floor(1023), 9);
  assert.equal(goLog2Floor(2 ** 40), 40);
  assert.equal(goLog2Floor(2 ** 40 - 1), 39);
  assert.equal(logarithmicRank(T0 - seconds(100), T0), 36); // 1e11 ns
  assert.equal(logarithmicRank(T0 - seconds(110), T0), 36);
  assert.equal(logarithmicRank(T0 - seconds(200), T0), 37);
  assert.equal(logarithmicRank(T0, T0), -1);
  assert.equal(logarithmicRank(T0 + 1, T0), -1);
});

test('when every pod goes, none is ranked and none is explained against a kept pod', () => {
  const a = pod('a', {});
  const b = pod('b', { node: '' });
  const r = getPodsToDelete([b, a], [], 2, V131);
  assert.equal(r.sorted, false);
  assert.deepEqual(
    r.deleted.map((d) => d.name),
    ['a', 'b'],
  );
  assert.equal(r.whyDeleted.size, 0);
});

test('a scale-down of 6 to 2 deletes the four pods ranked first and explains each against the first kept', () => {
  const pods = [
    pod('p-pending', { node: '', phase: 'Pending', ready: false }),
    pod('p-unknown', { phase: 'Unknown', ready: false }),
    pod('p-notready', { ready: false }),
    pod('p-young', { readyAgo: 30 }),
    pod('p-old', { readyAgo: 7200 }),
    pod('p-restarty', { readyAgo: 7200, restarts: [3] }),
  ];
  const r = getPodsToDelete(pods, [], 4, V112);
  assert.deepEqual(
    r.deleted.map((d) => d.name),
    ['p-pending', 'p-unknown', 'p-notready', 'p-young'],
  );
  assert.deepEqual(
    r.kept.map((d) => d.name),
    ['p-restarty', 'p-old'],
  );
  assert.equal(r.whyDeleted.get('p-pending')!.rule, 'unassigned');
  assert.equal(r.whyDeleted.get('p-unknown')!.rule, 'phase');
  assert.equal(r.whyDeleted.get('p-notready')!.rule, 'ready');
  assert.equal(r.whyDeleted.get('p-young')!.rule, 'readyTime');
  assert.equal(r.whyKept.get('p-restarty')!.rule, 'readyTime');
  assert.equal(r.whyKept.get('p-old')!.versus, 'p-young');
});

// Without LogarithmicScaleDown the first pods are chosen without sorting every pod: they must be a
// full sort's. With it the sort is kept (the order is not transitive): the result must still not
// depend on the order claimPods gives the pods in.
test('the pods chosen for deletion are those of a full sort, whatever the input order (random pods, every version, several diffs)', () => {
  let seed = 17;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const pick = <T>(xs: readonly T[]) => xs[rnd(xs.length)]!;
  const pods: PodRecord[] = [];
  for (let i = 0; i < 400; i++)
    pods.push(
      pod(`p-${rnd(100_000)}-${i}`, {
        node: pick(['', 'n1', 'n2', 'n3']),
        phase: pick(['Pending', 'Running', 'Unknown']),
        ready: rnd(3) > 0,
        readyAgo: pick([0, 5, 100, 110, 3600, 3700]),
        createdAgo: pick([10, 120, 130, 7200]),
        restarts: [rnd(3)],
        annotations: rnd(4) === 0 ? { 'controller.kubernetes.io/pod-deletion-cost': String(rnd(5) - 2) } : {},
        uid: `uid-${rnd(1000)}`,
      }),
    );
  // ready times in one log2 bucket, some equal: the comparisons that are not transitive
  const alike: PodRecord[] = [];
  for (let i = 0; i < 200; i++)
    alike.push(pod(`q-${rnd(100_000)}-${i}`, { readyAgo: pick([100, 104, 110]), createdAgo: pick([120, 130]), uid: `uid-${rnd(1000)}` }));
  const reordered = getPodsToDelete([...alike].reverse(), alike, 5, V131, 10);
  assert.deepEqual(
    reordered.deleted.map((d) => d.name),
    getPodsToDelete(alike, alike, 5, V131, 10).deleted.map((d) => d.name),
    'LogarithmicScaleDown: the same pods whatever the input order',
  );
  for (const s of [V112, V120, V131])
    for (const diff of [1, 2, 7, 40]) {
      const full = getPodsToDelete(pods, pods, diff, s);
      const partial = getPodsToDelete([...pods].reverse(), pods, diff, s, 10);
      assert.equal(full.sorted, true);
      assert.deepEqual(
        partial.deleted.map((d) => d.name),
        full.deleted.map((d) => d.name),
        `deleted, diff ${diff}`,
      );
      assert.deepEqual(
        partial.kept.map((d) => d.name),
        full.kept.slice(0, 10).map((d) => d.name),
        `kept, diff ${diff}`,
      );
      for (const d of full.deleted) assert.deepEqual(partial.whyDeleted.get(d.name), full.whyDeleted.get(d.name));
      for (const k of full.kept.slice(-3)) assert.deepEqual(partial.whyKept.get(k.name), full.whyKept.get(k.name));
    }
});
