/**
 * A pod's deletion when the timeline adds a NoExecute taint it does not tolerate at all, after an event about the node
 * that is no taint (nodeTaintChain.ts readOtherTimelineTaint): the taint eviction controller deletes it at the taint,
 * whatever the node lifecycle controller's own taint would do later. Main named no time ("it may be deleted before"):
 * the hunt's all-zones-down seed 3. Asked and run forward: the time named is the run's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedThenRun } from '../../helpers/whyNotAudit';

const taint = (node: string, key = 'example.com/maint') => ({ kind: 'taint', target: { nodes: [node] }, taint: { key, effect: 'NoExecute' } });
const untaint = (node: string, key = 'example.com/maint') => ({ kind: 'untaint', target: { nodes: [node] }, taint: { key, effect: 'NoExecute' } });

const cases: { name: string; file: string; events: [number, object][]; askedAt: number; ref: string; named: string | undefined }[] = [
  {
    name: "every kubelet stopped at +30s, the pod's node tainted by the timeline at +4m",
    file: 'all-zones-down.yaml',
    events: [[240, taint('node-c1')]],
    askedAt: 0,
    ref: 'Pod/default/web-7d9f-sp8lb',
    named: '2026-01-01T00:04:00.000Z',
  },
  {
    name: 'the same asked after the stop',
    file: 'all-zones-down.yaml',
    events: [[240, taint('node-c1')]],
    askedAt: 60,
    ref: 'Pod/default/web-7d9f-sp8lb',
    named: '2026-01-01T00:04:00.000Z',
  },
  {
    // another taint event of the node at that instant: read together, no time
    name: 'a second taint event at the same instant',
    file: 'all-zones-down.yaml',
    events: [
      [240, taint('node-c1')],
      [240, untaint('node-c1')],
    ],
    askedAt: 0,
    ref: 'Pod/default/web-7d9f-sp8lb',
    named: undefined,
  },
];

for (const c of cases)
  test(`timeline taint: ${c.name}: the time named is the run's`, () => {
    const { named, came } = askedThenRun(c.file, c.events, c.askedAt, c.ref, 'PodDeletedByTaintEviction');
    assert.equal(named, c.named);
    if (c.named !== undefined) assert.equal(came, c.named);
  });
