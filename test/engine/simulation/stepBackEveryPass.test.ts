/**
 * Stepping back one pass at a time, as the panel does, restores the checkpoints a step back leaves
 * behind it (STEP_BACK_CHECKPOINTS, FINE_CHECKPOINT_EVERY) as well as the regular ones: at every
 * pass of every bundled example, the state and the trace after the step back are a fresh run's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../src/engine';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { nodeFs } from '../../../src/platform/nodeFs';
import { STEP_BACK_CHECKPOINTS } from '../../../src/engine/simulation/checkpointPlacement';

const dir = join(new URL('../../..', import.meta.url).pathname, 'examples');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
/** far enough for every example's evictions and replacements (the toleration's 300 s is pass 60) */
const LAST = 90;

describe('a step back at every pass of the examples', () => {
  for (const f of files)
    it(`${f}: each step back from pass ${LAST} to 0 gives a fresh run's state and trace`, () => {
      const make = () => createSimulation(loadScenario(join(dir, f), nodeFs()), { checkpointEvery: 30 });
      // the fresh run: its state at each pass, and how long its trace was then
      const fresh = make();
      const at: { state: string; traceLength: number }[] = [];
      for (let n = 0; n <= LAST; n++) {
        fresh.goToPass(n);
        at.push({ state: JSON.stringify(fresh.state()), traceLength: fresh.trace.length });
      }
      const lines = traceToJsonLines(fresh.trace).split('\n');
      const sim = make();
      sim.goToPass(LAST);
      let restoredOwn = 0;
      for (let n = LAST - 1; n >= 0; n--) {
        const had = new Set(sim.checkpointPasses);
        sim.goToPass(n);
        if (had.has(n)) restoredOwn++;
        assert.equal(JSON.stringify(sim.state()), at[n].state, `state at pass ${n}`);
        assert.equal(sim.trace.length, at[n].traceLength, `trace length at pass ${n}`);
        assert.equal(traceToJsonLines(sim.trace), lines.slice(0, at[n].traceLength).join('\n') + (at[n].traceLength ? '\n' : ''), `trace at pass ${n}`);
      }
      // most step backs found a checkpoint of their own pass, left by the step back before
      assert.ok(restoredOwn >= LAST - LAST / STEP_BACK_CHECKPOINTS - 3, `${restoredOwn} of ${LAST} step backs restored their own pass`);
    });
});

describe("a step back cut by shouldStop (the extension's slices)", () => {
  const file = join(dir, 'outage-1.31.yaml');
  // stops at every `every`-th ask (before a pass, or between two instants); each later call for the same pass goes on
  const cases = [
    { name: 'stopped before every other pass', every: 2 },
    { name: 'stopped at every third ask', every: 3 },
  ];
  for (const c of cases)
    it(`${c.name}: ends at the pass of an uncut step back, with its checkpoints, state and trace`, () => {
      let asks = 0;
      let cutting = false;
      const shouldStop = () => cutting && ++asks % c.every === 0;
      const cut = createSimulation(loadScenario(file, nodeFs()), { checkpointEvery: 30, shouldStop });
      const whole = createSimulation(loadScenario(file, nodeFs()), { checkpointEvery: 30 });
      for (const sim of [cut, whole]) sim.goToPass(LAST);
      cutting = true;
      let calls = 0;
      while (cut.pass !== LAST - 1 && calls++ < 100) cut.goToPass(LAST - 1);
      cutting = false;
      whole.goToPass(LAST - 1);
      assert.ok(calls > 2, `the step back was cut (${calls} calls)`);
      assert.deepEqual(cut.checkpointPasses, whole.checkpointPasses);
      assert.equal(JSON.stringify(cut.state()), JSON.stringify(whole.state()));
      assert.equal(traceToJsonLines(cut.trace), traceToJsonLines(whole.trace));
    });
});
