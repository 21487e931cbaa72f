/**
 * Answers read against the node lifecycle controller's master disruption mode (every zone in FullDisruption: it removes
 * its not-ready and unreachable taints everywhere and evicts nothing), found by scripts/whyNotHunt.ts on all-zones-down,
 * where the timeline stops every kubelet at +30s; each run through the audit, every answer named and every never run forward:
 * - seed 23: a kubelet start at +20s of a node the +30s stop takes down with the others made it "a node of another zone
 *   that stays up" (its first event was no stop), so zone b's forecast named taints at +1m10s..+1m30s that never came;
 * - seeds 28 and 34: a pod's deletion under the controller's taint said for +6m (+5m10s), cancelled when the last zone
 *   went down: no node stays Ready until then (masterAhead.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrongAnswers } from '../../helpers/whyNotAudit';

const kubelet = (action: 'stop' | 'start', node: string) => ({ kind: 'kubelet', action, target: { nodes: [node] } });
const notReady = (node: string) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status: 'False' } });

const cases: { name: string; events: [number, object][] }[] = [
  { name: 'a start before the stop of every node is no node that stays up (seed 23)', events: [[20, kubelet('start', 'node-a5')]] },
  { name: "a pod's deletion scheduled under the unreachable taint (seed 28)", events: [[20, kubelet('stop', 'node-b2')]] },
  {
    // the reader's bound: a stopped node's Unknown comes at a pass past probeTimestamp + grace, from the controller's probe
    // (before, the Lease renewal's time: node-a3, stopped at +20s, said no time for its taint at +1m; the others went
    // Unknown at +1m5s)
    name: 'a node stopped before the others is tainted before every zone can be down (seed 56)',
    events: [[20, kubelet('stop', 'node-a3')]],
  },
  {
    name: "a pod's deletion under a taint to come, nodes set Ready=False first (seed 34)",
    events: [
      [30, notReady('node-a6')],
      [10, notReady('node-a1')],
      [60, { kind: 'taint', target: { nodes: ['node-a3'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } }],
    ],
  },
];

for (const c of cases)
  test(`master disruption ahead: ${c.name}: every time named comes then, every never holds`, () => {
    const a = wrongAnswers('all-zones-down.yaml', c.events);
    assert.deepEqual(a.wrong, []);
    assert.ok(a.timedChecked > 0, 'some answers named a time and were run forward');
  });
