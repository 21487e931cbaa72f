/**
 * The ReplicaSet examples (issue 3 item 5): each scenario file in ./examples
 * loads without errors and every one of its `expect:` entries holds, as
 * `controller-stepper test` would check them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { createSimulation } from '../../../../src/engine/simulation/simulation';

const dir = join(__dirname, 'examples');

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  test(`example ${file}: its expectations hold`, () => {
    const scenario = loadScenario(join(dir, file), nodeFs());
    const errors = scenario.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(errors, [], `${file} loads without errors`);
    assert.ok(scenario.expect.length > 0, `${file} has expectations`);
    const sim = createSimulation(scenario);
    const results = sim.checkExpectations();
    const failed = results.filter((r) => !r.ok).map((r) => `${r.at} ${r.description}: ${r.actual}`);
    assert.deepEqual(failed, [], file);
  });
}
