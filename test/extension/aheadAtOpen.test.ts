/**
 * The open's run-ahead (aheadAtOpen.ts): the next pass made in slices after the open's messages, a later turn of the
 * event loop each, until the ahead simulation's views are prepared on it; a Step then swaps. Timers are the test's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import { AHEAD_AT_OPEN_SLICE_MS, nextPassInSlices, type SliceTimers } from '../../src/extension/aheadAtOpen';

const dir = resolve(__dirname, '../../examples');

function opened(file: string, runAhead = true): Session {
  const o = openScenario(join(dir, file), '');
  const s = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: () => {}, runAhead });
  s.sendAll();
  return s;
}

/** Timers run by hand: `next` queues, the clock moves `tick` ms at every look. */
function manualTimers(tick: number) {
  const queue: (() => void)[] = [];
  let t = 0;
  const timers: SliceTimers = { next: (run) => queue.push(run), now: () => (t += tick) };
  return {
    timers,
    queued: () => queue.length,
    /** runs the queued turns until none is left (or `stop` says so); how many ran */
    drain(stop: () => boolean = () => false): number {
      let n = 0;
      while (queue.length && !stop()) {
        queue.shift()!();
        if (++n > 10_000) throw new Error('still slicing after 10,000 turns');
      }
      return n;
    },
  };
}

const cases: {
  name: string;
  file: string;
  tick: number;
  runAhead?: boolean;
  current?: (turn: number) => boolean;
  swap: boolean;
  turns: (n: number) => boolean;
}[] = [
  // every look at the clock a tenth of a slice: the open's simulation goes on to the next pass (no other is made first)
  { name: 'a slice a turn until the next pass is prepared', file: 'one-node-stops.yaml', tick: AHEAD_AT_OPEN_SLICE_MS / 10, swap: true, turns: (n) => n >= 1 },
  { name: 'the 1.12 example too', file: 'v1.12-pod-eviction.yaml', tick: AHEAD_AT_OPEN_SLICE_MS / 10, swap: true, turns: (n) => n >= 1 },
  // a slower clock: a piece a slice, still done
  { name: 'a piece a slice', file: 'one-node-stops.yaml', tick: AHEAD_AT_OPEN_SLICE_MS, swap: true, turns: (n) => n > 3 },
  { name: 'another scenario opened at once: nothing is made', file: 'one-node-stops.yaml', tick: 1, current: () => false, swap: false, turns: (n) => n === 1 },
  {
    name: 'another scenario opened after the first slice: it stops there',
    file: 'one-node-stops.yaml',
    tick: AHEAD_AT_OPEN_SLICE_MS,
    current: (turn) => turn < 1,
    swap: false,
    turns: (n) => n === 2,
  },
  { name: 'run-ahead off: nothing to make', file: 'one-node-stops.yaml', tick: 1, runAhead: false, swap: false, turns: (n) => n === 1 },
];

for (const c of cases)
  test(`the open's run-ahead: ${c.name}`, () => {
    const s = opened(c.file, c.runAhead);
    const m = manualTimers(c.tick);
    let turn = 0;
    nextPassInSlices(s, () => (c.current ? c.current(turn++) : true), m.timers);
    assert.equal(m.queued(), 1, 'nothing runs before a later turn of the event loop');
    assert.equal(s.ahead.sim, undefined);
    const turns = m.drain();
    assert.ok(c.turns(turns), `${turns} turns`);
    const ahead = s.ahead.sim;
    assert.equal(s.ahead.views?.hasPrepared === true, c.swap, 'prepared on the next pass');
    const shown = s.sim;
    assert.equal(s.step().ok, true);
    // a swap: the ahead simulation is the one shown now; else the shown one stepped itself
    assert.equal(s.sim === ahead && s.sim !== shown, c.swap);
    assert.equal(s.sim.pass, 0);
  });

test("the open's run-ahead stops when a Step comes first, and leaves the rest to idle time", () => {
  const s = opened('one-node-stops.yaml');
  const m = manualTimers(AHEAD_AT_OPEN_SLICE_MS);
  nextPassInSlices(s, () => true, m.timers);
  m.drain(() => s.ahead.sim !== undefined);
  assert.equal(s.ahead.views?.hasPrepared === true, false, 'still on its way');
  const opening = s.ahead.sim;
  assert.equal(s.step().ok, true);
  assert.equal(s.sim.pass, 0);
  // its views not aligned yet, the open's simulation was shown again and stepped itself
  assert.equal(s.sim, opening);
  const ahead = s.ahead.sim;
  // the turn queued before the Step finds the shown one moved and does nothing
  assert.equal(m.drain(), 1);
  assert.equal(s.ahead.sim, ahead);
  assert.equal(s.ahead.views?.hasPrepared === true, false);
});

test("the open's run-ahead leaves the rest to idle time: no turn is queued once the next pass is prepared", () => {
  const s = opened('one-node-stops.yaml');
  const m = manualTimers(1);
  nextPassInSlices(s, () => true, m.timers);
  m.drain(() => s.ahead.views?.hasPrepared === true);
  assert.equal(s.ahead.views?.hasPrepared, true);
  // the turn left finds it prepared and queues nothing more
  m.drain();
  assert.equal(m.queued(), 0);
});
