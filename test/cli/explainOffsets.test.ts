import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cliRun';
import { timesAsOffsets } from '../../src/engine/trace/text';

test('explain prints times as offsets from the start, the clock time in brackets; its JSON keeps the trace’s times', async () => {
  const r = await runCli('explain', 'examples/one-node-stops.yaml', '--object', 'Pod/default/toleration-sixty', '--until', '1m10s');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Pod\/default\/toleration-sixty, as of \+1m10s \(2026-01-01T00:01:10\.000Z\)\n/);
  assert.match(
    r.out,
    /\n\+1m10s {2}#\d+ PodEvictionScheduled \(taint-eviction\): Pod default\/toleration-sixty will be deleted at \+2m10s \(2026-01-01T00:02:10\.000Z\)/,
  );
  assert.match(r.out, /\n {6}\+30s {2}#\d+ KubeletStopped Node\/node-a1/);
  assert.match(r.out, /would fire at \+2m10s \(2026-01-01T00:02:10\.000Z\)\n$/);
  // no clock time without its offset before it
  assert.doesNotMatch(r.out.replace(/\+[\dhms.]+ \(\d{4}-[^)]+\)/g, ''), /\d{4}-\d{2}-\d{2}T/);
  const j = await runCli('explain', 'examples/one-node-stops.yaml', '--object', 'Pod/default/toleration-sixty', '--until', '1m10s', '--format', 'json');
  assert.equal(JSON.parse(j.out).whyNot[0].wouldFireAt, '2026-01-01T00:02:10.000Z');
});

test('timesAsOffsets: every clock time in a text, before the start too; no start, no change', () => {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const rows: [string, string][] = [
    ['at 2026-01-01T00:08:50.000Z.', 'at +8m50s (2026-01-01T00:08:50.000Z).'],
    ['a=2026-01-01T00:00:05.100Z, b=2025-12-31T23:59:55.000Z', 'a=+5.1s (2026-01-01T00:00:05.100Z), b=-5s (2025-12-31T23:59:55.000Z)'],
    ['node-2026-01-01 has no time', 'node-2026-01-01 has no time'],
  ];
  for (const [text, want] of rows) assert.equal(timesAsOffsets(text, start), want);
  assert.equal(timesAsOffsets('at 2026-01-01T00:08:50.000Z', NaN), 'at 2026-01-01T00:08:50.000Z');
});
