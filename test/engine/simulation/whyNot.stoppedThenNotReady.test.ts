/**
 * 1.12's pod-eviction path when the timeline sets Ready=False on a node whose kubelet it stopped, before the pass that
 * would queue the node: the pass that reads False sees Ready change and counts podEvictionTimeout again from its own
 * time (tryUpdateNodeHealth sets probeTimestamp and readyTransitionTimestamp), so the pods go five minutes after it, not
 * five minutes after the stop (whyNotTaintedOrEvicted.ts stoppedThenNotReady, stopThenNotReady). Main named no time for
 * any of these ("the timeline changes the kubelet or conditions … before the time named"): the hunt's outage-1.12
 * seed 2. Asked and run forward: the time named is the run's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedThenRun } from '../../helpers/whyNotAudit';
import type { WhyNotOutcome } from '../../../src/engine/trace/whyNot';

const notReady = (node: string) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status: 'False' } });

const cases: { name: string; events: [number, object][]; askedAt: number; ref: string; outcome: WhyNotOutcome; named: string }[] = [
  {
    name: 'asked before the stop (+30s): Ready=False at +3m',
    events: [[180, notReady('node-a1')]],
    askedAt: 0,
    ref: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByPodEviction',
    named: '2026-01-01T00:08:05.000Z',
  },
  {
    name: 'asked at the stop, the node still Ready',
    events: [[180, notReady('node-a1')]],
    askedAt: 30,
    ref: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByPodEviction',
    named: '2026-01-01T00:08:05.000Z',
  },
  {
    name: 'asked once the node is Unknown',
    events: [[180, notReady('node-a1')]],
    askedAt: 65,
    ref: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByPodEviction',
    named: '2026-01-01T00:08:05.000Z',
  },
  {
    // after the pass that queues it the pods are gone already: the stop's own time stands
    name: 'Ready=False after the pass that queues the node (+6m40s)',
    events: [[400, notReady('node-a1')]],
    askedAt: 65,
    ref: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByPodEviction',
    named: '2026-01-01T00:05:25.000Z',
  },
];

for (const c of cases)
  test(`stopped, then Ready=False: ${c.name}: the time named is the run's`, () => {
    const { named, came } = askedThenRun('outage-1.12.yaml', c.events, c.askedAt, c.ref, c.outcome, 900);
    assert.equal(named, c.named);
    assert.equal(came, c.named);
  });
