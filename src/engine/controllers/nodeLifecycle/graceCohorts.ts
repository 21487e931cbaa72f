/**
 * The grace deadlines of the Ready nodes whose probe a Lease renewal moved
 * (leaseOnly), one entry per monitor pass instead of one per node.
 *
 * Why: a Ready node's kubelet renews every 10 s and its grace is 40 s, so the
 * heap's lazily armed entry (deadlines.ts) came due every 30–40 s only to be
 * re-armed: about 450,000 pops an hour at 5,000 nodes, each reading the slot,
 * its health entry, its track and its machine (bench/README.md, hour21: the
 * monitor pass's largest loop), and nearly none deciding anything. Here the
 * nodes that leaseOnly moved at one pass share one entry (their probe is that
 * pass's now) with a count of the nodes whose latest renewal it still is: a
 * node renewed again leaves it by a decrement, so when the entry comes due
 * with its count at zero nothing is read. Only the nodes still in it are
 * visited, as the heap's entries would have been (monitorPass: passDeadline).
 *
 * Covering: a node in a queued cohort has a deadline entry no later than its
 * real one (its probe only moves forward between restores); the heap then
 * need not re-arm it (NodeLifecycleState.armSlot is unchanged for every other
 * path). A restore or a new controller starts with no cohorts: a slot's
 * cohort counts only when it belongs to this queue.
 */
import type { Micros } from '../../model/time';
import type { Slot } from './slots';

export interface Cohort {
  /** the members' deadline: probe + nodeMonitorGracePeriod, as the heap's entry would have been armed */
  readonly due: Micros;
  /** how many slots have this as their cohort (Slot.cohort) */
  live: number;
  /** every slot that joined it, in order; those whose Slot.cohort is another have left */
  readonly members: Slot[];
  readonly queue: GraceCohorts;
}

export class GraceCohorts {
  /** cohorts in the order of their due (the passes' times go forward), from `head` */
  private list: Cohort[] = [];
  private head = 0;
  /** members arrays of popped cohorts nobody still points at, to be filled again */
  private spare: Slot[][] = [];

  /** The slot's deadline is `due` now (a Lease renewal moved its probe): it leaves its cohort for the one of `due`. */
  join(slot: Slot, due: Micros): void {
    const old = slot.cohort;
    const last = this.list.length > this.head ? this.list[this.list.length - 1] : undefined;
    if (old !== undefined) {
      if (old === last && old.due === due) return;
      old.live--;
    }
    let c = last;
    if (c === undefined || c.due !== due) {
      // a due earlier than the last cohort's only after a restore, which starts a new queue
      c = { due, live: 0, members: this.spare.pop() ?? [], queue: this };
      this.list.push(c);
    }
    c.live++;
    c.members.push(slot);
    slot.cohort = c;
  }

  /** True when the slot sits in a cohort of this queue whose deadline is `due`: the heap need not arm it. */
  covers(slot: Slot, due: Micros): boolean {
    const c = slot.cohort;
    return c !== undefined && c.queue === this && c.due === due;
  }

  /**
   * Removes and returns the earliest cohort due before `now`. The caller visits its members whose
   * cohort it still is (`release` clears them); a cohort nobody is left in comes back empty-handed.
   */
  popBefore(now: Micros): Cohort | undefined {
    if (this.head >= this.list.length) return undefined;
    const c = this.list[this.head];
    if (!(c.due < now)) return undefined;
    this.list[this.head++] = undefined as unknown as Cohort;
    if (this.head > 64 && this.head * 2 > this.list.length) {
      this.list = this.list.slice(this.head);
      this.head = 0;
    }
    return c;
  }

  /** what the last `release` handed out (filled again by the next) */
  private released: Slot[] = [];

  /**
   * The slots still in a popped cohort, each taken out of it (Slot.cohort cleared), in a list the next
   * call fills again; the cohort's members array is kept for reuse.
   */
  release(c: Cohort): readonly Slot[] {
    const out = this.released;
    out.length = 0;
    if (c.live > 0) {
      const m = c.members;
      for (let i = 0; i < m.length; i++) {
        const s = m[i];
        if (s.cohort !== c) continue;
        s.cohort = undefined;
        out.push(s);
      }
    }
    c.live = 0;
    c.members.length = 0;
    this.spare.push(c.members);
    return out;
  }

  /** Calls `fn` with each slot still in a queued cohort due before `now` (what the pass at `now` visits), popping nothing. */
  forEachBefore(now: Micros, fn: (slot: Slot, due: Micros) => void): void {
    for (let i = this.head; i < this.list.length; i++) {
      const c = this.list[i];
      if (!(c.due < now)) break;
      this.forEachIn(c, fn);
    }
  }

  /** Calls `fn` with each slot in a queued cohort and that cohort's due. */
  forEach(fn: (slot: Slot, due: Micros) => void): void {
    for (let i = this.head; i < this.list.length; i++) this.forEachIn(this.list[i], fn);
  }

  private forEachIn(c: Cohort, fn: (slot: Slot, due: Micros) => void): void {
    if (c.live === 0) return;
    const m = c.members;
    for (let i = 0; i < m.length; i++) if (m[i].cohort === c) fn(m[i], c.due);
  }
}
