/**
 * SimulationOptions.forwardOnly (the command line's runs): no checkpoint after the start's, and the
 * same decisions, records and states as a simulation that keeps them, run forward; a step back still
 * lands on the same state, replayed from the start. A heavy pass (a zone's nodes going Unknown and
 * MarkPodsNotReady on over HEAVY_PASS_MIN_PODS pods) is followed by a checkpoint in the default
 * placement and by none here.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { generateClusterStream, listChunks, renderObject } from '../../../src/engine/generate/index';
import { nodeFs } from '../../../src/platform/nodeFs';

const root = new URL('../../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'cs-forward-only-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A generated cluster whose second zone's kubelets stop at 60 s and start again at 30 min: 20 nodes of 60 pods go Unknown in one pass. */
function heavyOutage(version: string): string {
  const stream = generateClusterStream({
    nodes: 60,
    podsPerNode: 60,
    zones: 3,
    detail: 'lean',
    kubernetesVersion: version,
    seed: 'forward-only',
    timeline: { zoneOutage: { zone: 1, at: '60s', recoverAt: '30m' } },
  });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  writeFileSync(join(dir, `outage-${version}.json`), text);
  const path = join(dir, `outage-${version}.yaml`);
  writeFileSync(path, renderObject({ ...stream.scenario!, snapshot: `outage-${version}.json` } as never, 'yaml'));
  return path;
}

const MIN = 60e6;
const cases: { name: string; file: string; minutes: number; backTo: number }[] = [
  { name: 'one node stops (1.31)', file: join(root, 'examples', 'one-node-stops.yaml'), minutes: 12, backTo: 7 },
  { name: 'a zone outage with ReplicaSets', file: join(root, 'examples', 'rs-zone-outage.yaml'), minutes: 15, backTo: 20 },
  { name: "1.12's pod eviction path", file: join(root, 'examples', 'outage-1.12.yaml'), minutes: 15, backTo: 12 },
  { name: 'a restart mid-outage', file: join(root, 'examples', 'restart-mid-outage.yaml'), minutes: 15, backTo: 30 },
  { name: 'a heavy pass at 1.35 (1,200 pods marked)', file: heavyOutage('v1.35.0'), minutes: 40, backTo: 8 },
  { name: 'a heavy pass at 1.12', file: heavyOutage('v1.12.10'), minutes: 40, backTo: 8 },
];

function open(file: string, forwardOnly: boolean): SimulationImpl {
  return createSimulation(loadScenario(file, nodeFs(), { allowOutside: true }), { forwardOnly });
}

/** What a user reads of a run: every decision, the records as exported, and every machine's state. */
const seen = (sim: SimulationImpl) => ({ trace: traceToJsonLines(sim.trace), state: JSON.stringify(sim.state()), machines: JSON.stringify(sim.machines()) });

describe('a forward-only simulation (the command line)', () => {
  for (const c of cases) {
    it(`${c.name}: the same run with no checkpoint after the start's, and a step back still right`, () => {
      const kept = open(c.file, false);
      const forward = open(c.file, true);
      kept.runUntil(kept.startTime + c.minutes * MIN);
      forward.runUntil(forward.startTime + c.minutes * MIN);
      assert.ok(kept.pass! > c.backTo, `the run reaches pass ${c.backTo}`);
      assert.deepEqual(seen(forward), seen(kept));
      assert.deepEqual(forward.checkpointPasses, [null]);
      assert.ok(kept.checkpointPasses.length > 1, 'the default placement keeps checkpoints in this run');

      // back, then on to the end again: the same as the default run at each point
      kept.goToPass(c.backTo);
      forward.goToPass(c.backTo);
      assert.deepEqual(seen(forward), seen(kept));
      kept.runUntil(kept.startTime + c.minutes * MIN);
      forward.runUntil(forward.startTime + c.minutes * MIN);
      assert.deepEqual(seen(forward), seen(kept));
      assert.deepEqual(forward.checkpointPasses, [null]);
    });
  }

  it('the heavy pass: followed by a checkpoint by default, by none forward-only', () => {
    const file = cases[4].file;
    const kept = open(file, false);
    const forward = open(file, true);
    for (const sim of [kept, forward]) sim.runUntil(sim.startTime + 3 * MIN);
    const unknown = kept.trace.find((d) => d.action === 'PodsMarkedNotReady');
    assert.ok(unknown, 'pods were marked not ready');
    const marked = kept.trace.filter((d) => d.action === 'PodsMarkedNotReady' && d.pass === unknown.pass).length;
    assert.ok(marked >= 20, `a zone's nodes in one pass (${marked})`);
    assert.ok(kept.checkpointPasses.includes(unknown.pass ?? -1), `a checkpoint after the heavy pass ${unknown.pass}: ${kept.checkpointPasses.join(',')}`);
    assert.deepEqual(forward.checkpointPasses, [null]);
  });
});
