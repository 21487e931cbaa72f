import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatOffset, naturalCompare, offsetsInText, offsetText, timesAsOffsets } from '../../src/webview/time';
import { tickStep } from '../../src/webview/views/timeline';
import { orderTaints } from '../../src/webview/views/cluster';

test('offsets read as scenarios are written: +30s, +1m05s, +1h00m00s, tenths when there are some', () => {
  assert.deepEqual([0, 30_000, 65_000, 75_100, 3_600_000, -5_000].map(formatOffset), ['+0s', '+30s', '+1m05s', '+1m15.1s', '+1h00m00s', '-5s']);
  assert.equal(offsetText('2026-01-01T00:01:05.000Z', '2026-01-01T00:00:00.000Z'), '+1m05s');
  assert.equal(offsetText('not a time', '2026-01-01T00:00:00.000Z'), 'not a time');
});

test("the clock times in a decision's message read as offsets, each keeping its clock time for the hover", () => {
  const start = '2026-01-01T00:00:00Z';
  const rows: [string, { text: string; time?: string }[]][] = [
    [
      'Pod default/web will be deleted at 2026-01-01T00:08:50.000Z (tolerates the NoExecute taints of node-a1 for 5m0s)',
      [
        { text: 'Pod default/web will be deleted at ' },
        { text: '+8m50s', time: '2026-01-01T00:08:50.000Z' },
        { text: ' (tolerates the NoExecute taints of node-a1 for 5m0s)' },
      ],
    ],
    ['ran out at 2026-01-01T00:07:50.100Z', [{ text: 'ran out at ' }, { text: '+7m50.1s', time: '2026-01-01T00:07:50.100Z' }]],
    [
      'originally 2026-01-01T00:00:50.000Z X; with y: 2026-01-01T00:00:30.000Z X',
      [
        { text: 'originally ' },
        { text: '+50s', time: '2026-01-01T00:00:50.000Z' },
        { text: ' X; with y: ' },
        { text: '+30s', time: '2026-01-01T00:00:30.000Z' },
        { text: ' X' },
      ],
    ],
    ['no time here, node-2026-01-01', [{ text: 'no time here, node-2026-01-01' }]],
    ['', [{ text: '' }]],
  ];
  for (const [message, parts] of rows) assert.deepEqual(timesAsOffsets(message, start), parts, message);
  // without a start (nothing loaded) the message stays as stored
  assert.deepEqual(timesAsOffsets('at 2026-01-01T00:08:50.000Z', undefined), [{ text: 'at 2026-01-01T00:08:50.000Z' }]);
  assert.equal(offsetsInText('at 2026-01-01T00:08:50.000Z.', start), 'at +8m50s (2026-01-01T00:08:50.000Z).');
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
