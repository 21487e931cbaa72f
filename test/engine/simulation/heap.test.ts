import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MinHeap } from '../../../src/engine/simulation/heap';

describe('the queue of due work', () => {
  it('pops by time, and items due at the same time in the order they were pushed', () => {
    const h = new MinHeap<string>();
    const items: [number, string][] = [[5, 'e1'], [1, 'a'], [5, 'e2'], [3, 'c'], [5, 'e3'], [0, 'z'], [3, 'c2']];
    for (const [t, v] of items) h.push(t, v);
    const out: string[] = [];
    while (h.size) out.push(h.pop()!.value);
    assert.deepEqual(out, ['z', 'a', 'c', 'c2', 'e1', 'e2', 'e3']);
  });

  it('saves and restores its contents for checkpoints', () => {
    const h = new MinHeap<string>();
    h.push(2, 'b'); h.push(1, 'a');
    const saved = h.save((v) => v);
    h.pop();
    h.push(0, 'x');
    h.restore(saved, (v) => v);
    assert.deepEqual([h.pop()!.value, h.pop()!.value, h.pop()], ['a', 'b', undefined]);
  });
});
