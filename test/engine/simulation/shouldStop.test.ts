/**
 * SimulationOptions.shouldStop (issue 17 §2): asked between instants, it
 * stops a run there (sim.stopped), and the next call runs on from there, so a
 * run stopped and taken up again as often as the command line pauses it
 * decides exactly what one run without stops decides.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../src/engine';
import { nodeFs } from '../../../src/platform/nodeFs';
import { minutes } from '../../../src/engine/model/time';

const root = new URL('../../..', import.meta.url).pathname;
const EXAMPLE = join(root, 'examples', 'one-node-stops.yaml');

test('a runUntil stopped every third instant and taken up again decides the same trace and ends in the same state as one run', () => {
  const whole = createSimulation(loadScenario(EXAMPLE, nodeFs()));
  whole.runUntil(whole.startTime + minutes(20));
  let asked = 0;
  const cut = createSimulation(loadScenario(EXAMPLE, nodeFs()), { shouldStop: () => ++asked % 3 === 0 });
  let stops = 0;
  for (;;) {
    cut.runUntil(cut.startTime + minutes(20));
    if (!cut.stopped) break;
    stops++;
  }
  assert.ok(stops > 10, `it was stopped many times: ${stops}`);
  assert.deepEqual([...cut.trace], [...whole.trace]);
  assert.deepEqual(cut.state(), whole.state());
  assert.equal(cut.now, whole.now);
});

test('a stop leaves the clock at the last instant run, short of the target, with sim.stopped set', () => {
  const sim = createSimulation(loadScenario(EXAMPLE, nodeFs()), { shouldStop: () => true });
  const target = sim.startTime + minutes(20);
  sim.runUntil(target);
  assert.equal(sim.stopped, true);
  assert.ok(sim.now < target);
  assert.ok(sim.trace.length > 0, 'the instant that ran is decided whole');
});

test('checkExpectations stopped by shouldStop returns only the entries it reached', () => {
  let asked = 0;
  const sim = createSimulation(loadScenario(EXAMPLE, nodeFs()), { shouldStop: () => ++asked > 20 });
  const all = createSimulation(loadScenario(EXAMPLE, nodeFs())).checkExpectations().length;
  const results = sim.checkExpectations();
  assert.equal(sim.stopped, true);
  assert.ok(results.length < all, `${results.length} of ${all}`);
  assert.ok(results.every((r) => r !== undefined && r.ok));
});

test("shouldAbort, asked after each controller's work inside an instant, ends the run there: nothing runs on until a checkpoint is put back", () => {
  const whole = createSimulation(loadScenario(EXAMPLE, nodeFs()));
  whole.runUntil(whole.startTime + minutes(20));
  let abort = false;
  let asked = 0;
  const sim = createSimulation(loadScenario(EXAMPLE, nodeFs()), {
    shouldAbort: () => {
      asked++;
      return abort;
    },
  });
  sim.runUntil(sim.startTime + minutes(1));
  assert.ok(asked > 0, 'asked inside the instants that ran');
  const decided = sim.trace.length;
  abort = true;
  sim.runUntil(sim.startTime + minutes(20));
  assert.equal(sim.stopped, true);
  const at = sim.now;
  assert.ok(at < sim.startTime + minutes(2), 'stopped at the first controller of the next instant');
  assert.deepEqual([...sim.trace], whole.trace.slice(0, sim.trace.length), 'what was decided is what one run decides');
  abort = false;
  const kept = sim.trace.length;
  for (const more of [() => sim.runUntil(sim.startTime + minutes(20)), () => sim.step(), () => sim.runUntilDecision(() => true, sim.startTime + minutes(20))]) {
    more();
    assert.equal(sim.stopped, true, 'still stopped');
    assert.equal(sim.trace.length, kept, 'and nothing more decided');
    assert.equal(sim.now, at);
  }
  assert.ok(kept >= decided);
  sim.reset();
  sim.runUntil(sim.startTime + minutes(20));
  assert.equal(sim.stopped, false);
  assert.deepEqual([...sim.trace], [...whole.trace], 'after reset() it runs again, as one run does');
});
