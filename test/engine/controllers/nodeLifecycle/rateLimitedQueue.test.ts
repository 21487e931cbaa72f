/**
 * The zone queue and its token bucket, in the spirit of upstream's
 * rate_limited_queue_test.go (TestAddNode, TestDelNode, TestTry,
 * TestTryOrdering, TestTryRemovingWhileTry, TestClear, TestSwapLimiter)
 * and golang.org/x/time/rate's semantics for a burst-1 bucket.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RateLimitedTimedQueue,
  newBucket,
  tryAccept,
  wouldAllow,
  nextAllowedOnGrid,
  limiterQPS,
  effectiveRate,
} from '../../../../src/engine/controllers/nodeLifecycle';
import { ms, seconds } from '../../../../src/engine/model/time';
import { T0 } from './helpers';
import { mulberry32 } from '../../../helpers/random';

const STEP = ms(100);

test('a new token bucket starts full and refuses a second token at the same instant', () => {
  const b = newBucket(0.1);
  assert.equal(tryAccept(b, T0), true);
  assert.equal(tryAccept(b, T0), false);
});

test('the bucket refills continuously at the float32 QPS', () => {
  const cases = [
    { name: '0.1 qps refills after 10 s, not after 9.9 s', qps: 0.1, refused: seconds(9.9), allowed: seconds(10) },
    { name: '1 qps refills after 1 s', qps: 1, refused: seconds(0.9), allowed: seconds(1) },
    // float32(0.01) = 0.0099999998: a token takes 100.0000002 s, so the 100 ms pass at 100 s is too early
    { name: '0.01 qps (float32) is not ready on the 100 s pass but on the 100.1 s one', qps: 0.01, refused: seconds(100), allowed: seconds(100.1) },
  ];
  for (const c of cases) {
    const b = newBucket(c.qps);
    assert.equal(tryAccept(b, T0), true, c.name);
    assert.equal(wouldAllow(b, T0 + c.refused), false, c.name);
    assert.equal(wouldAllow(b, T0 + c.allowed), true, c.name);
    assert.equal(nextAllowedOnGrid(b, T0 + STEP, T0, STEP), T0 + c.allowed, c.name);
  }
});

test('a bucket of rate 0 lets its one token through, then never again, and says so at once', () => {
  const b = newBucket(0);
  assert.equal(nextAllowedOnGrid(b, T0, T0, STEP), T0);
  assert.equal(tryAccept(b, T0), true);
  assert.equal(nextAllowedOnGrid(b, T0 + STEP, T0, STEP), undefined);
});

test('a refused Allow does not change the bucket', () => {
  const b = newBucket(0.1);
  tryAccept(b, T0);
  const before = JSON.stringify(b);
  assert.equal(tryAccept(b, T0 + seconds(5)), false);
  assert.equal(JSON.stringify(b), before);
});

test('Add refuses a value that is already in the set, Remove lets it in again', () => {
  const q = new RateLimitedTimedQueue(1);
  assert.equal(q.add('first', 'u1', T0), true);
  assert.equal(q.add('first', 'u1', T0), false);
  assert.equal(q.remove('first'), true);
  assert.equal(q.remove('first'), false);
  assert.equal(q.add('first', 'u1', T0), true);
});

test('values queued at the same instant leave in name order, earlier ones first', () => {
  const q = new RateLimitedTimedQueue(1000);
  q.add('b', '', T0);
  q.add('c', '', T0);
  q.add('a', '', T0 + 1);
  q.add('0', '', T0 + 1);
  q.add('d', '', T0 - 1);
  assert.deepEqual(
    q.queued().map((i) => i.value),
    ['d', 'b', 'c', '0', 'a'],
  );
});

test('Try processes while tokens last and keeps processed values in the set', () => {
  const q = new RateLimitedTimedQueue(0.1);
  q.add('a', '', T0);
  q.add('b', '', T0);
  const seen: string[] = [];
  q.try(T0, (v) => {
    seen.push(v.value);
    return { ok: true };
  });
  assert.deepEqual(seen, ['a'], 'burst 1: one value per token');
  assert.equal(q.add('a', '', T0), false, 'a processed value cannot be added again until removed');
  q.try(T0 + seconds(5), (v) => {
    seen.push(v.value);
    return { ok: true };
  });
  assert.deepEqual(seen, ['a']);
  q.try(T0 + seconds(10), (v) => {
    seen.push(v.value);
    return { ok: true };
  });
  assert.deepEqual(seen, ['a', 'b']);
  assert.equal(q.length, 0);
});

test('a failed item is retried after its wait, and Try takes the token before looking at ProcessAt', () => {
  const q = new RateLimitedTimedQueue(1000);
  q.add('a', '', T0);
  let calls = 0;
  q.try(T0, () => {
    calls++;
    return { ok: false, wait: ms(50) };
  });
  assert.equal(calls, 1);
  assert.equal(q.item('a')!.processAt, T0 + ms(50) + 1);
  q.try(T0 + ms(10), () => {
    calls++;
    return { ok: true };
  });
  assert.equal(calls, 1, 'not yet due');
  q.try(T0 + STEP, () => {
    calls++;
    return { ok: true };
  });
  assert.equal(calls, 2);
});

test('a value removed while Try runs is not put back', () => {
  const q = new RateLimitedTimedQueue(1000);
  q.add('a', '', T0);
  q.add('b', '', T0);
  q.try(T0, (v) => {
    if (v.value === 'a') q.remove('b');
    return { ok: true };
  });
  assert.equal(q.length, 0);
  assert.equal(q.has('b'), false);
});

test('SwapLimiter keeps an equal QPS, drains the new bucket when the old had no token, and stops at 0', () => {
  const cases = [
    { name: 'same QPS (float32) keeps the limiter', from: 0.1, consume: false, to: 0.1, swapped: false, allowNow: true },
    {
      name: 'a fresh bucket when the old still had its token',
      from: 0.1,
      consume: false,
      to: 0.01,
      swapped: true,
      allowNow: false /* the old token is taken by the drain check itself */,
    },
    { name: 'drained when the old bucket had no token', from: 0.1, consume: true, to: 1, swapped: true, allowNow: false },
    { name: 'QPS 0 never accepts', from: 0.1, consume: false, to: 0, swapped: true, allowNow: false },
  ];
  for (const c of cases) {
    const q = new RateLimitedTimedQueue(c.from);
    if (c.consume) tryAccept(q.limiter, T0);
    assert.equal(q.swapLimiter(c.to, T0), c.swapped, c.name);
    if (c.name.startsWith('a fresh')) {
      // the old bucket had a token: the new one stays full
      assert.equal(wouldAllow(q.limiter, T0), true, c.name);
    } else {
      assert.equal(wouldAllow(q.limiter, T0), c.allowNow, c.name);
    }
  }
});

