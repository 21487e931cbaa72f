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

interface Deadline { t: Micros; name: string }
interface Bucket { t: Micros; names: string[] }

export class DeadlineHeap {
  private h = new BinaryHeap<Bucket>((a, b) => a.t < b.t);
  /** the bucket still in the heap for each instant */
  private open = new Map<Micros, Bucket>();
  /** the bucket being popped from, and how far */
  private current: Bucket | undefined;
  private next = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(t: Micros, name: string): void {
    let b = this.open.get(t);
    if (!b) {
      b = { t, names: [] };
      this.open.set(t, b);
      this.h.push(b);
    }
    b.names.push(name);
    this.count++;
  }

  /** Removes and returns the earliest entry if its t < now (the grace has run out when now is After(t)). */
  popOneBefore(now: Micros): Deadline | undefined {
    for (;;) {
      const b = this.current;
      if (b && this.next < b.names.length) {
        this.count--;
        return { t: b.t, name: b.names[this.next++] };
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

  entries(): Deadline[] {
    const out: Deadline[] = [];
    const b = this.current;
    if (b) for (let i = this.next; i < b.names.length; i++) out.push({ t: b.t, name: b.names[i] });
    for (const x of this.h.items()) for (const name of x.names) out.push({ t: x.t, name });
    return out;
  }

  static from(entries: Deadline[]): DeadlineHeap {
    const d = new DeadlineHeap();
    for (const e of entries) d.push(e.t, e.name);
    return d;
  }
}
