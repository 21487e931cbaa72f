import assert from 'node:assert/strict';
import type { SimulationImpl } from '../../src/engine/simulation/simulation';
import { traceToJsonLines } from '../../src/engine/trace/serialize';
import { exportCluster } from '../../src/engine/model/export';

/** What a run decided and left: its trace and the cluster as exported. */
export const runResult = (sim: SimulationImpl): string => traceToJsonLines(sim.trace) + JSON.stringify(exportCluster(sim.cluster));

/**
 * A run driven `drive`'s way (preparing, stepping back and on, …), then run to `end` µs after its
 * start, has decided and left what a run straight there did: what drove it decides nothing.
 */
export function assertDrivenLikeStraight(
  make: { straight: () => SimulationImpl; driven: () => SimulationImpl },
  drive: (sim: SimulationImpl) => void,
  end: number,
): void {
  const plain = make.straight();
  plain.runUntil(plain.startTime + end);
  const sim = make.driven();
  drive(sim);
  sim.runUntil(sim.startTime + end);
  assert.equal(runResult(sim), runResult(plain));
}
