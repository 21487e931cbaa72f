/**
 * The monitor pass cut by shouldYield inside its walk over the nodes (the pass in which a zone's nodes
 * go Unknown and MarkPodsNotReady marks their pods is one controller's work, over a second at 5,000
 * nodes): the decisions and the state are those of a pass never cut, however often it is cut, and a
 * goToPass back from a cut pass drops the cut with its instant.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, loadScenario, type Decision, type Simulation, type SimulationOptions } from '../../../../src/engine';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { writeZoneOutage } from '../../../helpers/generatedOutage';

const dir = mkdtempSync(join(tmpdir(), 'pass-yield-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
// 120 nodes in two zones, the second's kubelets stopping at 60 s: 60 nodes go Unknown in one pass
const scenario = loadScenario(writeZoneOutage(dir, 3, { nodes: 120 }), nodeFs());
const open = (options?: SimulationOptions) => createSimulation(scenario, options);

/** Whether the node lifecycle controller holds a monitor pass cut part-way (its state is private: read for the test). */
const passCut = (sim: Simulation): boolean =>
  (sim as unknown as { controllers: { name: string; s?: { cut: unknown } }[] }).controllers.some((c) => c.name === 'node-lifecycle' && c.s?.cut);

const cases: { name: string; yieldEvery: number; to: number; back?: number }[] = [
  { name: 'cut at every question', yieldEvery: 1, to: 22 },
  { name: 'cut at every third question', yieldEvery: 3, to: 22 },
  { name: 'cut at every seventh question, on through the evictions', yieldEvery: 7, to: 80 },
  { name: 'cut, then back from inside the cut Unknown pass to the pass before the last, then on again', yieldEvery: 1, to: 21, back: 19 },
  { name: 'cut, then back from inside the cut Unknown pass to the start, then on again', yieldEvery: 2, to: 21, back: 0 },
];

for (const c of cases) {
  test(`the monitor pass cut inside its walk over the nodes decides as one never cut: ${c.name}`, () => {
    const whole = open();
    whole.goToPass(c.to);
    let asks = 0;
    let cutting = true;
    const cut = open({ shouldYield: () => cutting && ++asks % c.yieldEvery === 0 });
    let cutsInPass = 0;
    let wentBack = false;
    for (let calls = 0; ; calls++) {
      assert.ok(calls < 100_000, 'ends');
      cut.goToPass(c.to);
      if (passCut(cut)) {
        cutsInPass++;
        // inside the target pass's instant (the pass counts once its instant is whole)
        if (c.back !== undefined && !wentBack && cut.pass === c.to - 1) {
          wentBack = true;
          // back from inside the cut pass: the cut goes with the instant
          cutting = false;
          cut.goToPass(c.back);
          assert.equal(passCut(cut), false, 'the cut was dropped by the restore');
          assert.equal(cut.partDone, false);
          cutting = true;
          continue;
        }
      }
      if (!cut.stopped) break;
    }
    assert.ok(cutsInPass > 0, 'the monitor pass was cut inside its walk');
    assert.equal(wentBack, c.back !== undefined, 'went back from inside the target pass');
    assert.equal(cut.pass, c.to);
    assert.equal(cut.partDone, false);
    assert.deepEqual([...cut.trace], [...whole.trace], 'the same decisions');
    assert.deepEqual(cut.state(), whole.state(), 'the same state');
  });
}

/** The decisions of one instant made before a cut inside it; a case holds when one of its cuts fell where it says. */
interface WhereCut {
  name: string;
  memory: 'reconstructed' | 'fresh';
  yieldEvery: number;
  /** the pass the cut instant is */
  pass: number;
  /** where the cut must fall at least once: the decisions of the instant so far */
  at: (made: readonly Decision[]) => boolean;
}
const registered = (made: readonly Decision[]) => made.filter((d) => d.action === 'NodeRegistered').length;
const noSchedule = (made: readonly Decision[]) => made.filter((d) => d.action === 'TaintAdded' && d.summary.includes(':NoSchedule')).length;
const NODES = scenario.snapshot.cluster.nodes.size;
const whereCut: WhereCut[] = [
  {
    name: 'the first pass, before any node is registered (the informers’ initial list pending)',
    memory: 'reconstructed',
    yieldEvery: 1,
    pass: 0,
    at: (m) => registered(m) === 0,
  },
  {
    name: 'the first pass, inside the memory’s reconstruction from the snapshot',
    memory: 'reconstructed',
    yieldEvery: 1,
    pass: 0,
    at: (m) => registered(m) > 0 && registered(m) < NODES,
  },
  {
    name: 'the first pass, inside the registrations of a controller started with fresh memory',
    memory: 'fresh',
    yieldEvery: 3,
    pass: 0,
    at: (m) => registered(m) > 0 && registered(m) < NODES,
  },
  {
    name: 'the Unknown pass, inside the NoSchedule taints its status updates call for',
    memory: 'reconstructed',
    yieldEvery: 1,
    pass: 19,
    at: (m) => noSchedule(m) > 0 && noSchedule(m) < 60,
  },
];

for (const c of whereCut) {
  test(`the node lifecycle controller's wake cut outside the walk decides as one never cut: ${c.name}`, () => {
    const s = { ...scenario, controllerMemory: c.memory };
    const whole = createSimulation(s);
    whole.goToPass(c.pass + 2);
    let asks = 0;
    const cut = createSimulation(s, { shouldYield: () => ++asks % c.yieldEvery === 0 });
    let fell = false;
    for (let calls = 0; ; calls++) {
      assert.ok(calls < 100_000, 'ends');
      cut.goToPass(c.pass + 2);
      if (passCut(cut) && cut.pass === c.pass) {
        const made = cut.trace.filter((d) => d.pass === c.pass);
        if (c.at(made)) fell = true;
      }
      if (!cut.stopped) break;
    }
    assert.ok(fell, 'a cut fell there');
    assert.deepEqual([...cut.trace], [...whole.trace], 'the same decisions');
    assert.deepEqual(cut.state(), whole.state(), 'the same state');
  });
}
