/**
 * A pod's taint eviction across a restart of kube-controller-manager the timeline holds (restartAhead.ts): the new
 * taint eviction controller lists the tainted node as it starts and gives each pod its whole toleration again, so a
 * taint on the node before the restart names the restart plus the toleration; anything else read from the running
 * controller's memory names no time. Asked at the time given and run forward: the time named is the run's first such
 * decision after the question (main named none for the first five: the hunt counted 440 such answers in
 * restart-mid-outage over 10 seeds).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedThenRun, wrongAnswers } from '../../helpers/whyNotAudit';

const restart = (failover = false) => ({ kind: 'restartControllerManager', failover });

const cases: { name: string; file: string; events: [number, object][]; askedAt: number; ref: string; named: string | undefined; if?: RegExp }[] = [
  {
    name: 'the node tainted before the question: the restart gives a 60s toleration again',
    file: 'restart-mid-outage.yaml',
    events: [],
    askedAt: 90,
    ref: 'Pod/default/toleration-sixty',
    named: '2026-01-01T00:03:00.000Z',
    if: /^the timeline restarts kube-controller-manager at 2026-01-01T00:02:00.000Z$/,
  },
  {
    name: 'the same with the default 300s toleration',
    file: 'restart-mid-outage.yaml',
    events: [],
    askedAt: 90,
    ref: 'Pod/default/web-7d9f-6wlhb',
    named: '2026-01-01T00:07:00.000Z',
  },
  {
    name: "the node's taint named under the timeline's stop, before the restart",
    file: 'restart-mid-outage.yaml',
    events: [],
    askedAt: 0,
    ref: 'Pod/default/toleration-sixty',
    named: '2026-01-01T00:03:00.000Z',
    if: /^the timeline stops the kubelet at 2026-01-01T00:00:30.000Z and restarts kube-controller-manager at 2026-01-01T00:02:00.000Z$/,
  },
  {
    name: 'a restart added to one-node-stops after the taint',
    file: 'one-node-stops.yaml',
    events: [[150, restart()]],
    askedAt: 120,
    ref: 'Pod/default/web-7d9f-6wlhb',
    named: '2026-01-01T00:07:30.000Z',
  },
  {
    name: 'a restart before the taint: the fresh controller sees the node anew, no time',
    file: 'one-node-stops.yaml',
    events: [[50, restart()]],
    askedAt: 40,
    ref: 'Pod/default/web-7d9f-6wlhb',
    named: undefined,
  },
  {
    // the fresh controller takes every controller taint away and queues the zone's failing nodes again: node-a2 waits
    // behind others and is tainted again at +3m10s, its pods deleted at +8m10s (restart plus toleration said +8m)
    name: 'a restart with other failing nodes in the zone: its new queue decides, no time',
    file: 'outage-1.31.yaml',
    events: [
      [120, { kind: 'kubelet', action: 'stop', target: { nodes: ['node-a4'] } }],
      [180, restart()],
    ],
    askedAt: 120,
    ref: 'Pod/default/web-7d9f-gszhb',
    named: undefined,
  },
  {
    // the hunt's restart-mid-outage with a failover added at +2m too: the new leader waits 15s, deleted at +3m15s
    name: 'a failover at the instant of the restart: no time',
    file: 'restart-mid-outage.yaml',
    events: [[120, restart(true)]],
    askedAt: 90,
    ref: 'Pod/default/toleration-sixty',
    named: undefined,
  },
  {
    // the hunt's restart-mid-outage seed 2 (HUNT_PARTIAL): a taint the pod does not tolerate at the restart's instant
    name: "a timeline taint of the node at the restart's instant: no time",
    file: 'restart-mid-outage.yaml',
    events: [[120, { kind: 'taint', target: { nodes: ['node-a1'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } }]],
    askedAt: 90,
    ref: 'Pod/default/toleration-sixty',
    named: undefined,
  },
  {
    // the hunt's one-node-stops seed 48 (HUNT_RESTART=1): node-a1 set Ready=False at +20s, its kubelet stopped at +30s,
    // so its not-ready taint is swapped for unreachable at +1m10s; toleration-zero tolerates the first 5m, the second 0s,
    // and the new taint eviction controller deletes it at the restart (+8m00s was named, from the not-ready taint)
    name: 'a NotReady node whose kubelet is stopped: its taint swapped on the way, no time',
    file: 'one-node-stops.yaml',
    events: [
      [20, { kind: 'condition', target: { nodes: ['node-a1'] }, condition: { type: 'Ready', status: 'False' } }],
      [180, restart()],
    ],
    askedAt: 30,
    ref: 'Pod/default/toleration-zero',
    named: undefined,
  },
  {
    // the new leader's run, worked out (newLeader.ts; whyNot.failover.test.ts has the rest)
    name: 'a failover: the new leader starts after the old lease and gives the toleration again',
    file: 'one-node-stops.yaml',
    events: [[150, restart(true)]],
    askedAt: 120,
    ref: 'Pod/default/web-7d9f-6wlhb',
    named: '2026-01-01T00:07:45.000Z',
  },
];

for (const c of cases)
  test(`restart ahead: ${c.name}: the time named is the run's`, () => {
    const { w, named, came } = askedThenRun(c.file, c.events, c.askedAt, c.ref, 'PodDeletedByTaintEviction', 720);
    assert.equal(named, c.named);
    if (c.if) assert.match(w!.conditional!.if, c.if);
    assert.ok(came, 'the pod is deleted');
    if (named !== undefined) assert.equal(named, came);
  });

test('restart ahead: every time named in restart-mid-outage comes then, every never holds', () => {
  const a = wrongAnswers('restart-mid-outage.yaml', []);
  assert.deepEqual(a.wrong, []);
  assert.ok(a.timedChecked > 0);
});
