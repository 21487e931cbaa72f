/**
 * Work a simulation does in parts between the extension host's idle slices (a hand-off, handOff.ts; a restore
 * after a step back, CheckpointStore.restoreInPieces): the simulation is half changed until the last part, so it
 * says it is part-done meanwhile and finishes the work before any other call reads or changes it (settle).
 */
export class PartsUnderWay {
  private parts: Iterator<void, void, void> | undefined;
  /** what the parts do: a hand-off goes on in handOffSlice, a restore in goToPass (or any call: settle) */
  kind: 'handOff' | 'restore' | undefined;

  get active(): boolean {
    return this.parts !== undefined;
  }

  start(parts: Iterator<void, void, void>, kind: 'handOff' | 'restore'): void {
    this.parts = parts;
    this.kind = kind;
  }

  /** A part at a time while `more()` says so (at least one); true while parts are left. */
  run(more: () => boolean): boolean {
    for (;;) {
      if (this.parts!.next().done) return ((this.parts = this.kind = undefined), false);
      if (!more()) return true;
    }
  }
}
