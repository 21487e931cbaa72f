import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { runCli } from './helpers/cliRun';

// `controller-stepper test examples/*.yaml` must pass: every bundled example's
// expect: block is a specification of what the real controllers decide.
const examples = readdirSync('examples')
  .filter((f) => f.endsWith('.yaml'))
  .sort();

for (const file of examples) {
  test(`the expectations of examples/${file} hold`, async () => {
    const r = await runCli('test', `examples/${file}`);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    assert.match(r.out, / 0 failed/);
  });
}
