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
import { createSimulation, loadScenario, type Simulation, type SimulationOptions } from '../../../../src/engine';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { writeZoneOutage } from '../../../helpers/generatedOutage';

const dir = mkdtempSync(join(tmpdir(), 'pass-yield-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
// 120 nodes in two zones, the second's kubelets stopping at 60 s: 60 nodes go Unknown in one pass
const scenario = loadScenario(writeZoneOutage(dir, 3, { nodes: 120 }), nodeFs());
const open = (options?: SimulationOptions) => createSimulation(scenario, options);

/** Whether the node lifecycle controller holds a monitor pass cut part-way (its state is private: read for the test). */
const passCut = (sim: Simulation): boolean =>
  (sim as unknown as { controllers: { name: string; s?: { passCut: unknown } }[] }).controllers.some((c) => c.name === 'node-lifecycle' && c.s?.passCut);

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
    assert.deepEqual(cut.trace, whole.trace, 'the same decisions');
    assert.deepEqual(cut.state(), whole.state(), 'the same state');
  });
}
