import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeadlineHeap } from '../../../../src/engine/controllers/nodeLifecycle/deadlines';
import { mulberry32 } from '../../../helpers/random';

// Against a plain list: every entry pushed comes out exactly once, in nondecreasing time, and only
// when its time is before `now`; pushes while popping (re-arming) and save/restore mid-way included.
test('DeadlineHeap: randomised against a list', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const rnd = mulberry32(seed);
    // the items are slot-like objects, one per name (the controller pushes its slots)
    const items = new Map<string, { name: string }>();
    const item = (name: string) => items.get(name) ?? items.set(name, { name }).get(name)!;
    let d = new DeadlineHeap<{ name: string }>();
    let model: { t: number; name: string }[] = [];
    let now = 0;
    for (let step = 0; step < 300; step++) {
      const r = rnd();
      if (r < 0.5) {
        // few distinct instants, as on a renewal grid
        const e = { t: now + Math.floor(rnd() * 5) * 10, name: `n${Math.floor(rnd() * 20)}` };
        d.push(e.t, item(e.name));
        model.push(e);
      } else if (r < 0.55) {
        d = DeadlineHeap.from(d.entries());
      } else {
        now += Math.floor(rnd() * 15);
        const out: { t: number; name: string }[] = [];
        const rearm = rnd() < 0.5;
        // popBefore (the controller's) and popOneBefore, mixed: the same entries
        const pop = (): { t: number; v: { name: string } } | undefined => {
          if (rnd() < 0.5) return d.popOneBefore(now);
          const v = d.popBefore(now);
          return v === undefined ? undefined : { t: d.poppedAt, v };
        };
        for (let e = pop(); e; e = pop()) {
          out.push({ t: e.t, name: e.v.name });
          if (rearm && rnd() < 0.3) {
            // re-armed while popping: due at once when before now
            const again = { t: now - 1 + Math.floor(rnd() * 3), name: e.v.name };
            d.push(again.t, e.v);
            model.push(again);
          }
        }
        if (!rearm) for (let i = 1; i < out.length; i++) assert.ok(out[i - 1].t <= out[i].t, 'in time order');
        const due = model.filter((e) => e.t < now);
        model = model.filter((e) => !(e.t < now));
        const key = (e: { t: number; name: string }) => `${e.t}/${e.name}`;
        assert.deepEqual(out.map(key).sort(), due.map(key).sort(), `seed ${seed} step ${step}`);
      }
      assert.equal(d.size, model.length);
      assert.deepEqual(
        d
          .entries()
          .map((e) => `${e.t}/${e.v.name}`)
          .sort(),
        model.map((e) => `${e.t}/${e.name}`).sort(),
      );
      assert.deepEqual(
        d.items(),
        d.entries().map((e) => e.v),
        "items: the entries' items, in their order",
      );
    }
  }
});

// A push at the instant of a bucket already popped (or being popped) starts a new bucket, due at
// once, and never goes into the popped one, where it would be lost (the randomised test above
// passes with the popped bucket left open; these cases do not).
// `p T N` pushes N at T, `b NOW` pops everything before NOW and expects the names listed after `=`.
const lastBucketCases: { name: string; ops: string[] }[] = [
  { name: 'a push at a popped instant, the last pushed to', ops: ['p 7 b', 'p 5 a', 'b 8 = a b', 'p 5 c', 'b 8 = c'] },
  { name: 'the bucket found again by its instant, then popped', ops: ['p 5 a', 'p 5 b', 'p 7 d', 'p 5 z', 'b 6 = a b z', 'p 5 c', 'b 6 = c', 'b 8 = d'] },
  { name: 'pushes at one instant, then another, then back', ops: ['p 9 a', 'p 9 b', 'p 4 c', 'p 9 d', 'b 5 = c', 'p 4 e', 'b 10 = e a b d'] },
  { name: 'a popped instant pushed twice again', ops: ['p 3 a', 'b 4 = a', 'p 3 b', 'p 3 c', 'b 4 = b c', 'p 3 d', 'b 4 = d'] },
];
for (const c of lastBucketCases) {
  test(`DeadlineHeap: ${c.name}`, () => {
    const d = new DeadlineHeap<{ name: string }>();
    for (const op of c.ops) {
      const [kind, a, , ...want] = op.split(' ');
      if (kind === 'p') d.push(Number(a), { name: op.split(' ')[2] });
      else {
        const got: string[] = [];
        for (let v = d.popBefore(Number(a)); v; v = d.popBefore(Number(a))) got.push(v.name);
        assert.deepEqual(got, want, op);
      }
    }
    assert.equal(d.size, 0);
  });
}
