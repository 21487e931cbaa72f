/**
 * A step back's restore in parts (GoToPassOptions.restoreInPieces, the run-ahead's in idle slices): cut by
 * shouldStop between two parts, the simulation is part-done and has not reached the pass; the next goToPass with
 * the option goes on, and any other call finishes the restore first. Either way the simulation is then the one
 * a fresh run gives at that pass, and at each pass stepped after it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeZoneOutage } from '../../helpers/generatedOutage';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';

const dir = mkdtempSync(join(tmpdir(), 'cs-restore-pieces-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// 120 of 240 nodes go Unknown at pass 12, their pods evicted and replaced from pass 72
const OUTAGE = writeZoneOutage(dir, 10, { nodes: 240, seed: 'restore-pieces' });

function snapshotOf(sim: SimulationImpl): string {
  const machines = sim.machines().map((m) => ({ id: m.id, state: m.state, lastTransition: m.lastTransition }));
  const podsByNode = [...sim.cluster.podsByNode].map(([node, keys]) => [node, [...keys]]);
  return JSON.stringify({ pass: sim.pass, now: sim.now, state: sim.state(), podsByNode, machines, problems: sim.problems });
}

interface Case {
  name: string;
  /** where the user stands (stepped there with step(true) from `from`), and the pass gone back to */
  from: number;
  at: number;
  back: number;
  /** how the restore is finished after its first part: more goToPass calls, or another call */
  finish: 'goToPass' | 'step' | 'state';
}

const cases: Case[] = [
  { name: 'one step back after the zone went Unknown', from: 10, at: 14, back: 13, finish: 'goToPass' },
  { name: 'two passes back over the heavy pass', from: 10, at: 13, back: 11, finish: 'goToPass' },
  { name: 'a jump back over the evictions', from: 70, at: 80, back: 60, finish: 'goToPass' },
  { name: 'one step back, finished by a step', from: 10, at: 14, back: 13, finish: 'step' },
  { name: 'one step back, finished by a view that settles', from: 10, at: 14, back: 13, finish: 'state' },
];

for (const c of cases)
  test(`a restore in parts: ${c.name}, is a fresh run's`, () => {
    const scenario = loadScenario(OUTAGE, nodeFs());
    const fresh = createSimulation(scenario);
    const want = new Map<number, { snap: string; trace: string }>();
    for (const n of [c.back, c.back + 1, c.back + 2]) {
      fresh.goToPass(n);
      want.set(n, { snap: snapshotOf(fresh), trace: traceToJsonLines(fresh.trace) });
    }
    const same = (sim: SimulationImpl, where: string) => {
      const w = want.get(sim.pass!)!;
      assert.equal(traceToJsonLines(sim.trace), w.trace, `${c.name}: the trace ${where}`);
      assert.equal(snapshotOf(sim), w.snap, `${c.name}: the state ${where}`);
    };
    let stop = false;
    const sim = createSimulation(scenario, { shouldStop: () => stop });
    sim.goToPass(c.from);
    while ((sim.pass ?? -1) < c.at) sim.step(true);
    void sim.checkpointPasses;
    // every slice over at once: one part a call
    stop = true;
    let calls = 0;
    sim.goToPass(c.back, { interactive: true, restoreInPieces: true });
    calls++;
    assert.ok(sim.partDone && sim.stopped, `${c.name}: the restore stopped after its first part`);
    if (c.finish === 'goToPass') {
      let parts = 1;
      while (sim.partDone || sim.pass !== c.back) {
        sim.goToPass(c.back, { interactive: true, restoreInPieces: true });
        if (sim.partDone) parts++;
        assert.ok(++calls < 100, `${c.name}: the restore ends`);
      }
      // the records, the kubelets, the index, four controllers (the ReplicaSet controller's in four: its indexes,
      // its entries, its checks, its pods' problems), the position: 11 parts, each call but the last ending in one
      assert.equal(parts, 10, `${c.name}: the restore's calls that ended part-done`);
      stop = false;
      same(sim, 'after the restore in parts');
    } else if (c.finish === 'state') {
      stop = false;
      void sim.state();
      assert.ok(!sim.partDone, `${c.name}: a view that settles finishes the restore`);
      sim.goToPass(c.back);
      same(sim, 'after the restore finished by a view');
    } else {
      stop = false;
      sim.step(true);
      assert.ok(!sim.partDone, `${c.name}: the step finished the restore first`);
      same(sim, 'after the restore, finished by the step, and the step');
    }
    for (let n = (sim.pass ?? 0) + 1; n <= c.back + 2; n++) {
      sim.step(true);
      same(sim, `at pass ${n}, stepped after the restore`);
    }
  });
