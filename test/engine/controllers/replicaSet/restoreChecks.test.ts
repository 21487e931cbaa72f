/**
 * A restore takes over the ReplicaSet checks of the controller that ran until then (checkpoint.ts
 * takeOverChecks): a key whose live check is the one the checkpoint kept keeps it, the others get the
 * checkpoint's, current for the records put back (copies sharing what the checks read: none is made
 * again). On generated zone outages, jumps back 1, 10 and 100 passes and forward again must give a
 * fresh run's state, trace, machines and problems, and the jumps over the outage must keep live
 * checks (a new map kept none). The map taken
 * over must then belong to the restored controller alone, and the checkpoint's kept checks must stay
 * as saved through the restore and the run after it.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { isCurrent, type CachedCheck } from '../../../../src/engine/controllers/replicaSet/entry';
import type { Checkpoint } from '../../../../src/engine/simulation/checkpointStore';
import { writeZoneOutage, type ZoneOutageShape } from '../../../helpers/generatedOutage';
import { freshAt } from '../../../helpers/freshAt';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * The generated outages (the second zone's kubelets stop at 60 s, pass 12; evictions from pass 72),
 * with two ReplicaSets scaled at 400 s (pass 80: their checks change after the checkpoint the jump
 * of 100 passes restores) and, in `deleted`, a third one deleted then (the checks' keys differ).
 */
const outages: { name: string; podsPerNode: number; shape: ZoneOutageShape; deleted: boolean }[] = [
  { name: '60 nodes in 2 zones, back at 30 min', podsPerNode: 5, shape: { nodes: 60, zones: 2, seed: 'restore-checks' }, deleted: false },
  {
    name: '90 nodes in 3 zones, back at 8 min, a ReplicaSet deleted',
    podsPerNode: 6,
    shape: { nodes: 90, zones: 3, seed: 'restore-checks-3', recoverAt: '8m' },
    deleted: true,
  },
];

/** from pass 130: each jump back, then forward to 130 again; `overOutage`: the jump crosses the evictions */
const jumps = [
  { back: 100, overOutage: true },
  { back: 10, overOutage: false },
  { back: 1, overOutage: false },
];
const END = 130;

type Checks = { checks: Map<string, CachedCheck>; savedChecks: [string, CachedCheck][] | undefined };
const rsOf = (sim: SimulationImpl) => sim.controllers.find((c) => c.name === 'replicaset') as unknown as Checks & { problems(): unknown[] };

function view(sim: SimulationImpl): { state: string; machines: string; problems: string } {
  return { state: JSON.stringify(sim.state()), machines: JSON.stringify(sim.machines()), problems: JSON.stringify(rsOf(sim).problems()) };
}

describe('the ReplicaSet checks a restore takes over', () => {
  for (const o of outages) {
    const make = () => {
      const dir = mkdtempSync(join(tmpdir(), 'restore-checks-'));
      dirs.push(dir);
      const path = writeZoneOutage(dir, o.podsPerNode, o.shape);
      const items = (
        JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as {
          items: { kind: string; metadata: { namespace: string; name: string }; spec: { replicas: number } }[];
        }
      ).items;
      const sets = items.filter((x) => x.kind === 'ReplicaSet' && x.spec.replicas > 0).slice(0, 3);
      const key = (i: number) => `${sets[i].metadata.namespace}/${sets[i].metadata.name}`;
      let events = '';
      for (const i of [0, 1]) events += `  - at: 400s\n    scale: {replicaSet: ${key(i)}, replicas: ${sets[i].spec.replicas + 1}}\n`;
      if (o.deleted) events += `  - at: 400s\n    delete: ReplicaSet/${key(2)}\n`;
      appendFileSync(path, events);
      return () => createSimulation(loadScenario(path, nodeFs()), { checkpointEvery: 10 });
    };
    const sims = make();
    it(`${o.name}: jumps back 1, 10 and 100 passes and forward give a fresh run's state, trace and machines`, () => {
      const expectFresh = freshAt(sims(), [...jumps.map((j) => END - j.back), END], view);
      const sim = sims();
      sim.goToPass(END);
      const expect = (n: number, where: string) => expectFresh(sim, n, where);
      for (const j of jumps) {
        const live = new Map(rsOf(sim).checks);
        sim.goToPass(END - j.back);
        expect(END - j.back, `after ${j.back} back`);
        const restored = rsOf(sim).checks;
        const kept = [...restored].filter(([k, c]) => live.get(k) === c).length;
        // the records put back are copies sharing their selector, template and spec with the ones checked: no check is made again
        const stale = [...restored].filter(([k, c]) => !isCurrent(c, sim.cluster.replicaSets.get(k)!)).map(([k]) => k);
        assert.deepEqual(stale, [], `${j.back} back: checks not current for the records put back`);
        if (j.overOutage) {
          assert.ok(kept > 0, `${j.back} back: some live checks kept (${kept} of ${restored.size})`);
          assert.ok(kept < restored.size, `${j.back} back: some checks changed since the checkpoint (${restored.size - kept} of ${restored.size})`);
        }
        sim.goToPass(END);
        expect(END, `forward again after ${j.back} back`);
      }
    });

    it(`${o.name}: the map taken over is the restored controller's alone, and the checkpoint's checks stay as saved`, () => {
      const sim = sims();
      sim.goToPass(END);
      const list = () => (sim as unknown as { store: { list: Checkpoint[] } }).store.list;
      const previous = rsOf(sim);
      const liveMap = previous.checks;
      sim.goToPass(END - 100);
      const cp = list()[list().length - 1];
      assert.equal(cp.pass, END - 100, 'the jump lands on a checkpoint');
      const saved = (cp.controllers.find((c) => c.name === 'replicaset')!.saved as { checks: [string, CachedCheck][] }).checks;
      const savedThen = saved.map(([k, c]) => [k, c] as const);
      const restored = rsOf(sim);
      const problems = JSON.stringify(restored.problems());
      assert.notEqual(restored, previous);
      if (!o.deleted) assert.equal(restored.checks, liveMap, 'the live map is taken over (no ReplicaSet came or went)');
      else assert.notEqual(restored.checks, liveMap, "a new map in the checkpoint's order (a ReplicaSet went since)");
      // the controller dropped must not reach the map any more: a write to its own goes nowhere else
      assert.notEqual(previous.checks, restored.checks);
      const size = restored.checks.size;
      previous.checks.set('default/written-by-the-dropped-controller', restored.checks.values().next().value!);
      assert.equal(restored.checks.size, size, 'a write by the dropped controller reaches the restored one');
      // running on rewrites the placeholders; the checkpoint keeps what it saved
      sim.goToPass(END);
      assert.deepEqual(
        saved.map(([k, c]) => [k, c]),
        savedThen,
        "the checkpoint's checks changed after the restore",
      );
      sim.goToPass(END - 100);
      assert.equal(JSON.stringify(rsOf(sim).problems()), problems, 'the same checkpoint restored twice');
    });
  }
});
