/**
 * Answers for a kubelet that runs but posts too seldom to keep its node Ready, found by scripts/whyNotHunt.ts with
 * HUNT_PARTIAL=1 (kubelet events with `only: status|lease`): where Leases are the heartbeat (1.13 on), a kubelet that
 * renews no Lease posts an unchanged status only every nodeStatusReportFrequency (5m), so its node goes Unknown a grace
 * period after each post, is tainted, and comes back when the kubelet re-posts Ready=True at its next status update tick.
 * Seeds 1–20 had 47 runs with wrong answers, each case below from one of them. Each fails on c78d352:
 * - "running: Ready stays as it is" was said of such a node (one-node-stops, node-a4 `stop only: lease` at +45s);
 * - a deletion scheduled under the taint was named, although the re-post removes the taint first;
 * - a `start only: status` of a stopped kubelet was read as a start that keeps the node up ("never, if the kubelet
 *   starts again"), and a scale-down's ranking as steady while the node's pods' readiness comes and goes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exampleWith, wrongAnswers } from '../../helpers/whyNotAudit';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { formatTime, seconds, type Micros } from '../../../src/engine/model/time';
import { lapseOf, repostAfter, type PassGrid } from '../../../src/engine/controllers/nodeLifecycle/kubeletLapse';
import type { KubeletFacts } from '../../../src/engine/trace/whyNot';

const kubelet = (action: 'stop' | 'start', node: string, only?: 'status' | 'lease') => ({
  kind: 'kubelet',
  action,
  target: { nodes: [node] },
  ...(only ? { only } : {}),
});
const scale = (replicas: number) => ({ kind: 'scale', replicaSet: 'default/web-7d9f', replicas });

const audited: { name: string; file: string; events: [number, object][] }[] = [
  { name: '1.31: a kubelet stops its Lease alone at +45s (seed 1)', file: 'one-node-stops.yaml', events: [[45, kubelet('stop', 'node-a4', 'lease')]] },
  {
    name: "1.31: a stopped kubelet's status posts started alone at +45s (seed 12)",
    file: 'outage-1.31.yaml',
    events: [[45, kubelet('start', 'node-a1', 'status')]],
  },
  {
    name: 'a zone stopped at +30s, one of its kubelets started status alone at +45s (seed 6)',
    file: 'rs-zone-outage.yaml',
    events: [[45, kubelet('start', 'node-b3', 'status')]],
  },
  {
    name: 'scales while a kubelet of the ReplicaSet stops its Lease alone (seed 19)',
    file: 'outage-1.31.yaml',
    events: [
      [10, scale(11)],
      [90, scale(13)],
      [180, scale(10)],
      [90, kubelet('stop', 'node-c2', 'lease')],
      [20, scale(11)],
    ],
  },
  // every zone down but a node whose kubelet re-posts Ready: master disruption mode ends at the pass that reads it
  {
    name: 'all zones down, a kubelet started status alone at +60s, with the timeline on other nodes (seed 5)',
    file: 'all-zones-down.yaml',
    events: [
      [60, kubelet('start', 'node-a5', 'status')],
      [45, { kind: 'condition', target: { nodes: ['node-a1'] }, condition: { type: 'Ready', status: 'False' } }],
      [20, { kind: 'taint', target: { nodes: ['node-a4'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } }],
      [60, { kind: 'taint', target: { nodes: ['node-c3'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } }],
      [240, { kind: 'delete', ref: 'Pod/kube-system/kube-proxy-a4' }],
    ],
  },
  {
    name: 'all zones down, a kubelet started status alone at +30s, scales and a delete (seed 2)',
    file: 'all-zones-down.yaml',
    events: [
      [180, scale(11)],
      [30, kubelet('stop', 'node-a2')],
      [90, scale(14)],
      [30, kubelet('start', 'node-a3', 'status')],
      [120, { kind: 'delete', ref: 'Pod/default/web-7d9f-cf8jb' }],
    ],
  },
  // a small zone in PartialDisruption (rate 0) with a node whose Ready comes and goes: not never; its re-post is the bound
  {
    name: 'a small zone partly down, one of its kubelets started status alone at +30s (seed 13)',
    file: 'zone-small-partial.yaml',
    events: [
      [240, kubelet('stop', 'node-a2', 'lease')],
      [30, kubelet('start', 'node-a2', 'status')],
      [20, scale(13)],
    ],
  },
  // not a kubelet's: a delete and a scale down of its ReplicaSet at one instant named a replacement (the sync reads both)
  {
    name: 'a pod deleted and its ReplicaSet scaled down at one instant, +20s (seed 4)',
    file: 'rs-slow-start.yaml',
    events: [
      [45, kubelet('stop', 'node-c1', 'lease')],
      [45, kubelet('start', 'node-a6')],
      [20, { kind: 'delete', ref: 'Pod/default/web-7d9f-fg2mb' }],
      [20, scale(9)],
      [20, kubelet('stop', 'node-a5', 'lease')],
    ],
  },
  // the lapse comes before the timeline's Ready=False: the node is tainted at its Unknown, not at the False
  {
    name: 'a kubelet stops its Lease alone at +45s, the timeline sets its Ready=False at +4m (seed 25)',
    file: 'notready-then-unknown.yaml',
    events: [
      [240, { kind: 'condition', target: { nodes: ['node-b2'] }, condition: { type: 'Ready', status: 'False' } }],
      [45, kubelet('stop', 'node-b2', 'lease')],
      [20, scale(11)],
      [120, scale(13)],
    ],
  },
  // not a lapse's: a start at the instant of the timeline's Ready=False posts Ready=True after it (seed 37, on c78d352 too)
  {
    name: 'a kubelet started at the instant the timeline sets its Ready=False, after it (seed 37)',
    file: 'notready-then-unknown.yaml',
    events: [
      [20, kubelet('start', 'node-b1', 'lease')],
      [30, kubelet('start', 'node-b1', 'status')],
    ],
  },
  // the other way round: renewals or frequent posts keep the node up, as "running" says
  {
    name: '1.31: a kubelet stops its status posts alone at +45s (its Lease keeps it)',
    file: 'one-node-stops.yaml',
    events: [[45, kubelet('stop', 'node-a4', 'status')]],
  },
  {
    name: '1.12: a kubelet stops its Lease alone at +45s (no Leases: status every 10s)',
    file: 'outage-1.12.yaml',
    events: [[45, kubelet('stop', 'node-b1', 'lease')]],
  },
];

for (const c of audited)
  test(`a kubelet that posts too seldom: ${c.name}: every time named comes then, every never holds`, () => {
    const a = wrongAnswers(c.file, c.events);
    assert.deepEqual(a.wrong, []);
    assert.ok(a.timedChecked > 0, 'some answers named a time and were run forward');
  });

/** The scenario run to `at` seconds, the answers of `ref` of `outcome`, and the run on to 10m. */
function askedAt(file: string, events: [number, object][], at: number, ref: string, outcome: string) {
  const sim = createSimulation(exampleWith(file, events));
  sim.runUntil(sim.startTime + seconds(at));
  const w = whyNotOfControllers(sim, ref).find((x) => x.outcome === outcome);
  const asked = sim.now;
  sim.runUntil(sim.startTime + seconds(600));
  return { w, asked, trace: sim.trace, start: sim.startTime };
}

