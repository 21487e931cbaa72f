/**
 * How the wait for a scenario's load is shown (ctx.ts's openWithProgress), and when it ends. VS Code keeps a
 * notification's progress on screen for at least 800 ms (its progress service, for a notification without a
 * delay, which the extension API cannot give), so a small scenario, loaded and painted in a tenth of that,
 * stayed under a "loading …" notification: such a load shows its progress in the status bar instead. A big
 * one keeps its notification (and its Cancel) until the panel says it painted the new scenario, not only
 * until the host has posted it: the page's paint of 5,000 nodes comes a few hundred ms after that.
 */

/** A load of at least this many bytes (about half a second and more) shows a notification; a smaller one the status bar's progress. */
export const NOTIFY_LOADS_FROM_BYTES = 32 * 1024 * 1024;

/** How long the progress waits for the panel's paint at most (a hidden panel never paints). */
export const PAINT_WAIT_MS = 3_000;

export type LoadProgressPlace = 'notification' | 'statusBar';

export function loadProgressPlace(bytes: number): LoadProgressPlace {
  return bytes >= NOTIFY_LOADS_FROM_BYTES ? 'notification' : 'statusBar';
}

/** setTimeout and clearTimeout (tests give their own). */
export interface PaintTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: PaintTimers = { set: (run, ms) => setTimeout(run, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };

/** The panel's `painted` message, awaited by an open: `expect` before the load, `painted` when the page says so. */
export class PaintWait {
  private waiting?: () => void;

  constructor(private readonly timers: PaintTimers = realTimers) {}

  /** Resolves at the next `painted`, or after PAINT_WAIT_MS; an earlier expectation still waiting ends now. */
  expect(): Promise<void> {
    this.waiting?.();
    return new Promise((resolve) => {
      const handle = this.timers.set(() => done(), PAINT_WAIT_MS);
      const done = () => {
        this.timers.clear(handle);
        if (this.waiting === done) this.waiting = undefined;
        resolve();
      };
      this.waiting = done;
    });
  }

  /** The panel painted a full update (an open's). */
  painted(): void {
    this.waiting?.();
  }
}
