/**
 * Progress (issue 17 §2): on a terminal's stderr a long replay shows one
 * updating line, the simulated time reached out of the run's end and the
 * decisions so far; a pipe gets none of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCliWith } from '../helpers/cliRun';
import { runBin } from '../helpers/binRun';

const EXAMPLE = 'examples/one-node-stops.yaml';

test('with a progress line (a terminal), a replay reports the simulated time reached / the end and the decisions so far, then clears it', async () => {
  const shown: string[] = [];
  const { code, out } = await runCliWith(['replay', EXAMPLE, '--until', '2h', '--format', 'json'], {
    progress: (t) => {
      shown.push(t);
    },
    pause: () => Promise.resolve(),
  });
  assert.equal(code, 0);
  assert.ok(shown.length > 2, `the line was redrawn as the run went on: ${shown.length}`);
  assert.match(shown[0], /^controller-stepper: \+[\dhms]+ \/ \+2h00m00s, \d+ decision\(s\) so far \(Ctrl-C stops\)$/);
  const counts = shown.slice(0, -1).map((t) => Number(/, (\d+) decision/.exec(t)![1]));
  assert.ok(
    counts.every((n, i) => i === 0 || n >= counts[i - 1]),
    'the decisions so far only grow',
  );
  assert.equal(shown[shown.length - 1], '', 'the line is cleared at the end');
  assert.ok(out.length > 0);
});

test('a replay whose stderr is a pipe prints no progress text there', () => {
  const r = runBin(['replay', EXAMPLE, '--until', '2h', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '', 'stderr is empty: no progress line, no carriage return');
  assert.ok(r.out.split('\n').length > 100);
});
