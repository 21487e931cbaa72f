/**
 * The instants at which a Ready node's grace period runs out (probeTimestamp +
 * nodeMonitorGracePeriod), in one min-heap with lazy deletion: an entry is
 * stale when the node's probe has moved since it was pushed. The controller
 * keeps at most one entry per node armed and moves it on when it comes due
 * (see NodeLifecycleController.arm).
 */
import type { Micros } from '../../model/time';

export class DeadlineHeap {
  private h: { t: Micros; name: string }[] = [];

  get size(): number {
    return this.h.length;
  }

  push(t: Micros, name: string): void {
    const h = this.h;
    const e = { t, name };
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p].t <= t) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = e;
  }

  /** Removes and returns the earliest entry if its t < now (the grace has run out when now is After(t)). */
  popOneBefore(now: Micros): { t: Micros; name: string } | undefined {
    return this.h.length && this.h[0].t < now ? this.pop() : undefined;
  }

  entries(): { t: Micros; name: string }[] {
    return this.h.map((e) => ({ ...e }));
  }

  static from(entries: { t: Micros; name: string }[]): DeadlineHeap {
    const d = new DeadlineHeap();
    for (const e of entries) d.push(e.t, e.name);
    return d;
  }

  private pop(): { t: Micros; name: string } | undefined {
    const h = this.h;
    if (!h.length) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l].t < h[m].t) m = l;
        if (r < h.length && h[r].t < h[m].t) m = r;
        if (m === i) break;
        const x = h[m];
        h[m] = h[i];
        h[i] = x;
        i = m;
      }
    }
    return top;
  }
}
