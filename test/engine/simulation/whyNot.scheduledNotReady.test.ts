/**
 * A pod's deletion the taint eviction controller has scheduled, when the timeline then sets its stopped node's Ready to
 * False (or Unknown): the node lifecycle controller only swaps its NoExecute taint between not-ready and unreachable,
 * and processPodOnNode keeps a work whose CreatedAt is earlier than now, so the deadline stands where the pod tolerates
 * both (swapAhead.ts scheduledThroughNotReady). Main named no time ("the timeline changes the kubelet or conditions …
 * before the time named"): the hunt's outage-1.31 seed 2. A pod that does not tolerate not-ready is deleted at the pass
 * that reads False, and a start after the condition cancels: no time then. Asked and run forward: the time named is the
 * run's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askedThenRun } from '../../helpers/whyNotAudit';
import { pod } from '../../helpers/scenario';

const ready = (node: string, status: string) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status } });
const start = (node: string) => ({ kind: 'kubelet', action: 'start', target: { nodes: [node] } });
// tolerates unreachable for 10m, and not-ready never (a toleration that matches no taint)
const unreachableOnly = (node: string) =>
  pod('default', 'tolerates-unreachable', node, {
    tolerations: [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 600 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Equal', value: 'never', effect: 'NoExecute' },
    ],
  });

// outage-1.31: node-a1's kubelet stops at +30s, the node is Unknown and tainted unreachable at +1m10s
const cases: { name: string; events: [number, object][]; askedAt: number; ref: string; named: string | undefined; came: string | undefined }[] = [
  {
    name: 'Ready=False at +3m, the pod tolerating both taints 300s',
    events: [[180, ready('node-a1', 'False')]],
    askedAt: 75,
    ref: 'Pod/default/web-7d9f-6wlhb',
    named: '2026-01-01T00:06:10.000Z',
    came: '2026-01-01T00:06:10.000Z',
  },
  {
    name: 'Ready=Unknown at +3m',
    events: [[180, ready('node-a1', 'Unknown')]],
    askedAt: 75,
    ref: 'Pod/default/web-7d9f-6wlhb',
    named: '2026-01-01T00:06:10.000Z',
    came: '2026-01-01T00:06:10.000Z',
  },
  {
    // tolerates unreachable for 10m and not not-ready: deleted at the pass that reads False, not at +11m10s
    name: 'Ready=False at +3m, the pod tolerating unreachable alone',
    events: [
      [10, { kind: 'apply', object: unreachableOnly('node-a1') }],
      [180, ready('node-a1', 'False')],
    ],
    askedAt: 75,
    ref: 'Pod/default/tolerates-unreachable',
    named: undefined,
    came: '2026-01-01T00:03:00.000Z',
  },
  {
    // the start after it posts Ready=True: the taint goes, the deletion is cancelled
    name: 'Ready=False at +3m, then the kubelet started at +4m',
    events: [
      [180, ready('node-a1', 'False')],
      [240, start('node-a1')],
    ],
    askedAt: 75,
    ref: 'Pod/default/web-7d9f-6wlhb',
    named: undefined,
    came: undefined,
  },
];

for (const c of cases)
  test(`scheduled, then the node's Ready set: ${c.name}: the time named is the run's`, () => {
    const { named, came } = askedThenRun('outage-1.31.yaml', c.events, c.askedAt, c.ref, 'PodDeletedByTaintEviction', 900);
    assert.equal(came, c.came);
    assert.equal(named, c.named);
  });
