/**
 * What the host last told the controllers of each node (SimHost's `nodeSeen`, the `before` of the
 * next node update) after a step back: a restore makes it again only for the nodes it put back
 * (SimHost.reindex), and keeps the others' entries. At every pass of the examples that change
 * nodes (conditions, taints), stepping back one pass at a time, it equals a fresh run's at that
 * pass, but for heartbeat times (a kubelet's plain post tells no controller a new `before`, so a
 * fresh run's entries hold the times of the node's last announced change).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../src/engine';
import type { NodeBefore } from '../../../src/engine/controllers/controller';
import { nodeFs } from '../../../src/platform/nodeFs';

const dir = join(new URL('../../..', import.meta.url).pathname, 'examples');
const cases = [
  { file: 'outage-1.31.yaml', last: 80 },
  { file: 'rs-zone-outage.yaml', last: 80 },
];

function seen(sim: unknown): string {
  const m = (sim as { host: { nodeSeen: Map<string, NodeBefore> } }).host.nodeSeen;
  const out = [...m]
    .map(([name, b]): [string, unknown] => [name, { ...b, conditions: b.conditions.map(({ lastHeartbeatTime: _, ...c }) => c) }])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(out);
}

describe('what the controllers were last told of each node, after a step back', () => {
  for (const c of cases)
    it(`${c.file}: at each pass from ${c.last} back to 0, a fresh run's (heartbeat times aside)`, () => {
      const make = () => createSimulation(loadScenario(join(dir, c.file), nodeFs()), { checkpointEvery: 30 });
      const fresh = make();
      const want: string[] = [];
      for (let n = 0; n <= c.last; n++) {
        fresh.goToPass(n);
        want.push(seen(fresh));
      }
      // the run changes what is told of some node (else the case could not fail)
      assert.notEqual(want[0], want[c.last]);
      const sim = make();
      sim.goToPass(c.last);
      for (let n = c.last - 1; n >= 0; n--) {
        sim.goToPass(n);
        assert.equal(seen(sim), want[n], `pass ${n}`);
      }
    });
});
