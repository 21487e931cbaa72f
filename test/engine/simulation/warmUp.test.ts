/**
 * The warm-up outage (warmUp.ts) that `prepare()` steps once per version: it must run through the
 * code an outage's first passes run (else it warms nothing), be run by prepare (else the panel's
 * open never does it), and leave the user's simulation deciding exactly what it decides without it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { warmUpOnce, warmUpTrace } from '../../../src/engine/simulation/warmUp';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { nodeFs } from '../../../src/platform/nodeFs';

const examples = join(__dirname, '..', '..', '..', 'examples');

/** The paths of the pass after the Unknown pass at 5,000 nodes, with taint-based evictions (1.13 on). */
const TAINT_BASED = [
  'NodeStatusUnknown',
  'PodsMarkedNotReady',
  'NodeQueuedForTainting',
  'TaintAdded',
  'PodEvictionScheduled',
  'PodEvicted',
  'PodsCreated',
  'PodBound',
  'ReplicaSetStatusUpdated',
];

/** What the warm-up must have decided, by version. */
const REACHES: { minor: number; actions: string[] }[] = [
  { minor: 31, actions: TAINT_BASED },
  { minor: 37, actions: TAINT_BASED },
  // 1.12: no taint-based evictions by default; the NoSchedule taint and the Unknown pass still run
  { minor: 12, actions: ['NodeStatusUnknown', 'PodsMarkedNotReady', 'TaintAdded', 'ReplicaSetStatusUpdated'] },
];

for (const { minor, actions } of REACHES) {
  test(`the warm-up of 1.${minor} runs through an outage's first passes`, () => {
    const done = new Set<string>(warmUpTrace(minor, createSimulation).map((d) => d.action));
    assert.deepEqual(
      actions.filter((a) => !done.has(a)),
      [],
    );
  });
}

test('prepare() runs the warm-up of its version (once: a second is refused)', () => {
  const sim = createSimulation(loadScenario(join(examples, 'rs-slow-start.yaml'), nodeFs()));
  const minor = sim.behaviour.version.minor;
  sim.prepare();
  assert.equal(warmUpOnce(minor, createSimulation), false);
});

/** Each scenario stepped to its end, with the warm-up (of every version it may touch) run between its steps or not. */
const SAME: { file: string; passes: number }[] = [
  { file: 'outage-1.31.yaml', passes: 80 },
  { file: 'outage-1.12.yaml', passes: 80 },
  { file: 'rs-zone-outage.yaml', passes: 60 },
];

for (const { file, passes } of SAME) {
  test(`${file}: the same trace with warm-up outages run between its steps`, () => {
    const run = (warm: boolean): string => {
      const sim = createSimulation(loadScenario(join(examples, file), nodeFs()));
      for (let i = 0; i < passes; i++) {
        if (warm && i % 20 === 5) warmUpTrace(sim.behaviour.version.minor, createSimulation);
        sim.step(true);
      }
      return traceToJsonLines(sim.trace);
    };
    const plain = run(false);
    assert.ok(plain.length > 0);
    assert.equal(run(true), plain);
  });
}