const leaseStops: [number, object][] = [[45, kubelet('stop', 'node-a4', 'lease')]];

test('a kubelet that renews no Lease: Ready goes Unknown a grace period after its last post, the time named and come', () => {
  const { w, asked, trace, start } = askedAt('one-node-stops.yaml', leaseStops, 160, 'Node/node-a4', 'NodeStatusUnknown');
  assert.ok(w, 'the node lifecycle controller answers');
  // its last post +2m30s (a re-post), read at +2m35s; grace 40s; the pass past +3m15s
  assert.equal(w.wouldFireAt, formatTime(start + seconds(200)));
  assert.equal(w.conditional, undefined);
  assert.match(w.check.rule, /too seldom to keep it Ready/);
  const next = trace.find((d) => d.object === 'Node/node-a4' && d.action === 'NodeStatusUnknown' && Date.parse(d.time) * 1000 > asked);
  assert.equal(next?.time, w.wouldFireAt);
});

test("a kubelet that renews no Lease: its node's taint is named only as far as the re-post lets it come", () => {
  const { w } = askedAt('one-node-stops.yaml', leaseStops, 160, 'Node/node-a4', 'NodeTaintedNoExecute');
  assert.ok(w);
  assert.equal(w.wouldFireAt, undefined, 'the re-post at +3m30s removes the taint: no certain time chained to it');
  assert.match(w.conditional?.if ?? '', /before its kubelet re-posts Ready at .*00:03:30/);
});

