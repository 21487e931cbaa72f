/**
 * The binder's node index is made from the pod sums the binder keeps from its start (nodeUsage.ts)
 * instead of a walk over every pod at the first placement. Those sums must be the cluster's however
 * the run got there: pods that finish, are deleted, are created bound, and restores (a step back,
 * goToPass back and forth) before the first placement. The simulations run with
 * `checks.nodeIndexRebuild`, under which the binder compares an index made from its sums with one
 * made from every pod and throws on a difference; each must also decide what a run without the
 * check decides.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { NodeIndex } from '../../../../src/engine/controllers/scheduler/nodeIndex';
import { NodeUsage } from '../../../../src/engine/controllers/scheduler/nodeUsage';
import { assertDrivenLikeStraight } from '../../../helpers/drivenRun';
import { node, pod, scenarioOf, type EventSpec } from '../../../helpers/scenario';
import type { KObject } from '../../../../src/engine/model/types';

const NODES = 4;
const PODS = 60;

/** A pod with requests of its own (the sums must carry them, not only the defaults), bound to node `n`. */
function sized(name: string, n: number | undefined, cpu: string, memory: string): KObject {
  const p = pod('default', name, n === undefined ? undefined : `n${n}`);
  (p.spec as { containers: KObject[] }).containers = [{ name: 'c', image: 'x', resources: { requests: { cpu, memory } } }];
  return p;
}

const objects: KObject[] = [
  ...Array.from({ length: NODES }, (_, i) => node(`n${i + 1}`)),
  ...Array.from({ length: PODS }, (_, i) => sized(`p${i}`, (i % NODES) + 1, `${100 + i}m`, `${64 + i}Mi`)),
];

/** Pods move before any pod waits (finish, fail, go, come bound), then one waits from 2m on: the first placement. */
// (EventSpec is an Omit over the union, which keeps only the fields all kinds share)
const events = [
  { at: '12s', kind: 'pod', pod: 'default/p1', phase: 'Succeeded' },
  { at: '23s', kind: 'delete', ref: 'pod/default/p2' },
  { at: '34s', kind: 'apply', object: sized('late-bound', 3, '250m', '1Gi') },
  { at: '45s', kind: 'pod', pod: 'default/p7', phase: 'Failed' },
  { at: '56s', kind: 'delete', ref: 'pod/default/p11' },
  { at: '67s', kind: 'apply', object: sized('late-bound-2', 1, '1', '512Mi') },
  { at: '78s', kind: 'apply', object: sized('p3', 4, '2', '2Gi') },
  { at: '89s', kind: 'apply', object: sized('p5', 3, '10m', '16Mi') },
  { at: '2m', kind: 'apply', object: sized('waiting', undefined, '300m', '128Mi') },
  { at: '150s', kind: 'apply', object: sized('waiting-2', undefined, '50m', '64Mi') },
] as unknown as EventSpec[];

const make = (check: boolean): SimulationImpl => createSimulation(scenarioOf({ objects, events }), check ? { checks: { nodeIndexRebuild: true } } : {});
const END = 4 * 60e6;

const ways: { name: string; drive: (sim: SimulationImpl) => void }[] = [
  { name: 'run straight to the first placement', drive: () => {} },
  { name: 'prepared at the start', drive: (sim) => sim.prepare() },
  ...[3, 8, 13, 20].map((pass) => ({ name: `prepared at pass ${pass}`, drive: (sim: SimulationImpl) => (sim.goToPass(pass), sim.prepare()) })),
  ...[
    [14, 4],
    [20, 9],
    [20, 0],
  ].map(([on, back]) => ({
    name: `on to pass ${on}, back to pass ${back} (a restore), prepared there`,
    drive: (sim: SimulationImpl) => (sim.goToPass(on), sim.goToPass(back), sim.prepare()),
  })),
  {
    name: 'on to pass 20, back to pass 5, on to pass 16 (a redo), back to 12, run on',
    drive: (sim) => (sim.goToPass(20), sim.goToPass(5), sim.goToPass(16), sim.goToPass(12)),
  },
  {
    name: 'step by step with a step back after each, prepared at pass 18',
    drive: (sim) => {
      while ((sim.pass ?? 0) < 18) {
        sim.step(true);
        const pass = sim.pass ?? 0;
        sim.step(true);
        sim.goToPass(pass);
        sim.step(true);
      }
      sim.prepare();
    },
  },
];

test('the pods move before the first placement, which the binder makes', () => {
  const sim = make(false);
  sim.runUntil(sim.startTime + END);
  const bound = sim.trace.filter((d) => d.action === 'PodBound');
  assert.equal(bound.length, 2, bound.map((d) => d.summary).join('; '));
  assert.ok(!sim.cluster.pods.has('default/p2') && sim.cluster.pods.get('default/p1')?.phase === 'Succeeded');
});

for (const way of ways)
  test(`${way.name}: the index made from the kept sums is the one made from every pod, and decides the same`, () =>
    assertDrivenLikeStraight({ straight: () => make(false), driven: () => make(true) }, way.drive, END));

test('NodeUsage.of sums what the index counts from every pod', () => {
  const sim = make(false);
  sim.goToPass(20);
  assert.equal(new NodeIndex(sim.cluster, NodeUsage.of(sim.cluster)).text(), new NodeIndex(sim.cluster).text());
});
