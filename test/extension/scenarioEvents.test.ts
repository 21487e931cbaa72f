import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarioEventMarks } from '../../src/extension/scenarioEvents';
import { parseTimestamp, seconds, type Micros } from '../../src/engine/model/time';

test('the scenario events are marked at their time, offsets from the start and absolute times alike, each with what it does', () => {
  const start = parseTimestamp('2026-01-01T00:00:00Z') as Micros;
  const marks = scenarioEventMarks(
    [
      { kind: 'kubelet', action: 'stop', at: { offset: seconds(30) }, index: 0, target: { nodes: ['node-a1', 'node-a2'] } },
      { kind: 'kubelet', action: 'start', at: { time: start + seconds(180) }, index: 1, target: { zone: 'us-east-1a' } },
      { kind: 'restartControllerManager', at: { offset: seconds(300) }, index: 2, failover: true },
    ],
    start,
  );
  assert.deepEqual(marks, [
    { at: '2026-01-01T00:00:30.000Z', text: 'kubelet stop: node-a1, node-a2' },
    { at: '2026-01-01T00:03:00.000Z', text: 'kubelet start: zone us-east-1a' },
    { at: '2026-01-01T00:05:00.000Z', text: 'controller manager failover' },
  ]);
  assert.deepEqual(scenarioEventMarks(undefined, start), []);
});
