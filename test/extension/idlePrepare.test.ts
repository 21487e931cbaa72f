/**
 * The engine prepares (the binder's node index) only once the panel has been sent nothing for
 * IDLE_PREPARE_MS: every message arms the wait again, a long run under way skips it, and a
 * dropped session's simulation is never prepared. A table of timelines on fake timers: each entry
 * is an arm (a message sent), a wait of so many milliseconds, or a change of `busy`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IDLE_PREPARE_MS, IdlePrepare, type IdleTimers } from '../../src/extension/idlePrepare';

type Op = 'arm' | 'busy' | 'free' | 'dispose' | number;

/** Timers on a clock that moves only when a timeline waits. */
function fakeTimers() {
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
  const wait = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const first = [...due].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!first) break;
      due.delete(first[0]);
      now = first[1].at;
      first[1].run();
    }
    now = until;
  };
  return { timers, wait, pending: () => due.size };
}

const I = IDLE_PREPARE_MS;
const cases: { name: string; ops: Op[]; prepared: number }[] = [
  { name: 'a message, then idle', ops: ['arm', I], prepared: 1 },
  { name: 'a message, then not idle long enough', ops: ['arm', I - 1], prepared: 0 },
  { name: 'quick steps re-arm the wait: nothing until the last one has been idle long enough', ops: ['arm', I - 50, 'arm', I - 50, 'arm', I - 1], prepared: 0 },
  { name: 'quick steps, then idle: prepared once', ops: ['arm', I - 50, 'arm', I - 50, 'arm', I], prepared: 1 },
  { name: 'idle twice: prepared twice (the engine does nothing the second time)', ops: ['arm', I, 'arm', I], prepared: 2 },
  { name: 'a long run under way when the wait ends: skipped', ops: ['arm', 'busy', I], prepared: 0 },
  { name: 'skipped while busy, then the next idle time prepares', ops: ['arm', 'busy', I, 'free', 'arm', I], prepared: 1 },
  { name: 'the session dropped before the wait ends: never', ops: ['arm', 'dispose', I, 'arm', I], prepared: 0 },
  { name: 'nothing sent: nothing prepared', ops: [I * 3], prepared: 0 },
];

for (const c of cases) {
  test(`idle preparation: ${c.name}`, () => {
    const t = fakeTimers();
    let busy = false;
    let prepared = 0;
    const idle = new IdlePrepare(
      () => prepared++,
      () => busy,
      t.timers,
    );
    for (const op of c.ops) {
      if (op === 'arm') idle.arm();
      else if (op === 'busy') busy = true;
      else if (op === 'free') busy = false;
      else if (op === 'dispose') idle.dispose();
      else t.wait(op);
    }
    assert.equal(prepared, c.prepared);
    assert.ok(t.pending() <= 1, 'at most one wait armed at a time');
  });
}
