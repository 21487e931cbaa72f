/**
 * PieceCounter: where work made in pieces (the controllers' start, the node lifecycle controller's
 * passes, run-ahead's copy of the cluster) may yield.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PieceCounter } from '../../../src/engine/controllers/controller';

test('a piece ends at every size-th record, across all the loops that share the counter', () => {
  const cases: [name: string, size: number, loops: number[], ends: number[]][] = [
    ['one record a piece: every record ends one', 1, [3], [1, 2, 3]],
    ['three a piece: the 3rd and the 6th', 3, [7], [3, 6]],
    ['a piece spans two loops: the count goes on in the second', 4, [3, 6], [4, 8]],
    ['fewer records than a piece: no end', 16, [15], []],
    ['Infinity: never (the work at once, drain)', Infinity, [1000], []],
  ];
  for (const [name, size, loops, ends] of cases) {
    const piece = new PieceCounter(size);
    const got: number[] = [];
    let record = 0;
    for (const records of loops)
      for (let i = 0; i < records; i++) {
        record++;
        if (piece.tick()) got.push(record);
      }
    assert.deepEqual(got, ends, name);
  }
});
