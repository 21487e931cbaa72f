/**
 * The engine prepares (a pending checkpoint, the binder's node index) only once the panel has been
 * sent nothing for IDLE_PREPARE_MS, a slice at a time, one slice per macrotask: every message arms
 * the wait again and stops the slices (so a click is answered between two), a long run under way
 * skips it, and a dropped session's simulation is never prepared. A table of timelines on fake
 * timers and a fake clock: each entry is an arm (a message sent), a wait of so many milliseconds,
 * or a change of `busy`; the fake engine has PIECES pieces of work, each taking PIECE_MS.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IDLE_PREPARE_MS, IdlePrepare, PREPARE_SLICE_MS } from '../../src/extension/idlePrepare';
import { fakeTimers } from '../helpers/idleTimers';

type Op = 'arm' | 'busy' | 'free' | 'dispose' | number;

/** Plays a timeline of ops on `idle` (`busy` set through `setBusy`), checking that at most one wait or slice is armed. */
function play(ops: readonly Op[], idle: IdlePrepare, t: ReturnType<typeof fakeTimers>, setBusy: (busy: boolean) => void): void {
  for (const op of ops) {
    if (op === 'arm') idle.arm();
    else if (op === 'busy') setBusy(true);
    else if (op === 'free') setBusy(false);
    else if (op === 'dispose') idle.dispose();
    else t.wait(op);
    assert.ok(t.pending() <= 1, 'at most one wait or slice armed at a time');
  }
}

const I = IDLE_PREPARE_MS;
const PIECES = 7;
const PIECE_MS = 4;
/** pieces in one slice: it works while its PREPARE_SLICE_MS are not over, at least one piece */
const PER_SLICE = Math.ceil(PREPARE_SLICE_MS / PIECE_MS);
const ALL_SLICES = Math.ceil(PIECES / PER_SLICE);

const cases: { name: string; ops: Op[]; done: number; slices: number }[] = [
  { name: 'a message, then idle long enough: all the work, in slices', ops: ['arm', I + 100], done: PIECES, slices: ALL_SLICES },
  { name: 'a message, then not idle long enough: nothing', ops: ['arm', I - 1], done: 0, slices: 0 },
  {
    name: 'quick steps re-arm the wait: nothing until the last one has been idle long enough',
    ops: ['arm', I - 50, 'arm', I - 50, 'arm', I - 1],
    done: 0,
    slices: 0,
  },
  { name: 'quick steps, then idle: all the work', ops: ['arm', I - 50, 'arm', I - 50, 'arm', I + 100], done: PIECES, slices: ALL_SLICES },
  { name: 'a message between two slices stops them', ops: ['arm', I, 'arm', I - 1], done: PER_SLICE, slices: 1 },
  { name: 'stopped by a message, the slices go on after the next idle time', ops: ['arm', I, 'arm', I + 100], done: PIECES, slices: ALL_SLICES },
  { name: 'idle again once done: one more slice, which finds nothing to do', ops: ['arm', I + 100, 'arm', I + 100], done: PIECES, slices: ALL_SLICES + 1 },
  { name: 'a long run under way when the wait ends: skipped', ops: ['arm', 'busy', I + 100], done: 0, slices: 0 },
  { name: 'a long run started between two slices: the next slice is skipped', ops: ['arm', I, 'busy', 100], done: PER_SLICE, slices: 1 },
  { name: 'skipped while busy, then the next idle time prepares', ops: ['arm', 'busy', I, 'free', 'arm', I + 100], done: PIECES, slices: ALL_SLICES },
  { name: 'the session dropped before the wait ends: never', ops: ['arm', 'dispose', I, 'arm', I + 100], done: 0, slices: 0 },
  { name: 'the session dropped between two slices: no more', ops: ['arm', I, 'dispose', 100, 'arm', 100], done: PER_SLICE, slices: 1 },
  { name: 'nothing sent: nothing prepared', ops: [I * 3], done: 0, slices: 0 },
];

