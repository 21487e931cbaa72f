import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatOffset, naturalCompare, offsetText } from '../../src/webview/time';
import { tickStep } from '../../src/webview/views/timeline';
import { orderTaints } from '../../src/webview/views/cluster';

test('offsets read as scenarios are written: +30s, +1m05s, +1h00m00s, tenths when there are some', () => {
  assert.deepEqual([0, 30_000, 65_000, 75_100, 3_600_000, -5_000].map(formatOffset), ['+0s', '+30s', '+1m05s', '+1m15.1s', '+1h00m00s', '-5s']);
  assert.equal(offsetText('2026-01-01T00:01:05.000Z', '2026-01-01T00:00:00.000Z'), '+1m05s');
  assert.equal(offsetText('not a time', '2026-01-01T00:00:00.000Z'), 'not a time');
});

test('node names sort naturally: -9 before -10 before -11 before -100', () => {
  assert.deepEqual(['node-100', 'node-11', 'node-9', 'node-10', 'node-a'].sort(naturalCompare), ['node-9', 'node-10', 'node-11', 'node-100', 'node-a']);
});

test('the time axis takes the smallest round step that gives at most eight ticks', () => {
  assert.equal(tickStep(120_000), 15_000);
  assert.equal(tickStep(3_600_000), 600_000);
  assert.equal(tickStep(40_000), 5_000);
});

test('NoExecute taints come first, as they are what evicts', () => {
  assert.deepEqual(orderTaints(['a:NoSchedule', 'b:NoExecute', 'c:PreferNoSchedule']), ['b:NoExecute', 'a:NoSchedule', 'c:PreferNoSchedule']);
  assert.deepEqual(
    orderTaints(['node-role.kubernetes.io/control-plane:NoSchedule', 'node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']),
    ['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule', 'node-role.kubernetes.io/control-plane:NoSchedule'],
    'the controllers\u2019 taints before the user\u2019s own',
  );
});
