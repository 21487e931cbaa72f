/**
 * The copies a timed ReplicaSet entry keeps of its machine's times (Entry.dueAt, timerAt, written
 * by noteTimers), which the walks over `timed` read instead of every machine's context: after
 * each move of a case, every timed entry's copies are what its machine says, an entry out of
 * `timed` keeps none, and the verifying controller throws on a copy gone stale.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXPECTATIONS_TIMEOUT } from '../../../../src/engine/controllers/replicaSet/machine';
import type { ReplicaSetController } from '../../../../src/engine/controllers/replicaSet/controller';
import { World, rsObject } from './harness';

/** what the machine says: [dueAt, the earliest of resyncAt and the expectations' expiry] */
function machineTimes(rs: ReplicaSetController, key: string): [number | null, number | null] {
  const e = rs.entries.get(key)!;
  const c = rs.ctx(e);
  const expires = c.expectedAt !== null && rs.expectationsPending(e) ? c.expectedAt + EXPECTATIONS_TIMEOUT + 1 : null;
  return [c.dueAt, c.resyncAt === null ? expires : expires === null ? c.resyncAt : Math.min(c.resyncAt, expires)];
}

function copies(rs: ReplicaSetController): Record<string, [number | null, number | null] | 'not timed'> {
  const out: Record<string, [number | null, number | null] | 'not timed'> = {};
  for (const [key, e] of [...rs.entries].sort(([a], [b]) => (a < b ? -1 : 1))) {
    assert.equal(e.timed, rs.timed.has(e), `${key}: timed`);
    out[key] = e.timed ? [e.dueAt, e.timerAt] : 'not timed';
    if (!e.timed) assert.deepEqual([e.dueAt, e.timerAt], [null, null], `${key}: copies kept out of timed`);
  }
  return out;
}

function expected(rs: ReplicaSetController): Record<string, [number | null, number | null] | 'not timed'> {
  const out: Record<string, [number | null, number | null] | 'not timed'> = {};
  for (const key of [...rs.entries.keys()].sort()) {
    const t = machineTimes(rs, key);
    out[key] = t[0] === null && t[1] === null ? 'not timed' : t;
  }
  return out;
}

interface Case {
  name: string;
  /** the moves, each followed by the comparison */
  moves: ((w: World) => void)[];
}

const cases: Case[] = [
  {
    name: 'two ReplicaSets queued at the start, synced, their pods created and observed',
    moves: [() => {}, (w) => w.settle(), (w) => w.advance(1), (w) => w.advance(10)],
  },
  {
    name: 'creations not yet observed (the informer holds them): expectations pending until they expire',
    moves: [
      (w) => {
        w.host.defer = true;
      },
      (w) => w.settle(),
      (w) => w.advance(60),
      (w) => w.advance(EXPECTATIONS_TIMEOUT / 1_000_000 + 1),
      (w) => {
        w.host.defer = false;
        w.host.flush();
      },
      (w) => w.settle(),
    ],
  },
  {
    name: 'a scale-up and a scale-down queued at once, then synced',
    moves: [
      (w) => w.advance(5),
      (w) => {
        w.scale('default/web', 5);
        w.scale('default/api', 0);
      },
      (w) => w.settle(),
      (w) => w.advance(5),
    ],
  },
];

for (const c of cases) {
  test(`a timed entry's copies of its machine's times are the machine's: ${c.name}`, () => {
    const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 }), rsObject('api', { replicas: 2 })] });
    for (const [i, move] of c.moves.entries()) {
      move(w);
      w.rs.nextWake();
      assert.deepEqual(copies(w.rs), expected(w.rs), `after move ${i}`);
    }
  });
}

test('the verifying controller throws on a copy gone stale', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })] });
  const e = w.rs.entries.get('default/web')!;
  assert.equal(e.timed, true, 'queued at the start');
  e.dueAt = (e.dueAt ?? 0) + 1;
  w.rs.wakeCache = null;
  assert.throws(() => w.rs.nextWake(), /replicaset default\/web: timed at dueAt/);
});
