/**
 * A restore puts back copies of the ReplicaSet records (cloneReplicaSet shares their selector, template
 * and spec). A check made for a record holds for its copies (isCurrent: checkReplicaSet reads only those
 * and the name, which is the key it is held under), so the passes after a step back or a jump make no
 * check again while no ReplicaSet's selector, template, spec or replicas changed (main made one per
 * ReplicaSet again: 9,371 after a step back at 5,000 nodes). The state, machines and trace after are a
 * fresh run's.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { writeZoneOutage } from '../../../helpers/generatedOutage';
import { freshAt } from '../../../helpers/freshAt';

const dir = mkdtempSync(join(tmpdir(), 'restore-copies-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// 30 of 60 nodes go Unknown at 60 s (pass 12); evictions from pass 72; no ReplicaSet is scaled or edited
const OUTAGE = writeZoneOutage(dir, 5, { nodes: 60, seed: 'restore-copies' });

const checksMade = (sim: SimulationImpl): number =>
  (sim.controllers.find((c) => c.name === 'replicaset') as unknown as { checksChanged: number }).checksChanged;
const view = (sim: SimulationImpl) => ({ state: JSON.stringify(sim.state()), machines: JSON.stringify(sim.machines()) });

test('the passes after a step back or a jump make no ReplicaSet check again, and decide as a fresh run', () => {
  const scenario = loadScenario(OUTAGE, nodeFs());
  const jumps = [
    [20, 1],
    [20, 8],
    [110, 1],
    [110, 10],
    [110, 100],
  ];
  const check = freshAt(createSimulation(scenario, { checkpointEvery: 10 }) as SimulationImpl, [...new Set(jumps.map(([end, back]) => end - back + 3))], view);
  for (const [end, back] of jumps) {
    const sim = createSimulation(scenario, { checkpointEvery: 10 }) as SimulationImpl;
    sim.goToPass(end);
    sim.goToPass(end - back);
    const made = checksMade(sim);
    for (let n = end - back + 1; n <= end - back + 3; n++) {
      sim.step();
      assert.equal(checksMade(sim), made, `checks made again by pass ${n}, ${back} back from ${end}`);
    }
    check(sim, end - back + 3, `${back} back from ${end}`);
  }
});
