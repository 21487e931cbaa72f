/**
 * One slot per pod across the host and the ReplicaSet controller (simulation/podIndex.ts PodSlot,
 * controllers/podSlot.ts): the host keeps the node a pod is indexed under on it (no pod-to-node map),
 * the ReplicaSet controller the set of its index that holds the pod (no pod-to-set map). Scenarios
 * through steps, step backs, jumps and restarts give the trace and state of a fresh run with the
 * slots checked against a fresh computation (checks.podSlots, in EVERY_CHECK), and a slot that says
 * otherwise than the index is caught.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import type { SimHost } from '../../../src/engine/simulation/simHost';
import type { SimulationChecks } from '../../../src/engine/simulation/checks';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import type { KObject } from '../../../src/engine/model/types';
import { EVERY_CHECK } from '../../helpers/everyCheck';
import { lostNodeObjects } from '../../helpers/lostNode';
import { node, pod, replicaSet, scenarioOf, type EventSpec } from '../../helpers/scenario';

const STOP = { at: '12s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec;
const owner: KObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true, blockOwnerDeletion: true };
/** pods that are evicted and replaced when node a is lost (no tolerations), an orphan among them */
const evicted = (): KObject[] => [
  node('a'),
  node('b'),
  replicaSet('default', 'web', 4, { app: 'web' }),
  ...[1, 2, 3, 4].map((i) => pod('default', `web-${i}`, i % 2 ? 'a' : 'b', { labels: { app: 'web' }, owner })),
  pod('default', 'other', 'a', { labels: { app: 'x' } }),
];

/** `to`: passes to go to in order (a number: goToPass; `step`: user steps) */
interface Case {
  name: string;
  objects: () => KObject[];
  version?: string;
  events: EventSpec[];
  checkpointEvery: number;
  to: (number | { step: number })[];
}

const cases: Case[] = [
  {
    name: 'a lost node whose pods stay, marked not ready, stepped back over and on',
    objects: lostNodeObjects,
    events: [STOP],
    checkpointEvery: 2,
    to: [40, 9, 12, 5, 60],
  },
  {
    name: 'a lost node whose pods are evicted and replaced, jumps back and forth',
    objects: evicted,
    events: [STOP],
    checkpointEvery: 3,
    to: [80, 20, 79, 2, 100],
  },
  {
    name: 'user steps over the pass that marks the pods, back, and on',
    objects: evicted,
    events: [STOP],
    checkpointEvery: 1,
    to: [8, { step: 6 }, 10, { step: 4 }, 30],
  },
  {
    name: 'a controller-manager restart mid-outage, then back over it',
    objects: evicted,
    events: [STOP, { at: '70s', kind: 'restartControllerManager' } as EventSpec],
    checkpointEvery: 3,
    to: [50, 10, 60, 30],
  },
  {
    name: 'a pod deleted and created again under its name, a scale-down, stepped back over both',
    objects: evicted,
    events: [
      { at: '20s', kind: 'delete', ref: 'Pod/default/web-2' } as EventSpec,
      { at: '41s', kind: 'apply', object: pod('default', 'web-2', 'b', { labels: { app: 'web' }, owner }) } as EventSpec,
      { at: '60s', kind: 'scale', replicaSet: 'default/web', replicas: 2 } as EventSpec,
    ],
    checkpointEvery: 2,
    to: [12, 5, 14, 3, 20],
  },
  { name: "1.12's pod eviction by the node lifecycle controller", objects: evicted, version: '1.12', events: [STOP], checkpointEvery: 2, to: [40, 15, 60] },
];

const make = (c: Case, checks: SimulationChecks = EVERY_CHECK): SimulationImpl =>
  createSimulation(scenarioOf({ objects: c.objects(), version: c.version ?? '1.35', events: c.events }), { checkpointEvery: c.checkpointEvery, checks });

const shape = (sim: SimulationImpl): string =>
  JSON.stringify([[...sim.cluster.pods.keys()], [...sim.cluster.podsByNode].map(([n, s]) => [n, [...s]]), sim.state()]);

const hostOf = (sim: SimulationImpl): SimHost => (sim as unknown as { host: SimHost }).host;

describe('one slot per pod across the host and the ReplicaSet controller', () => {
  for (const c of cases)
    it(c.name, () => {
      const sim = make(c);
      for (const to of c.to) {
        if (typeof to === 'number') sim.goToPass(to);
        else for (let i = 0; i < to.step; i++) sim.step(true);
        // a fresh run, without checks, goes straight to the same pass
        const fresh = make(c, {});
        fresh.goToPass(sim.pass!);
        assert.equal(shape(sim), shape(fresh), `at pass ${sim.pass}`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at pass ${sim.pass}`);
      }
      // every pod has its slot, under its node
      const host = hostOf(sim);
      for (const [key, p] of sim.cluster.pods) assert.equal((host.podSlot(key) as { node?: string }).node, p.nodeName || undefined, key);
    });

  const corruptions: { name: string; corrupt: (sim: SimulationImpl) => void; error: RegExp }[] = [
    {
      name: "a slot that says another node than the index's",
      corrupt: (sim) => {
        (hostOf(sim).podSlot('default/web-2') as { node?: string }).node = 'a';
      },
      error: /podSlots: /,
    },
    {
      name: 'a slot that names no set of the ReplicaSet index',
      corrupt: (sim) => {
        hostOf(sim).podSlot('default/web-4').ownerSet = undefined;
      },
      error: /replicaset: .*slot/,
    },
  ];
  for (const k of corruptions)
    it(`catches ${k.name}`, () => {
      const sim = make({ ...cases[1], checkpointEvery: 1 });
      sim.goToPass(3);
      k.corrupt(sim);
      assert.throws(() => sim.goToPass(60), k.error);
    });
});
