/**
 * While a Step Back's rest is owed (GoToPassOptions.viewsFirst: the ReplicaSet controller's and the binder's restore), a
 * pod's why leaves such a controller unasked where it would answer nothing once restored, read from what it is restored
 * from (SimController whyNotAfterRestore): the walk's pod on a tainted node, whose why finished the restore in the click.
 * Each row steps back at once and asks about every pod: each pair said to answer nothing must answer nothing once the
 * rest is done (every check on), and the why of a pod read with the rest owed is the one read after it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../src/engine';
import type { Simulation } from '../../../src/engine/simulation/api';
import type { RestoreFrom, SimController } from '../../../src/engine/controllers/controller';
import type { ControllerHost } from '../../../src/engine/controllers/controllerHost';
import { worldOf, type Explainable } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { EVERY_CHECK } from '../../helpers/everyCheck';

const dir = join(new URL('../../..', import.meta.url).pathname, 'examples');
/** `startup`: the kubelet's podStartupDelay (the binder then holds the pods it bound while they start) */
const make = (f: string, startup?: string): Simulation => {
  const scenario = loadScenario(join(dir, f), nodeFs());
  if (startup !== undefined) scenario.kubelet.podStartupDelay = { value: startup };
  return createSimulation(scenario, { checks: EVERY_CHECK });
};

interface Owed {
  /** the simulation's host (its controllers read there: Simulation.controllers finishes the restore) */
  host: ControllerHost & { controllers: readonly SimController[] };
  owedRestoreOf(name: string): { saved: unknown; from: RestoreFrom | undefined } | undefined;
}

/**
 * `none` / `may`: the least number of (controller, pod) pairs said to answer nothing and to may answer: the walk's case (a
 * pod on a tainted node, neither asked), a scale-down ahead (the ReplicaSet controller asked), pods starting (the binder
 * asked: podStartupDelay 20s, the ReplicaSet scaled up at 1m).
 */
const cases: {
  name: string;
  file: string;
  startup?: string;
  from: number;
  none: { replicaset: number; scheduler: number };
  may: { replicaset: number; scheduler: number };
}[] = [
  { name: 'pods evicted and replaced', file: 'rs-zone-outage.yaml', from: 14, none: { replicaset: 5, scheduler: 5 }, may: { replicaset: 0, scheduler: 0 } },
  { name: 'over the outage, 1.12', file: 'outage-1.12.yaml', from: 14, none: { replicaset: 2, scheduler: 2 }, may: { replicaset: 0, scheduler: 0 } },
  { name: 'a scale-down ahead', file: 'rs-scale-down-1.31.yaml', from: 6, none: { replicaset: 0, scheduler: 6 }, may: { replicaset: 6, scheduler: 0 } },
  { name: 'pods starting', file: 'rs-slow-start.yaml', startup: '20s', from: 15, none: { replicaset: 5, scheduler: 0 }, may: { replicaset: 0, scheduler: 5 } },
];

describe('a pod’s why with the restore’s rest owed asks only the controllers that may answer', () => {
  for (const c of cases)
    it(`${c.name} (${c.file}${c.startup ? `, podStartupDelay ${c.startup}` : ''}, back from pass ${c.from})`, () => {
      const sim = make(c.file, c.startup);
      sim.goToPass(c.from - 3);
      for (let n = c.from - 2; n <= c.from; n++) sim.goToPass(n, { interactive: true });
      sim.goToPass(c.from - 1, { viewsFirst: true });
      assert.equal(sim.partDone, true, 'the rest owed');
      const owed = sim as unknown as Owed;
      const world = worldOf(sim as unknown as Explainable);
      const pods = [...sim.cluster!.pods.keys()].map((k) => `Pod/${k}`);
      const none: [string, string][] = [];
      const count = { none: { replicaset: 0, scheduler: 0 }, may: { replicaset: 0, scheduler: 0 } };
      for (const ctl of owed.host.controllers.filter((x) => x.name === 'replicaset' || x.name === 'scheduler')) {
        const o = owed.owedRestoreOf(ctl.name)!;
        for (const ref of pods) {
          const may = ctl.whyNotAfterRestore!(ref, owed.host, o.saved, o.from, world);
          count[may ? 'may' : 'none'][ctl.name as 'replicaset' | 'scheduler']++;
          if (!may) none.push([ctl.name, ref]);
        }
      }
      assert.equal(sim.partDone, true, 'asked without the restore');
      for (const k of ['none', 'may'] as const)
        for (const name of ['replicaset', 'scheduler'] as const) assert.ok(count[k][name] >= c[k][name], `${k} ${name}: ${count[k][name]} < ${c[k][name]}`);
      // the why of the first pod neither answers, read with the rest owed, against the same why after it
      const both = pods.find((ref) => none.filter(([, r]) => r === ref).length === 2);
      const early = both !== undefined ? JSON.stringify(sim.explain(both)) : undefined;
      if (both !== undefined) assert.equal(sim.partDone, true, `${both}'s why leaves the rest owed`);
      sim.finishRestore!();
      if (both !== undefined) assert.equal(JSON.stringify(sim.explain(both)), early, `${both}'s why`);
      const fresh = worldOf(sim as unknown as Explainable);
      for (const [name, ref] of none) {
        const ctl = owed.host.controllers.find((x) => x.name === name)!;
        assert.deepEqual(ctl.whyNot(owed.host, ref, fresh), [], `${name} answers about ${ref} once restored`);
      }
    });
});
