/**
 * What needs the start's records while its simulation is made in idle slices (swapAtOpen.ts: the why of a selection,
 * a node's pods in the Cluster tree, Explain, Show state, the object pick) waits for the making here, a slice at a time
 * with the host's events between them, instead of making it at once on the click (0.5-1 s at 5,000 nodes, the host
 * held): the answer is the made simulation's, as a fresh session's.
 */
import type { Simulation } from '../engine/simulation/api';
import type { PendingStart } from './swapAtOpen';

export class StartMaking {
  private run?: Promise<boolean>;
  private closed = false;

  /** `pending`: the start shown while made, if any; `made`: the simulation once made, shown from then on. */
  constructor(
    private readonly pending: () => PendingStart | undefined,
    private readonly made: (sim: Simulation) => void,
    private readonly clock: () => number,
    private readonly yieldNow: () => Promise<void>,
    private readonly sliceMs: number,
  ) {}

  /** Whether a click waits for the making (idle work then makes it before anything else). */
  get wanted(): boolean {
    return this.run !== undefined;
  }

  /** Resolves once a simulation stands on the shown position (true), or once closed (false). */
  started(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return this.pending() ? (this.run ??= this.make()) : Promise.resolve(true);
  }

  /** `then` once the start stands (not once closed); asked again with the same `key` meanwhile, it is called once. */
  once(key: string, then: () => void): void {
    if (this.waiting.has(key)) return;
    this.waiting.add(key);
    void this.started().then((stands) => {
      this.waiting.delete(key);
      if (stands) then();
    });
  }
  private readonly waiting = new Set<string>();

  /**
   * For a run of the shown simulation from the start (a move: Session.long): each call says whether a simulation stands
   * there, and makes a slice of it (until `over`) otherwise, but for the click's own call, so that the click's answer
   * (the run's progress) comes at once and the making goes on in the run's slices, with the host's events between them.
   */
  forRun(over: () => boolean): () => boolean {
    let clicked = true;
    return () => {
      const p = this.pending();
      if (!p) return true;
      if (clicked) return (clicked = false);
      const sim = p.making(() => !over());
      if (sim) this.made(sim);
      return sim !== undefined;
    };
  }

  /** Another scenario was opened: nothing is made or answered for this one any more. */
  close(): void {
    this.closed = true;
  }

  private async make(): Promise<boolean> {
    try {
      for (let p = this.pending(); p && !this.closed; p = this.pending()) {
        // the click's own answer (the selection's object, the quick pick's progress) is painted first
        await this.yieldNow();
        // a Step meanwhile took the making over, or idle work finished it: the loop ends
        if (p !== this.pending() || this.closed) continue;
        const until = this.clock() + this.sliceMs;
        const sim = p.making(() => this.clock() < until);
        if (sim) this.made(sim);
      }
      return !this.closed;
    } finally {
      this.run = undefined;
    }
  }
}
