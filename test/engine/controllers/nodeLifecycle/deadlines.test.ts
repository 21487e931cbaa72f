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
