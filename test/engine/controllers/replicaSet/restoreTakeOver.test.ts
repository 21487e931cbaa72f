/**
 * A restore from the controller that ran until then keeps what the checkpoint's state has in common with the live one
 * (checkpoint.ts takeOverEntries, restoreIndexes.ts): each pod set's pointer to its entry and each entry's kept set, the
 * entries' places in `timed`, and voids every running count at once (talliesMade) instead of visiting each set. Here a
 * generated zone outage (40 nodes, 42 ReplicaSets; the zone's nodes go Unknown at pass 19, pods evicted and replaced from
 * pass 28, the kubelets back at pass 144) is stepped back from many places to passes before, at and after the Unknown
 * pass, and each time the controller's memory and the decisions of the next passes are a fresh run's, with the
 * controller's checks on (its tallies read against the pods at every sync, the index and pointers against rebuilt ones)
 * and off (what the extension runs).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { createReplicaSetController } from '../../../../src/engine/controllers/replicaSet';
import type { ReplicaSetCore } from '../../../../src/engine/controllers/replicaSet/core';
import { PodTally } from '../../../../src/engine/controllers/replicaSet/tally';
import { StatusCounter } from '../../../../src/engine/controllers/replicaSet/status';
import { defaultControllerFactory } from '../../../../src/engine/simulation/wiring';
import type { ControllerFactory } from '../../../../src/engine/simulation/controllerPlan';
import { writeZoneOutage } from '../../../helpers/generatedOutage';
import { freshAt } from '../../../helpers/freshAt';

const dir = mkdtempSync(join(tmpdir(), 'cs-restore-take-over-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const path = writeZoneOutage(dir, 5, { nodes: 40, zones: 2, recoverAt: '12m' });

/** the passes the next decisions are compared over, after each step back */
const NEXT = 3;

/** `from`: where the live run stands (reached forward); `to`: the pass it steps back to */
const cases: { name: string; from: number; to: number }[] = [
  { name: 'one pass back onto the Unknown pass', from: 20, to: 19 },
  { name: 'one pass back from the Unknown pass', from: 19, to: 18 },
  { name: 'from after the first evictions back over the Unknown pass', from: 30, to: 17 },
  { name: 'from the replacements to the first of them', from: 40, to: 28 },
  { name: 'from far on (the kubelets back) to the start', from: 150, to: 0 },
  { name: 'from far on to just before the Unknown pass', from: 150, to: 18 },
  { name: 'from far on to the evictions', from: 150, to: 29 },
  { name: 'from the recovery one pass back', from: 145, to: 144 },
  { name: 'from the recovery back to the outage at its height', from: 146, to: 90 },
];

/** the real controllers, the ReplicaSet one made with `options` */
const factory =
  (options: Parameters<typeof createReplicaSetController>[0]): ControllerFactory =>
  (name, ctx) =>
    name === 'replicaset' ? createReplicaSetController(options) : defaultControllerFactory(name, ctx);

const rscOf = (sim: SimulationImpl) => sim.controllers.find((c) => c.name === 'replicaset') as unknown as ReplicaSetCore;

/**
 * The controller's memory as text: each entry's machine and what a checkpoint keeps, whether `timed` holds it and the
 * pod set it keeps is the index's; each pod set's entry and size; and each running count kept (not void) against one
 * made now from the set's pods (a fresh run has counts where a restored one has none yet: only their agreement with the
 * pods is compared, and the decisions they feed).
 */
function memory(sim: SimulationImpl): string {
  const rsc = rscOf(sim);
  const entries = [...rsc.entries.values()]
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((e) => {
      const s = e.actor.snapshot();
      const kept = e.podsMade === rsc.indexesMade ? e.pods : undefined;
      return [
        e.key,
        e.uid,
        JSON.stringify(s.value),
        JSON.stringify(s.context),
        e.counter,
        JSON.stringify(e.removed),
        e.lastManageSeq,
        e.lastPending ?? '',
        rsc.timed.has(e),
        e.timed,
        kept === undefined || kept === rsc.byOwner.get(e.uid),
      ];
    });
  const sets = [...rsc.byOwner.values()]
    .filter((set) => set.size > 0)
    .sort((a, b) => (a.owner < b.owner ? -1 : 1))
    .map((set) => {
      const tally = rsc.tallyOf(set);
      let counts = 'none';
      if (tally) {
        const rs = sim.cluster.replicaSets.get(set.entry!.key)!;
        const made = new PodTally(tally.check, new StatusCounter(rs, sim.now), new Map());
        set.forEach((pod, key) => made.add(key, pod));
        const of = (t: PodTally) => [t.claimed, t.labelled, t.ready, t.unmatched, t.terminating].join('/');
        counts = of(tally) === of(made) ? 'agree' : `kept ${of(tally)}, the pods ${of(made)}`;
      }
      return [set.owner, set.entry?.key ?? '', set.entry === rsc.byUid.get(set.owner), set.size, counts === 'none' ? 'agree' : counts];
    });
  return JSON.stringify({ entries, timed: [...rsc.timed].map((e) => e.key).sort(), sets });
}

const variants = [
  { name: 'checks on', options: { verifyTallies: true, checkRestoredIndexes: true } },
  { name: 'checks off', options: {} },
];

for (const v of variants)
  describe(`a step back takes the ReplicaSet controller's memory over (${v.name})`, () => {
    const make = () => createSimulation(loadScenario(path, nodeFs()), { checkpointEvery: 10, controllerFactory: factory(v.options) });
    const targets = cases.flatMap((c) => [c.to, c.to + NEXT]);
    const check = freshAt(make(), targets, (sim) => ({ state: JSON.stringify(sim.state()), memory: memory(sim) }));
    const sim = make();
    for (const c of cases)
      it(`${c.name} (${c.from} to ${c.to}): the controller's memory and the next ${NEXT} passes' decisions are a fresh run's`, () => {
        sim.goToPass(c.from);
        // as the panel gets there: the last passes stepped (user steps keep checkpoints behind them)
        sim.goToPass(c.from - 1);
        sim.step(true);
        sim.goToPass(c.to);
        assert.equal(sim.pass, c.to);
        check(sim, c.to, `after the step back to ${c.to}`);
        sim.goToPass(c.to + NEXT);
        check(sim, c.to + NEXT, `${NEXT} passes after the step back to ${c.to}`);
      });
  });