test('a deletion scheduled under the taint of a node whose kubelet re-posts Ready first: no time, the re-post named', () => {
  const { w, trace, start } = askedAt('one-node-stops.yaml', leaseStops, 145, 'Pod/default/web-7d9f-2jsjb', 'PodDeletedByTaintEviction');
  assert.ok(w);
  assert.equal(w.wouldFireAt, undefined, 'said +7m25s before: the taint went at +2m30s');
  assert.equal(w.never, undefined, 'the node goes Unknown and is tainted again later');
  const check = w.path?.at(-1);
  assert.equal(check?.guard, 'taintStays');
  assert.equal(check?.values?.kubeletRepostsAt, formatTime(start + seconds(150)));
  assert.ok(!trace.some((d) => d.action === 'PodEvicted' && d.object === 'Pod/default/web-7d9f-2jsjb'), 'the pod is never deleted');
});

test('a kubelet that stops its status posts alone: its Lease keeps the node Ready, as "running" says', () => {
  const { w, trace } = askedAt('one-node-stops.yaml', [[45, kubelet('stop', 'node-a4', 'status')]], 160, 'Node/node-a4', 'NodeStatusUnknown');
  assert.ok(w);
  assert.equal(w.wouldFireAt, undefined);
  assert.equal(w.conditional?.if, 'the kubelet stopped now');
  assert.ok(!trace.some((d) => d.object === 'Node/node-a4' && d.action === 'NodeStatusUnknown'));
});

// lapseOf alone: passes every 5s from +5s, grace 40s, probe at +0s
const grid: PassGrid = {
  atOrAfter: (t) => Math.max(5, Math.ceil(t / 5e6) * 5e6),
  firstWhere: (guard, deadline) => {
    let t = Math.max(5e6, Math.floor(deadline / 5e6) * 5e6);
    while (!guard(t)) t += 5e6;
    return t;
  },
};
const s = (x: number): Micros => seconds(x);
const lapses: { name: string; k: KubeletFacts; want: Micros | undefined }[] = [
  { name: 'status every 5m, no Lease: the pass past probe + grace', k: { running: true, nextPost: s(300), postEvery: s(300) }, want: s(45) },
  {
    name: 'a post at the very pass that would set Unknown keeps it (the kubelet comes first)',
    k: { running: true, nextPost: s(45), postEvery: s(300) },
    want: s(90),
  },
  { name: 'status every 10s (1.12): never', k: { running: true, nextPost: s(10), postEvery: s(10) }, want: undefined },
  {
    name: 'renewals every 10s, status every 5m: never',
    k: { running: true, nextPost: s(300), postEvery: s(300), nextRenew: s(10), renewEvery: s(10) },
    want: undefined,
  },
  { name: 'running, with no schedule told (a world that says only running): taken to keep it up', k: { running: true }, want: undefined },
  { name: 'status every 50s, no Lease: the second gap runs out', k: { running: true, nextPost: s(30), postEvery: s(50) }, want: s(75) },
];
for (const c of lapses)
  test(`lapseOf: ${c.name}`, () => {
    assert.equal(lapseOf(c.k, 0, s(40), grid), c.want);
  });

test('repostAfter: the first status update tick after the Unknown, on the grid of its posts', () => {
  assert.equal(repostAfter({ running: true, nextPost: s(450), updateEvery: s(10) }, s(200)), s(210));
  assert.equal(repostAfter({ running: true, nextPost: s(455), updateEvery: s(10) }, s(205)), s(215));
  assert.equal(repostAfter({ running: true }, s(200)), undefined);
});

test("a zone's forecast with another node whose Ready comes and goes: the condition says it is unlikely to hold, and names the node", () => {
  const events: [number, object][] = [
    [60, kubelet('start', 'node-a1', 'status')],
    [30, kubelet('start', 'node-a41')],
  ];
  const { w } = askedAt('zone-large-partial.yaml', events, 115, 'Node/node-a11', 'NodeTaintedNoExecute');
  assert.ok(w?.conditional, 'a time through the zone, on a condition');
  assert.match(w.conditional.if, /nothing else in the zone changes \(unlikely: the Ready of node-a1 comes and goes/);
  assert.equal(w.path?.at(-1)?.values?.readyComesAndGoes, 'node-a1');
});
