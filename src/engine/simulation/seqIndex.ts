/**
 * Decision seqs by a key of the decision (its object, its machine's id), ascending: brought up to date
 * from the trace when read, not per decision, and cut back with it (a step back truncates the trace).
 * The panel's selection read every decision for a machine's drawing (its last transition, the decisions
 * that took each transition): three walks of 22,772 decisions for a ReplicaSet at pass 21 of the
 * 5,000-node outage, about half of the click's host part (bench/README.md, "rsclick").
 */
import type { Decision } from '../trace/decision';
import type { DecisionList } from '../trace/decisionLog';
import { SHORT_LIST } from './facts';

export class SeqIndex<K> {
  private readonly map = new Map<K, number[]>();
  private upTo = 0;

  constructor(
    private readonly trace: DecisionList,
    private readonly keyOf: (d: Decision) => K | undefined,
  ) {}

  /** The seqs per key, the trace's newest decisions added first. */
  get(): ReadonlyMap<K, readonly number[]> {
    const tr = this.trace,
      m = this.map;
    for (let i = this.upTo; i < tr.length; i++) {
      const d = tr.at(i)!;
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

  /**
   * The trace is about to be cut back to `length` decisions (it still holds them: SimHost.truncate calls this first):
   * the seqs after it are forgotten. A step back takes back a pass's few hundred decisions while the index holds a
   * key for each of up to 150,000 pods: each decision taken back pops its own seq, newest first (so it is its key's
   * last), instead of every key being looked at (6-11 ms a step back at 5,000 nodes, under 1 ms so).
   */
  truncate(length: number): void {
    const from = this.upTo;
    if (from <= length) return;
    this.upTo = length;
    const m = this.map;
    // a look-up per decision taken back costs about what four keys looked at do
    if ((from - length) * 4 > m.size) {
      // many decisions to take back for the keys; little kept (a Reset): read again from the trace when next read
      if (length < m.size) {
        m.clear();
        this.upTo = 0;
        return;
      }
      for (const [k, list] of m) {
        let n = list.length;
        while (n > 0 && list[n - 1] > length) n--;
        if (n === 0) m.delete(k);
        else list.length = n;
      }
      return;
    }
    const tr = this.trace;
    for (let i = from - 1; i >= length; i--) {
      const k = this.keyOf(tr.at(i)!);
      if (k === undefined) continue;
      const list = m.get(k)!;
      if (list.length === 1) m.delete(k);
      else list.length--;
    }
  }
}
