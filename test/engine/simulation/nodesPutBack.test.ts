/**
 * A node a restore puts back and nothing changes after is not put back again by the next restore (checkpointStore.ts
 * nodePutBack): the panel's Step Back from pass 0 right after a jump back from the outage put back the zone's nodes a
 * second time, equal in value, because the first restore had marked them dirty and the checkpoint of pass 0 held them
 * all (bench/README.md "pending2"). For every example, the moves of that click (far out, back to pass 1, back onto
 * pass 0, Reset) and the steps after each leave the state and trace of a fresh run, with every check on (the
 * heartbeats' check compares each node kept out of a checkpoint with its copy).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../src/engine';
import type { Simulation } from '../../../src/engine/simulation/api';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { nodeFs } from '../../../src/platform/nodeFs';
import { EVERY_CHECK } from '../../helpers/everyCheck';

const dir = join(new URL('../../..', import.meta.url).pathname, 'examples');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
/** past the examples' outages (their nodes go Unknown around pass 8-19) */
const FAR = 27;

const make = (f: string): Simulation => createSimulation(loadScenario(join(dir, f), nodeFs()), { checks: EVERY_CHECK });
const seen = (sim: Simulation): string => JSON.stringify(sim.state()) + '\n' + traceToJsonLines(sim.trace);

/** The nodes a move put back (takeRecordChanges) whose records are equal in value to the ones that stood there before it. */
function putBackEqual(sim: Simulation, move: () => void): string[] {
  sim.takeRecordChanges?.();
  const before = new Map([...sim.cluster!.nodes].map(([name, n]) => [name, JSON.stringify(n)]));
  move();
  const back = sim.takeRecordChanges?.().nodes;
  if (back === undefined || back === 'all') return [];
  return [...back].filter((name) => before.get(name) === JSON.stringify(sim.cluster!.nodes.get(name)));
}

describe('nodes put back by a restore are not put back again by the next one', () => {
  for (const f of files)
    it(`${f}: pass ${FAR}, back to 1, onto 0, Reset: a fresh run's state and trace, and the Reset puts back no node equal to the one there`, () => {
      const fresh = make(f);
      if (fresh.lastPass < FAR) return;
      const at = (n: number | null): string => {
        const s = make(f);
        if (n !== null) s.goToPass(n);
        return seen(s);
      };
      const sim = make(f);
      sim.goToPass(FAR);
      sim.goToPass(1);
      assert.equal(seen(sim), at(1), 'at pass 1 after the jump back');
      sim.goToPass(0);
      assert.equal(seen(sim), at(0), 'on pass 0');
      const equal = putBackEqual(sim, () => sim.reset());
      assert.equal(seen(sim), at(null), 'reset to the start');
      assert.deepEqual(equal, [], 'nodes put back by the Reset though equal to the ones there');
      for (const n of [0, 1, 5]) {
        sim.goToPass(n);
        assert.equal(seen(sim), at(n), `pass ${n} after the Reset`);
      }
      sim.goToPass(FAR);
      assert.equal(seen(sim), at(FAR), `pass ${FAR} again`);
    });
});
