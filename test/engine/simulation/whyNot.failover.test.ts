/**
 * Why-nots across a failover of kube-controller-manager (newLeader.ts, failoverAhead.ts): nothing is decided until
 * the new leader acquires the lease, whose controllers start with empty memory. Asked during the wait (no controller
 * runs), the answer is the new leader's as it starts; asked before the failover, a time at or after it is the new
 * leader's, conditional on the failover. Each asked at the time given and run forward: the time named is the run's
 * (main named none for each: `HUNT_RESTART=failover` counted 24-49 wrong answers a seed in 3 of 5 seeds).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedThenRun, wrongAnswers } from '../../helpers/whyNotAudit';
import type { WhyNotOutcome } from '../../../src/engine/trace/whyNot';

const failover = { kind: 'restartControllerManager', failover: true };
const scaleTo = (replicas: number) => ({ kind: 'scale', replicaSet: 'default/web-7d9f', replicas });

const cases: { name: string; file: string; events: [number, object][]; askedAt: number; ref: string; outcome: WhyNotOutcome; named: string; if?: RegExp }[] = [
  {
    // the new leader registers node-a1 afresh at +1m05s (probeTimestamp now): Unknown a grace period later
    name: 'during the wait: the node goes Unknown a grace period after the new leader starts',
    file: 'one-node-stops.yaml',
    events: [[50, failover]],
    askedAt: 55,
    ref: 'Node/node-a1',
    outcome: 'NodeStatusUnknown',
    named: '2026-01-01T00:01:50.000Z',
  },
  {
    name: "during the wait: a pod's taint eviction under the new leader's taint",
    file: 'one-node-stops.yaml',
    events: [[50, failover]],
    askedAt: 55,
    ref: 'Pod/default/toleration-sixty',
    outcome: 'PodDeletedByTaintEviction',
    named: '2026-01-01T00:02:55.000Z',
  },
  {
    // a scale during the wait: the new leader's ReplicaSet controller syncs it as it starts
    name: 'during the wait: a scale-down the new leader makes as it starts, named at its start',
    file: 'one-node-stops.yaml',
    events: [
      [50, failover],
      [55, scaleTo(9)],
    ],
    askedAt: 60,
    ref: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsDeleted',
    named: '2026-01-01T00:01:05.000Z',
  },
  {
    // the old taint eviction's deadline (+6m10s) is gone: the new one gives the toleration again from +2m45s
    name: 'before the failover, after the taint: the new leader gives the toleration again',
    file: 'one-node-stops.yaml',
    events: [[150, failover]],
    askedAt: 120,
    ref: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    named: '2026-01-01T00:07:45.000Z',
    if: /^the timeline fails kube-controller-manager over at 2026-01-01T00:02:30.000Z \(the new leader leads from 2026-01-01T00:02:45.000Z\)$/,
  },
  {
    name: 'before the failover, before the node goes Unknown',
    file: 'one-node-stops.yaml',
    events: [[50, failover]],
    askedAt: 40,
    ref: 'Node/node-a1',
    outcome: 'NodeStatusUnknown',
    named: '2026-01-01T00:01:50.000Z',
  },
  {
    // the hunt's zone-small-partial seed 21: the pod deleted at the failover's instant is replaced by the new leader
    name: 'before the failover: a deletion at its instant is replaced by the new leader',
    file: 'zone-small-partial.yaml',
    events: [
      [60, scaleTo(14)],
      [90, failover],
      [90, { kind: 'delete', ref: 'Pod/default/web-7d9f-fg2mb' }],
    ],
    askedAt: 65,
    ref: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsCreated',
    named: '2026-01-01T00:01:45.000Z',
  },
];

for (const c of cases)
  test(`failover: ${c.name}: the time named is the run's`, () => {
    const { w, named, came } = askedThenRun(c.file, c.events, c.askedAt, c.ref, c.outcome, 720);
    assert.ok(came, 'the outcome comes');
    assert.equal(came, c.named);
    assert.equal(named, c.named);
    if (c.if) assert.match(w!.conditional!.if, c.if);
  });

test('failover: every time named in one-node-stops with a failover at +50s comes then, every never holds', () => {
  const a = wrongAnswers('one-node-stops.yaml', [[50, failover]]);
  assert.deepEqual(a.wrong, []);
  assert.ok(a.timedChecked > 0);
});
