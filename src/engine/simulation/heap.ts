/**
 * A binary min-heap ordered by (time, order): the simulation's queue of due
 * work. `order` breaks ties deterministically (insertion order unless the
 * caller says otherwise), so the same input always pops in the same order.
 */
import type { Micros } from '../model/time';

export interface HeapItem<T> {
  time: Micros;
  order: number;
  value: T;
}

export class MinHeap<T> {
  private items: HeapItem<T>[] = [];
  private counter = 0;

  get size(): number { return this.items.length; }

  push(time: Micros, value: T, order?: number): void {
    const item = { time, order: order ?? this.counter++, value };
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  peek(): HeapItem<T> | undefined { return this.items[0]; }

  pop(): HeapItem<T> | undefined {
    const a = this.items;
    if (!a.length) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && less(a[l], a[m])) m = l;
        if (r < a.length && less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }

  /** A plain copy for checkpoints (values are copied by the given function). */
  save(copy: (v: T) => T): { items: HeapItem<T>[]; counter: number } {
    return { items: this.items.map((it) => ({ time: it.time, order: it.order, value: copy(it.value) })), counter: this.counter };
  }

  restore(saved: { items: HeapItem<T>[]; counter: number }, copy: (v: T) => T): void {
    this.items = saved.items.map((it) => ({ time: it.time, order: it.order, value: copy(it.value) }));
    this.counter = saved.counter;
  }
}

function less<T>(a: HeapItem<T>, b: HeapItem<T>): boolean {
  return a.time < b.time || (a.time === b.time && a.order < b.order);
}
