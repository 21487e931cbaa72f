/**
 * The binder's map of each node's allocatable as last announced (binder.ts allocSeen), which decides whether a node's
 * update may make a waiting pod fit: a restore takes it over from the binder that ran until then and reads again only
 * the nodes it put back (allocatableFrom), instead of every node. The simulations run with `checks.nodeIndexRebuild`,
 * under which the map taken over is compared with one read from every node and a difference throws; each must decide
 * what a straight run decides. Nodes grow and shrink, go and come while a pod waits for room.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { assertDrivenLikeStraight } from '../../../helpers/drivenRun';
import { node, pod, scenarioOf, type EventSpec } from '../../../helpers/scenario';
import type { KObject } from '../../../../src/engine/model/types';

/** Node `name` reporting `cpu` and 8Gi allocatable. */
function sized(name: string, cpu: string): KObject {
  const n = node(name);
  (n.status as Record<string, unknown>).allocatable = { cpu, memory: '8Gi', pods: '110' };
  return n;
}

function asking(name: string, cpu: string): KObject {
  const p = pod('default', name, undefined);
  (p.spec as { containers: KObject[] }).containers = [{ name: 'c', image: 'x', resources: { requests: { cpu, memory: '64Mi' } } }];
  return p;
}

const objects: KObject[] = [sized('n1', '1'), sized('n2', '2'), sized('n3', '1')];
// (EventSpec is an Omit over the union, which keeps only the fields all kinds share)
const events = [
  { at: '7s', kind: 'apply', object: asking('big', '3') },
  { at: '16s', kind: 'apply', object: sized('n2', '1500m') },
  { at: '27s', kind: 'delete', ref: 'node/n3' },
  { at: '38s', kind: 'apply', object: sized('n4', '2') },
  { at: '49s', kind: 'apply', object: sized('n1', '4') },
  { at: '61s', kind: 'apply', object: asking('second', '3') },
  { at: '72s', kind: 'apply', object: sized('n2', '8') },
] as unknown as EventSpec[];

const make = (check: boolean): SimulationImpl => createSimulation(scenarioOf({ objects, events }), check ? { checks: { nodeIndexRebuild: true } } : {});
const END = 2 * 60e6;

/** The binder's allocatable map (private: the test reads what the restore took over). */
const allocSeen = (sim: SimulationImpl): Map<string, string> =>
  (sim.host.controllers.find((c) => c.name === 'scheduler') as unknown as { allocSeen: Map<string, string> }).allocSeen;

const ways: { name: string; drive: (sim: SimulationImpl) => void }[] = [
  { name: 'run straight', drive: () => {} },
  ...[
    [4, 1],
    [9, 3],
    [14, 6],
    [14, 0],
    [12, 8],
  ].map(([on, back]) => ({ name: `on to pass ${on}, back to pass ${back}`, drive: (sim: SimulationImpl) => (sim.goToPass(on), sim.goToPass(back)) })),
  {
    name: 'step by step with a step back after each',
    drive: (sim) => {
      while ((sim.pass ?? 0) < 15) {
        sim.step(true);
        const pass = sim.pass ?? 0;
        sim.step(true);
        sim.goToPass(pass);
        sim.step(true);
      }
    },
  },
  { name: 'back and forth over the node changes', drive: (sim) => [9, 2, 13, 5, 14, 0, 7].forEach((p) => sim.goToPass(p)) },
];

test('the big pod waits until a node grows, the second until another does', () => {
  const sim = make(false);
  sim.runUntil(sim.startTime + END);
  const bound = sim.trace.filter((d) => d.action === 'PodBound').map((d) => d.object);
  assert.deepEqual(bound, ['Pod/default/big', 'Pod/default/second']);
});

for (const way of ways)
  test(`${way.name}: the allocatable taken over is the restored nodes', and decides the same`, () =>
    assertDrivenLikeStraight({ straight: () => make(false), driven: () => make(true) }, way.drive, END));

test('a step back takes the map over, the nodes put back read again', () => {
  const sim = make(false);
  sim.goToPass(9);
  const before = allocSeen(sim);
  sim.goToPass(3);
  assert.equal(allocSeen(sim), before);
  assert.deepEqual([...before.keys()].sort(), ['n1', 'n2', 'n3']);
  assert.equal(before.get('n2'), allocSeen(make(false)).get('n2'));
});
