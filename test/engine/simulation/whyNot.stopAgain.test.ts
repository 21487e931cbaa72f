/**
 * A whole `kubelet: stop` of a kubelet the timeline has stopped by then (or that is stopped now) changes nothing: the
 * answers through the first stop keep their time. Main read the second stop as an event about the kubelet that may
 * change the outcome and named no time (the hunt's all-zones-down seed 2: node-a2 stopped at +20s, every node at +30s).
 * Asked and run forward: the time named is the run's first such decision after the question.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedThenRun } from '../../helpers/whyNotAudit';

const stop = (node: string) => ({ kind: 'kubelet', action: 'stop', target: { nodes: [node] } });
const start = (node: string) => ({ kind: 'kubelet', action: 'start', target: { nodes: [node] } });

const cases: { name: string; file: string; events: [number, object][]; askedAt: number; ref: string; named: string | undefined }[] = [
  {
    name: "a node stopped before the cluster's stop",
    file: 'all-zones-down.yaml',
    events: [[20, stop('node-a2')]],
    askedAt: 0,
    ref: 'Node/node-a2',
    named: '2026-01-01T00:00:55.000Z',
  },
  {
    name: 'a stop of a kubelet stopped now',
    file: 'one-node-stops.yaml',
    events: [[45, stop('node-a1')]],
    askedAt: 40,
    ref: 'Node/node-a1',
    named: '2026-01-01T00:01:05.000Z',
  },
  {
    // a start between the two stops: the second stop is an event again (the start posts Ready), no time
    name: 'a stop after a start of the stopped kubelet',
    file: 'one-node-stops.yaml',
    events: [
      [40, start('node-a1')],
      [45, stop('node-a1')],
    ],
    askedAt: 35,
    ref: 'Node/node-a1',
    named: undefined,
  },
];

for (const c of cases)
  test(`stop again: ${c.name}: the time named is the run's`, () => {
    const { named, came } = askedThenRun(c.file, c.events, c.askedAt, c.ref, 'NodeStatusUnknown', 300);
    assert.equal(named, c.named);
    assert.ok(came, 'the node goes Unknown');
    if (c.named !== undefined) assert.equal(came, c.named);
  });