test("the never-limiter reports QPS 1, as client-go's fake limiter does, so a swap to 1 keeps it", () => {
  const q = new RateLimitedTimedQueue(0.1);
  q.swapLimiter(0, T0);
  assert.equal(limiterQPS(q.limiter), 1);
  assert.equal(effectiveRate(q.limiter), 0);
  assert.equal(q.swapLimiter(1, T0), false);
  assert.equal(q.swapLimiter(0.5, T0), true);
  assert.equal(effectiveRate(q.limiter), 0.5);
});

test('nextTry skips empty passes and passes without a token', () => {
  const q = new RateLimitedTimedQueue(0.1);
  assert.equal(q.nextTry(T0, T0, STEP), undefined);
  q.add('a', '', T0);
  q.add('b', '', T0);
  assert.equal(q.nextTry(T0, T0, STEP), T0);
  q.try(T0, () => ({ ok: true }));
  assert.equal(q.nextTry(T0 + STEP, T0, STEP), T0 + seconds(10));
  q.swapLimiter(0, T0 + seconds(1));
  assert.equal(q.nextTry(T0 + STEP, T0, STEP), undefined);
});

test('save and restore keep the queue, the set and the bucket', () => {
  const q = new RateLimitedTimedQueue(0.1);
  q.add('a', 'u', T0);
  q.add('b', 'u', T0);
  q.try(T0, () => ({ ok: true }));
  const r = RateLimitedTimedQueue.restore(structuredClone(q.save()));
  assert.deepEqual(r.save(), q.save());
  assert.equal(r.add('a', 'u', T0), false);
  assert.equal(r.nextTry(T0 + STEP, T0, STEP), T0 + seconds(10));
});

