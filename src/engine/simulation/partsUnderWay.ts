/**
 * Work a simulation does in parts between the extension host's idle slices (a hand-off, handOff.ts; a restore
 * after a step back, CheckpointStore.restoreInPieces): the simulation is half changed until the last part, so it
 * says it is part-done meanwhile and finishes the work before any other call reads or changes it (settle).
 */
/**
 * What a restore's parts yield once the records and the controllers the views read are restored (the node lifecycle's
 * zones and countdowns; the taint eviction with it): a restore `run` until it may stop there, the rest left for later.
 */
export const VIEWS_RESTORED = Symbol('the views restored');
/** The controllers the views read (SimulationViews: zones, podEvictionDeadlines, podsEvictedFrom). */
export const VIEWS_READ: ReadonlySet<string> = new Set(['node-lifecycle', 'taint-eviction']);

export class PartsUnderWay {
  private parts: Iterator<unknown, void, void> | undefined;
  /** what the parts do: a hand-off goes on in handOffSlice, a restore in goToPass (or any call: settle) */
  kind: 'handOff' | 'restore' | undefined;

  get active(): boolean {
    return this.parts !== undefined;
  }

  /** a restore's parts have yielded VIEWS_RESTORED: the views may read it, and the controllers but VIEWS_READ are owed */
  viewsRestored = false;

  start(parts: Iterator<unknown, void, void>, kind: 'handOff' | 'restore'): void {
    this.parts = parts;
    this.kind = kind;
    this.viewsRestored = false;
  }

  /** A part at a time while `more()` says so (at least one), and `until` is not what a part yielded; true while parts are left. */
  run(more: () => boolean, until?: symbol): boolean {
    for (;;) {
      const part = this.parts!.next();
      if (part.done) return ((this.parts = this.kind = undefined), (this.viewsRestored = false));
      if (part.value === VIEWS_RESTORED) this.viewsRestored = true;
      if ((until !== undefined && part.value === until) || !more()) return true;
    }
  }

  /** Leaves the parts not run (a restore dropped for another that takes its rest: CheckpointStore.dropOwed). */
  drop(): void {
    this.parts?.return?.();
    this.parts = this.kind = undefined;
    this.viewsRestored = false;
  }

  /** Whether a restore is owed before the controller `name` (or, without one, the views) may be read. */
  owes(name?: string): boolean {
    return this.kind === 'restore' && (!this.viewsRestored || (name !== undefined && !VIEWS_READ.has(name)));
  }
}
