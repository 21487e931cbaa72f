/**
 * The ReplicaSet machine stepped through the transition table (machines/contextTable.ts)
 * answers exactly as a live xstate actor of the same machine: the same
 * transitions (from, to, event), "no transition" for the same events, and the
 * same context after every event, on random event sequences.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMachine, setup, assign } from 'xstate';
import { createTracedActor, stateValueToString } from '../../../../src/engine/machines/traced';
import {
  assignments,
  copyMachineContext,
  initialContext,
  replicaSetMachine,
  EXPECTATIONS_TIMEOUT,
  type ReplicaSetMachineEvent,
} from '../../../../src/engine/controllers/replicaSet/machine';
import { TransitionTable } from '../../../../src/engine/machines/contextTable';
import { mulberry32 } from '../../../helpers/random';

const rng = mulberry32;

function randomEvent(r: () => number, now: number): ReplicaSetMachineEvent {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const keys = ['ns/a', 'ns/b', 'ns/c'];
  switch (Math.floor(r() * 11)) {
    case 0:
      return { type: 'ENQUEUE', at: now + Math.floor(r() * 3) * 1000 };
    case 1:
      return { type: 'ENQUEUE_AFTER', at: now + Math.floor(r() * 5) * 1000 };
    case 2:
      return { type: 'RESYNC_DUE' };
    case 3:
      return { type: 'DEQUEUE' };
    case 4:
      return { type: 'SYNCED' };
    case 5:
      return { type: 'SYNC_FAILED', now };
    case 6:
      return { type: 'EXPECT', add: Math.floor(r() * 3) - (r() < 0.2 ? 1 : 0), delKeys: keys.filter(() => r() < 0.3), now };
    case 7:
      return { type: 'CREATION_OBSERVED', count: 1 + Math.floor(r() * 2) };
    case 8:
      return { type: 'DELETION_OBSERVED', key: pick(keys) };
    case 9:
      return { type: 'SATISFIED_EXPECTATIONS', now };
    default:
      return { type: 'DELETE_EXPECTATIONS' };
  }
}

test('the transition table gives the same transitions and context as a live actor on random event sequences', () => {
  // the controller's table: contexts copied field by field (copyMachineContext)
  const table = new TransitionTable(replicaSetMachine, { assignments, copyContext: copyMachineContext });
  assert.deepEqual(Object.keys(copyMachineContext(initialContext())), Object.keys(initialContext()), 'every field, in order');
  let fired = 0,
    refused = 0;
  for (let seed = 1; seed <= 100; seed++) {
    const r = rng(seed);
    const live = createTracedActor(replicaSetMachine, 'replicaset/ns/web');
    const mine = table.instance('replicaset/ns/web');
    // `advance` (no transition made) steps the same as `send`
    const quiet = table.instance('replicaset/ns/web');
    let now = 1_000_000;
    for (let i = 0; i < 150; i++) {
      // time moves in steps small and large enough to expire expectations now and then
      now += r() < 0.1 ? EXPECTATIONS_TIMEOUT : Math.floor(r() * 60_000_000);
      const event = randomEvent(r, now);
      const want = live.send(event);
      const got = mine.send(event);
      assert.deepEqual(got, want, `seed ${seed} event ${i} ${JSON.stringify(event)}`);
      assert.equal(quiet.advance(event), want !== null);
      assert.deepEqual(quiet.snapshot(), mine.snapshot());
      if (want) fired++;
      else refused++;
      assert.equal(mine.state(), live.state(), `seed ${seed} event ${i}`);
      assert.deepEqual(mine.snapshot().context, live.snapshot().context, `seed ${seed} event ${i}`);
      assert.equal(JSON.stringify(mine.snapshot().context), JSON.stringify(live.snapshot().context), 'the same fields in the same order');
      assert.equal(mine.snapshot().text, stateValueToString(live.snapshot().value));
    }
    live.stop();
  }
  // the sequences reach both kinds of answer often
  assert.ok(fired > 2500 && refused > 2500, `fired ${fired}, refused ${refused}`);
});

test('a state restored from plain data steps as the live actor restored from the same data', () => {
  const table = new TransitionTable(replicaSetMachine, { assignments });
  const context = { add: 1, del: 1, delKeys: ['ns/a'], expectedAt: 5, dueAt: 7, resyncAt: null, failures: 2, dirty: false };
  const value = { expectations: 'pending', queue: 'backoff' };
  const mine = table.instance('x', table.state(value, context));
  const live = createTracedActor(replicaSetMachine, 'x', { snapshot: replicaSetMachine.resolveState({ value, context }) });
  for (const e of [
    { type: 'DELETION_OBSERVED', key: 'ns/b' },
    { type: 'ENQUEUE', at: 9 },
    { type: 'DEQUEUE' },
    { type: 'CREATION_OBSERVED', count: 1 },
    { type: 'DELETION_OBSERVED', key: 'ns/a' },
  ] as ReplicaSetMachineEvent[]) {
    assert.deepEqual(mine.send(e), live.send(e), e.type);
    assert.deepEqual(mine.snapshot().context, live.snapshot().context, e.type);
  }
  assert.equal(mine.state(), 'expectations.satisfied,queue.syncing');
});

test('the table refuses a machine it cannot replay, at the step that meets what it cannot', () => {
  const withEntry = createMachine({ initial: 'a', states: { a: { on: { GO: 'b', STAY: 'a' } }, b: { entry: () => {} } } });
  const e = new TransitionTable(withEntry, { assignments: {} }).instance('m');
  assert.ok(e.send({ type: 'STAY' }), 'a step that runs no action is kept');
  assert.throws(() => e.send({ type: 'GO' }), /actions a table cannot replay/);
  const withInlineGuard = createMachine({ initial: 'a', states: { a: { on: { GO: { guard: () => true, target: 'b' } } }, b: {} } });
  assert.throws(() => new TransitionTable(withInlineGuard, { assignments: {} }).instance('m').send({ type: 'GO' }), /inline guard/);
  const withPlainAction = setup({ actions: { log: () => {} } }).createMachine({ initial: 'a', states: { a: { on: { GO: { actions: 'log' } } } } });
  assert.throws(() => new TransitionTable(withPlainAction, { assignments: {} }), /not one of the table's assignments/);
  const inc = ({ context }: { context: { n: number } }) => ({ n: context.n + 1 });
  const withAssign = setup({ types: { context: {} as { n: number } }, actions: { inc: assign(inc) } }).createMachine({
    context: { n: 0 },
    initial: 'a',
    states: { a: { on: { GO: { actions: 'inc' } } } },
  });
  const t = new TransitionTable(withAssign, { assignments: { inc } });
  const i = t.instance('m');
  i.send({ type: 'GO' });
  i.send({ type: 'GO' });
  assert.deepEqual(i.snapshot().context, { n: 2 });
  assert.equal(i.send({ type: 'OTHER' } as never), null);
});

test('a traced step lists the guards xstate evaluated, in its order, with their answers', () => {
  const table = new TransitionTable(replicaSetMachine, { assignments });
  const value = { expectations: 'pending', queue: 'syncing' };
  const cases: {
    name: string;
    context: Partial<ReturnType<typeof initialContext>>;
    event: ReplicaSetMachineEvent;
    want: { guard: string; value: boolean }[];
    to: string | null;
  }[] = [
    {
      name: 'last creation',
      context: { add: 1 },
      event: { type: 'CREATION_OBSERVED', count: 1 },
      want: [{ guard: 'lastCreationObserved', value: true }],
      to: 'expectations.satisfied,queue.syncing',
    },
    {
      name: 'not the last',
      context: { add: 2 },
      event: { type: 'CREATION_OBSERVED', count: 1 },
      want: [{ guard: 'lastCreationObserved', value: false }],
      to: 'expectations.pending,queue.syncing',
    },
    {
      name: 'unexpected deletion',
      context: { add: 0, del: 1, delKeys: ['ns/a'] },
      event: { type: 'DELETION_OBSERVED', key: 'ns/b' },
      want: [
        { guard: 'lastDeletionObserved', value: false },
        { guard: 'deletionWasExpected', value: false },
      ],
      to: null,
    },
    {
      name: 'synced, dirty',
      context: { dirty: true },
      event: { type: 'SYNCED' },
      want: [{ guard: 'addedWhileSyncing', value: true }],
      to: 'expectations.pending,queue.queued',
    },
  ];
  // twice: the first fills the tree from xstate, the second walks it
  for (const round of [1, 2]) {
    for (const c of cases) {
      const trace: { guard: string; value: boolean }[] = [];
      const next = table.step(table.state(value, { ...initialContext(), ...c.context }), c.event, trace);
      assert.deepEqual(trace, c.want, `${c.name}, round ${round}`);
      assert.equal(next?.text ?? null, c.to, `${c.name}, round ${round}`);
    }
  }
});
