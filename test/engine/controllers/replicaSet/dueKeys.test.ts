/**
 * The workqueue's order of the keys due (processNextWorkItem.ts `dueKeys`): by due time, then by
 * key, whether every key is due at the same instant (sorted by key alone, without reading the
 * machines again) or not. Each case lists the entries (key, dueAt) in the order `timed` holds them
 * and the keys in the order they must be synced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dueKeys } from '../../../../src/engine/controllers/replicaSet/processNextWorkItem';
import type { Entry } from '../../../../src/engine/controllers/replicaSet/entry';

interface Case {
  name: string;
  now: number;
  timed: [string, number | null][];
  expect: string[];
}

const cases: Case[] = [
  {
    name: 'all due at the same instant: by key',
    now: 50,
    timed: [
      ['ns/c', 50],
      ['ns/a', 50],
      ['ns/b', 50],
    ],
    expect: ['ns/a', 'ns/b', 'ns/c'],
  },
  {
    name: 'due at two instants: the earlier first, then by key',
    now: 50,
    timed: [
      ['ns/a', 50],
      ['ns/c', 40],
      ['ns/b', 50],
      ['ns/d', 40],
    ],
    expect: ['ns/c', 'ns/d', 'ns/a', 'ns/b'],
  },
  {
    name: 'an earlier instant last in `timed`, with the larger key',
    now: 50,
    timed: [
      ['ns/a', 50],
      ['ns/b', 50],
      ['ns/z', 10],
    ],
    expect: ['ns/z', 'ns/a', 'ns/b'],
  },
  {
    name: 'not queued and later keys are left out',
    now: 50,
    timed: [
      ['ns/b', null],
      ['ns/c', 60],
      ['ns/a', 50],
      ['ns/d', 50],
    ],
    expect: ['ns/a', 'ns/d'],
  },
  {
    name: 'one due, the rest later: the one alone',
    now: 50,
    timed: [
      ['ns/b', 51],
      ['ns/a', 20],
    ],
    expect: ['ns/a'],
  },
  {
    name: 'nothing due',
    now: 50,
    timed: [
      ['ns/a', 51],
      ['ns/b', null],
    ],
    expect: [],
  },
];

function rig(timed: [string, number | null][]) {
  const dueAt = new Map<Entry, number | null>();
  const set = new Set<Entry>();
  for (const [key, at] of timed) {
    const e = { key } as Entry;
    dueAt.set(e, at);
    set.add(e);
  }
  return { timed: set, ctx: (e: Entry) => ({ dueAt: dueAt.get(e)! }) as ReturnType<Parameters<typeof dueKeys>[0]['ctx']> };
}

for (const c of cases) {
  test(`dueKeys: ${c.name}`, () => {
    assert.deepEqual(
      dueKeys(rig(c.timed), c.now).map((e) => e.key),
      c.expect,
    );
  });
}

test('dueKeys: seeded random queues give the order of a sort by (due time, key)', () => {
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let round = 0; round < 300; round++) {
    const instants = 1 + rnd(3);
    const timed: [string, number | null][] = [];
    const n = rnd(40);
    for (let i = 0; i < n; i++) timed.push([`ns/rs-${rnd(1000)}-${i}`, rnd(10) === 0 ? null : 100 + 10 * rnd(instants + 1)]);
    const now = 100 + 10 * rnd(instants + 1);
    const expect = timed
      .filter(([, at]) => at !== null && at <= now)
      .sort((a, b) => a[1]! - b[1]! || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([k]) => k);
    assert.deepEqual(
      dueKeys(rig(timed), now).map((e) => e.key),
      expect,
      `round ${round}`,
    );
  }
});
