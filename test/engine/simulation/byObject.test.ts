/**
 * The decisions per object (SimHost.byObject, what explain lists) are built from
 * the trace when read, not per decision: read between steps, across a step back
 * and forward again, they must be what a fresh run's trace gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import type { EventSpec } from '../../helpers/scenario';
import { node, pod, replicaSet, scenarioOf } from '../../helpers/scenario';

const labels = { app: 'web' };
const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
function make(): SimulationImpl {
  const objects = [
    node('a'),
    node('b'),
    replicaSet('default', 'web', 2, labels),
    pod('default', 'web-1', 'a', { labels, owner }),
    pod('default', 'web-2', 'b', { labels, owner }),
  ];
  const events: EventSpec[] = [
    { at: '12s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoExecute' } } as EventSpec,
    { at: '40s', kind: 'untaint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoExecute' } } as EventSpec,
  ];
  return createSimulation(scenarioOf({ objects, version: '1.31', events }), { checkpointEvery: 2 });
}

/** byObject as the trace gives it. */
function fromTrace(sim: SimulationImpl): string {
  const m = new Map<string, number[]>();
  for (const d of sim.trace) m.set(d.object, [...(m.get(d.object) ?? []), d.seq]);
  return JSON.stringify([...m].sort((x, y) => (x[0] < y[0] ? -1 : 1)));
}
function read(sim: SimulationImpl): string {
  return JSON.stringify([...sim.host.byObject].map(([k, v]) => [k, [...v]]).sort((x, y) => (x[0] < y[0] ? -1 : 1)));
}

describe('decisions per object', () => {
  it("are the trace's, read between steps, after a step back and forward again", () => {
    const sim = make();
    for (const pass of [3, 6, 12, 4, 1, 14]) {
      sim.goToPass(pass);
      assert.equal(read(sim), fromTrace(sim), `at pass ${pass}`);
      assert.ok(sim.trace.length > 0);
    }
    // read only at the end: the same
    const fresh = make();
    fresh.goToPass(14);
    assert.equal(read(fresh), read(sim));
    assert.ok(sim.explain('Pod/default/web-1').happened.length > 0);
  });
});
