/**
 * A Step Back at once after a Step Back whose rest (the ReplicaSet controller's and the binder's restore, left owed by
 * GoToPassOptions.viewsFirst) is not begun: that rest is not done first but taken into the second restore, from the
 * controllers that ran before both (checkpointStore.ts dropOwed, chainFrom). Each row's moves leave the state and trace of
 * a fresh run at the same pass, with every check on (the take-over's index and allocatable checks among them), and the
 * passes after it too; the owed controllers are restored once per row, not once per click.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../src/engine';
import type { Simulation } from '../../../src/engine/simulation/api';
import type { SimController } from '../../../src/engine/controllers/controller';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { nodeFs } from '../../../src/platform/nodeFs';
import { EVERY_CHECK } from '../../helpers/everyCheck';

const dir = join(new URL('../../..', import.meta.url).pathname, 'examples');
const make = (f: string): Simulation => createSimulation(loadScenario(join(dir, f), nodeFs()), { checks: EVERY_CHECK });
const seen = (sim: Simulation): string => JSON.stringify(sim.state()) + '\n' + traceToJsonLines(sim.trace);

/** A move of the row: a Step Back at once (viewsFirst), or one part of the owed rest run (as an idle slice runs it). */
type Move = 'back' | 'slice';
const cases: { name: string; file: string; from: number; moves: Move[]; restores: number }[] = [
  { name: 'two Step Backs at once', file: 'rs-zone-outage.yaml', from: 12, moves: ['back', 'back'], restores: 1 },
  { name: 'three Step Backs at once over the outage', file: 'outage-1.31.yaml', from: 21, moves: ['back', 'back', 'back'], restores: 1 },
  { name: 'three Step Backs at once, 1.12', file: 'outage-1.12.yaml', from: 14, moves: ['back', 'back', 'back'], restores: 1 },
  // the rest begun in idle time: the next Step Back finishes it first, as before
  { name: 'a Step Back after a slice of the rest', file: 'rs-zone-outage.yaml', from: 12, moves: ['back', 'slice', 'back'], restores: 2 },
];

describe('a Step Back at once takes the rest of the one before it into its own restore', () => {
  for (const c of cases)
    it(`${c.name} (${c.file}, from pass ${c.from})`, () => {
      const sim = make(c.file);
      // stepped onto `from` as the panel steps, so that each pass stepped back onto keeps a checkpoint of its own
      sim.goToPass(c.from - 4);
      for (let n = c.from - 3; n <= c.from; n++) sim.goToPass(n, { interactive: true });
      // each restore of the ReplicaSet controller, counted on its class (every restore makes a new one)
      const rs = (sim as unknown as { controllers: readonly SimController[] }).controllers.find((x) => x.name === 'replicaset')!;
      const proto = Object.getPrototypeOf(rs) as SimController;
      const own = proto.restoreInPieces!;
      let restores = 0;
      proto.restoreInPieces = function (this: SimController, ...a) {
        restores++;
        return own.apply(this, a);
      };
      try {
        let pass = c.from;
        for (const m of c.moves)
          if (m === 'back') sim.goToPass(--pass, { viewsFirst: true });
          else sim.finishRestore!(() => false);
        assert.equal(sim.partDone, true, 'the last rest owed');
        sim.finishRestore!();
        assert.equal(restores, c.restores, 'the ReplicaSet controller restored once per owed rest not begun');
        const fresh = make(c.file);
        fresh.goToPass(pass);
        assert.equal(seen(sim), seen(fresh), `at pass ${pass}`);
        for (const n of [pass + 1, pass + 3]) {
          sim.goToPass(n);
          fresh.goToPass(n);
          assert.equal(seen(sim), seen(fresh), `pass ${n} after`);
        }
      } finally {
        proto.restoreInPieces = own;
      }
    });
});
