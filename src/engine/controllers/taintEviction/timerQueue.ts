/**
 * A binary min-heap of timers ordered by (at, key, seq), with lazy
 * cancellation: a cancelled timer stays in the heap until it reaches the top,
 * and is dropped there. `nextAt` and `popDue` are O(log n); nothing is
 * visited per pass. Ties at the same instant fire in key order (namespace/name),
 * so runs are deterministic.
 */
import type { Micros } from '../../model/time';
import { BinaryHeap } from '../../simulation/heap';

export interface Timer<T> {
  at: Micros;
  key: string;
  seq: number;
  cancelled: boolean;
  payload: T;
}

export class TimerQueue<T> {
  private heap = new BinaryHeap<Timer<T>>((a, b) => compare(a, b) < 0);
  private nextSeq = 1;
  private live = 0;

  get size(): number {
    return this.live;
  }

  add(at: Micros, key: string, payload: T): Timer<T> {
    const t: Timer<T> = { at, key, seq: this.nextSeq++, cancelled: false, payload };
    this.heap.push(t);
    this.live++;
    return t;
  }

  cancel(t: Timer<T>): void {
    if (t.cancelled) return;
    t.cancelled = true;
    this.live--;
    // keep the heap from filling with dead timers
    if (this.heap.size > 64 && this.live < this.heap.size / 2) this.heap.filter((x) => !x.cancelled);
  }

  nextAt(): Micros | undefined {
    this.dropCancelledTop();
    return this.heap.peek()?.at;
  }

  /** Removes and returns the earliest live timer due at or before `now`. */
  popDue(now: Micros): Timer<T> | undefined {
    this.dropCancelledTop();
    const top = this.heap.peek();
    if (!top || top.at > now) return undefined;
    this.heap.pop();
    this.live--;
    top.cancelled = true; // fired: cancelling it later is a no-op
    return top;
  }

  /** Live timers, earliest first (for checkpoints and views). */
  liveTimers(): Timer<T>[] {
    return this.heap
      .items()
      .filter((t) => !t.cancelled)
      .sort(compare);
  }

  private dropCancelledTop(): void {
    while (this.heap.size && this.heap.peek()!.cancelled) this.heap.pop();
  }
}

function compare<T>(a: Timer<T>, b: Timer<T>): number {
  if (a.at !== b.at) return a.at - b.at;
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return a.seq - b.seq;
}
