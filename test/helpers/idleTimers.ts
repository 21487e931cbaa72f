/** Fake timers for IdlePrepare (tests never wait): a clock that moves only when a timeline waits or work spends time. */
import type { IdleTimers } from '../../src/extension/idlePrepare';

/** Timers on a clock that moves only when a timeline waits or the engine works (`spend`). */
export function fakeTimers() {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  const timers: IdleTimers = {
    set: (run, ms) => {
      due.set(++next, { at: now + ms, run });
      return next;
    },
    clear: (h) => void due.delete(h as number),
  };
  let callbacks = 0;
  const wait = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const first = [...due].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!first) break;
      due.delete(first[0]);
      now = Math.max(now, first[1].at);
      callbacks++;
      first[1].run();
    }
    // a slice may have worked past the end of the wait
    now = Math.max(now, until);
  };
  return { timers, wait, pending: () => due.size, clock: () => now, spend: (ms: number) => (now += ms), callbacks: () => callbacks };
}
