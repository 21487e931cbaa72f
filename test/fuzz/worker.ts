/** A worker thread that runs fuzz cases sent to it, one at a time (see pool.ts). */
import { parentPort } from 'node:worker_threads';
import { makeCase, type FuzzCase } from './cases';
import { runCase } from './runCase';

parentPort!.on('message', (m: { seed: number; id: number } | { case: FuzzCase }) => {
  let c: FuzzCase;
  try {
    c = 'case' in m ? m.case : makeCase(m.seed, m.id);
  } catch (e) {
    // a generator bug, reported as a crash of the case rather than of the worker
    parentPort!.postMessage({
      id: 'id' in m ? m.id : -1,
      outcome: 'crash',
      hash: 'generator',
      decisions: 0,
      violations: [],
      stepBack: 'skipped',
      error: `generator: ${e instanceof Error ? e.message : String(e)}`,
    });
    return;
  }
  parentPort!.postMessage(runCase(c));
});
