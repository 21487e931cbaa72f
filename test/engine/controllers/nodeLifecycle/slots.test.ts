import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeSlots } from '../../../../src/engine/controllers/nodeLifecycle/slots';

// The news list must behave as the Set it replaced: each node with news once,
// dropped news not handed over, news arriving after a take kept for the next take.
const cases: { name: string; ops: (s: NodeSlots) => void; take: string[]; saved: string[] }[] = [
  {
    name: 'each node once',
    ops: (s) => {
      s.addNews('a');
      s.addNews('b');
      s.addNews('a');
    },
    take: ['a', 'b'],
    saved: ['a', 'b'],
  },
  {
    name: 'dropped news is not handed over',
    ops: (s) => {
      s.addNews('a');
      s.addNews('b');
      s.dropNews('a');
    },
    take: ['b'],
    saved: ['b'],
  },
  {
    name: 'news again after a drop counts once',
    ops: (s) => {
      s.addNews('a');
      s.dropNews('a');
      s.addNews('b');
      s.addNews('a');
    },
    take: ['a', 'b'],
    saved: ['a', 'b'],
  },
  {
    name: 'dropping an unknown node is harmless',
    ops: (s) => {
      s.dropNews('x');
    },
    take: [],
    saved: [],
  },
];

for (const c of cases) {
  test(`NodeSlots news: ${c.name}`, () => {
    const s = new NodeSlots();
    c.ops(s);
    assert.deepEqual(s.newsNames().sort(), c.saved);
    assert.deepEqual(
      s
        .takeNews()
        .map((x) => x.name)
        .sort(),
      c.take,
    );
    for (const n of c.take) assert.equal(s.get(n)?.news ?? false, false, `${n} still has news after the take`);
    assert.deepEqual(s.takeNews(), [], 'a second take hands over nothing');
  });
}

test('NodeSlots: news after a take waits for the next take; settled and armed survive news', () => {
  const s = new NodeSlots();
  s.settle('a', 'quiet');
  s.of('a').armed = 40;
  s.addNews('a');
  const first = s.takeNews();
  s.addNews('a');
  assert.deepEqual(
    first.map((x) => x.name),
    ['a'],
  );
  assert.equal(s.get('a')?.news ?? false, true);
  assert.equal(s.get('a')?.settled, 'quiet');
  assert.equal(s.get('a')?.armed, 40);
  s.unsettleAll();
  assert.equal(s.get('a')?.settled, undefined);
  s.reset();
  assert.equal(s.get('a'), undefined);
  assert.deepEqual(s.takeNews(), []);
});
