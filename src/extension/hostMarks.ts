/**
 * The extension host's side of a click, for the code-server walk (test/e2e/walk.e2e.mjs prints the page's clock at
 * each click): with CONTROLLER_STEPPER_HOST_MARKS=FILE in the extension host's environment, each line of FILE is
 * `Date.now() what`: a message from the page taken, an update posted, an idle slice held past its budget, the event
 * loop held (a gap in a 10 ms timer), a garbage collection. Inside code-server the page's figure alone cannot say
 * whether a click waited in the page, on the way, behind the host's idle work or in the step itself (bench/README.md
 * "firststep"). Without the variable nothing is timed or written.
 */
import { appendFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

const file = process.env.CONTROLLER_STEPPER_HOST_MARKS;

/** Whether marks are written (the variable is set): callers skip the work of a mark's text otherwise. */
export const marking = file !== undefined && file !== '';

/** Appends one line; a file that cannot be written stops nothing. */
export function mark(what: string): void {
  if (!marking) return;
  try {
    appendFileSync(file!, `${Date.now()} ${what}\n`);
  } catch {
    // a measurement aid: never a reason for the extension to fail
  }
}

/** Marks the event loop's gaps over 40 ms and the collections over 8 ms, once, when marking. */
export function watchHost(): void {
  if (!marking || watching) return;
  watching = true;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 40) mark(`held ${(now - last - 10).toFixed(0)} ms`);
    last = now;
  }, 10).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration > 8)
        mark(
          `gc ${(e as { detail?: { kind?: number } }).detail?.kind ?? '?'} ${e.duration.toFixed(0)} ms from ${Math.round(performance.timeOrigin + e.startTime)}`,
        );
    }
  }).observe({ entryTypes: ['gc'] });
}
let watching = false;
