/**
 * A step back takes over the ReplicaSet controller's pod index and the binder's node index from
 * the controllers that ran until then, and indexes again only the pods and nodes it put back
 * (restoreIndexes.ts, nodeIndex.ts `restoredTo`). Here pods leave and join their sets in every way
 * (deleted, created again under their name with their uid, released, adopted, replaced and
 * bound), and every step back compares both indexes with ones made anew, order included, and the
 * state and trace with a fresh run's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { traceToJsonLines } from '../../../../src/engine/trace/serialize';
import type { KObject } from '../../../../src/engine/model/types';
import { node, pod, replicaSet, scenarioOf, type EventSpec } from '../../../helpers/scenario';

const owner: KObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true, blockOwnerDeletion: true };
const web = (name: string, nodeName: string | undefined) => pod('default', name, nodeName, { labels: { app: 'web' }, owner });

const objects = (): KObject[] => [
  node('a'),
  node('b'),
  replicaSet('default', 'web', 4, { app: 'web' }),
  replicaSet('default', 'db', 1, { app: 'db' }),
  web('web-1', 'a'),
  web('web-2', 'b'),
  pod('default', 'other', 'a', { labels: { app: 'x' } }),
  web('web-3', 'a'),
  web('web-4', 'b'),
  pod('default', 'db-1', 'b', { labels: { app: 'db' }, owner: { ...owner, name: 'db', uid: 'uid-rs-default-db' } }),
];

/**
 * `sameOrder`: the index's sets also list their pods in the fresh run's order. Not so after a pod was
 * released or adopted: a set it joined lists it last in the live run, in the cluster's order after a
 * step back that put back one of its pods (as a rebuild lists every set); no decision reads that order.
 */
const cases: { name: string; events: EventSpec[]; sameOrder: boolean }[] = [
  {
    name: 'a pod deleted, then created again under its name with its uid (it comes last in the live map, at its place after the step back)',
    events: [{ at: '20s', kind: 'delete', ref: 'Pod/default/web-2' } as EventSpec, { at: '41s', kind: 'apply', object: web('web-2', 'b') } as EventSpec],
    sameOrder: true,
  },
  {
    name: 'a pod released by its labels, then adopted again',
    events: [
      { at: '20s', kind: 'patch', ref: 'Pod/default/web-1', merge: { metadata: { labels: { app: 'other' } } } } as EventSpec,
      { at: '41s', kind: 'patch', ref: 'Pod/default/web-1', merge: { metadata: { labels: { app: 'web' } } } } as EventSpec,
    ],
    sameOrder: false,
  },
  {
    name: 'an orphan adopted, a ReplicaSet scaled down, a node lost and its pods replaced',
    events: [
      { at: '20s', kind: 'apply', object: pod('default', 'stray', 'a', { labels: { app: 'web' } }) } as EventSpec,
      { at: '31s', kind: 'scale', replicaSet: 'default/web', replicas: 2 } as EventSpec,
      { at: '35s', kind: 'delete', ref: 'ReplicaSet/default/db' } as EventSpec,
      { at: '52s', kind: 'delete', ref: 'Node/b' } as EventSpec,
      { at: '61s', kind: 'scale', replicaSet: 'default/web', replicas: 5 } as EventSpec,
    ],
    sameOrder: false,
  },
];

/** every index a step back takes over is compared with one made anew (a difference throws) */
const checks = { restoreIndexRebuild: true, nodeIndexRebuild: true };

