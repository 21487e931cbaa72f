/**
 * Answers under timelines that mix kinds of events on a zone's nodes or on the pod itself, found by scripts/whyNotHunt.ts
 * on seeds 81–120 (each case is the hunt's run cut down to the events that made it wrong; each fails on 2c354ee). Every
 * run goes through the audit: every answer named and every never run forward.
 * - a kubelet stopped and set Ready=False at one instant (rs-zone-outage seed 84): the False is read first and the node
 *   queued then; its Unknown later swaps the taint through no queue, so it takes no token from the zone's others;
 * - a node set Ready=False and then stopped on 1.12's pod-eviction path (outage-1.12 seed 93, rs-scale-down-1.12 seed
 *   90): queued past podEvictionTimeout from the probe of its last post once Unknown, not from the transition;
 * - a stop and another node's Ready=False in one zone (outage-1.31 seed 109): both count toward the zone's state;
 * - two nodes set Ready=False at one instant (outage-1.31 HUNT_PARTIAL seed 708): the zone's state with both, not with one;
 * - a node already tainted whose lapsing kubelet re-posts Ready (zone-small-partial seed 908): not counted down for good;
 * - a whole `kubelet: start` of a running kubelet before its stop (not a hunt's seed: its random starts hit stopped
 *   kubelets): the start posts and renews at once, and the stop counts from there;
 * - the timeline's NoExecute taint at the instant it sets the node's Ready=False (rs-deletion-cost seed 128): a time
 *   chained to the controller's not-ready taint is not certain while a taint the pod does not tolerate comes first;
 * - the timeline's delete of the pod by the time a controller's deletion is named (notready-then-unknown seed 103,
 *   rs-deletion-cost seed 120): never;
 * - 1.12: the timeline stops a node's kubelet and taints it NoExecute at one instant (outage-1.12 seed 1020): the pod
 *   eviction's time is later than the taint eviction's, so it never comes (deletedFirst.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { wrongAnswers } from '../../helpers/whyNotAudit';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { seconds } from '../../../src/engine/model/time';
import { formatWhyNotWhen } from '../../../src/engine/trace/text';
import type { Scenario } from '../../../src/engine/snapshot/types';

const stop = (node: string) => ({ kind: 'kubelet', action: 'stop', target: { nodes: [node] } });
const notReady = (node: string) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status: 'False' } });
const del = (pod: string) => ({ kind: 'delete', ref: `Pod/default/${pod}` });
const start = (node: string) => ({ kind: 'kubelet', action: 'start', target: { nodes: [node] } });
const maint = (node: string) => ({ kind: 'taint', target: { nodes: [node] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } });

const cases: { name: string; file: string; events: [number, object][] }[] = [
  { name: 'a zone stopped at +30s, one of its nodes set Ready=False then too (seed 84)', file: 'rs-zone-outage.yaml', events: [[30, notReady('node-b1')]] },
  { name: '1.12: a node set Ready=False at +10s, then stopped at +30s with another (seed 93)', file: 'outage-1.12.yaml', events: [[10, notReady('node-a1')]] },
  {
    name: 'one node stopped and another set Ready=False in a zone already two down (seed 109)',
    file: 'outage-1.31.yaml',
    events: [
      [240, stop('node-a4')],
      [240, notReady('node-a3')],
    ],
  },
  // the queue as it stands read as certain while two other nodes were Added at the same pass (HUNT_PARTIAL seed 9)
  {
    name: 'a node stopped with two others, queued with them at +1m10s, a fourth going Unknown at +1m25s',
    file: 'outage-1.31.yaml',
    events: [
      [45, stop('node-a3')],
      [30, stop('node-a6')],
    ],
  },
  // a whole start of a running kubelet re-anchors its posts and renewals; the stop after it was taken for none
  { name: 'a running kubelet started at +20s, stopped with its zone at +30s', file: 'rs-zone-outage.yaml', events: [[20, start('node-b1')]] },
  { name: 'a running kubelet started at +20s, stopped at +30s with another', file: 'outage-1.31.yaml', events: [[20, start('node-a1')]] },
  { name: '1.12: a running kubelet started at +20s, stopped at +30s with another', file: 'outage-1.12.yaml', events: [[20, start('node-a1')]] },
  // the start's own post at the stop's instant counts (the hunt's rs-deletion-cost seed 25, after the change above)
  {
    name: 'a running kubelet started and stopped at one instant, +3m',
    file: 'rs-deletion-cost.yaml',
    events: [
      [180, start('node-a5')],
      [180, stop('node-a5')],
    ],
  },
  // a status post with no renewal makes the controller's entry anew without its Lease: the next pass moves the probe again
  {
    name: 'a running kubelet started only: status at +25s, stopped with its zone at +30s',
    file: 'rs-zone-outage.yaml',
    events: [[25, { ...start('node-b1'), only: 'status' }]],
  },
  {
    name: 'a node set Ready=False and tainted NoExecute by the timeline at one instant (seed 128)',
    file: 'rs-deletion-cost.yaml',
    events: [
      [30, notReady('node-b1')],
      [30, maint('node-b1')],
    ],
  },
  // the zone kept its state with the node's own Ready=False alone, and the other's at that instant went uncounted (HUNT_PARTIAL seed 708)
  {
    name: 'two nodes set Ready=False at one instant in a zone already two down: PartialDisruption, rate 0 (seed 708)',
    file: 'outage-1.31.yaml',
    events: [
      [240, notReady('node-a6')],
      [240, notReady('node-a4')],
    ],
  },
  // a tainted node whose kubelet re-posts Ready after its lapse was counted down for good (HUNT_PARTIAL HUNT_RESTART seed 908)
  {
    name: "a node set Ready=False in a zone whose flapping node's Unknown alone would make it FullDisruption (seed 908)",
    file: 'zone-small-partial.yaml',
    events: [
      [10, { kind: 'kubelet', action: 'stop', target: { nodes: ['node-a6'] }, only: 'lease' }],
      [120, notReady('node-a5')],
    ],
  },
  {
    name: "the pod deleted by the timeline at its node's NoExecute taint's instant (seed 103)",
    file: 'notready-then-unknown.yaml',
    events: [
      [180, del('toleration-forever')],
      [180, maint('node-a1')],
    ],
  },
  {
    name: 'the pod deleted by the timeline when its node stops (seed 120)',
    file: 'rs-deletion-cost.yaml',
    events: [
      [90, del('web-7d9f-qnfjb')],
      [90, stop('node-a3')],
    ],
  },
  // each path right about its own controller, the pod eviction's time one the pod does not live to (outage-1.12 seed 1020)
  {
    name: "1.12: a node's kubelet stopped and the node tainted NoExecute by the timeline at one instant (seed 1020)",
    file: 'outage-1.12.yaml',
    events: [
      [120, stop('node-b1')],
      [120, maint('node-b1')],
    ],
  },
];

for (const c of cases)
  test(`timelines that mix events: ${c.name}: every time named comes then, every never holds`, () => {
    const a = wrongAnswers(c.file, c.events);
    assert.deepEqual(a.wrong, []);
    assert.ok(a.timedChecked > 0, 'some answers named a time and were run forward');
  });

test("a pod the timeline deletes before its taint eviction: never, the timeline's delete named", () => {
  const base = loadScenario(join('examples', 'notready-then-unknown.yaml'), nodeFs());
  const added = cases
    .find((c) => c.file === 'notready-then-unknown.yaml')!
    .events.map(([at, e], i) => ({ ...e, at: { offset: seconds(at) }, index: base.events.length + i }) as Scenario['events'][number]);
  const sim = createSimulation({ ...base, events: [...base.events, ...added] });
  sim.runUntil(sim.startTime + seconds(140));
  const [w] = whyNotOfControllers(sim, 'Pod/default/toleration-forever').filter((x) => x.outcome === 'PodDeletedByTaintEviction');
  assert.ok(w, 'the taint eviction answers');
  assert.equal(w.never, true);
  assert.equal(w.wouldFireAt, undefined);
  assert.equal(w.conditional, undefined);
  assert.match(formatWhyNotWhen(w), /never, if the timeline deletes the pod at .*00:03:00/);
  assert.equal(w.path?.at(-1)?.guard, 'noTimelineDeleteBefore');
});

test('1.12: a pod the taint eviction deletes before its pod eviction: never, the earlier path named (seed 1020)', () => {
  const base = loadScenario(join('examples', 'outage-1.12.yaml'), nodeFs());
  const added = cases
    .find((c) => c.name.includes('seed 1020'))!
    .events.map(([at, e], i) => ({ ...e, at: { offset: seconds(at) }, index: base.events.length + i }) as Scenario['events'][number]);
  const sim = createSimulation({ ...base, events: [...base.events, ...added] });
  sim.runUntil(sim.startTime + seconds(90));
  const pod = [...sim.host.cluster.pods.values()].find((p) => p.nodeName === 'node-b1' && !p.meta.ownerReferences?.some((o) => o.kind === 'DaemonSet'))!;
  const ws = whyNotOfControllers(sim, `Pod/default/${pod.meta.name}`);
  const taint = ws.find((x) => x.outcome === 'PodDeletedByTaintEviction')!;
  const evict = ws.find((x) => x.outcome === 'PodDeletedByPodEviction')!;
  assert.match(formatWhyNotWhen(taint), /00:02:00/, 'the taint eviction names the taint instant');
  assert.equal(evict.never, true);
  assert.equal(evict.conditional, undefined);
  assert.match(formatWhyNotWhen(evict), /never, if the timeline taints Node\/node-b1 .* comes first/);
  assert.equal(evict.path?.at(-1)?.guard, 'noOtherDeletionBefore');
});
