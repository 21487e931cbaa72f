/**
 * The instants at which a Ready node's grace period runs out (probeTimestamp +
 * nodeMonitorGracePeriod), in one min-heap with lazy deletion: an entry is
 * stale when the node's probe has moved since it was pushed. The controller
 * keeps at most one entry per node armed and moves it on when it comes due
 * (see NodeLifecycleController.arm).
 */
import type { Micros } from '../../model/time';
import { BinaryHeap } from '../../simulation/heap';

interface Deadline { t: Micros; name: string }

export class DeadlineHeap {
  // Ties are not broken by name: a whole grid of nodes shares one deadline, and comparing their names
  // on every sift was a cache miss per comparison. The order in which entries of one instant are popped
  // does not matter: the monitor pass puts their nodes in a set it sorts, or re-arms each by name.
  private h = new BinaryHeap<Deadline>((a, b) => a.t < b.t);

  get size(): number {
    return this.h.size;
  }

  push(t: Micros, name: string): void {
    this.h.push({ t, name });
  }

  /** Removes and returns the earliest entry if its t < now (the grace has run out when now is After(t)). */
  popOneBefore(now: Micros): Deadline | undefined {
    const top = this.h.peek();
    return top && top.t < now ? this.h.pop() : undefined;
  }

  entries(): Deadline[] {
    return this.h.items().map((e) => ({ ...e }));
  }

  static from(entries: Deadline[]): DeadlineHeap {
    const d = new DeadlineHeap();
    for (const e of entries) d.push(e.t, e.name);
    return d;
  }
}
