import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from 'xstate';
import { createTracedActor, stateValueToString } from '../../src/engine/machines/traced';

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
