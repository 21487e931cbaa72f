/**
 * The instants at which a Ready node's grace period runs out (probeTimestamp +
 * nodeMonitorGracePeriod), in one min-heap with lazy deletion: an entry is
 * stale when the node's probe has moved since it was pushed. The controller
 * keeps at most one entry per node armed and moves it on when it comes due
 * (see NodeLifecycleController.arm).
 *
 * Entries with the same instant share one heap item (a bucket of names):
 * kubelets renew on a common grid, so a pass re-arms thousands of nodes at
 * one instant (about 450,000 re-arms an hour at 5,000 nodes), and a push is
 * then an array push instead of a heap sift. The order in which the entries
 * of one instant come out does not matter: the monitor pass puts their nodes
 * in a set it sorts, or re-arms each by name.
 */
import type { Micros } from '../../model/time';
import { BinaryHeap } from '../../simulation/heap';

/**
 * The items are the controller's per-node slots (anything with the node's name): a popped entry
 * then brings what the pass needs of its node without a look-up by name.
 */
export interface Deadline<V> {
  t: Micros;
  v: V;
}
interface Bucket<V> {
  t: Micros;
  items: V[];
}

export class DeadlineHeap<V extends { readonly name: string }> {
  private h = new BinaryHeap<Bucket<V>>((a, b) => a.t < b.t);
  /** the bucket still in the heap for each instant */
  private open = new Map<Micros, Bucket<V>>();
  /** the bucket being popped from, and how far */
  private current: Bucket<V> | undefined;
  private next = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(t: Micros, v: V): void {
    let b = this.open.get(t);
    if (!b) {
      b = { t, items: [] };
      this.open.set(t, b);
      this.h.push(b);
    }
    b.items.push(v);
    this.count++;
  }

  /**
   * The time of the entry the last popBefore returned (an entry is its time and its item; the time is
   * kept here instead of in an object per pop: about 450,000 pops an hour at 5,000 nodes).
   */
  poppedAt: Micros = 0;

  /** Removes and returns the earliest entry if its t < now (the grace has run out when now is After(t)). */
  popOneBefore(now: Micros): Deadline<V> | undefined {
    const v = this.popBefore(now);
    return v === undefined ? undefined : { t: this.poppedAt, v };
  }

  /** popOneBefore without the pair: the entry's item, its time in poppedAt. */
  popBefore(now: Micros): V | undefined {
    for (;;) {
      const b = this.current;
      if (b && this.next < b.items.length) {
        this.count--;
        this.poppedAt = b.t;
        return b.items[this.next++];
      }
      this.current = undefined;
      const top = this.h.peek();
      if (!top || !(top.t < now)) return undefined;
      this.h.pop();
      // later pushes at this instant start a new bucket (they are due at once)
      if (this.open.get(top.t) === top) this.open.delete(top.t);
      this.current = top;
      this.next = 0;
    }
  }

  /** Calls `fn` with each entry whose t < `now` (what popBefore(now) would return), popping nothing. */
  forEachBefore(now: Micros, fn: (v: V, t: Micros) => void): void {
    const b = this.current;
    if (b && b.t < now) for (let i = this.next; i < b.items.length; i++) fn(b.items[i], b.t);
    for (const x of this.h.items()) if (x.t < now) for (const v of x.items) fn(v, x.t);
  }

  entries(): Deadline<V>[] {
    const out: Deadline<V>[] = [];
    const b = this.current;
    if (b) for (let i = this.next; i < b.items.length; i++) out.push({ t: b.t, v: b.items[i] });
    for (const x of this.h.items()) for (const v of x.items) out.push({ t: x.t, v });
    return out;
  }

  /** The items of entries(), in its order, without the pairs. */
  items(): V[] {
    const out: V[] = [];
    const b = this.current;
    if (b) for (let i = this.next; i < b.items.length; i++) out.push(b.items[i]);
    for (const x of this.h.items()) for (const v of x.items) out.push(v);
    return out;
  }

  static from<V extends { readonly name: string }>(entries: Deadline<V>[]): DeadlineHeap<V> {
    const d = new DeadlineHeap<V>();
    for (const e of entries) d.push(e.t, e.v);
    return d;
  }
}
