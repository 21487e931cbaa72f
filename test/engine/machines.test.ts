import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from 'xstate';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTracedActor, stateValueToString } from '../../src/engine/machines/traced';
import { MachineTable } from '../../src/engine/machines/table';

const machine = setup({
  types: { events: {} as { type: 'GO' } | { type: 'NOPE' } },
}).createMachine({
  id: 'demo',
  initial: 'ready',
  states: { ready: { on: { GO: 'unknown.queued' } }, unknown: { initial: 'idle', states: { idle: {}, queued: {} } } },
});

test('a traced actor reports the transition xstate took', () => {
  const a = createTracedActor(machine, 'node/n1');
  assert.equal(a.state(), 'ready');
  assert.deepEqual(a.send({ type: 'GO' }), { id: 'node/n1', from: 'ready', to: 'unknown.queued', event: 'GO' });
  assert.equal(a.send({ type: 'NOPE' }), null);
});

test('state values print as dotted paths', () => {
  assert.equal(stateValueToString({ a: { b: 'c' } }), 'a.b.c');
  assert.equal(stateValueToString({ x: 'y', z: 'w' }), 'x.y,z.w');
});

const guarded = setup({
  types: { events: {} as { type: 'SEE'; status: string } | { type: 'RESET' } },
  guards: {
    isTrue: ({ event }) => event.type === 'SEE' && event.status === 'True',
    isFalse: ({ event }) => event.type === 'SEE' && event.status === 'False',
  },
}).createMachine({
  id: 'guarded',
  initial: 'unknown',
  states: {
    unknown: {
      on: {
        SEE: [
          { guard: 'isTrue', target: 'up' },
          { guard: 'isFalse', target: 'down' },
        ],
      },
    },
    up: { on: { SEE: { guard: 'isFalse', target: 'down' }, RESET: 'unknown' } },
    down: { on: { SEE: { guard: 'isTrue', target: 'up' }, RESET: 'down' } },
  },
});

test('a machine table answers as xstate does, with the guards it evaluated, and "no transition" as null', () => {
  const table = new MachineTable(guarded, (e) => (e.type === 'SEE' ? `SEE:${e.status}` : e.type));
  const cases: { from: string; event: { type: 'SEE'; status: string } | { type: 'RESET' }; to: string | null; guards: { guard: string; value: boolean }[] }[] =
    [
      { from: 'unknown', event: { type: 'SEE', status: 'True' }, to: 'up', guards: [{ guard: 'isTrue', value: true }] },
      {
        from: 'unknown',
        event: { type: 'SEE', status: 'False' },
        to: 'down',
        guards: [
          { guard: 'isTrue', value: false },
          { guard: 'isFalse', value: true },
        ],
      },
      {
        from: 'unknown',
        event: { type: 'SEE', status: 'Unknown' },
        to: null,
        guards: [
          { guard: 'isTrue', value: false },
          { guard: 'isFalse', value: false },
        ],
      },
      { from: 'up', event: { type: 'SEE', status: 'True' }, to: null, guards: [{ guard: 'isFalse', value: false }] },
      // a transition to the state itself is a transition, not a refusal
      { from: 'down', event: { type: 'RESET' }, to: 'down', guards: [] },
      { from: 'unknown', event: { type: 'RESET' }, to: null, guards: [] },
    ];
  for (const round of [1, 2]) {
    for (const c of cases) {
      const live = createTracedActor(guarded, 'm', { snapshot: guarded.resolveState({ value: c.from, context: undefined as never }), traceGuards: true });
      const want = live.send(c.event);
      assert.equal(want?.to ?? null, c.to, `live ${c.from} ${JSON.stringify(c.event)}`);
      assert.deepEqual(live.lastGuards(), c.guards, `live guards ${c.from} ${JSON.stringify(c.event)}`);
      const a = table.instance('m', c.from);
      const { transition, guards } = a.sendTraced(c.event);
      assert.deepEqual(transition, want, `table ${c.from} ${JSON.stringify(c.event)}, round ${round}`);
      assert.deepEqual(guards, c.guards, `table guards ${c.from} ${JSON.stringify(c.event)}, round ${round}`);
      assert.equal(a.state(), c.to ?? c.from);
    }
  }
});

test('a traced actor tells a transition that stays where it is from a refusal, through xstate public API only', () => {
  const counting = setup({
    types: { events: {} as { type: 'TICK' } | { type: 'NOPE' } },
    guards: { never: () => false },
  }).createMachine({
    id: 'counting',
    initial: 'on',
    states: { on: { on: { TICK: { description: 'targetless: no new snapshot' }, NOPE: { guard: 'never', target: 'on' } } } },
  });
  const a = createTracedActor(counting, 'c', { traceGuards: true });
  assert.deepEqual(a.send({ type: 'TICK' }), { id: 'c', from: 'on', to: 'on', event: 'TICK' });
  assert.equal(a.send({ type: 'NOPE' }), null);
  assert.deepEqual(a.lastGuards(), [{ guard: 'never', value: false }]);
  // xstate's underscored fields (`_transitions`, `_nodes`, ...) are not its public API
  const root = join(__dirname, '..', '..', 'src', 'engine');
  const readers: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        const text = readFileSync(p, 'utf8');
        if (/from 'xstate'/.test(text) && /\._(transitions|nodes|snapshot|processingStatus|actorScope)\b|'_transitions'|_transitions\?/.test(text))
          readers.push(p);
      }
    }
  };
  walk(root);
  assert.deepEqual(readers, []);
});

test('one way to step a machine: outside src/engine/machines, engine files import only the means to declare one from xstate', () => {
  const root = join(__dirname, '..', '..', 'src', 'engine');
  const declare = new Set(['setup', 'assign']);
  const steppers: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (p !== join(root, 'machines')) walk(p);
      } else if (p.endsWith('.ts')) {
        for (const m of readFileSync(p, 'utf8').matchAll(/^import (?!type )\{([^}]*)\} from 'xstate';/gm)) {
          const names = m[1]!
            .split(',')
            .map((n) => n.trim())
            .filter((n) => n && !n.startsWith('type '));
          for (const n of names) if (!declare.has(n)) steppers.push(`${p.slice(root.length + 1)}: ${n}`);
        }
      }
    }
  };
  walk(root);
  // (before: nodeLifecycle/zoneMachines.ts asked the zone machine through xstate's transition itself)
  assert.deepEqual(steppers, []);
});
