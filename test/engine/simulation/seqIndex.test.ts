/**
 * The trace's decisions by machine id (SimHost.byMachine, simulation/seqIndex.ts) stand in for walks of the
 * whole trace where the panel draws a machine: its last transition (statelessMachineView, a pod's ended
 * taint eviction worker) and the decisions that took each of its transitions (selectedMachines). The index
 * must say what the walk says at every position, a step back (the trace cut back) and the steps after it too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { lastOfMachine } from '../../../src/engine/controllers/statelessMachines';
import type { Decision } from '../../../src/engine/trace/decision';
import { selectedMachines } from '../../../src/extension/machineGraph';

const examples = join(__dirname, '..', '..', '..', 'examples');

/** Each machine's decisions as a walk of the trace finds them. */
function walked(trace: readonly Decision[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const d of trace) if (d.machine) out.set(d.machine.id, [...(out.get(d.machine.id) ?? []), d.seq]);
  return out;
}

// [example, the passes gone to in order: forward, back (the trace cut back), forward again]
const cases: [string, number[]][] = [
  ['outage-1.31.yaml', [12, 20, 14, 15, 30, 3, 25]],
  ['rs-zone-outage.yaml', [20, 10, 22]],
  ['outage-1.12.yaml', [40, 18, 45]],
  ['rs-create-failures.yaml', [10, 4, 12]],
];

for (const [file, passes] of cases) {
  test(`${file}: the decisions by machine are the walk's at every position (passes ${passes.join(', ')})`, () => {
    const sim = createSimulation(loadScenario(join(examples, file), nodeFs()));
    for (const pass of passes) {
      sim.goToPass(pass);
      const want = walked(sim.trace);
      assert.ok(want.size > 0, `machines at pass ${pass}`);
      assert.deepEqual(new Map([...sim.host.byMachine].map(([k, v]) => [k, [...v]])), want, `pass ${pass}`);
      for (const id of want.keys()) {
        assert.equal(lastOfMachine(id, sim.trace, sim.machineSeqs(id)), lastOfMachine(id, sim.trace), `${id}'s last at pass ${pass}`);
      }
      // the drawings: the transitions each decision took, from the index and from the walk
      const ms = [...want.keys()].slice(0, 40).flatMap((id) => sim.machine(id) ?? []);
      assert.deepEqual(
        selectedMachines(ms, sim.trace, (id) => sim.machineSeqs(id)),
        selectedMachines(ms, sim.trace),
        `drawings at pass ${pass}`,
      );
    }
  });
}
