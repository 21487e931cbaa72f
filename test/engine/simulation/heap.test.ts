import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BinaryHeap, MinHeap } from '../../../src/engine/simulation/heap';
import { mulberry32 } from '../../helpers/random';

describe('the queue of due work', () => {
  it('pops by time, and items due at the same time in the order they were pushed', () => {
    const h = new MinHeap<string>();
    const items: [number, string][] = [
      [5, 'e1'],
      [1, 'a'],
      [5, 'e2'],
      [3, 'c'],
      [5, 'e3'],
      [0, 'z'],
      [3, 'c2'],
    ];
    for (const [t, v] of items) h.push(t, v);
    const out: string[] = [];
    while (h.size) out.push(h.pop()!.value);
    assert.deepEqual(out, ['z', 'a', 'c', 'c2', 'e1', 'e2', 'e3']);
  });

  it('saves and restores its contents for checkpoints', () => {
    const h = new MinHeap<string>();
    h.push(2, 'b');
    h.push(1, 'a');
    const saved = h.save((v) => v);
    h.pop();
    h.push(0, 'x');
    h.restore(saved, (v) => v);
    assert.deepEqual([h.pop()!.value, h.pop()!.value, h.pop()], ['a', 'b', undefined]);
  });
});

describe('BinaryHeap', () => {
  it("pops in the comparator's order whatever the pushes, pops and filters in between", () => {
    const rnd = mulberry32(11);
    const heap = new BinaryHeap<number>((a, b) => a < b);
    const model: number[] = [];
    for (let step = 0; step < 5000; step++) {
      const r = rnd();
      if (r < 0.55) {
        const v = Math.floor(rnd() * 200);
        heap.push(v);
        model.push(v);
      } else if (r < 0.97) {
        model.sort((a, b) => a - b);
        assert.equal(heap.pop(), model.shift());
      } else {
        heap.filter((v) => v % 3 !== 0);
        model.splice(0, model.length, ...model.filter((v) => v % 3 !== 0));
      }
      assert.equal(heap.size, model.length);
    }
  });
});
