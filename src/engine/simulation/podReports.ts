/**
 * What SimHost reports to a view of the pods (Simulation.takePodChanges): the keys of the pods changed since the last
 * report, and apart from them, for a view that asks so, the keys of those changed by Ready writes alone (MarkPodsNotReady's
 * batches, a step back undoing them, a hand-off writing them: 50,000 pods at 5,000 nodes). A view that keeps an item per
 * pod need not look those up one by one to see that neither their node nor anything a count reads changed
 * (RecordsView.update); and kept as the lists they come in, they cost no insert each here either (a set of 50,000 keys
 * was 30-40 ms of a step back over the Unknown pass).
 */

/** Keys of pods changed by Ready writes alone, as lists (a key may be in several, and among the other changes too). */
export type ReadyKeys = readonly (readonly string[])[];

export class PodReports {
  /** the keys changed otherwise since the last report; null until the first one */
  private other: Set<string> | null = null;
  /** the keys changed by Ready writes alone since the last report: lists given whole, and one of single keys (the last) */
  private ready: (readonly string[])[] = [];
  private single: string[] = [];
  private lost = true;

  /** A pod created, deleted or changed in any way but a Ready write alone. */
  changed(key: string): void {
    this.other?.add(key);
  }

  /** A pod whose Ready condition alone was written (SimHost's ReadyLog holds the write). */
  readyChanged(key: string): void {
    if (this.other !== null) this.single.push(key);
  }

  /** Pods whose Ready conditions alone were written or put back (the list is kept, not copied: it must not change). */
  readyChangedAll(keys: readonly string[]): void {
    if (this.other !== null && keys.length > 0) this.ready.push(keys);
  }

  /** The records were put in wholesale: the next report is 'all'. */
  lose(): void {
    this.lost = true;
  }

  /**
   * The keys changed since the last call, or 'all' (the first call, or after `lose`). With `apart`, the keys changed by
   * Ready writes alone are given in `apart.ready` (none with 'all') and are among the others only if changed otherwise
   * too; without it, they are among them.
   */
  take(apart?: { ready?: ReadyKeys }): ReadonlySet<string> | 'all' {
    const all = this.other === null || this.lost;
    const out = all ? 'all' : this.other!;
    if (this.single.length > 0) this.ready.push(this.single);
    if (apart) apart.ready = all ? undefined : this.ready;
    else if (!all) for (const list of this.ready) for (const key of list) this.other!.add(key);
    this.other = new Set();
    this.ready = [];
    this.single = [];
    this.lost = false;
    return out;
  }
}
