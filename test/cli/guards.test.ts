/**
 * Bounded runs (issue 17 §2): replay, explain and test stop at --max-decisions
 * or --max-seconds, keep the output so far whole, say on stderr which limit
 * stopped them, at which simulated time and how to raise it, and exit 2.
 * The clock is injected through the io: no test here waits on real time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCliWith as run } from '../helpers/cliRun';
import { DEFAULT_MAX_DECISIONS, DEFAULT_MAX_SECONDS } from '../../src/cli/guards';
import { USAGE } from '../../src/cli/cli';

const EXAMPLE = 'examples/one-node-stops.yaml';
const LONG_EXPECT = 'test/fixtures/cli/long-expect.yaml';

/** A clock that moves one second each time it is read. */
function tickingClock(): () => number {
  let ms = 0;
  return () => (ms += 1000);
}

test('a 100-hour replay with --max-decisions 1000 stops with exit 2, whole JSON lines, and says which limit, when, and how to raise it', async () => {
  const r = await run(['replay', EXAMPLE, '--until', '100h', '--format', 'json', '--max-decisions', '1000']);
  assert.equal(r.code, 2, r.err);
  assert.ok(r.out.endsWith('\n'), 'the last line is whole');
  const lines = r.out.trimEnd().split('\n');
  for (const l of lines) JSON.parse(l);
  assert.ok(lines.length >= 1000 && lines.length < 1100, `stopped soon after 1000 decisions, not at the end: ${lines.length}`);
  assert.match(
    r.err,
    /stopped at \+\d+h\d\dm\d\ds \(1\d\d\d decision\(s\)\): the run reached --max-decisions 1000; .*raise the limit with --max-decisions N \(default 5000000\)/,
  );
});

test('the same replay without the guard runs to the end with exit 0 (the limit, not the scenario, stopped it)', async () => {
  const r = await run(['replay', EXAMPLE, '--until', '2h', '--format', 'json', '--max-decisions', '100000']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '');
  assert.match(r.out.trimEnd().split('\n').at(-1)!, /"time":"2026-01-01T0[12]:/);
});

test('a text replay stopped by --max-decisions still prints its header and the trace so far', async () => {
  const r = await run(['replay', EXAMPLE, '--until', '100h', '--ticks', '--max-decisions', '500']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.out, /^# one-node-stops: Kubernetes 1\.31, 5\d\d decision\(s\)\n/);
  assert.match(r.err, /--max-decisions 500/);
});

test('--max-seconds stops a replay when the injected clock passes it: exit 2, and the message names --max-seconds', async () => {
  const r = await run(['replay', EXAMPLE, '--until', '100h', '--format', 'json', '--max-seconds', '5'], { now: tickingClock() });
  assert.equal(r.code, 2, r.err);
  assert.match(
    r.err,
    /stopped at \+\d+s \(\d+ decision\(s\)\): the run took longer than --max-seconds 5; .*raise the limit with --max-seconds S \(default 600\)/,
  );
  assert.ok(r.out.trimEnd().split('\n').length < 30, 'it stopped after a few instants');
});

test('the default time guard (600 s) is checked too: a clock that jumps 10 minutes stops the run', async () => {
  let ms = 0;
  const r = await run(['replay', EXAMPLE, '--until', '100h', '--format', 'json'], { now: () => (ms += 601_000) });
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /--max-seconds 600/);
});

test('explain stops at --max-decisions with exit 2, prints the explanation as of where it stopped', async () => {
  const r = await run(['explain', EXAMPLE, '--object', 'Node/node-a1', '--until', '100h', '--max-decisions', '1000']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.out, /^Node\/node-a1, as of /);
  assert.match(r.err, /the run reached --max-decisions 1000/);
});

test('test stops at --max-decisions with exit 2: the expectations reached are reported, the closing line says "not finished"', async () => {
  const r = await run(['test', LONG_EXPECT, '--max-decisions', '1000']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.out, /ok {4}at \+2m00s \(2026-01-01T00:02:00\.000Z\): Pod\/default\/toleration-unset is deleted/);
  assert.match(r.out, /\n1 passed, 0 failed, not finished\n$/);
  assert.match(r.err, /the run reached --max-decisions 1000/);
});

test('test stops at --max-seconds with an injected clock, exit 2', async () => {
  const r = await run(['test', LONG_EXPECT, '--max-seconds', '3'], { now: tickingClock() });
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /--max-seconds 3/);
});

test('--max-decisions 0 and a non-number are usage errors (exit 2)', async () => {
  assert.equal((await run(['replay', EXAMPLE, '--max-decisions', '0'])).code, 2);
  const r = await run(['replay', EXAMPLE, '--max-seconds', 'ten']);
  assert.equal(r.code, 2);
  assert.match(r.err, /--max-seconds wants a whole number/);
});

test('the usage text states both guards with their defaults and exit codes 2 and 130', () => {
  assert.equal(DEFAULT_MAX_DECISIONS, 5_000_000);
  assert.equal(DEFAULT_MAX_SECONDS, 600);
  assert.match(USAGE, /--max-decisions N\] \(default 5000000/);
  assert.match(USAGE, /--max-seconds S\] \(default 600 seconds/);
  assert.match(USAGE, /a run stopped at --max-decisions or --max-seconds/);
  assert.match(USAGE, /130 interrupted \(Ctrl-C\)/);
});
