import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchMemo } from '../../../src/engine/simulation/batchMemo';

test('BatchMemo: a batch of the same records in the same order is recognised; anything else is made anew', () => {
  const a = { n: 'a' },
    b = { n: 'b' },
    c = { n: 'c' };
  const memo = new BatchMemo<{ n: string }, string>();
  let made = 0;
  const make = (r: { n: string }) => {
    made++;
    return r.n.toUpperCase();
  };
  const scratch = [a, b, c, c];
  const first = memo.get(scratch, 3, make)!;
  assert.deepEqual(first.values, ['A', 'B', 'C']);
  assert.equal(made, 3);
  first.mark = 1;
  scratch[3] = a; // the caller reuses its array beyond count: not part of the batch
  assert.equal(memo.get(scratch, 3, make), first, 'same records, same order');
  assert.equal(made, 3);
  const cases: { name: string; batch: { n: string }[] }[] = [
    { name: 'one record fewer', batch: [a, b] },
    { name: 'same first record, another after it', batch: [a, c, b] },
    { name: 'another first record', batch: [b, a, c] },
  ];
  for (const k of cases) {
    const got = memo.get(k.batch, k.batch.length, make)!;
    assert.notEqual(got, first, k.name);
    assert.deepEqual(
      got.values,
      k.batch.map((r) => r.n.toUpperCase()),
      k.name,
    );
    assert.equal(got.mark, undefined, `${k.name}: a new batch has no mark`);
  }
  assert.equal(memo.get([], 0, make), undefined, 'an empty batch');
  // the copy kept is the memo's own: editing the caller's array does not change it
  scratch[0] = c;
  assert.deepEqual(memo.get([a, b, c], 3, make)!.records, [a, b, c]);
});
