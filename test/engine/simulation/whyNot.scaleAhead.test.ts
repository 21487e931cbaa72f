/**
 * Answers about a pod or a ReplicaSet when the timeline scales the ReplicaSet down on the way (found by
 * scripts/whyNotHunt.ts seeds 12, 15, 17, 22, 40 and 78; each run through the audit, every answer named and every never run forward):
 * - a pod's taint eviction said for a time after a scale down of its ReplicaSet, which may delete it first (scaleAhead.ts):
 *   toleration-seconds seed 17 said "+9m" under a timeline Ready=False, the scale to 9 at +4m deleted the pod;
 * - a ReplicaSet's replacement said for the instant a taint evicts one of its pods, while the timeline scales it down at that
 *   same instant (the sync after both reads the lower spec and finds none missing): rs-deletion-cost seed 12 said +1m30s,
 *   created at +4m; rs-slow-start seed 15 alike;
 * - a ReplicaSet's replacement said for a pod's eviction after a scale down that deletes that pod first: the chain read
 *   the pod's deletion without the pod's own scale-down answer (rs-create-failures seed 22 said +7m10s, none came);
 * - a ReplicaSet's scale-down said for the instant the timeline scales it to 11 and deletes one of its 12 pods: the sync
 *   after both finds no surplus (outage-1.31 seed 40 said +10s; none came);
 * - a replacement said never (the only pod it waited for stays, its kubelet started again) while the timeline scales the
 *   ReplicaSet up after a scale down (one-node-stops seed 78: created at +1m).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedThenRun, wrongAnswers } from '../../helpers/whyNotAudit';
import type { WhyNotOutcome } from '../../../src/engine/trace/whyNot';

const scale = (replicas: number) => ({ kind: 'scale', replicaSet: 'default/web-7d9f', replicas });
const taint = (node: string) => ({ kind: 'taint', target: { nodes: [node] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } });
const notReady = (node: string) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status: 'False' } });

const cases: { name: string; file: string; events: [number, object][] }[] = [
  {
    name: "a pod's eviction after a scale down of its ReplicaSet (seed 17)",
    file: 'toleration-seconds.yaml',
    events: [
      [240, notReady('node-a4')],
      [240, scale(9)],
      [90, scale(14)],
    ],
  },
  {
    name: 'a replacement at the instant a scale down and a taint come together (seed 12)',
    file: 'rs-deletion-cost.yaml',
    events: [
      [60, scale(11)],
      [90, scale(10)],
      [240, scale(11)],
      [20, scale(13)],
      [90, taint('node-b1')],
    ],
  },
  {
    name: 'the same in rs-slow-start (seed 15)',
    file: 'rs-slow-start.yaml',
    events: [
      [20, { kind: 'kubelet', action: 'start', target: { nodes: ['node-c1'] } }],
      [45, notReady('node-a2')],
      [60, scale(10)],
      [60, taint('node-c1')],
    ],
  },
  {
    // the replacement's chain asked its pods' deletions without the ReplicaSet controller: the scale-down was not read
    name: 'a replacement waiting for a pod that the scale down before it deletes (seed 22)',
    file: 'rs-create-failures.yaml',
    events: [
      [90, scale(9)],
      [90, { kind: 'kubelet', action: 'stop', target: { nodes: ['node-c2'] } }],
    ],
  },
  {
    // the replacement said never (its only pod waited for is on node-a1, started again at +45s), created at +1m by the
    // scale up to 14, after a scale down to 11
    name: 'a replacement that waits for no deletion, scaled up by the timeline (seed 78)',
    file: 'one-node-stops.yaml',
    events: [
      [30, scale(11)],
      [45, { kind: 'kubelet', action: 'start', target: { nodes: ['node-a1'] } }],
      [60, scale(14)],
    ],
  },
  {
    // the ReplicaSet's answer named the scale's instant though the timeline's delete there left its sync no surplus
    name: 'a scale down and a delete of one of its pods at one instant (seed 40)',
    file: 'outage-1.31.yaml',
    events: [
      [10, scale(11)],
      [10, { kind: 'delete', ref: 'Pod/default/web-7d9f-5kmmb' }],
    ],
  },
];

for (const c of cases)
  test(`scale ahead: ${c.name}: every time named comes then, every never holds`, () => {
    const a = wrongAnswers(c.file, c.events);
    assert.deepEqual(a.wrong, []);
    assert.ok(a.timedChecked > 0, 'some answers named a time and were run forward');
  });

/**
 * Asked at the start (or `askedAt`) and run forward: the time named is the run's first such decision after, or none is named.
 * - a replacement after the outage's evictions, behind a scale down to 10 and up again to 12 (the spec it has now): the
 *   scale up creates pods at +1m30s; main compared each scale with the spec of now only and said +6m10s;
 * - a pod's eviction (+6m10s) after a scale down that keeps it, the next scale down (+8m20s) ranking the pods a scale
 *   up made: that scale comes after the eviction, so the eviction's time stands (main named none).
 */
