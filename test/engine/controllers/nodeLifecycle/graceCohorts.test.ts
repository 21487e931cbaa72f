import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraceCohorts } from '../../../../src/engine/controllers/nodeLifecycle/graceCohorts';
import { NodeSlots, type Slot } from '../../../../src/engine/controllers/nodeLifecycle/slots';
import { mulberry32 } from '../../../helpers/random';

// The cohorts must behave as one deadline per node, the due of its latest join: a pass at `now`
// hands over each node whose latest due is before now exactly once (and no node that joined again
// later), `covers` answers for the latest due only, and a queue never answers for another's slots.
type Op = { join: string; due: number } | { pass: number; out: string[] } | { covers: string; due: number; is: boolean };

const cases: { name: string; ops: Op[] }[] = [
  {
    name: 'a node renewed again leaves its cohort',
    ops: [
      { join: 'a', due: 40 },
      { join: 'b', due: 40 },
      { join: 'a', due: 50 },
      { pass: 45, out: ['b'] },
      { covers: 'a', due: 50, is: true },
      { covers: 'a', due: 40, is: false },
      { pass: 51, out: ['a'] },
      { pass: 100, out: [] },
    ],
  },
  {
    name: 'a cohort whose nodes all moved on hands over nothing',
    ops: [
      { join: 'a', due: 40 },
      { join: 'b', due: 40 },
      { join: 'a', due: 50 },
      { join: 'b', due: 50 },
      { pass: 41, out: [] },
      { pass: 50, out: [] },
      { pass: 50.5, out: ['a', 'b'] },
    ],
  },
  {
    name: 'due is strictly before now (the grace has run out when now is After it)',
    ops: [
      { join: 'a', due: 40 },
      { pass: 40, out: [] },
      { pass: 40.001, out: ['a'] },
    ],
  },
  {
    name: 'joining the same cohort twice counts once',
    ops: [
      { join: 'a', due: 40 },
      { join: 'a', due: 40 },
      { join: 'b', due: 40 },
      { join: 'b', due: 60 },
      { pass: 41, out: ['a'] },
      { covers: 'a', due: 40, is: false },
      { covers: 'b', due: 60, is: true },
    ],
  },
  {
    name: 'several cohorts due at one pass, in order',
    ops: [
      { join: 'a', due: 10 },
      { join: 'b', due: 20 },
      { join: 'c', due: 30 },
      { join: 'd', due: 40 },
      { join: 'c', due: 45 },
      { pass: 35, out: ['a', 'b'] },
      { pass: 46, out: ['c', 'd'] },
    ],
  },
];

function run(ops: Op[], q: GraceCohorts, slots: NodeSlots): void {
  for (const op of ops) {
    if ('join' in op) q.join(slots.of(op.join), op.due);
    else if ('covers' in op) assert.equal(q.covers(slots.of(op.covers), op.due), op.is, `covers ${op.covers} at ${op.due}`);
    else {
      const got: string[] = [];
      const seen: string[] = [];
      q.forEachBefore(op.pass, slots.all(), (s) => seen.push(s.name));
      for (let c = q.popBefore(op.pass); c; c = q.popBefore(op.pass)) for (const s of q.release(c, slots.all())) got.push(s.name);
      assert.deepEqual(got.sort(), op.out, `pass at ${op.pass}`);
      assert.deepEqual(seen.sort(), op.out, `forEachBefore(${op.pass})`);
    }
  }
}

for (const c of cases) {
  test(`GraceCohorts: ${c.name}`, () => run(c.ops, new GraceCohorts(), new NodeSlots()));
}

test("GraceCohorts: another queue's cohort (a restore's previous controller) covers nothing", () => {
  const slots = new NodeSlots();
  const old = new GraceCohorts();
  old.join(slots.of('a'), 40);
  const q = new GraceCohorts();
  assert.equal(q.covers(slots.of('a'), 40), false);
  q.join(slots.of('a'), 50);
  assert.equal(q.covers(slots.of('a'), 50), true);
  const out: string[] = [];
  for (let c = q.popBefore(60); c; c = q.popBefore(60)) for (const s of q.release(c, slots.all())) out.push(s.name);
  assert.deepEqual(out, ['a']);
});

// Randomised against a Map of each node's latest due, on a grid of passes as the kubelets renew
// (most nodes join a later cohort before theirs comes due, some stop), with `forEach` (the
// checkpoint's walk) compared at every step.
test('GraceCohorts: randomised against a map of latest dues', () => {
  for (let seed = 1; seed <= 30; seed++) {
    const rnd = mulberry32(seed);
    const slots = new NodeSlots();
    const q = new GraceCohorts();
    const model = new Map<string, number>();
    let now = 0;
    for (let step = 0; step < 400; step++) {
      now += 5;
      for (let i = 0; i < 30; i++) {
        if (rnd() < 0.4) {
          const name = `n${i}`;
          q.join(slots.of(name), now + 40);
          model.set(name, now + 40);
        }
      }
      const due = [...model].filter(([, t]) => t < now).map(([n]) => n);
      for (const n of due) model.delete(n);
      const got: string[] = [];
      for (let c = q.popBefore(now); c; c = q.popBefore(now)) for (const s of q.release(c, slots.all())) got.push(s.name);
      assert.deepEqual(got.sort(), due.sort(), `seed ${seed} step ${step}`);
      const live: string[] = [];
      q.forEach(slots.all(), (s: Slot, t) => {
        assert.equal(t, model.get(s.name));
        assert.ok(q.covers(s, t));
        live.push(s.name);
      });
      assert.deepEqual(live.sort(), [...model.keys()].sort());
    }
  }
});
