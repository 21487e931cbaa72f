/**
 * A run that may yield (SimulationOptions.shouldYield: a caller's slice, the panel's idle work) after a restore makes the
 * binder's node index (from every pod: no pod sums kept) a chunk at a time when a pod first waits, not at once: made at once it was one uncut piece of 130-150 ms at
 * 5,000 nodes in the panel's idle slices after a long Run Until (bench/README.md "idle31"). Counted, not timed: the
 * index's chunks made between two asks of shouldYield. And the run decides what one never cut decides.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import type { SimulationOptions } from '../../../../src/engine/simulation/api';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { writeZoneOutage } from '../../../helpers/generatedOutage';
import { runResult } from '../../../helpers/drivenRun';
import { BUILD_CHUNK, NodeIndex } from '../../../../src/engine/controllers/scheduler/nodeIndex';

const dir = mkdtempSync(join(tmpdir(), 'index-yield-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** More nodes than a chunk, in three zones; the second zone's kubelets stop at 60 s: its pods are evicted from pass 80 on, and replaced. */
const file = writeZoneOutage(dir, 5, { nodes: BUILD_CHUNK * 3, zones: 3, seed: 'index-yield' });
const make = (options?: SimulationOptions): SimulationImpl => createSimulation(loadScenario(file, nodeFs()), options);

/** the index's chunks made since shouldYield was last asked, and the most of them between two asks */
let since = 0;
let most = 0;
let chunks = 0;
const proto = NodeIndex.prototype as unknown as { fill: (...a: unknown[]) => Generator<void> };
const fill = proto.fill;
proto.fill = function* (this: unknown, ...args: unknown[]) {
  for (const _ of fill.apply(this, args)) {
    chunks++;
    most = Math.max(most, ++since);
    yield;
  }
};

interface Case {
  name: string;
  /** where the run starts: from `back`, a restore there (every pod put back: no pod sums kept, the index made from every pod) */
  back: number;
  from: number;
  to: number;
  /** the cut: shouldYield says true on every `every`-th ask */
  every: number;
}

const cases: Case[] = [
  { name: 'back from pass 110 to 60, every ask yields (the pods placed from pass 80 on)', back: 110, from: 60, to: 90, every: 1 },
  { name: 'back from pass 110 to 50, every third ask yields', back: 110, from: 50, to: 90, every: 3 },
];

test("a run that may yield makes the binder's index a chunk between two asks, and decides what an uncut run decides", () => {
  for (const c of cases) {
    const plain = make();
    plain.goToPass(c.to);
    let cutting = false;
    let asks = 0;
    const sim = make({
      shouldYield: () => {
        since = 0;
        return cutting && ++asks % c.every === 0;
      },
    });
    sim.goToPass(c.back);
    sim.goToPass(c.from);
    cutting = true;
    since = most = chunks = 0;
    for (let calls = 0; ; calls++) {
      sim.goToPass(c.to, { interactive: true });
      assert.ok(calls < 100_000, `${c.name}: ends`);
      if (!sim.stopped) break;
    }
    assert.ok(chunks > 3, `${c.name}: an index was made in the run (${chunks} chunks)`);
    assert.ok(most <= 1, `${c.name}: one of the index's chunks between two asks, ${most} were`);
    assert.equal(sim.pass, c.to, `${c.name}: at the pass`);
    assert.equal(runResult(sim), runResult(plain), `${c.name}: the same decisions and cluster`);
  }
});
