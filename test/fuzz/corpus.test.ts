/**
 * Every reproducer the fuzzer found, and the hand-made traps of issue 17, kept as regression
 * cases: each must now load (or be refused with problems as data) and run without an exception,
 * keep the invariants, give the same result twice, and step back to the same state.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCase } from './runCase';
import type { FuzzCase } from './cases';

const CORPUS = join(__dirname, '..', 'fuzz-corpus');

for (const file of readdirSync(CORPUS)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  test(`corpus ${file} is handled cleanly and the same way twice`, { timeout: 60_000 }, () => {
    const saved = JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as FuzzCase & { expect?: 'refused' | 'ran'; problem?: string };
    const c: FuzzCase = { id: 0, recipe: [], files: saved.files, entry: saved.entry, horizonSeconds: saved.horizonSeconds ?? 600 };
    const first = runCase(c);
    assert.notEqual(first.outcome, 'crash', first.error);
    assert.deepEqual(first.violations, []);
    assert.notEqual(first.stepBack, 'mismatch');
    // a trap is refused outright when it would make the run unsafe, else reported and left out of a partial run
    if (saved.expect === 'ran') assert.equal(first.outcome, 'ran', `${file}: ${first.errors?.join(', ')}`);
    if (saved.expect === 'refused') assert.ok(first.errors?.length, `${file}: an error is reported`);
    if (saved.problem) assert.ok(first.errors?.includes(saved.problem), `${file}: expected ${saved.problem}, got ${first.errors?.join(', ')}`);
    assert.equal(runCase(c).hash, first.hash, 'the same input gives the same problems, trace and state');
  });
}
