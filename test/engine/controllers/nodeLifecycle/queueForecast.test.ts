/**
 * The zone queue run forward (queueForecast.ts): when each queued node leaves and where a node
 * still to be queued slots in, with and without markNodeForTainting's requeue on every pass. The
 * why-not property test checks the same against whole simulations; these pin the cases by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimitedTimedQueue } from '../../../../src/engine/controllers/nodeLifecycle/rateLimitedQueue';
import { forecastQueue, releaseOf } from '../../../../src/engine/controllers/nodeLifecycle/queueForecast';
import { ms, seconds, type Micros } from '../../../../src/engine/model/time';
import { T0 } from './helpers';

const STEP = ms(100);
const PERIOD = seconds(5);

/** A queue at rate 0.1 (a token every 10 s) whose bucket was emptied at T0, with values added at the given offsets. */
function queueOf(added: [string, number][]): RateLimitedTimedQueue {
  const q = new RateLimitedTimedQueue(0.1);
  q.try(T0, () => ({ ok: true })); // nothing queued: the bucket stays full
  q.add('spent', 'uid-spent', T0);
  q.try(T0, () => ({ ok: true })); // takes the bucket's token
  for (const [v, s] of added) q.add(v, `uid-${v}`, T0 + seconds(s));
  return q;
}

const at = (s: number): Micros => T0 + seconds(s);

test('forecast of a zone queue: the time each node leaves, and how many leave before it', () => {
  const cases: {
    name: string;
    added: [string, number][];
    requeues: boolean;
    value: string;
    addAt?: number;
    want?: { at: number; ahead: number };
  }[] = [
    // tokens at 10, 20, 30 s: the values queued at 1 s and 2 s leave in the order they came
    {
      name: 'first in, first out: the first',
      added: [
        ['c', 1],
        ['b', 2],
        ['a', 2],
      ],
      requeues: false,
      value: 'c',
      want: { at: 10, ahead: 0 },
    },
    {
      name: 'first in, first out: equal ProcessAt in name order',
      added: [
        ['c', 1],
        ['b', 2],
        ['a', 2],
      ],
      requeues: false,
      value: 'b',
      want: { at: 30, ahead: 2 },
    },
    // the pass at 5 s gives every value ProcessAt 5 s: name order from then on
    {
      name: 'requeued on every pass: name order',
      added: [
        ['c', 1],
        ['b', 2],
        ['a', 2],
      ],
      requeues: true,
      value: 'c',
      want: { at: 30, ahead: 2 },
    },
    {
      name: 'requeued on every pass: the first by name leaves first',
      added: [
        ['c', 1],
        ['b', 2],
        ['a', 2],
      ],
      requeues: true,
      value: 'a',
      want: { at: 10, ahead: 0 },
    },
    // queued at the pass at 15 s: after the token at 10 s took 'a'; by name between 'b' and 'c'
    {
      name: 'queued later with requeues: by name among those still there',
      added: [
        ['c', 1],
        ['b', 2],
        ['a', 2],
      ],
      requeues: true,
      value: 'bb',
      addAt: 15,
      want: { at: 30, ahead: 2 },
    },
    {
      name: 'queued later without requeues: after all of them',
      added: [
        ['c', 1],
        ['b', 2],
        ['a', 2],
      ],
      requeues: false,
      value: 'aa',
      addAt: 15,
      want: { at: 40, ahead: 3 },
    },
    // the queue is empty by 30 s; a value queued at 60 s takes the full bucket's token at once
    { name: 'queued after the queue empties: the token is there', added: [['a', 1]], requeues: true, value: 'z', addAt: 60, want: { at: 60, ahead: 1 } },
    { name: 'not queued and not to be queued: no time', added: [['a', 1]], requeues: true, value: 'z' },
  ];
  for (const c of cases) {
    const q = queueOf(c.added);
    const f = forecastQueue(q, { from: T0 + STEP, origin: T0, step: STEP, nextMonitor: at(5), period: PERIOD, requeues: c.requeues });
    const got = releaseOf(f, c.value, c.addAt === undefined ? undefined : at(c.addAt));
    assert.deepEqual(got, c.want ? { at: at(c.want.at), ahead: c.want.ahead } : undefined, c.name);
    assert.equal(q.length, c.added.length, `${c.name}: the queue itself is left as it was`);
  }
});

test('forecast of a queue whose limiter never gives a token: no time, and not complete', () => {
  const q = queueOf([['a', 1]]);
  q.swapLimiter(0, T0);
  const f = forecastQueue(q, { from: T0 + STEP, origin: T0, step: STEP, nextMonitor: at(5), period: PERIOD, requeues: true });
  assert.equal(f.complete, false);
  assert.equal(releaseOf(f, 'a'), undefined);
  assert.equal(releaseOf(f, 'b', at(5)), undefined);
});

