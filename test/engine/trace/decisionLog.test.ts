/**
 * The recorder's DecisionLog (trace/decisionLog.ts) reads as the `Decision[]` it replaced did: each row applies
 * the same steps (push, truncate) to a log and to a plain list, then every reader's way in (length, at, iteration,
 * slice, some, find, filter, map, JSON) must give the same answer from both; the header the log keeps in columns
 * (pass, time, kind, object, machine id, causes: what the seq indexes, a run to a decision and the copies read) must be
 * each record's, in the log and in its copies (`copy`, `copyOf` from an index on).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DecisionLog, MADE_KEPT, type RecordMaker } from '../../../src/engine/trace/decisionLog';
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

// A compact kind: its entry the seq, its record made from the entry and the header (as a kind's maker makes it)
const make: RecordMaker<number> = (seq, h) => ({ ...decision(seq), seq: h.seq, time: h.time, pass: h.pass, object: h.object, causes: h.causes });
/** `d` into `log`: as its record, or (`entry`) as the entry its record is made from. */
function add(log: DecisionLog, d: Decision, entry: boolean): void {
  if (!entry) return log.push(d);
  const { pass, time, controller, action, object, causes } = d;
  log.pushEntry({ pass, time, controller, action, object, causes, machineId: d.machine?.id }, make, d.seq);
}
/** the same record, or (an entry's) one that reads the same */
const same = (a: Decision | undefined, b: Decision | undefined, entries: boolean, what: string) =>
  entries ? assert.deepEqual(a, b, what) : assert.equal(a, b, what);

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
    assert.deepEqual(log.at(i), d, `${what}: at(${i})`);
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

for (const row of rows)
  for (const entries of [false, true]) {
    test(`DecisionLog reads as a list: ${row.name}${entries ? ', odd seqs kept as entries' : ''}`, () => {
      const log = new DecisionLog();
      const list: Decision[] = [];
      for (const s of row.steps) {
        if ('push' in s) {
          const d = decision(s.push);
          add(log, d, entries && s.push % 2 === 1);
          list.push(d);
        } else {
          log.truncate(s.truncate);
          if (s.truncate < list.length) list.length = s.truncate;
        }
      }
      assert.equal(log.length, list.length);
      for (const i of [-list.length - 1, -2, -1, 0, 1, 2, list.length - 1, list.length, list.length + 3]) same(log.at(i), list.at(i), entries, `at(${i})`);
      assert.deepEqual([...log], list);
      assert.deepEqual(log.toArray(), list);
      for (const [a, b] of [[undefined, undefined], [1], [1, 3], [-2], [0, -1], [5, 2]] as [number?, number?][])
        assert.deepEqual(log.slice(a, b), list.slice(a, b), `slice(${a}, ${b})`);
      const odd = (d: Decision, i: number) => d.seq % 2 === 1 && i >= 0;
      assert.equal(
        log.some((d) => d.seq === 2),
        list.some((d) => d.seq === 2),
      );
      same(log.find(odd), list.find(odd), entries, 'find');
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
        add(tail, more, entries);
        sameHeads(tail, [...list, more], base, `from ${base}, one more`);
      }
    });
  }

test(`DecisionLog: more entries read than it keeps made (${MADE_KEPT}): each made again, the same`, () => {
  const log = new DecisionLog();
  const n = MADE_KEPT + 100;
  for (let seq = 1; seq <= n; seq++) add(log, decision(seq), true);
  for (const i of [0, 1, n - 1]) assert.deepEqual(log.at(i), decision(i + 1), `at(${i}) first`);
  for (let i = 0; i < n; i++) log.at(i);
  for (const i of [0, 1, n - 1]) assert.deepEqual(log.at(i), decision(i + 1), `at(${i}) again`);
  log.truncate(3);
  add(log, decision(9), true);
  assert.deepEqual(log.at(3), { ...decision(9), seq: 4 }, 'a row cut and pushed again: not the record made before');
});

// check mode: a maker that reads what changes after the push shows when the instant ends
test('DecisionLog check mode: a maker reading a later change throws when the instant ends', () => {
  // a kind of its own (one maker a kind)
  const maker: RecordMaker<{ summary: string }> = (e, h) => ({
    ...decision(h.seq),
    controller: 'scheduler',
    action: 'PodStarted',
    summary: e.summary,
    causes: h.causes,
  });
  for (const [name, later, throws] of [
    ['the entry kept as pushed', false, false],
    ['the entry written after the push', true, true],
  ] as const) {
    const log = new DecisionLog();
    const seen: string[] = [];
    log.check = (eager, again, when) => {
      if (JSON.stringify(eager) !== JSON.stringify(again)) throw new Error(`${when}: ${eager.summary} / ${again.summary}`);
      seen.push(when);
    };
    const box = { summary: 'first' };
    const d = decision(1);
    log.pushEntry({ pass: d.pass, time: d.time, controller: 'scheduler', action: 'PodStarted', object: d.object, causes: d.causes }, maker, box);
    if (later) box.summary = 'changed';
    const next = () => log.push({ ...decision(3), time: '2026-01-01T00:00:09.000Z' });
    if (throws) assert.throws(next, /when the instant ended: first \/ changed/, name);
    else next();
    assert.deepEqual(seen, throws ? ['at once'] : ['at once', 'when the instant ended'], name);
  }
});
