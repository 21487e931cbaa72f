/**
 * The fuzzer's generator runs in the fuzzer's own process too (to print what a failing case
 * was): a case must come out of its seed whatever the stack, so a value it nested deep is
 * written once and never parsed or stringified again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCase } from './cases';

test('cases whose snapshot is mutated twice, after a deep value, are generated', (t) => {
  const cases: { name: string; seed: number; id: number; recipe: string }[] = [
    // the 10,000-case run of seed 1000 stopped here: the second mutation stringified the first one's 20,000 levels
    { name: 'seed 1000 case 1301: a status 20,000 deep, then a toleration', seed: 1000, id: 1301, recipe: 'object-5 | object-3' },
  ];
  for (const c of cases) {
    const made = makeCase(c.seed, c.id);
    if (!made.recipe.join(' | ').includes(c.recipe)) {
      t.skip(`${c.name}: the bases differ here (no ../shared/fixtures/real)`);
      continue;
    }
    const deepest = Math.max(...Object.values(made.files).map((text) => text.split('{"a":').length - 1));
    assert.ok(deepest >= 99, `${c.name}: the deep value is in the snapshot (${deepest})`);
  }
});

test('the same seed and id give the same case', () => {
  for (const [seed, id] of [
    [1000, 412],
    [17, 55],
    [3, 0],
  ] as const) {
    assert.deepEqual(makeCase(seed, id), makeCase(seed, id), `seed ${seed} case ${id}`);
  }
});
