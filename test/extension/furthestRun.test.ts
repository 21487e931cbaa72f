/**
 * The panel's furthest run (passes.ts FurthestRun) keeps what the engine's log keeps: copied from a DecisionLog, the
 * decisions kept there as entries stay entries (no record made for catching up), and each reads as its record when
 * found. From a plain list (tests' fakes), the records themselves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FurthestRun } from '../../src/extension/passes';
import { DecisionLog, type RecordMaker } from '../../src/engine/trace/decisionLog';
import type { Decision } from '../../src/engine/trace/decision';

const decision = (seq: number): Decision => ({
  seq,
  time: `2026-01-01T00:00:${String(10 + seq).padStart(2, '0')}.000Z`,
  pass: seq >> 1,
  controller: 'scheduler',
  action: 'PodBound',
  object: `Pod/default/p${seq}`,
  summary: `bound ${seq}`,
  because: [],
  causes: [],
  machine: null,
  source: 'test',
});

let made = 0;
const make: RecordMaker<number> = (seq) => (made++, decision(seq));

for (const [name, entries] of [
  ['a log of entries', true],
  ['a list of records', false],
] as const) {
  test(`FurthestRun catches up from ${name}, twice, and finds each decision`, () => {
    const log = new DecisionLog();
    const push = (seq: number) => {
      const d = decision(seq);
      if (entries) log.pushEntry({ pass: d.pass, time: d.time, controller: d.controller, action: d.action, object: d.object, causes: [] }, make, seq);
      else log.push(d);
    };
    const run = new FurthestRun();
    for (let seq = 1; seq <= 6; seq++) push(seq);
    made = 0;
    run.catchUp(entries ? log : log.toArray());
    for (let seq = 7; seq <= 9; seq++) push(seq);
    run.catchUp(entries ? log : log.toArray());
    assert.equal(made, 0, 'no record made to catch up');
    for (let seq = 1; seq <= 9; seq++) assert.deepEqual(run.find(seq), decision(seq), `decision ${seq}`);
    // the pass each is shown in (its pass at the pass's first instant, else the next): the instants learnt from the headers
    assert.deepEqual(
      [...run.byPass(true, () => false)].map(([p, ds]) => [p, ds.map((d) => d.seq)]),
      [
        [0, [1]],
        [1, [2]],
        [2, [3, 4]],
        [3, [5, 6]],
        [4, [7, 8]],
        [5, [9]],
      ],
    );
  });
}
