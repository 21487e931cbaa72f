/**
 * `validate` and `replay` give the same file:line:column for the same
 * diagnostic (issue 13 §5): both read the input through the same parser,
 * and this checks it through the real command for inputs with errors in the
 * scenario, the settings, the expectations and the snapshot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runBin } from '../helpers/binRun';

const F = 'test/fixtures/cli';
const inputs = [
  `${F}/bad-setting.yaml`,
  `${F}/expect-not-boolean.yaml`,
  `${F}/expect-misspelt-key.yaml`,
  `${F}/missing-snapshot.yaml`,
  `${F}/expect-never-existed.yaml`,
  `${F}/quoted-flag.yaml`,
  `${F}/no-start-time.yaml`,
  'package.json',
];

/** `severity code: message` -> `file:line:column`, from the lines of stderr that carry a position. */
function diagnostics(stderr: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of stderr.matchAll(/^(.+?:\d+:\d+): (error|warning|info) ([\w-]+): (.*)$/gm)) out.set(`${m[2]} ${m[3]}: ${m[4]}`, m[1]);
  return out;
}

for (const file of inputs) {
  test(`${file}: every diagnostic replay reports is at the same line:column in validate`, () => {
    const v = diagnostics(runBin(['validate', file]).err);
    const r = diagnostics(runBin(['replay', file, '--until', '1m']).err);
    assert.ok(r.size > 0, 'replay reports something with a position');
    for (const [what, where] of r) assert.equal(v.get(what), where, what);
    const errors = (m: Map<string, string>) => [...m].filter(([w]) => w.startsWith('error')).sort();
    assert.deepEqual(errors(r), errors(v), 'the same errors');
  });
}

test('replay reports no diagnostic of a scenario file without its position (no-start-time included)', () => {
  for (const file of inputs.filter((f) => f.endsWith('.yaml'))) {
    const unplaced = runBin(['replay', file, '--until', '1m'])
      .err.split('\n')
      .filter((l) => /^(error|warning) [\w-]+:/.test(l));
    assert.deepEqual(unplaced, [], file);
  }
  const r = diagnostics(runBin(['replay', `${F}/no-start-time.yaml`, '--until', '1m']).err);
  assert.ok(
    [...r.keys()].some((k) => k.startsWith('warning no-start-time')),
    'the case is exercised',
  );
});
