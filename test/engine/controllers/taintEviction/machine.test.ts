import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createActor } from 'xstate';
import {
  podEvictionMachine,
  podEvictionTransition,
  type PodEvictionEventType,
  type PodEvictionState,
} from '../../../../src/engine/controllers/taintEviction/machine';
import { TimerQueue } from '../../../../src/engine/controllers/taintEviction/timerQueue';

test('the pod eviction machine takes exactly these transitions', () => {
  const states: PodEvictionState[] = ['idle', 'scheduled', 'deleting', 'evicted'];
  const events: PodEvictionEventType[] = ['SCHEDULE', 'CANCEL', 'EVICT_NOW', 'DEADLINE', 'DELETED', 'GIVE_UP'];
  const want: Record<string, string> = {
    'idle SCHEDULE': 'scheduled',
    'idle EVICT_NOW': 'deleting',
    'scheduled DEADLINE': 'deleting',
    'scheduled CANCEL': 'idle',
    'scheduled EVICT_NOW': 'deleting',
    'deleting DELETED': 'evicted',
    'deleting GIVE_UP': 'idle',
  };
  for (const s of states) {
    for (const e of events) {
      const t = podEvictionTransition(s, e, 'taint-eviction/ns/p');
      const to = want[`${s} ${e}`];
      if (to) assert.deepEqual(t, { id: 'taint-eviction/ns/p', from: s, to, event: e }, `${s} ${e}`);
      else assert.equal(t, null, `${s} does not accept ${e}`);
    }
  }
});

test('the memoised transitions agree with a live actor of the same machine', () => {
  const actor = createActor(podEvictionMachine).start();
  const path: PodEvictionEventType[] = ['SCHEDULE', 'CANCEL', 'EVICT_NOW', 'GIVE_UP', 'SCHEDULE', 'DEADLINE', 'DELETED'];
  let state: PodEvictionState = 'idle';
  for (const e of path) {
    const t = podEvictionTransition(state, e, 'x');
    actor.send({ type: e });
    assert.equal(t?.to, actor.getSnapshot().value, e);
    state = actor.getSnapshot().value as PodEvictionState;
  }
  assert.equal(actor.getSnapshot().status, 'done');
});

test('timers come out earliest first, ties in key order, cancelled ones never', () => {
  const q = new TimerQueue<string>();
  q.add(30, 'b', 'b30');
  const c = q.add(10, 'c', 'c10');
  q.add(20, 'z', 'z20');
  q.add(20, 'a', 'a20');
  q.cancel(c);
  assert.equal(q.size, 3);
  assert.equal(q.nextAt(), 20);
  assert.equal(q.popDue(19), undefined);
  assert.deepEqual([q.popDue(25)?.payload, q.popDue(25)?.payload, q.popDue(25)?.payload], ['a20', 'z20', undefined]);
  assert.deepEqual(
    q.liveTimers().map((t) => t.payload),
    ['b30'],
  );
  assert.equal(q.popDue(30)?.payload, 'b30');
  assert.equal(q.nextAt(), undefined);
});

test('a heap of mostly cancelled timers is compacted and keeps its order', () => {
  const q = new TimerQueue<number>();
  const ts = [];
  for (let i = 0; i < 1000; i++) ts.push(q.add(1000 - i, `k${i}`, i));
  for (let i = 0; i < 1000; i += 2) q.cancel(ts[i]);
  assert.equal(q.size, 500);
  const out: number[] = [];
  for (let t = q.popDue(10_000); t; t = q.popDue(10_000)) out.push(t.at);
  assert.equal(out.length, 500);
  assert.deepEqual(
    out,
    [...out].sort((a, b) => a - b),
  );
});
