/**
 * A user's single steps (the panel's Step: goToPass(pass + 1, { interactive: true })) leave a checkpoint
 * after the one shown and each of the STEP_BACK_CHECKPOINTS passes before it, so that the step backs after
 * them restore the checkpoint of their own pass and replay nothing (the fifth too), and each step back (and the
 * steps on from there) gives a fresh run's state and trace.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../src/engine';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { nodeFs } from '../../../src/platform/nodeFs';
import { STEP_BACK_CHECKPOINTS } from '../../../src/engine/simulation/checkpointPlacement';

const dir = join(new URL('../../..', import.meta.url).pathname, 'examples');

const CASES: { file: string; from: number; to: number; how: 'steps' | 'catch-up' }[] = [
  { file: 'outage-1.31.yaml', from: 0, to: 37, how: 'steps' },
  { file: 'rs-zone-outage.yaml', from: 0, to: 64, how: 'steps' },
  { file: 'outage-1.31.yaml', from: 20, to: 44, how: 'catch-up' },
  { file: 'rs-zone-outage.yaml', from: 30, to: 41, how: 'catch-up' },
];

describe("a user's single steps and the step backs after them", () => {
  for (const c of CASES)
    it(`${c.file}: ${c.how === 'steps' ? `steps one pass at a time to ${c.to}` : `a plain run to ${c.from}, then one interactive goToPass(${c.to}) (the ahead simulation's catch-up)`}, then ${STEP_BACK_CHECKPOINTS} step backs restore their own pass; each step back a fresh run's`, () => {
      const make = () => createSimulation(loadScenario(join(dir, c.file), nodeFs()), { checkpointEvery: 30 });
      const sim = make();
      if (c.how === 'steps') for (let p = c.from; p <= c.to; p++) sim.goToPass(p, { interactive: true });
      else {
        sim.goToPass(c.from);
        sim.goToPass(c.to, { interactive: true });
      }
      for (let back = 1; back <= STEP_BACK_CHECKPOINTS; back++) {
        const n = c.to - back;
        sim.goToPass(n);
        // asked after the step back (checkpointPasses takes a pending checkpoint): a replay to n would not have saved one at n
        assert.ok(sim.checkpointPasses.includes(n), `step back ${back} restored a checkpoint at pass ${n} (kept: ${sim.checkpointPasses.join(', ')})`);
        const fresh = make();
        fresh.goToPass(n);
        assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()), `state at pass ${n}`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `trace at pass ${n}`);
      }
      // and on again from there, as a fresh run
      sim.goToPass(c.to + 3, { interactive: true });
      const fresh = make();
      fresh.goToPass(c.to + 3);
      assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()), `state at pass ${c.to + 3}`);
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
    });
});
