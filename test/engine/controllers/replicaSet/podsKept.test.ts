/**
 * Each ReplicaSet entry keeps its pod set from the index (core.ts pointPods) when it is put in after the index
 * (the start, every restore), so that the first sync does not look it up by uid again (podsOf). The set kept must
 * be the one the index holds for the entry's uid, found while the index is the current one (`podsMade`), at every
 * position a simulation reaches: after the start, after passes, after steps back (entries taken over or made anew)
 * and after a simulation is made like another (its controllers restored from the other's start). The start also
 * leaves each entry its check (core.ts check: a check added under a new key changes no other key's), which the
 * first sync then takes without the look-up by key.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { simulationInSlices } from '../../../../src/engine/simulation/makeInSlices';
import type { CachedCheck, Entry, PodSet } from '../../../../src/engine/controllers/replicaSet/entry';

type Rsc = { entries: Map<string, Entry>; byOwner: Map<string, PodSet>; indexesMade: number; checks: Map<string, CachedCheck>; checksChanged: number };
const rsOf = (sim: SimulationImpl) => sim.controllers.find((c) => c.name === 'replicaset') as unknown as Rsc;

/** the entries whose pods the index holds: each keeps that set, found with the current index */
function kept(sim: SimulationImpl, where: string): number {
  const rsc = rsOf(sim);
  let n = 0;
  for (const e of rsc.entries.values()) {
    const set = rsc.byOwner.get(e.uid);
    if (set === undefined || e.podsMade !== rsc.indexesMade) continue;
    assert.equal(e.pods, set, `${where}: ${e.key} keeps another set than the index's`);
    assert.equal(set.entry, e, `${where}: ${e.key}'s set points at another entry`);
    n++;
  }
  return n;
}

/** every entry keeps the check held under its key, as the current one */
function checksKept(sim: SimulationImpl): void {
  const rsc = rsOf(sim);
  for (const e of rsc.entries.values()) {
    assert.equal(e.checkSeen, rsc.checksChanged, `${e.key}: no check kept`);
    assert.equal(e.checked, rsc.checks.get(e.key), `${e.key}: another check kept than the one held`);
  }
}

const steps: { name: string; go: (sim: SimulationImpl) => SimulationImpl; somePodsKept: boolean; checks?: boolean }[] = [
  { name: 'after the start', go: (sim) => sim, somePodsKept: true, checks: true },
  { name: 'made like another simulation', go: (sim) => simulationInSlices(sim.scenario, {}, 7, sim)(() => true)!, somePodsKept: true },
  {
    name: 'after a step back (entries taken over)',
    go: (sim) => {
      sim.goToPass(20);
      sim.goToPass(19);
      return sim;
    },
    somePodsKept: true,
  },
  { name: 'after 40 passes', go: (sim) => (sim.goToPass(40), sim), somePodsKept: false },
];

describe('the ReplicaSet entries keep their pod set from the index', () => {
  for (const file of ['rs-zone-outage.yaml', 'outage-1.31.yaml'])
    for (const s of steps)
      it(`${file}, ${s.name}`, () => {
        const sim = s.go(createSimulation(loadScenario(join(__dirname, '../../../../examples', file), nodeFs()), { checkpointEvery: 5 }));
        const n = kept(sim, s.name);
        if (s.somePodsKept) assert.ok(n > 0, `${s.name}: no entry keeps its set`);
        if (s.checks) checksKept(sim);
      });
});