/**
 * Nodes still to be Added by the monitor passes (1.12's evictPods, once podEvictionTimeout is out) take
 * their place as the queue gives it them: after the values queued before, equal instants in name
 * order, an empty queue's bucket refilled meanwhile. Fails on main (forecastQueue took no arrivals).
 */
test('forecast with nodes still to come: each takes its place among the queued ones', () => {
  const cases: { name: string; added: [string, number][]; arrivals: [string, number][]; want: [string, number][] }[] = [
    {
      name: 'two at the same pass after one queued: the queued one first, then name order',
      added: [['z', 1]],
      arrivals: [
        ['b', 5],
        ['a', 5],
      ],
      want: [
        ['z', 10],
        ['a', 20],
        ['b', 30],
      ],
    },
    {
      name: 'an empty queue: the first comes at once (the bucket refilled), the next a token later',
      added: [],
      arrivals: [
        ['a', 25],
        ['b', 30],
      ],
      want: [
        ['a', 25],
        ['b', 35],
      ],
    },
    {
      name: 'one that comes before a queued one leaves: it waits behind it',
      added: [['z', 1]],
      arrivals: [['a', 5]],
      want: [
        ['z', 10],
        ['a', 20],
      ],
    },
  ];
  for (const c of cases) {
    const q = queueOf(c.added);
    const o = { from: T0 + STEP, origin: T0, step: STEP, nextMonitor: at(5), period: PERIOD, requeues: false };
    const f = forecastQueue(
      q,
      o,
      c.arrivals.map(([value, s]) => ({ value, at: at(s) })),
    );
    assert.deepEqual(
      f.releases.map((r) => [r.value, (r.at - T0) / seconds(1)]),
      c.want,
      c.name,
    );
    assert.equal(f.complete, true, c.name);
    assert.equal(q.length, c.added.length, `${c.name}: the queue itself is left as it was`);
  }
});

/**
 * The zone's rate changed on the way (setLimiterInZone at the pass its state changes): the forecast
 * swaps the limiter at that pass as SwapLimiter does, before the grid's Try at the same instant: a new
 * bucket at the new rate, drained when the old one had no token then, full when it had one (which the
 * old bucket's TryAccept spends). Rates 0.25 and 0.5 are exact in float32: tokens every 4 s and 2 s.
 * Fails on main (forecastQueue took no swaps).
 */
test('forecast with the zone’s rate swapped on the way: the new bucket, drained or full as SwapLimiter leaves it', () => {
  const cases: { name: string; arrivals: [string, number][]; swaps: [number, number][]; want: [string, number][] }[] = [
    {
      name: 'no swap: a token every 4 s',
      arrivals: [],
      swaps: [],
      want: [
        ['a', 4],
        ['b', 8],
        ['c', 12],
      ],
    },
    {
      name: 'faster at 5 s, the old bucket short of a token: the new one drained then, tokens at 7 s and 9 s',
      arrivals: [],
      swaps: [[5, 0.5]],
      want: [
        ['a', 4],
        ['b', 7],
        ['c', 9],
      ],
    },
    {
      name: 'rate 0 at 10 s (the never-limiter), back to 0.25 at 20 s: drained then, the next token at 24 s',
      arrivals: [],
      swaps: [
        [10, 0],
        [20, 0.25],
      ],
      want: [
        ['a', 4],
        ['b', 8],
        ['c', 24],
      ],
    },
    {
      name: 'a swap with a full old bucket (the queue empty since 12 s): the new one full, the two arrivals at 25 s and 27 s',
      arrivals: [
        ['d', 25],
        ['e', 25],
      ],
      swaps: [[25, 0.5]],
      want: [
        ['a', 4],
        ['b', 8],
        ['c', 12],
        ['d', 25],
        ['e', 27],
      ],
    },
  ];
  for (const c of cases) {
    const q = new RateLimitedTimedQueue(0.25);
    q.add('spent', 'uid-spent', T0);
    q.try(T0, () => ({ ok: true })); // takes the bucket's token
    for (const v of ['a', 'b', 'c']) q.add(v, `uid-${v}`, at(1));
    const o = { from: T0 + STEP, origin: T0, step: STEP, nextMonitor: at(5), period: PERIOD, requeues: false };
    const f = forecastQueue(
      q,
      o,
      c.arrivals.map(([value, s]) => ({ value, at: at(s) })),
      c.swaps.map(([s, qps]) => ({ at: at(s), qps })),
    );
    assert.deepEqual(
      f.releases.map((r) => [r.value, (r.at - T0) / seconds(1)]),
      c.want,
      c.name,
    );
    assert.equal(q.limiter.kind === 'bucket' && q.limiter.qps, 0.25, `${c.name}: the queue's own limiter is left as it was`);
  }
});