test('Try keeps its sorted view between items only when nothing changed the queue: randomised against a queue sorted afresh', () => {
  // The reference: the same queue, but its view is dropped before every look at the head (as Try did before
  // it kept the view), reached through the private field so that both run the very same code otherwise.
  const fresh = (q: RateLimitedTimedQueue) => {
    const x = q as unknown as { sorted: unknown; requeued: unknown };
    x.sorted = null;
    x.requeued = null;
  };
  for (let seed = 1; seed <= 30; seed++) {
    const rnd = mulberry32(seed);
    const kept = new RateLimitedTimedQueue(1000);
    const ref = new RateLimitedTimedQueue(1000);
    const values = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const trail: string[][] = [[], []];
    let now = T0;
    for (let step = 0; step < 300; step++) {
      now += Math.floor(rnd() * 3) * STEP;
      const op = rnd();
      const v = values[Math.floor(rnd() * values.length)];
      // the same choices for both queues: drawn once, replayed
      const choices = Array.from({ length: 8 }, () => rnd());
      [kept, ref].forEach((q, k) => {
        let c = 0;
        const pick = () => choices[c++ % choices.length];
        if (op < 0.3) q.add(v, '', now);
        else if (op < 0.4) q.remove(v);
        else if (op < 0.5) {
          // sometimes several requeues in a row, some at once (the same order) and some not
          for (let i = 0; i < 1 + Math.floor(choices[7] * 4); i++)
            q.requeue(values[(values.indexOf(v) + i * 3) % values.length], '', now - (i % 2) * Math.floor(choices[6] * 2) * STEP);
        } else {
          if (k === 1) fresh(q);
          q.try(now, (item) => {
            trail[k].push(`${step}:${item.value}@${item.processAt}`);
            const x = pick();
            // what the callback may do to the queue while it runs
            if (x < 0.15) q.remove(values[Math.floor(pick() * values.length)]);
            else if (x < 0.3) q.add(values[Math.floor(pick() * values.length)], '', now);
            else if (x < 0.4) q.requeue(values[Math.floor(pick() * values.length)], '', now);
            if (k === 1) fresh(q);
            return pick() < 0.2 ? { ok: false, wait: ms(50) } : { ok: true };
          });
        }
      });
      if (rnd() < 0.7) {
        if (rnd() < 0.5) fresh(ref);
        assert.deepEqual(kept.queued(), ref.queued(), `seed ${seed} step ${step}: queue`);
      }
      assert.deepEqual(kept.save(), ref.save(), `seed ${seed} step ${step}: state`);
    }
    assert.deepEqual(trail[0], trail[1], `seed ${seed}: items processed`);
    assert.ok(trail[0].length > 20, 'the queues processed items');
  }
});

// requeueKept: the item requeueItem handed out is requeued in place while it is queued; once Remove, a
// processing Try or Clear took it out the caller must look the value up again
const keptCases: { name: string; between: (q: RateLimitedTimedQueue) => void; uid?: string; kept: boolean }[] = [
  { name: 'nothing changed since: requeued in place', between: () => {}, kept: true },
  { name: 'another value added and requeued: requeued in place', between: (q) => (q.add('c', '', T0), q.requeue('b', '', T0 + 1)), kept: true },
  { name: 'another value removed: requeued in place', between: (q) => q.remove('b'), kept: true },
  { name: 'the value itself removed and added again: looked up again', between: (q) => (q.remove('a'), q.add('a', '', T0)), kept: false },
  // a and b are queued at T0 + 1 and T0: a Try with one token processes b, or a once b waits longer
  { name: 'a Try processed another value: requeued in place', between: (q) => q.try(T0 + seconds(1), () => ({ ok: true })), kept: true },
  {
    name: 'a Try processed the value: looked up again',
    between: (q) => (q.requeue('b', '', T0 + 2), q.try(T0 + seconds(1), () => ({ ok: true }))),
    kept: false,
  },
  {
    name: 'a Try that failed put the value back: looked up again',
    between: (q) => (q.requeue('b', '', T0 + 2), q.try(T0 + seconds(1), () => ({ ok: false, wait: ms(5) }))),
    kept: false,
  },
  { name: 'the queue cleared: looked up again', between: (q) => q.clear(), kept: false },
  { name: 'the node was made anew (another uid): not requeued', between: () => {}, uid: 'other', kept: false },
];
for (const c of keptCases)
  test(`requeueKept: ${c.name}`, () => {
    const q = new RateLimitedTimedQueue(0);
    q.add('a', '', T0);
    q.add('b', '', T0);
    const item = q.requeueItem('a', '', T0 + 1)!;
    assert.equal(item, q.item('a'));
    c.between(q);
    const later = T0 + seconds(2);
    assert.equal(q.requeueKept(item, c.uid ?? '', later), c.kept);
    if (c.kept)
      assert.deepEqual(
        q.save().items.find((i) => i.value === 'a'),
        { value: 'a', uid: '', addedAt: later, processAt: later },
      );
  });
