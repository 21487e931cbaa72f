/**
 * The recorder's DecisionLog (trace/decisionLog.ts) reads as the `Decision[]` it replaced did: each row applies
 * the same steps (push, truncate) to a log and to a plain list, then every reader's way in (length, at, iteration,
 * slice, some, find, filter, map, JSON) must give the same answer from both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecisionLog } from '../../../src/engine/trace/decisionLog';
import type { Decision } from '../../../src/engine/trace/decision';

const decision = (seq: number): Decision => ({
  seq,
  time: `2026-01-01T00:00:0${seq % 10}.000Z`,
  pass: seq > 2 ? 1 : null,
  controller: 'world',
  action: 'ObjectApplied',
  object: `Node/n${seq % 3}`,
  summary: `s${seq}`,
  because: [],
  causes: seq > 1 ? [seq - 1] : [],
  machine: null,
  source: 'test',
});

type Step = { push: number } | { truncate: number };
const rows: { name: string; steps: Step[] }[] = [
  { name: 'empty', steps: [] },
  { name: 'five pushed', steps: [1, 2, 3, 4, 5].map((push) => ({ push })) },
  { name: 'cut back to two', steps: [...[1, 2, 3, 4, 5].map((push) => ({ push })), { truncate: 2 }] },
  { name: 'cut back to none, then one more', steps: [{ push: 1 }, { push: 2 }, { truncate: 0 }, { push: 1 }] },
  { name: 'cut to more than it has', steps: [{ push: 1 }, { push: 2 }, { truncate: 5 }] },
  { name: 'cut back, then on again', steps: [...[1, 2, 3, 4].map((push) => ({ push })), { truncate: 1 }, { push: 2 }, { push: 3 }] },
];

for (const row of rows) {
  test(`DecisionLog reads as a list: ${row.name}`, () => {
    const log = new DecisionLog();
    const list: Decision[] = [];
    for (const s of row.steps) {
      if ('push' in s) {
        const d = decision(s.push);
        log.push(d);
        list.push(d);
      } else {
        log.truncate(s.truncate);
        if (s.truncate < list.length) list.length = s.truncate;
      }
    }
    assert.equal(log.length, list.length);
    for (const i of [-list.length - 1, -2, -1, 0, 1, 2, list.length - 1, list.length, list.length + 3]) assert.equal(log.at(i), list.at(i), `at(${i})`);
    assert.deepEqual([...log], list);
    assert.deepEqual(log.toArray(), list);
    for (const [a, b] of [[undefined, undefined], [1], [1, 3], [-2], [0, -1], [5, 2]] as [number?, number?][])
      assert.deepEqual(log.slice(a, b), list.slice(a, b), `slice(${a}, ${b})`);
    const odd = (d: Decision, i: number) => d.seq % 2 === 1 && i >= 0;
    assert.equal(
      log.some((d) => d.seq === 2),
      list.some((d) => d.seq === 2),
    );
    assert.equal(log.find(odd), list.find(odd));
    assert.deepEqual(log.filter(odd), list.filter(odd));
    assert.deepEqual(
      log.map((d, i) => `${i}:${d.seq}`),
      list.map((d, i) => `${i}:${d.seq}`),
    );
    assert.equal(JSON.stringify(log), JSON.stringify(list));
  });
}
