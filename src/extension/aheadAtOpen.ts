/**
 * The open's run-ahead: the next pass of the session just opened, made from the moment the open's messages are posted,
 * a slice at a time with the event loop's I/O between two slices. Made at once before the messages (firstpass), it
 * held the first paint 1.2-1.9 s at 5,000 nodes in code-server; made at once after them, the open's 867 KiB update
 * still waited behind it, since a message that big leaves the extension host in several writes (bench/README.md
 * "openpost"). In slices the page is sent the open, paints it and is answered while the next pass is made, and a Step
 * after the paint is a swap.
 */
import { mark, marking } from './hostMarks';
import { positionOf } from './runAhead';
import type { Session } from './session';

/** How long one slice holds the extension host (a click or the page's question waits at most about this). */
export const AHEAD_AT_OPEN_SLICE_MS = 20;

export interface SliceTimers {
  /** runs `run` in a later turn of the event loop, after the I/O that is waiting */
  next(run: () => void): void;
  now(): number;
}

const realTimers: SliceTimers = { next: (run) => setImmediate(run), now: () => performance.now() };

/**
 * Makes `session`'s next pass in slices until its views are prepared on it, the run-ahead is off, `current()` is false,
 * or the shown position has moved (a Step came first: the rest is idle time's, which waits while the user clicks). The
 * first slice swaps the open's roles (Session.swapAtOpen): the open's simulation goes on to the next pass itself, and
 * the start is shown by one made like it in idle time after (swapAtOpen.ts).
 */
export function nextPassInSlices(session: Pick<Session, 'ahead' | 'shown' | 'swapAtOpen'>, current: () => boolean, timers: SliceTimers = realTimers): void {
  const ready = () => !session.ahead.enabled || session.ahead.views?.hasPrepared === true;
  const at = positionOf(session.shown);
  let swapped = false;
  const slice = () => {
    if (!current() || ready() || positionOf(session.shown) !== at) return;
    if (!swapped) {
      swapped = true;
      session.swapAtOpen();
    }
    const from = timers.now();
    const until = from + AHEAD_AT_OPEN_SLICE_MS;
    const more = session.ahead.slice(session.shown, () => timers.now() < until && !ready());
    if (marking) mark(`open slice ${(timers.now() - from).toFixed(0)} ms${ready() ? ': the next pass prepared' : ''}`);
    if (more) timers.next(slice);
  };
  timers.next(slice);
}
