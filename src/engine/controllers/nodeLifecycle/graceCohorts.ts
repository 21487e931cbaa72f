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

/** What a cohort counts: a node's slot (slots.ts Slot, which imports this file: named by its one field here) */
export interface CohortMember {
  cohort: Cohort | undefined;
}

export interface Cohort {
  /** the members' deadline: probe + nodeMonitorGracePeriod, as the heap's entry would have been armed */
  readonly due: Micros;
  /** how many slots have this as their cohort (Slot.cohort) */
  live: number;
  readonly queue: GraceCohorts;
}

export class GraceCohorts {
  /** cohorts in the order of their due (the passes' times go forward), from `head` */
  private list: Cohort[] = [];
  private head = 0;
  /** the cohort joined last (the current pass's) */
  private last: Cohort | undefined;

  /** The slot's deadline is `due` now (a Lease renewal moved its probe): it leaves its cohort for the one of `due`. */
  join(slot: CohortMember, due: Micros): void {
    let c = this.last;
    if (c === undefined || c.due !== due) {
      // a due earlier than the last cohort's only after a restore, which starts a new queue
      c = { due, live: 0, queue: this };
      this.list.push(c);
      this.last = c;
    }
    const old = slot.cohort;
    if (old === c) return;
    if (old !== undefined) old.live--;
    c.live++;
    slot.cohort = c;
  }

  /** The deadline of the slot's cohort when that cohort is of this queue, else undefined. */
  dueOf(slot: CohortMember): Micros | undefined {
    const c = slot.cohort;
    return c !== undefined && c.queue === this ? c.due : undefined;
  }

  /** True when the slot sits in a cohort of this queue whose deadline is `due`: the heap need not arm it. */
  covers(slot: CohortMember, due: Micros): boolean {
    return this.dueOf(slot) === due;
  }

  /**
   * Removes and returns the earliest cohort due before `now`. The caller visits the slots still in it
   * (`release`); a cohort nobody is left in costs nothing more.
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
  private released: CohortMember[] = [];

  /**
   * The slots still in a popped cohort, each taken out of it (Slot.cohort cleared), found among `slots`
   * (every slot of the controller: a cohort keeps no list of its own, which would cost a push per
   * renewal, and one still holding nodes when due is rare: a kubelet that stopped), in a list the next
   * call fills again.
   */
  release<S extends CohortMember>(c: Cohort, slots: Iterable<S>): readonly S[] {
    const out = this.released as S[];
    out.length = 0;
    if (c.live > 0)
      for (const s of slots) {
        if (s.cohort !== c) continue;
        s.cohort = undefined;
        out.push(s);
      }
    c.live = 0;
    return out;
  }

  /** Calls `fn` with each slot (of `slots`) still in a queued cohort due before `now` (what the pass at `now` visits), popping nothing. */
  forEachBefore<S extends CohortMember>(now: Micros, slots: Iterable<S>, fn: (slot: S, due: Micros) => void): void {
    let any = false;
    for (let i = this.head; i < this.list.length && this.list[i].due < now; i++) if (this.list[i].live > 0) any = true;
    if (!any) return;
    for (const s of slots) {
      const due = this.dueOf(s);
      if (due !== undefined && due < now) fn(s, due);
    }
  }

  /** Calls `fn` with each slot (of `slots`) in a queued cohort and that cohort's due. */
  forEach<S extends CohortMember>(slots: Iterable<S>, fn: (slot: S, due: Micros) => void): void {
    for (const s of slots) {
      const due = this.dueOf(s);
      if (due !== undefined) fn(s, due);
    }
  }
}
