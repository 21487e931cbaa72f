/**
 * The extension host's side of a click, for the code-server walk (test/e2e/walk.e2e.mjs prints the page's clock at
 * each click): with CONTROLLER_STEPPER_HOST_MARKS=FILE in the extension host's environment, each line of FILE is
 * `Date.now() what`: a message from the page taken, an update posted, an idle slice held past its budget, the event
 * loop held (a gap in a 10 ms timer), a garbage collection. Inside code-server the page's figure alone cannot say
 * whether a click waited in the page, on the way, behind the host's idle work or in the step itself (bench/README.md
 * "firststep"). Without the variable nothing is timed or written.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { Session as Inspector } from 'node:inspector';
import { join } from 'node:path';
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

/**
 * CONTROLLER_STEPPER_HOST_PROFILE=DIR (with the marks' file set): a CPU profile of the extension host from a message the
 * page sends to the next update posted, one `.cpuprofile` a profile in DIR, named by its clock reading and message. The
 * profile starts at each action, or with CONTROLLER_STEPPER_HOST_PROFILE_FROM=NAME at the messages of that type or action
 * (`selectObject`: from a selection, to see the idle work before the next click; starting the profiler takes seconds at
 * 5,000 nodes, which an action's profile would count). The mark `profile ... hr US` lines the profile's clock (µs) up
 * with the marks'. The webview bench profiles its host with CS_HOST_PROFILE; inside code-server the extension host is
 * out of its reach.
 */
const profileDir = process.env.CONTROLLER_STEPPER_HOST_PROFILE;
const profileFromName = process.env.CONTROLLER_STEPPER_HOST_PROFILE_FROM;
let profiler: Inspector | undefined;
let profiling: string | undefined;

/** A message taken: `type` and, for an action, its name. */
export function profileFrom(type: string, action?: string): void {
  if (!marking || !profileDir || profiling) return;
  if (profileFromName ? profileFromName !== type && profileFromName !== action : type !== 'action') return;
  const what = action ?? type;
  try {
    if (!profiler) {
      mkdirSync(profileDir, { recursive: true });
      profiler = new Inspector();
      profiler.connect();
      profiler.post('Profiler.enable');
      profiler.post('Profiler.setSamplingInterval', { interval: 100 });
    }
    profiling = `${Date.now()}-${what.replace(/[^a-z0-9]+/gi, '-')}`;
    mark(`profile ${profiling} hr ${process.hrtime.bigint() / 1000n}`);
    profiler.post('Profiler.start');
  } catch {
    profiling = undefined;
  }
}

/** Ends the profile begun by profileFrom, if any, and writes it. */
export function profileTo(): void {
  if (!profiler || !profiling) return;
  const name = profiling;
  profiling = undefined;
  profiler.post('Profiler.stop', (e, r) => {
    if (!e && r?.profile) {
      try {
        writeFileSync(join(profileDir!, `${name}.cpuprofile`), JSON.stringify(r.profile));
      } catch {
        // a measurement aid
      }
    }
  });
}
