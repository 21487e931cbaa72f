/**
 * What SimHost reports to a view of the pods (Simulation.takePodChanges): the keys of the pods changed since the last
 * report, and apart from them, for a view that asks so, the keys of those changed by Ready writes alone (MarkPodsNotReady's
 * batches, and a step back undoing them: 50,000 pods at 5,000 nodes). A view that keeps an item per pod need not look
 * those up one by one to see that neither their node nor anything a count reads changed (RecordsView.update).
 */
export class PodReports {
  /** the keys changed otherwise since the last report; null until the first one */
  private other: Set<string> | null = null;
  /** the keys changed by Ready writes alone since the last report (none of `other`) */
  private ready = new Set<string>();
  private lost = true;

  /** A pod created, deleted or changed in any way but a Ready write alone. */
  changed(key: string): void {
    if (this.other === null) return;
    this.other.add(key);
    if (this.ready.size !== 0) this.ready.delete(key);
  }

  /** A pod whose Ready condition alone was written (SimHost's ReadyLog holds the write). */
  readyChanged(key: string): void {
    if (this.other !== null && !this.other.has(key)) this.ready.add(key);
  }

  /** The records were put in wholesale: the next report is 'all'. */
  lose(): void {
    this.lost = true;
  }

  /**
   * The keys changed since the last call, or 'all' (the first call, or after `lose`). With `apart`, the keys changed by
   * Ready writes alone are left out of them and given in `apart.ready` (none with 'all'); else they are among them.
   */
  take(apart?: { ready?: ReadonlySet<string> }): ReadonlySet<string> | 'all' {
    const all = this.other === null || this.lost;
    const out = all ? 'all' : this.other!;
    if (apart) apart.ready = all ? undefined : this.ready;
    else if (!all) for (const key of this.ready) this.other!.add(key);
    this.other = new Set();
    this.ready = new Set();
    this.lost = false;
    return out;
  }
}
