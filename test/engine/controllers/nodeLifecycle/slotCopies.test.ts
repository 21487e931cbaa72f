/**
 * A node's slot keeps the controller's health entry, track and machine of the node
 * (slots.ts): they must always be the entries the maps hold, through node
 * deletion and re-creation, outages, Lease replacement and steps back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import type { NodeLifecycleController } from '../../../../src/engine/controllers/nodeLifecycle/controller';
import { lease, node, scenarioOf, type EventSpec } from '../../../helpers/scenario';

const events: EventSpec[] = [
  { at: '20s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec,
  { at: '95s', kind: 'delete', ref: 'Node/b' } as EventSpec,
  { at: '130s', kind: 'apply', object: node('b', { zone: 'z1', heartbeatAgo: '0s' }) } as EventSpec,
  { at: '150s', kind: 'apply', object: lease('a', '0s') } as EventSpec,
  { at: '160s', kind: 'delete', ref: 'Lease/kube-node-lease/c' } as EventSpec,
];

function make(version: string): SimulationImpl {
  const objects = [node('a', { zone: 'z1' }), node('b', { zone: 'z1' }), node('c', { zone: 'z2' }), lease('a', '1s'), lease('b', '2s'), lease('c', '3s')];
  return createSimulation(scenarioOf({ objects, version, events }), { checkpointEvery: 10, checkInvariants: true }) as SimulationImpl;
}

for (const version of ['1.31', '1.35']) {
  test(`${version}: every slot's health entry, track and machine are the controller's own, pass by pass and after steps back`, () => {
    const sim = make(version);
    const check = (where: string) => {
      const nl = sim.host.controllers.find((c) => c.name === 'node-lifecycle') as NodeLifecycleController;
      const bad = nl.staleSlotCopies();
      assert.deepEqual(bad, [], `${where}: slots holding another health entry, track or machine than the controller's maps`);
    };
    for (let i = 0; i < 60; i++) {
      sim.step();
      check(`pass ${sim.pass}`);
    }
    assert.ok(
      sim.trace.some((d) => d.action === 'NodeRemoved'),
      'the node was removed',
    );
    assert.ok(sim.trace.filter((d) => d.action === 'NodeRegistered' && d.object === 'Node/b').length >= 2, 'and registered again');
    for (const back of [25, 7, 40]) {
      sim.goToPass(back);
      check(`back at ${back}`);
      for (let i = 0; i < 5; i++) {
        sim.step();
        check(`pass ${sim.pass} after going back`);
      }
    }
  });
}