for (const c of cases) {
  test(`idle preparation: ${c.name}`, () => {
    const t = fakeTimers();
    let busy = false;
    let done = 0;
    const slices: number[] = [];
    const idle = new IdlePrepare(
      (more) => {
        const start = t.clock();
        if (done < PIECES)
          do {
            done++;
            t.spend(PIECE_MS);
          } while (done < PIECES && more());
        slices.push(t.clock() - start);
        return done < PIECES;
      },
      () => busy,
      t.timers,
      t.clock,
    );
    play(c.ops, idle, t, (b) => (busy = b));
    assert.equal(done, c.done, 'the pieces of work done');
    assert.equal(slices.length, c.slices, 'the slices run');
    assert.ok(t.callbacks() >= slices.length, 'each slice in a macrotask of its own');
    for (const ms of slices) assert.ok(ms < PREPARE_SLICE_MS + PIECE_MS, `a slice of ${ms} ms`);
  });
}

/**
 * The work the next step owes anyway (`owed`: the shown simulation's pending checkpoint) runs from OWED_WAIT_MS after
 * each message, in slices, so that the page's parse and paint of a quick click's update (about 30 ms) takes it off the
 * next click; the rest of the idle work still waits IDLE_PREPARE_MS from the message. OWED pieces owed, REST pieces of
 * the rest; each entry's `owed` and `rest`: the pieces done once the timeline is over.
 */
const OWED = 5;
const REST = 3;
const PAINT = 30;
const owedCases: { name: string; ops: Op[]; owed: number; rest: number }[] = [
  { name: 'a quick click: the owed work in the paint after it, nothing else', ops: ['arm', PAINT], owed: OWED, rest: 0 },
  { name: 'a click before the owed work is done stops it; the next message starts it again', ops: ['arm', 5, 'arm', PAINT], owed: OWED, rest: 0 },
  { name: 'a click 1 ms after the message: the slice it lands in done, no more', ops: ['arm', 1], owed: PER_SLICE, rest: 0 },
  {
    name: 'quick clicks, then reading: the owed work, then the rest from IDLE_PREPARE_MS after the last message',
    ops: ['arm', PAINT, 'arm', I - 1],
    owed: OWED,
    rest: 0,
  },
  { name: 'reading: the rest after IDLE_PREPARE_MS', ops: ['arm', PAINT, 'arm', I + 100], owed: OWED, rest: REST },
  { name: 'a long run under way: no owed slice', ops: ['arm', 'busy', PAINT], owed: 0, rest: 0 },
  { name: 'the session dropped: no owed slice', ops: ['arm', 'dispose', PAINT], owed: 0, rest: 0 },
];

for (const c of owedCases) {
  test(`idle preparation, owed work: ${c.name}`, () => {
    const t = fakeTimers();
    let busy = false;
    let owed = 0;
    let rest = 0;
    const slices: number[] = [];
    /** a task of `total` pieces of PIECE_MS, counted by `count` */
    const task = (total: number, count: () => number, add: () => void) => (more: () => boolean) => {
      const start = t.clock();
      if (count() < total)
        do {
          add();
          t.spend(PIECE_MS);
        } while (count() < total && more());
      slices.push(t.clock() - start);
      return count() < total;
    };
    const idle = new IdlePrepare(
      task(
        REST,
        () => rest,
        () => rest++,
      ),
      () => busy,
      t.timers,
      t.clock,
      task(
        OWED,
        () => owed,
        () => owed++,
      ),
    );
    play(c.ops, idle, t, (b) => (busy = b));
    assert.equal(owed, c.owed, 'the owed pieces done');
    assert.equal(rest, c.rest, 'the other pieces done');
    for (const ms of slices) assert.ok(ms < PREPARE_SLICE_MS + PIECE_MS, `a slice of ${ms} ms`);
  });
}
