/**
 * Long engine work in the extension host, a slice at a time: the engine runs
 * synchronously, so a cancel (or any other event) can reach the host only
 * between two calls. While slicing, the simulation's shouldStop says stop at
 * the end of each slice (between instants, everything decided so far whole),
 * the call is made again after the host's events had their turn, and a cancel
 * leaves the run where it stopped.
 */

/**
 * `pending`: the engine stopped at the end of its slice with the work unfinished; Session.finishLong
 * runs it on.
 */
export type SessionResult = { ok: true; message?: string; pending?: true } | { ok: false; message: string };

/** What cancels a long run (VS Code's CancellationToken has this shape). */
export interface CancelToken {
  readonly isCancellationRequested: boolean;
}

/** How long the engine holds the extension host at a time while slicing: a cancel or a repaint waits at most this. */
export const SLICE_MS = 100;

const BUSY: SessionResult = { ok: false, message: 'A run is under way: wait for it or cancel it.' };

export class Slices {
  /** while slicing: the token and the end of the current slice */
  private slicing?: { cancel: CancelToken; until: number };
  /** the unfinished work: the engine call to make again, whether it stopped short, and what follows it */
  private pending?: { run: () => void; stopped: () => boolean | undefined; finish: () => SessionResult };

  constructor(
    private readonly clock: () => number,
    private readonly yieldNow: () => Promise<void>,
  ) {}

  begin(cancel: CancelToken): void {
    this.slicing = { cancel, until: this.clock() + SLICE_MS };
  }

  end(): void {
    this.slicing = undefined;
    this.pending = undefined;
  }

  get running(): boolean {
    return this.pending !== undefined;
  }

  /** Whether the host slices (a command's run, between begin and end): a run may then wait between slices. */
  get active(): boolean {
    return this.slicing !== undefined;
  }

  /** The simulation's shouldStop: the slice is over, or the run was cancelled. */
  over(): boolean {
    const s = this.slicing;
    return s !== undefined && (s.cancel.isCancellationRequested || this.clock() >= s.until);
  }

  /** Makes `run` (an engine call): `finish` when it did not stop short, else the result is pending. */
  long(run: () => void, finish: () => SessionResult, stopped: () => boolean | undefined): SessionResult {
    if (this.pending) return BUSY;
    this.restart();
    run();
    if (!stopped()) return this.finishing(finish);
    this.pending = { run, stopped, finish };
    return { ok: true, pending: true };
  }

  /** Runs the pending work on until it is done, or until `cancel`: then `cancelled` says where it stopped. */
  async finish(cancel: CancelToken, progress: () => void, cancelled: () => SessionResult): Promise<SessionResult> {
    for (;;) {
      const p = this.pending;
      if (!p) return { ok: true };
      progress();
      await this.yieldNow();
      if (cancel.isCancellationRequested) {
        this.pending = undefined;
        return cancelled();
      }
      this.restart();
      p.run();
      if (p.stopped()) continue;
      this.pending = undefined;
      return this.finishing(p.finish);
    }
  }

  private restart(): void {
    if (this.slicing) this.slicing.until = this.clock() + SLICE_MS;
  }

  /** What follows a run is short (an update, a look-up at the same instant): it is not cut by the slice. */
  private finishing(finish: () => SessionResult): SessionResult {
    if (this.slicing) this.slicing.until = Infinity;
    return finish();
  }
}
