/**
 * A Step Back at once after a Step Back whose rest (the ReplicaSet controller's and the binder's restore, left owed by
 * GoToPassOptions.viewsFirst) is not begun: that rest is not done first but taken into the second restore, from the
 * controllers that ran before both (checkpointStore.ts dropOwed, chainFrom). Each row's moves leave the state and trace of
 * a fresh run at the same pass, with every check on (the take-over's index and allocatable checks among them), and the
 * passes after it too; the owed controllers are restored once per row, not once per click. So does a Step that redoes a
 * pass (redo.ts: pass 0 or a heavy one) at once after such a Step Back: its hand-off takes that rest (takeOwed).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createSimulation, loadScenario } from '../../../src/engine';
import type { SimulationImpl } from '../../../src/engine/simulation/simulation';
import { writeZoneOutage } from '../../helpers/generatedOutage';
import type { Simulation } from '../../../src/engine/simulation/api';
import type { SimController } from '../../../src/engine/controllers/controller';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { nodeFs } from '../../../src/platform/nodeFs';
import { EVERY_CHECK } from '../../helpers/everyCheck';

const dir = join(new URL('../../..', import.meta.url).pathname, 'examples');
const tmp = mkdtempSync(join(tmpdir(), 'cs-chain-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
// 120 of 240 nodes go Unknown at once: MarkPodsNotReady on their 1,200 pods, a heavy pass the redo takes (HEAVY)
const OUTAGE = writeZoneOutage(tmp, 10, { nodes: 240, seed: 'redo' });
const HEAVY = ((): number => {
  const sim = createSimulation(loadScenario(OUTAGE, nodeFs()));
  for (let n = 0; n < 100; n++) if ((sim.goToPass(n), sim.trace.some((d) => d.pass === n && d.action === 'PodsMarkedNotReady'))) return n;
  throw new Error('no heavy pass');
})();
const make = (f: string): Simulation => createSimulation(loadScenario(f === OUTAGE ? f : join(dir, f), nodeFs()), { checks: EVERY_CHECK });
const seen = (sim: Simulation): string => JSON.stringify(sim.state()) + '\n' + traceToJsonLines(sim.trace);

/**
 * A move of the row: a Step Back at once (viewsFirst), a Step (`step`: interactive, as the panel's), a Step Back from pass 0
 * (`reset`, viewsFirst), or one part of the owed rest run (as an idle slice runs it).
 */
type Move = 'back' | 'slice' | 'step' | 'reset';
/** `redone`: passes the Steps take from the run before (redo.ts), which a row must use, or it tests nothing new */
const cases: { name: string; file: string; from: number; moves: Move[]; restores: number; redone?: number }[] = [
  { name: 'two Step Backs at once', file: 'rs-zone-outage.yaml', from: 12, moves: ['back', 'back'], restores: 1 },
  { name: 'three Step Backs at once over the outage', file: 'outage-1.31.yaml', from: 21, moves: ['back', 'back', 'back'], restores: 1 },
  { name: 'three Step Backs at once, 1.12', file: 'outage-1.12.yaml', from: 14, moves: ['back', 'back', 'back'], restores: 1 },
  // the rest begun in idle time: the next Step Back finishes it first, as before
  { name: 'a Step Back after a slice of the rest', file: 'rs-zone-outage.yaml', from: 12, moves: ['back', 'slice', 'back'], restores: 2 },
  // a Step that redoes the heavy pass at once: its hand-off restores the owed controllers from the ones before the Step Backs
  {
    name: 'three Step Backs over the heavy pass, then three Steps',
    file: OUTAGE,
    from: HEAVY + 2,
    moves: ['back', 'back', 'back', 'step', 'step', 'step'],
    restores: 1,
    redone: 1,
  },
  { name: 'one Step Back onto the pass before the heavy one, then a Step', file: OUTAGE, from: HEAVY, moves: ['back', 'step'], restores: 1, redone: 1 },
  { name: 'a Step Back from pass 0, then a Step', file: OUTAGE, from: 4, moves: ['back', 'back', 'back', 'back', 'reset', 'step'], restores: 2, redone: 1 },
  // the rest begun in idle time: finished first, and the hand-off restores those controllers again, as before
  { name: 'a Step after a slice of the rest', file: OUTAGE, from: HEAVY, moves: ['back', 'slice', 'step'], restores: 2, redone: 1 },
  // a Step that steps its pass (no redo) finishes the rest first, as before
  { name: 'a Step that does not redo', file: OUTAGE, from: HEAVY + 3, moves: ['back', 'back', 'step'], restores: 1, redone: 0 },
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
        let pass: number | null = c.from;
        const redone = (sim as SimulationImpl).redoneCount;
        for (const m of c.moves) {
          if (m === 'back') sim.goToPass(--pass!, { viewsFirst: true });
          else if (m === 'reset') sim.reset({ viewsFirst: true });
          else if (m === 'step') sim.goToPass((pass ?? -1) + 1, { interactive: true });
          else sim.finishRestore!(() => false);
          pass = sim.pass;
        }
        assert.equal(sim.partDone, c.moves.at(-1) !== 'step', 'the last rest owed');
        sim.finishRestore!();
        if (c.redone !== undefined) assert.equal((sim as SimulationImpl).redoneCount - redone, c.redone, 'passes redone');
        assert.equal(restores, c.restores, 'the ReplicaSet controller restored once per owed rest not begun');
        const fresh = make(c.file);
        if (pass !== null) fresh.goToPass(pass);
        assert.equal(seen(sim), seen(fresh), `at pass ${pass}`);
        for (const n of [(pass ?? -1) + 1, (pass ?? -1) + 3]) {
          sim.goToPass(n);
          fresh.goToPass(n);
          assert.equal(seen(sim), seen(fresh), `pass ${n} after`);
        }
      } finally {
        proto.restoreInPieces = own;
      }
    });
});
