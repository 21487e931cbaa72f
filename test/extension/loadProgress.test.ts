/**
 * The load's progress: a notification only for a big input (VS Code keeps one on screen for at least 800 ms,
 * over a small scenario painted long before), and it ends when the panel says it painted the new scenario,
 * or after PAINT_WAIT_MS when it never says so. Timers are fake: nothing waits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProgressPlace, NOTIFY_LOADS_FROM_BYTES, PAINT_WAIT_MS, PaintWait, type PaintTimers } from '../../src/extension/loadProgress';

const MiB = 1024 * 1024;

const places: { name: string; bytes: number; place: string }[] = [
  { name: 'an example scenario (a few KiB): the status bar', bytes: 6 * 1024, place: 'statusBar' },
  { name: 'a 1,000-node export (about 20 MiB): the status bar', bytes: 20 * MiB, place: 'statusBar' },
  { name: 'just under the threshold: the status bar', bytes: NOTIFY_LOADS_FROM_BYTES - 1, place: 'statusBar' },
  { name: 'at the threshold: a notification', bytes: NOTIFY_LOADS_FROM_BYTES, place: 'notification' },
  { name: 'a 5,000-node export (about 400 MiB): a notification', bytes: 400 * MiB, place: 'notification' },
];
for (const c of places) test(`the load's progress for ${c.name}`, () => assert.equal(loadProgressPlace(c.bytes), c.place));

function fakeTimers() {
  const due = new Map<number, { at: number; run: () => void }>();
  let now = 0,
    next = 0;
  const timers: PaintTimers = {
    set: (run, ms) => (due.set(++next, { at: now + ms, run }), next),
    clear: (h) => void due.delete(h as number),
  };
  const wait = (ms: number) => {
    now += ms;
    for (const [h, t] of [...due].sort((a, b) => a[1].at - b[1].at))
      if (t.at <= now) {
        due.delete(h);
        t.run();
      }
  };
  return { timers, wait, pending: () => due.size };
}

type Op = 'expect' | 'painted' | number;
const waits: { name: string; ops: Op[]; ended: boolean[] }[] = [
  { name: 'the panel paints: the progress ends then', ops: ['expect', 100, 'painted'], ended: [true] },
  { name: 'nothing painted yet: the progress stays', ops: ['expect', PAINT_WAIT_MS - 1], ended: [false] },
  { name: 'the panel never paints (hidden): the progress ends after PAINT_WAIT_MS', ops: ['expect', PAINT_WAIT_MS], ended: [true] },
  { name: 'a paint before the open expects one does not end it', ops: ['painted', 'expect', 10], ended: [false] },
  { name: 'a second open ends the first one’s wait; the paint ends the second', ops: ['expect', 10, 'expect', 10, 'painted'], ended: [true, true] },
  { name: 'a second open ends the first one’s wait only', ops: ['expect', 10, 'expect', 10], ended: [true, false] },
];
for (const c of waits) {
  test(`PaintWait: ${c.name}`, async () => {
    const t = fakeTimers();
    const w = new PaintWait(t.timers);
    const ended: boolean[] = [];
    for (const op of c.ops) {
      if (op === 'expect') {
        const i = ended.push(false) - 1;
        void w.expect().then(() => (ended[i] = true));
      } else if (op === 'painted') w.painted();
      else t.wait(op);
      // the promises' callbacks
      await Promise.resolve();
      await Promise.resolve();
    }
    assert.deepEqual(ended, c.ended);
    if (c.ended.every(Boolean)) assert.equal(t.pending(), 0, 'no timer left');
  });
}