describe('the indexes a step back takes over', () => {
  const shape = (sim: SimulationImpl) => JSON.stringify({ pods: [...sim.cluster.pods.keys()], state: sim.state() });
  /** the ReplicaSet controller's pod sets, each as its pods in order (or sorted) */
  const index = (sim: SimulationImpl, ordered: boolean) => {
    const rsc = sim.controllers.find((c) => c.name === 'replicaset') as unknown as Record<'byOwner' | 'orphans', Map<string, Map<string, unknown>>>;
    const sets = [...rsc.byOwner, ...rsc.orphans].filter(([, set]) => set.size > 0).map(([k, set]) => [k, ordered ? [...set.keys()] : [...set.keys()].sort()]);
    return JSON.stringify(sets.sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  };

  for (const c of cases)
    it(c.name, () => {
      const make = () => createSimulation(scenarioOf({ objects: objects(), version: '1.31', events: c.events }), { checkpointEvery: 3, checks });
      const sim = make();
      sim.goToPass(30);
      // the first straight back over every change, then down through the checkpoints
      for (const back of [2, 17, 12, 9, 8, 4, 1, 0]) {
        sim.goToPass(back);
        const fresh = make();
        fresh.goToPass(back);
        assert.equal(shape(sim), shape(fresh), `at pass ${back}`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at pass ${back}`);
        assert.equal(index(sim, c.sameOrder), index(fresh, c.sameOrder), `at pass ${back}`);
      }
      // and forward again over every change, from the last restore
      sim.goToPass(30);
      const fresh = make();
      fresh.goToPass(30);
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
    });
});

describe('the controllers a step back drops', () => {
  // what the new controllers took over must not stay in the dropped ones, which could edit it
  const taken: { controller: string; fields: string[] }[] = [
    { controller: 'replicaset', fields: ['ownerOfPod', 'byOwner', 'orphans'] },
    { controller: 'scheduler', fields: ['index'] },
  ];
  for (const t of taken)
    it(`${t.controller}: keeps none of the indexes taken over (${t.fields.join(', ')})`, () => {
      const sim = createSimulation(scenarioOf({ objects: objects(), version: '1.31', events: cases[2].events }), { checkpointEvery: 3 });
      sim.goToPass(30);
      const dropped = sim.controllers.find((c) => c.name === t.controller) as unknown as Record<string, unknown>;
      assert.ok(dropped, `${t.controller} runs`);
      const held = t.fields.map((f) => dropped[f]);
      sim.goToPass(28);
      const now = sim.controllers.find((c) => c.name === t.controller) as unknown as Record<string, unknown>;
      assert.notEqual(now, dropped, 'a new controller after the step back');
      for (const [i, f] of t.fields.entries()) {
        // the index taken over is the new controller's now, and the dropped one holds it no more
        if (held[i] !== null && held[i] === now[f]) assert.notEqual(dropped[f], now[f], `${f} is still the dropped controller's`);
        assert.ok(dropped[f] === null || (dropped[f] instanceof Map && dropped[f].size === 0), `${f} of the dropped controller is empty`);
      }
    });
});

describe('the checks of the indexes taken over', () => {
  // each index of the controllers that ran until the step back is corrupted (a pod or node it does
  // not hold): the check made on the take-over throws when on, and does not run when off
  const switches: {
    name: string;
    checks: { restoreIndexRebuild?: boolean; nodeIndexRebuild?: boolean };
    corrupt: (sim: SimulationImpl) => void;
    error: RegExp;
  }[] = [
    {
      name: 'restoreIndexRebuild: a ReplicaSet pod set holding a pod the cluster does not',
      checks: { restoreIndexRebuild: true },
      corrupt: (sim) => {
        const rsc = sim.controllers.find((c) => c.name === 'replicaset') as unknown as { byOwner: Map<string, Map<string, unknown>> };
        const set = [...rsc.byOwner.values()].find((s) => s.size > 0)!;
        set.set('default/ghost', undefined);
      },
      error: /replicaset: the pod index taken over on a restore differs from a rebuilt one/,
    },
    {
      name: 'nodeIndexRebuild: a node index that lost a node',
      checks: { nodeIndexRebuild: true },
      corrupt: (sim) => {
        const binder = sim.controllers.find((c) => c.name === 'scheduler') as unknown as { index: { entries: Map<string, unknown> } | null };
        assert.ok(binder.index, 'the binder holds a node index');
        binder.index.entries.delete('a');
      },
      error: /scheduler: the node index taken over on a restore differs from one made anew/,
    },
  ];
  for (const t of switches)
    for (const on of [true, false])
      it(`${t.name}: ${on ? 'throws' : 'not checked when off'}`, () => {
        const sim = createSimulation(scenarioOf({ objects: objects(), version: '1.31', events: cases[2].events }), {
          checkpointEvery: 3,
          checks: on ? t.checks : {},
        });
        sim.goToPass(30);
        t.corrupt(sim);
        if (on) assert.throws(() => sim.goToPass(28), t.error);
        else sim.goToPass(28);
      });
});
