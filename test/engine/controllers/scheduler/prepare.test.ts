/**
 * Simulation.prepare builds the binder's node index before its first placement (the panel calls it
 * when idle, so that the step of the first placement does not pay for it). Its presence must decide
 * nothing: every bundled example, prepared at the start, or prepared after a step back dropped the
 * index, gives byte for byte the trace and final state of a run never prepared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import type { Simulation } from '../../../../src/engine/simulation/api';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { exportCluster } from '../../../../src/engine/model/export';
import { traceToJsonLines } from '../../../../src/engine/trace/serialize';
import { nodeFs } from '../../../../src/platform/nodeFs';

const examples = join(__dirname, '..', '..', '..', '..', 'examples');
const files = readdirSync(examples).filter((f) => f.endsWith('.yaml'));
const END = 20 * 60e6;

const run = (file: string) => createSimulation(loadScenario(join(examples, file), nodeFs()));
const result = (sim: Simulation) => traceToJsonLines(sim.trace) + JSON.stringify(exportCluster(sim.cluster!));

interface Way {
  name: string;
  drive: (sim: Simulation) => void;
}

const ways: Way[] = [
  {
    name: 'prepared at the start',
    drive: (sim) => {
      sim.prepare!();
      sim.runUntil(sim.startTime + END);
    },
  },
  {
    name: 'prepared at every pass',
    drive: (sim) => {
      while (sim.now < sim.startTime + END) {
        sim.prepare!();
        sim.step();
      }
      sim.runUntil(sim.startTime + END);
    },
  },
  {
    name: 'run, stepped back to pass 10, prepared, run on',
    drive: (sim) => {
      sim.runUntil(sim.startTime + END / 2);
      sim.goToPass(10);
      sim.prepare!();
      sim.runUntil(sim.startTime + END);
    },
  },
];

test('the bundled examples include binder placements (so that the index is used)', () => {
  const placed = files.filter((f) => {
    const sim = run(f);
    sim.runUntil(sim.startTime + END);
    return sim.trace.some((d) => d.action === 'PodBound');
  });
  assert.ok(placed.length >= 5, `only ${placed.join(', ')} bind pods`);
});

for (const file of files)
  for (const way of ways)
    test(`${file}: ${way.name}: the same trace and state as never prepared`, () => {
      const plain = run(file);
      plain.runUntil(plain.startTime + END);
      const prepared = run(file);
      way.drive(prepared);
      assert.equal(result(prepared), result(plain));
    });
