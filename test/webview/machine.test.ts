import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isActive, readDefinition } from '../../src/webview/views/machine';
import { filterDecisions, NOISE } from '../../src/webview/views/decisionLog';
import { formatMs } from '../../src/webview/state';
import { NOISE_ACTIONS, type Decision } from '../../src/engine/trace/decision';
import { nodeMachine } from '../extension/fakeSimulation';

test('the machine view reads states and transitions from xstate’s own definition', () => {
  const m = readDefinition(nodeMachine.definition);
  assert.deepEqual(m.states.map((s) => s.path), ['ready', 'unknown']);
  assert.deepEqual(m.states[1].states.map((s) => s.path), ['unknown.observed', 'unknown.queued', 'unknown.tainted']);
  assert.deepEqual(m.states[0].transitions, [{ event: 'PROBE_EXPIRED', target: 'unknown', guard: 'graceElapsed', description: 'no heartbeat for nodeMonitorGracePeriod' }]);
  assert.deepEqual(m.states[1].transitions.map((t) => [t.event, t.target]), [['HEARTBEAT', 'ready']]);
  assert.deepEqual(m.states[1].states[1].transitions.map((t) => [t.event, t.target, t.guard]), [['TAINT_PASS', 'unknown.tainted', 'queueReleased']]);
});

test('the machine view also reads a plain config with relative targets', () => {
  const m = readDefinition({ id: 'zone', states: { Normal: { on: { DISRUPTED: 'PartialDisruption' } }, PartialDisruption: { on: { ALL: { target: '#zone.FullDisruption' } } }, FullDisruption: {} } });
  assert.deepEqual(m.states.flatMap((s) => s.transitions.map((t) => `${s.path}-${t.event}->${t.target}`)), ['Normal-DISRUPTED->PartialDisruption', 'PartialDisruption-ALL->FullDisruption']);
});

test('a state is active when the current state is it or inside it', () => {
  assert.equal(isActive('unknown', 'unknown.queued'), true);
  assert.equal(isActive('unknown.queued', 'unknown.queued'), true);
  assert.equal(isActive('unknown.q', 'unknown.queued'), false);
  assert.equal(isActive('ready', 'unknown.queued'), false);
});

test('the webview’s noise list is the engine’s', () => {
  assert.deepEqual([...NOISE].sort(), [...NOISE_ACTIONS].sort());
});

test('the decision log filters by controller, action, object and text', () => {
  const ds = [
    { seq: 1, controller: 'world', action: 'KubeletStopped', object: 'Node/a', summary: 'stopped', because: [] },
    { seq: 2, controller: 'node-lifecycle', action: 'TaintAdded', object: 'Node/a', summary: 'tainted', because: [{ rule: 'Ready is Unknown' }] },
    { seq: 3, controller: 'node-lifecycle', action: 'TaintAdded', object: 'Node/b', summary: 'tainted', because: [] },
  ] as unknown as Decision[];
  const f = { controller: '', action: '', object: '', search: '' };
  assert.deepEqual(filterDecisions(ds, { ...f, controller: 'world' }).map((d) => d.seq), [1]);
  assert.deepEqual(filterDecisions(ds, { ...f, action: 'TaintAdded', object: 'node/b' }).map((d) => d.seq), [3]);
  assert.deepEqual(filterDecisions(ds, { ...f, search: 'unknown' }).map((d) => d.seq), [2]);
});

test('countdowns read as Go-style durations', () => {
  assert.equal(formatMs(299_900), '4m59.9s');
  assert.equal(formatMs(3_600_000), '1h0m0s');
  assert.equal(formatMs(500), '0.5s');
});

test('in a parallel machine a state is active when one of the regions is in it', () => {
  assert.equal(isActive('ready.Unknown', 'ready.Unknown,eviction.idle'), true);
  assert.equal(isActive('eviction', 'ready.Unknown,eviction.idle'), true);
  assert.equal(isActive('eviction.queued', 'ready.Unknown,eviction.idle'), false);
});
