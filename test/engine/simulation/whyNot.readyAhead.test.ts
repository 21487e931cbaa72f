/**
 * A ReplicaSet's replacement waits for the deletion of its pods on failing nodes, and a node the timeline sets Ready=False
 * is one (nodeFails.ts; found by scripts/whyNotHunt.ts seeds 47 and 48; each run through the audit, every answer named and
 * every never run forward):
 * - rs-slow-start seed 48: ReplicaSet batch waited for its pod on node-a5, stopped at +4m ("+9m40s"), while the pods on
 *   node-c1, set Ready=False at +4m, went at +9m and the replacement with them;
 * - notready-then-unknown seed 47: the one pod waited for was on node-a4, stopped at +2m and started again at +4m
 *   ("never"), while node-b1's Ready=False at +30s (the example's own) took its pod and made the replacement at +5m30s.
 * And a node's taint under the timeline's Ready=False counts the zone's other nodes set Ready=False with it (seeds 56 and
 * 60: the second of two set at +20s was said tainted at +20s; the queue let it through at +30s).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrongAnswers } from '../../helpers/whyNotAudit';

const scale = (replicas: number) => ({ kind: 'scale', replicaSet: 'default/web-7d9f', replicas });
const kubelet = (action: 'stop' | 'start', node: string) => ({ kind: 'kubelet', action, target: { nodes: [node] } });

const notReady = (node: string) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status: 'False' } });

const cases: { name: string; file: string; events: [number, object][] }[] = [
  {
    name: 'two nodes of one zone set Ready=False at one instant: one token each (seed 56)',
    file: 'one-node-stops.yaml',
    events: [
      [20, notReady('node-b3')],
      [20, notReady('node-b2')],
    ],
  },
  {
    name: 'the same in notready-then-unknown (seed 60)',
    file: 'notready-then-unknown.yaml',
    events: [
      [20, notReady('node-a2')],
      [20, notReady('node-a4')],
    ],
  },
  {
    name: 'a replacement behind a stopped node and one set Ready=False (seed 48)',
    file: 'rs-slow-start.yaml',
    events: [
      [30, scale(13)],
      [45, scale(13)],
      [60, scale(9)],
      [240, { kind: 'condition', target: { nodes: ['node-c1'] }, condition: { type: 'Ready', status: 'False' } }],
      [240, kubelet('stop', 'node-a5')],
    ],
  },
  {
    name: "a replacement behind a node stopped and started again, and the example's Ready=False (seed 47)",
    file: 'notready-then-unknown.yaml',
    events: [
      [20, kubelet('start', 'node-a3')],
      [120, kubelet('stop', 'node-a4')],
      [240, kubelet('start', 'node-a4')],
    ],
  },
];

for (const c of cases)
  test(`ready ahead: ${c.name}: every time named comes then, every never holds`, () => {
    const a = wrongAnswers(c.file, c.events);
    assert.deepEqual(a.wrong, []);
    assert.ok(a.timedChecked > 0, 'some answers named a time and were run forward');
  });
