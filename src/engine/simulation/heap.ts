/**
 * One binary min-heap for the engine's timed work, ordered by a comparator the
 * caller gives (which must be a total order, so that the same input always
 * pops in the same order). `MinHeap` (the simulation's and the kubelets' due
 * work), the node lifecycle controller's grace deadlines and the taint
 * eviction controller's timers are built on it.
 */
import type { Micros } from '../model/time';

export class BinaryHeap<T> {
  private a: T[] = [];

  constructor(private readonly less: (x: T, y: T) => boolean) {}

  get size(): number {
    return this.a.length;
  }
  peek(): T | undefined {
    return this.a[0];
  }
  /** the items in heap order (not sorted) */
  items(): readonly T[] {
    return this.a;
  }

  push(item: T): void {
    const a = this.a;
    a.push(item);
    let i = a.length - 1;
    // sift up by moving parents down into the hole: no swap per level
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(item, a[p])) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = item;
  }

  pop(): T | undefined {
    const a = this.a;
    if (!a.length) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      this.down(0);
    }
    return top;
  }

  /** Keeps only the items `keep` accepts, and restores the heap order. */
  filter(keep: (item: T) => boolean): void {
    this.a = this.a.filter(keep);
    for (let i = (this.a.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** Replaces the contents (restoring a checkpoint). */
  reset(items: readonly T[]): void {
    this.a = [];
    for (const it of items) this.push(it);
  }

  private down(i: number): void {
    const a = this.a;
    const item = a[i];
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = l;
      if (l >= a.length) break;
      if (r < a.length && this.less(a[r], a[l])) m = r;
      if (!this.less(a[m], item)) break;
      a[i] = a[m];
      i = m;
    }
    a[i] = item;
  }
}

export interface HeapItem<T> {
  time: Micros;
  order: number;
  value: T;
}

/** Due work ordered by (time, order); `order` is insertion order unless the caller says otherwise. */
export class MinHeap<T> {
  private heap = new BinaryHeap<HeapItem<T>>((a, b) => a.time < b.time || (a.time === b.time && a.order < b.order));
  private counter = 0;

  get size(): number {
    return this.heap.size;
  }

  push(time: Micros, value: T, order?: number): void {
    this.heap.push({ time, order: order ?? this.counter++, value });
  }

  peek(): HeapItem<T> | undefined {
    return this.heap.peek();
  }
  pop(): HeapItem<T> | undefined {
    return this.heap.pop();
  }

  /** A plain copy for checkpoints (values are copied by the given function). */
  save(copy: (v: T) => T): { items: HeapItem<T>[]; counter: number } {
    return { items: this.heap.items().map((it) => ({ time: it.time, order: it.order, value: copy(it.value) })), counter: this.counter };
  }

  restore(saved: { items: HeapItem<T>[]; counter: number }, copy: (v: T) => T): void {
    this.heap.reset(saved.items.map((it) => ({ time: it.time, order: it.order, value: copy(it.value) })));
    this.counter = saved.counter;
  }
}
