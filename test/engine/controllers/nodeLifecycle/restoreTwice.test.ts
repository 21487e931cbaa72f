/**
 * A checkpoint must not share what the live controller edits in place: a
 * Ready node's probe and saved Lease move in place on every renewal (leaseOnly).
 * Restoring the same checkpoint twice, with renewals in between, must give
 * the controller's memory of a fresh run both times.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import type { NodeLifecycleController } from '../../../../src/engine/controllers/nodeLifecycle/controller';
import { lease, node, scenarioOf, type EventSpec } from '../../../helpers/scenario';

const events: EventSpec[] = [{ at: '62s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec];

function make(version: string): SimulationImpl {
  const objects = [node('a', { zone: 'z1' }), node('b', { zone: 'z1' }), node('c', { zone: 'z2' }), lease('a', '1s'), lease('b', '2s'), lease('c', '3s')];
  return createSimulation(scenarioOf({ objects, version, events }), { checkpointEvery: 10, checkInvariants: true }) as SimulationImpl;
}

const memory = (sim: SimulationImpl): string => {
  const nl = sim.host.controllers.find((c) => c.name === 'node-lifecycle') as NodeLifecycleController;
  const m = nl.save();
  return JSON.stringify({
    health: m.health,
    tracks: m.tracks,
    deadlines: m.deadlines.names.map((name, i) => [m.deadlines.times[i], name]).sort(),
    queues: m.queues,
    zones: m.zones,
  });
};

for (const version of ['1.31', '1.35']) {
  test(`${version}: restoring one checkpoint twice gives a fresh run's node lifecycle memory`, () => {
    const sim = make(version);
    for (const [back, forward] of [
      [5, 30],
      [5, 25],
      [13, 30],
      [13, 30],
    ]) {
      sim.goToPass(forward);
      sim.goToPass(back);
      const fresh = make(version);
      fresh.goToPass(back);
      assert.equal(memory(sim), memory(fresh), `back at pass ${back} after pass ${forward}`);
    }
  });
}
