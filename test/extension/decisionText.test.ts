import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decisionMessage, decisionTreeText, offsetAndTime } from '../../src/extension/decisionText';
import { parseTimestamp } from '../../src/engine/model/time';
import type { Decision } from '../../src/engine/trace/decision';

const start = parseTimestamp('2026-01-01T00:00:00Z')!;
const scheduled = {
  seq: 39,
  time: '2026-01-01T00:01:10.000Z',
  pass: 14,
  controller: 'taint-eviction',
  action: 'PodEvictionScheduled',
  object: 'Pod/default/toleration-sixty',
  summary: 'Pod default/toleration-sixty will be deleted at 2026-01-01T00:02:10.000Z (tolerates the NoExecute taints of node-a1 for 1m0s)',
  because: [{ rule: 'deletion scheduled at CreatedAt + min(tolerationSeconds)' }],
  causes: [],
  source: 'tainteviction/taint_eviction.go: processPodOnNode',
} as unknown as Decision;

test('the Decisions tree and the Next Decision / Run Until messages read times as offsets (the clock time in brackets or the tooltip)', () => {
  assert.equal(decisionMessage(scheduled, start), '+1m10s (2026-01-01T00:01:10.000Z) PodEvictionScheduled Pod/default/toleration-sixty');
  assert.equal(
    decisionMessage(scheduled, start, true),
    '+1m10s (2026-01-01T00:01:10.000Z) PodEvictionScheduled Pod/default/toleration-sixty: Pod default/toleration-sixty will be deleted at +2m10s (tolerates the NoExecute taints of node-a1 for 1m0s)',
  );
  const t = decisionTreeText(scheduled, start / 1000);
  assert.equal(t.description, '+1m10s Pod default/toleration-sixty will be deleted at +2m10s (tolerates the NoExecute taints of node-a1 for 1m0s)');
  assert.equal(
    t.tooltip,
    [
      '+1m10s (2026-01-01T00:01:10.000Z)',
      'Pod default/toleration-sixty will be deleted at +2m10s (2026-01-01T00:02:10.000Z) (tolerates the NoExecute taints of node-a1 for 1m0s)',
      '• deletion scheduled at CreatedAt + min(tolerationSeconds)',
      'tainteviction/taint_eviction.go: processPodOnNode',
    ].join('\n'),
  );
  assert.equal(offsetAndTime(start + 95_000_000, start), '+1m35s (2026-01-01T00:01:35.000Z)');
  // without a session (no start), the tree shows the clock times as stored
  assert.match(decisionTreeText(scheduled, NaN).description, /^2026-01-01T00:01:10\.000Z .*deleted at 2026-01-01T00:02:10\.000Z/);
});
