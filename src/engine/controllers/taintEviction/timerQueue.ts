/**
 * A binary min-heap of timers ordered by (at, key, seq), with lazy
 * cancellation: a cancelled timer stays in the heap until it reaches the top,
 * and is dropped there. `nextAt` and `popDue` are O(log n); nothing is
 * visited per pass. Ties at the same instant fire in key order (namespace/name),
 * so runs are deterministic.
 */
import type { Micros } from '../../model/time';

export interface Timer<T> {
  at: Micros;
  key: string;
  seq: number;
  cancelled: boolean;
  payload: T;
}

export class TimerQueue<T> {
  private heap: Timer<T>[] = [];
  private nextSeq = 1;
  private live = 0;

  get size(): number { return this.live; }

  add(at: Micros, key: string, payload: T): Timer<T> {
    const t: Timer<T> = { at, key, seq: this.nextSeq++, cancelled: false, payload };
    this.heap.push(t);
    this.up(this.heap.length - 1);
    this.live++;
    return t;
  }

  cancel(t: Timer<T>): void {
    if (t.cancelled) return;
    t.cancelled = true;
    this.live--;
    // keep the heap from filling with dead timers
    if (this.heap.length > 64 && this.live < this.heap.length / 2) this.compact();
  }

  nextAt(): Micros | undefined {
    this.dropCancelledTop();
    return this.heap.length ? this.heap[0].at : undefined;
  }

  /** Removes and returns the earliest live timer due at or before `now`. */
  popDue(now: Micros): Timer<T> | undefined {
    this.dropCancelledTop();
    if (!this.heap.length || this.heap[0].at > now) return undefined;
    const t = this.pop();
    this.live--;
    t.cancelled = true; // fired: cancelling it later is a no-op
    return t;
  }

  /** Live timers, earliest first (for checkpoints and views). */
  liveTimers(): Timer<T>[] {
    return this.heap.filter((t) => !t.cancelled).sort(compare);
  }

  private dropCancelledTop(): void {
    while (this.heap.length && this.heap[0].cancelled) this.pop();
  }

  private compact(): void {
    this.heap = this.heap.filter((t) => !t.cancelled);
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private pop(): Timer<T> {
    const top = this.heap[0];
    const last = this.heap.pop()!;
    if (this.heap.length) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (compare(h[i], h[p]) >= 0) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < h.length && compare(h[l], h[m]) < 0) m = l;
      if (r < h.length && compare(h[r], h[m]) < 0) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}

function compare<T>(a: Timer<T>, b: Timer<T>): number {
  if (a.at !== b.at) return a.at - b.at;
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return a.seq - b.seq;
}
