/**
 * Decision seqs by a key of the decision (its object, its machine's id), ascending: brought up to date
 * from the trace when read, not per decision, and cut back with it (a step back truncates the trace).
 * The panel's selection read every decision for a machine's drawing (its last transition, the decisions
 * that took each transition): three walks of 22,772 decisions for a ReplicaSet at pass 21 of the
 * 5,000-node outage, about half of the click's host part (bench/README.md, "rsclick").
 */
import type { Decision } from '../trace/decision';
import { SHORT_LIST } from './facts';

export class SeqIndex<K> {
  private readonly map = new Map<K, number[]>();
  private upTo = 0;

  constructor(
    private readonly trace: readonly Decision[],
    private readonly keyOf: (d: Decision) => K | undefined,
  ) {}

  /** The seqs per key, the trace's newest decisions added first. */
  get(): ReadonlyMap<K, readonly number[]> {
    const tr = this.trace,
      m = this.map;
    for (let i = this.upTo; i < tr.length; i++) {
      const d = tr[i];
      const k = this.keyOf(d);
      if (k === undefined) continue;
      // Most keys have a few decisions (a pod: evicted, or created, bound and started). A push
      // onto an array reserves room for 16 more, so short lists are copied at their exact size instead.
      const list = m.get(k);
      if (!list) m.set(k, [d.seq]);
      else if (list.length < SHORT_LIST) m.set(k, list.concat(d.seq));
      else list.push(d.seq);
    }
    this.upTo = tr.length;
    return m;
  }

  /** The trace was cut back to `length` decisions: the seqs after it are forgotten. */
  truncate(length: number): void {
    if (this.upTo <= length) return;
    this.upTo = length;
    for (const [k, list] of this.map) {
      let n = list.length;
      while (n > 0 && list[n - 1] > length) n--;
      if (n === 0) this.map.delete(k);
      else list.length = n;
    }
  }
}
