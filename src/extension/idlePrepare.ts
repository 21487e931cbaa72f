/**
 * The engine's prepare (Simulation.prepare: the binder's node index, about half a second at 5,000
 * nodes and 150,000 pods) once the panel has been idle for a while, so that the step of the
 * binder's first placement does not pay for it (on a generated 5,000-node outage, the step after
 * the zone's nodes go Unknown). Every message the panel is sent arms it again, so it never runs
 * between two quick steps; it is skipped while a long run is under way (it waits for the next idle
 * time), and the engine's prepare does nothing once the index is built.
 */

/** How long the panel must have been sent nothing before the engine prepares. */
export const IDLE_PREPARE_MS = 400;

/** setTimeout and clearTimeout (tests give their own: tests never wait). */
export interface IdleTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: IdleTimers = {
  set: (run, ms) => {
    const t = setTimeout(run, ms);
    // an idle preparation never keeps the process alive
    t.unref?.();
    return t;
  },
  clear: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
};

export class IdlePrepare {
  private handle: unknown = undefined;
  private disposed = false;

  constructor(
    private readonly prepare: () => void,
    private readonly busy: () => boolean,
    private readonly timers: IdleTimers = realTimers,
  ) {}

  /** Something was sent: prepare after IDLE_PREPARE_MS more of nothing. */
  arm(): void {
    if (this.disposed) return;
    if (this.handle !== undefined) this.timers.clear(this.handle);
    this.handle = this.timers.set(() => {
      this.handle = undefined;
      if (!this.disposed && !this.busy()) this.prepare();
    }, IDLE_PREPARE_MS);
  }

  /** The session is dropped (another scenario opened): its simulation is never prepared. */
  dispose(): void {
    this.disposed = true;
    if (this.handle !== undefined) this.timers.clear(this.handle);
    this.handle = undefined;
  }
}
