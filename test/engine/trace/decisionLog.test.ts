/**
 * The recorder's DecisionLog (trace/decisionLog.ts) reads as the `Decision[]` it replaced did: each row applies
 * the same steps (push, truncate) to a log and to a plain list, then every reader's way in (length, at, iteration,
 * slice, some, find, filter, map, JSON) must give the same answer from both; the header the log keeps in columns
 * (pass, time, kind, object, machine id, causes: what the seq indexes, a run to a decision and the copies read) must be
 * each record's, in the log and in its copies (`copy`, `copyOf` from an index on).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecisionLog } from '../../../src/engine/trace/decisionLog';
import type { Decision } from '../../../src/engine/trace/decision';

// two decisions an instant; kinds, objects, machines and causes (none, one, three) varied
const decision = (seq: number): Decision => ({
  seq,
  time: `2026-01-01T00:00:0${(seq >> 1) % 10}.000Z`,
  pass: seq > 2 ? seq >> 2 : null,
  controller: seq % 4 === 0 ? 'replicaset' : 'world',
  action: seq % 4 === 0 ? 'PodsCreated' : seq % 4 === 1 ? 'ObjectApplied' : 'KubeletStopped',
  object: `Node/n${seq % 3}`,
  summary: `s${seq}`,
  because: [],
  causes: seq === 1 ? [] : seq % 3 === 0 ? [1, seq - 2, seq - 1] : [seq - 1],
  machine: seq % 2 === 0 ? { id: `node/n${seq % 5}`, from: 'a', to: 'b', event: 'E' } : null,
  source: 'test',
});

/** Every header reader of `log` against the records of `list` (indexes from `base` on). */
function sameHeads(log: DecisionLog, list: readonly Decision[], base: number, what: string): void {
  assert.equal(log.length, list.length, `${what}: length`);
  for (let i = base; i < list.length; i++) {
    const d = list[i];
    const head = { seq: d.seq, pass: d.pass, time: d.time, controller: d.controller, action: d.action, object: d.object };
    const h = log.headAt(i);
    assert.deepEqual({ seq: h.seq, pass: h.pass, time: h.time, controller: h.controller, action: h.action, object: h.object }, head, `${what}: head ${i}`);
    assert.equal(log.machineIdAt(i), d.machine?.id, `${what}: machine ${i}`);
    assert.deepEqual(log.causesAt(i), d.causes, `${what}: causes ${i}`);
    assert.equal(log.at(i), d, `${what}: at(${i})`);
  }
  assert.equal(
    log.someHead(base, list.length, (h) => h.action === 'PodsCreated'),
    list.slice(base).some((d) => d.action === 'PodsCreated'),
    `${what}: someHead`,
  );
}

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
    sameHeads(log, list, 0, 'the log');
    // copies: the whole log into an empty one, and from each index on (a redo's), then one more pushed to both
    const whole = new DecisionLog();
    whole.copy(log, 0, log.length);
    sameHeads(whole, list, 0, 'a whole copy');
    for (let base = 0; base <= list.length; base++) {
      const tail = log.copyOf(base, log.length);
      if (base > 0) {
        assert.equal(tail.at(base - 1), undefined, `from ${base}: nothing before`);
        assert.throws(() => tail.slice(base - 1), RangeError);
      }
      assert.deepEqual(tail.slice(base), list.slice(base), `from ${base}: slice`);
      const more = decision(list.length + 1);
      tail.push(more);
      sameHeads(tail, [...list, more], base, `from ${base}, one more`);
    }
  });
}
