/**
 * The engine's preparation (Simulation.prepareSlice: a checkpoint left pending by the last step,
 * then the binder's node index, about a quarter of a second at 5,000 nodes and 150,000 pods) once the
 * panel has been idle for a while, so that the step of the binder's first placement does not pay for
 * it (on a generated 5,000-node outage, the step after the zone's nodes go Unknown). It runs a slice
 * at a time, one per macrotask, so that a click arriving meanwhile is answered between two slices
 * instead of after all of it (after a step back the index is made again). Every message the panel
 * is sent stops the slices: the work the next step owes (`owed`) starts again at once, in the page's
 * paint, and the rest waits IDLE_PREPARE_MS again, so it never runs between two quick steps; it is
 * skipped while a long run is under way (it waits for the next idle time); the engine resumes its
 * work where it stopped while nothing changed, and does nothing once it is done.
 */

import { mark, marking } from './hostMarks';

/** How long the panel must have been sent nothing before the engine prepares. */
export const IDLE_PREPARE_MS = 400;
/** How long one slice of the preparation holds the extension host (a click waits at most about this). */
export const PREPARE_SLICE_MS = 10;
/**
 * How long after a message the work the next step owes anyway (`owed`: the shown simulation's pending checkpoint)
 * starts: the page's parse and paint of the message (about 30 ms at 5,000 nodes) leaves the host idle, and a click that
 * comes meanwhile would do that work itself, so every slice of it done before the click is taken off the click. The
 * rest (the run-ahead, the warm-up) still waits IDLE_PREPARE_MS: at quick clicks its slices only held the clicks
 * (bench/README.md "humanrate", "ahead22").
 */
export const OWED_WAIT_MS = 0;

/** setTimeout and clearTimeout (tests give their own: tests never wait); `set(run, 0)` is the next macrotask. */
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

/** One slice of the engine's preparation: works while `more()` says so; true while work is left. */
export type PrepareSlice = (more: () => boolean) => boolean;

export class IdlePrepare {
  private handle: unknown = undefined;
  private disposed = false;
  /** when the last message was sent (the owed slices end; the others wait IDLE_PREPARE_MS from it) */
  private armedAt = 0;

  /** `owed`: the work the next step would do anyway, run from OWED_WAIT_MS after each message (see there) */
  constructor(
    private readonly prepare: PrepareSlice,
    private readonly busy: () => boolean,
    private readonly timers: IdleTimers = realTimers,
    private readonly clock: () => number = () => performance.now(),
    private readonly owed?: PrepareSlice,
  ) {}

  /** Something was sent: the slices stop; the owed work starts after OWED_WAIT_MS, the rest after IDLE_PREPARE_MS more of nothing. */
  arm(): void {
    if (this.disposed) return;
    if (this.handle !== undefined) this.timers.clear(this.handle);
    this.armedAt = this.clock();
    this.handle = this.owed ? this.timers.set(() => this.owedSlice(), OWED_WAIT_MS) : this.timers.set(() => this.slice(), IDLE_PREPARE_MS);
  }

  private owedSlice(): void {
    this.handle = undefined;
    if (this.disposed || this.busy()) return;
    if (this.run(this.owed!)) this.handle = this.timers.set(() => this.owedSlice(), 0);
    else this.handle = this.timers.set(() => this.slice(), Math.max(0, this.armedAt + IDLE_PREPARE_MS - this.clock()));
  }

  private slice(): void {
    this.handle = undefined;
    if (this.disposed || this.busy()) return;
    if (this.run(this.prepare)) this.handle = this.timers.set(() => this.slice(), 0);
  }

  /** One slice of `work`; true while work is left. */
  private run(work: PrepareSlice): boolean {
    const from = this.clock();
    const until = from + PREPARE_SLICE_MS;
    const more = work(() => this.clock() < until);
    // a click that came meanwhile waited for the whole slice
    if (marking && this.clock() - from > 2 * PREPARE_SLICE_MS) mark(`idle slice ${(this.clock() - from).toFixed(0)} ms`);
    return more;
  }

  /** The session is dropped (another scenario opened): its simulation is never prepared. */
  dispose(): void {
    this.disposed = true;
    if (this.handle !== undefined) this.timers.clear(this.handle);
    this.handle = undefined;
  }
}
