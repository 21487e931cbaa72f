/**
 * firstAllDown (lapseRounds.ts): kubelets that post too seldom followed round by round. Two nodes with a 40 s grace,
 * passes every 5 s, status posts every 5 m on 10 s ticks: each is down from its Unknown pass to the pass that reads its
 * re-post (the next tick), then up until the first pass past that read + grace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstAllDown, type Lapsing } from '../../../src/engine/simulation/lapseRounds';
import type { KubeletFacts } from '../../../src/engine/trace/whyNot';

const s = (n: number) => n * 1e6;
const passAtOrAfter = (t: number) => Math.ceil(t / s(5)) * s(5);
const facts = (nextPost: number, over: Partial<KubeletFacts> = {}): KubeletFacts => ({
  running: true,
  lapses: true,
  nextPost: s(nextPost),
  postEvery: s(300),
  updateEvery: s(10),
  postsReady: 'True',
  ...over,
});
const node = (name: string, unknownAt: number, nextPost: number, over: Partial<KubeletFacts> = {}): Lapsing => ({
  node: name,
  k: facts(nextPost, over),
  unknownAt: unknownAt === -Infinity ? -Infinity : s(unknownAt),
});

const cases: { name: string; nodes: Lapsing[]; from: number; until: number; want: number | undefined | null }[] = [
  // a: down [100,110), [155,160), [205,210), …; b: [105,115), …: both down at 105
  { name: 'in step: both down at the second one’s Unknown', nodes: [node('a', 100, 400), node('b', 105, 405)], from: 0, until: 600, want: 105 },
  // b: [130,140), [185,190), [235,240), …: thirty seconds after a, every round
  { name: 'out of step: never down together', nodes: [node('a', 100, 400), node('b', 130, 430)], from: 0, until: 600, want: undefined },
  { name: 'out of step, from later on: never', nodes: [node('a', 100, 400), node('b', 130, 430)], from: 300, until: 900, want: undefined },
  // b re-posts Ready=False: down for good from 130, so at a's next Unknown
  {
    name: 'one posting Ready=False stays down: the other’s next Unknown',
    nodes: [node('a', 100, 400), node('b', 130, 430, { postsReady: 'False' })],
    from: 0,
    until: 600,
    want: 155,
  },
  {
    name: 'the other nodes down only later: from then',
    nodes: [node('a', 100, 400), node('b', 130, 430, { postsReady: 'False' })],
    from: 170,
    until: 600,
    want: 205,
  },
  { name: 'until before any overlap: none', nodes: [node('a', 100, 400), node('b', 130, 430, { postsReady: 'False' })], from: 0, until: 150, want: undefined },
  // down now, re-posting at 120 (read then): down [.., 120)
  { name: 'one down now with its re-post to come', nodes: [node('a', 100, 400), node('b', -Infinity, 120)], from: 0, until: 600, want: 100 },
  // a plain post every 40 s comes before the next lapse: not followed
  { name: 'a plain post before the lapse: not followed', nodes: [node('a', 100, 400, { postEvery: s(40) })], from: 0, until: 600, want: null },
];

for (const c of cases)
  test(`firstAllDown: ${c.name}`, () => {
    const got = firstAllDown(c.nodes, s(c.from), s(c.until), s(40), passAtOrAfter);
    assert.equal(got, c.want === undefined || c.want === null ? c.want : s(c.want));
  });
