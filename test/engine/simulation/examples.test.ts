/**
 * Every bundled example (examples/*.yaml) loads without errors and its
 * `expect:` entries hold: the same check as `controller-stepper test`, through
 * the engine's entry point.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation, loadScenario, hasErrors } from '../../../src/engine';
import { nodeFs } from '../../../src/platform/nodeFs';

const root = new URL('../../..', import.meta.url).pathname;
const dir = join(root, 'examples');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('the bundled examples', () => {
  it('there are examples to check', () => assert.ok(files.length > 0));
  for (const f of files) {
    it(`${f}: loads cleanly and every expectation holds`, () => {
      const sim = createSimulation(loadScenario(join(dir, f), nodeFs()));
      assert.ok(!hasErrors(sim.problems), JSON.stringify(sim.problems.filter((p) => p.severity === 'error')));
      const results = sim.checkExpectations();
      assert.ok(results.length > 0, 'the example has expectations');
      assert.deepEqual(
        results.filter((r) => !r.ok).map((r) => `${r.description}: ${r.actual}`),
        [],
      );
    });
  }
});