const forward: { name: string; file: string; events: [number, object][]; ref: string; outcome: string; named: boolean; askedAt?: number }[] = [
  {
    name: 'a replacement behind a scale down and up again to the spec of now',
    file: 'outage-1.31.yaml',
    events: [
      [60, scale(10)],
      [90, scale(12)],
    ],
    ref: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsCreated',
    named: false,
  },
  {
    name: 'an eviction before the scale down its pod cannot be ranked at',
    file: 'outage-1.31.yaml',
    events: [
      [60, scale(11)],
      [90, scale(13)],
      [500, scale(10)],
    ],
    ref: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    named: true,
  },
  {
    // 1.12: the scale to 5 finds no surplus (a deleted at that instant), the scale up to 7 makes two pods, the scale to 6
    // deletes one of them at +2m (not named), the scale to 4 the other and c at +2m30s: without that read, "+2m30s"
    name: 'a scale-down whose first deletion is of a pod a scale up makes (1.12)',
    file: 'rs-scale-down-1.12.yaml',
    events: [
      [60, { kind: 'scale', replicaSet: 'default/shop-5c8d', replicas: 5 }],
      [60, { kind: 'delete', ref: 'Pod/default/shop-5c8d-a' }],
      [90, { kind: 'scale', replicaSet: 'default/shop-5c8d', replicas: 7 }],
      [120, { kind: 'scale', replicaSet: 'default/shop-5c8d', replicas: 6 }],
      [150, { kind: 'scale', replicaSet: 'default/shop-5c8d', replicas: 4 }],
    ],
    ref: 'ReplicaSet/default/shop-5c8d',
    outcome: 'ReplicaSetPodsDeleted',
    named: false,
    askedAt: 30,
  },
  {
    // the pods on node-a1 are evicted at +6m10s; the scale to 14 at +2m (above the 12 active pods) creates pods then: main
    // said no time ("before the deletion it would wait for"), which the hunt counted 110 times in rs-scale-down-1.31
    name: 'a replacement behind the deletions it waits for, the timeline scaling the ReplicaSet up before them',
    file: 'one-node-stops.yaml',
    events: [[120, scale(14)]],
    ref: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsCreated',
    named: true,
    askedAt: 90,
  },
  {
    // node-a1's kubelet starts again at +1m40s, so the pods it waits for stay (never), and the scale up at +2m creates pods
    name: 'a replacement that waits for no deletion, the timeline scaling the ReplicaSet up first',
    file: 'one-node-stops.yaml',
    events: [
      [100, { kind: 'kubelet', action: 'start', target: { nodes: ['node-a1'] } }],
      [120, scale(14)],
    ],
    ref: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsCreated',
    named: true,
    askedAt: 90,
  },
  {
    // the node's own taint is only a what-if ("if the kubelet stopped now": +45s) and the timeline's taint at +1m is the
    // node's first event: the pod, which does not tolerate it, is deleted then (main said no time against the what-if)
    name: "a pod on a running node that the timeline taints, read against the node's what-if",
    file: 'one-node-stops.yaml',
    events: [[60, taint('node-a3')]],
    ref: 'Pod/default/web-7d9f-qnfjb',
    outcome: 'PodDeletedByTaintEviction',
    named: true,
  },
];

for (const c of forward)
  test(`scale ahead, run forward: ${c.name}: the time named is the run's`, () => {
    const { named, came } = askedThenRun(c.file, c.events, c.askedAt ?? 0, c.ref, c.outcome as WhyNotOutcome);
    assert.ok(came, 'the outcome comes');
    if (c.named) assert.equal(named, came);
    else assert.ok(named === undefined || named === came, `named ${named}, came at ${came}`);
  });
