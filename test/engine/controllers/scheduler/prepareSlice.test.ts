/**
 * Simulation.prepareSlice makes the binder's node index a slice at a time (NodeIndexBuild), for the
 * panel's idle time. On a generated cluster of more nodes and pods than a chunk, and on the bundled
 * examples in which the binder places pods. The index made in slices must be the one made at once, resume across slices
 * while nothing changed, and be started again when something did (a step, a restore): a build
 * finished from a stale start would hold another cluster's usage. The simulations here run with
 * `checks.nodeIndexRebuild`, which compares every index finished from slices with one made anew and
 * throws on a difference, and must decide exactly what a run never prepared decides.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { writeZoneOutage } from '../../../helpers/generatedOutage';
import { assertDrivenLikeStraight, runResult } from '../../../helpers/drivenRun';
import { BUILD_CHUNK, NodeIndex } from '../../../../src/engine/controllers/scheduler/nodeIndex';
import { NodeIndexBuild } from '../../../../src/engine/controllers/scheduler/nodeIndexBuild';
import { node, pod, replicaSet, scenarioOf, type EventSpec } from '../../../helpers/scenario';

const dir = mkdtempSync(join(tmpdir(), 'prepare-slice-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** More nodes and pods than a chunk, in three zones; the second zone's kubelets stop at 60 s: its pods are evicted from pass 80 on, and replaced. */
const file = writeZoneOutage(dir, 5, { nodes: BUILD_CHUNK + 100, zones: 3, seed: 'prepare-slice' });
const make = (): SimulationImpl => createSimulation(loadScenario(file, nodeFs()), { checks: { nodeIndexRebuild: true } });
const result = runResult;

/** Slices (each as short as can be) until the work is done; how many it took. */
function sliceToEnd(sim: SimulationImpl): number {
  let n = 1;
  while (sim.prepareSlice(() => false)) if (++n > 10_000) throw new Error('the slices never end: the work is not resumed');
  return n;
}

for (const pass of [0, 25, 90]) {
  test(`the index made in slices is the one made at once (the cluster at pass ${pass})`, () => {
    const sim = make();
    sim.goToPass(pass);
    const build = new NodeIndexBuild(sim.cluster);
    let slices = 1;
    let made = build.slice(() => false);
    for (; made === undefined; slices++) made = build.slice(() => false);
    assert.ok(slices > 3, `only ${slices} slices`);
    assert.equal(made.text(), new NodeIndex(sim.cluster).text());
  });
}

const examples = join(__dirname, '..', '..', '..', '..', 'examples');
const END = 20 * 60e6;
const fromExample = (f: string): SimulationImpl => createSimulation(loadScenario(join(examples, f), nodeFs()), { checks: { nodeIndexRebuild: true } });
const before = (sim: SimulationImpl) => sim.now < sim.startTime + END;

const ways: { name: string; drive: (sim: SimulationImpl) => void }[] = [
  {
    name: 'one slice between two steps (a step that moves a pod or changes a node starts it again)',
    drive: (sim) => {
      while (before(sim)) {
        sim.prepareSlice(() => false);
        sim.step(true);
      }
    },
  },
  {
    name: 'two slices between two steps',
    drive: (sim) => {
      while (before(sim)) {
        sim.prepareSlice(() => false);
        sim.prepareSlice(() => false);
        sim.step(true);
      }
    },
  },
  {
    name: 'sliced to the end halfway, run on',
    drive: (sim) => {
      sim.runUntil(sim.startTime + END / 2);
      sliceToEnd(sim);
    },
  },
  {
    name: 'a slice, a step back, a slice, run on',
    drive: (sim) => {
      sim.runUntil(sim.startTime + END / 2);
      sim.prepareSlice(() => false);
      sim.goToPass(Math.max(0, (sim.pass ?? 1) - 1));
      sim.prepareSlice(() => false);
      sim.prepareSlice(() => false);
    },
  },
];

// the examples in which the binder places pods (with its index)
const placing = readdirSync(examples)
  .filter((f) => f.endsWith('.yaml'))
  .filter((f) => {
    const sim = fromExample(f);
    sim.runUntil(sim.startTime + END);
    return sim.trace.some((d) => d.action === 'PodBound');
  });
test('the generated outage: one slice between two steps while pods are evicted and replaced, the same as never prepared', () => {
  const plain = make();
  plain.goToPass(125);
  assert.ok(plain.trace.filter((d) => d.action === 'PodBound').length >= 20, 'pods are placed');
  const sim = make();
  sim.goToPass(70);
  let finished = 0;
  while ((sim.pass ?? 0) < 125) {
    // a user's step leaves its checkpoint pending, which idle slices take first (userStepRing): taken here
    sim.settle();
    if (!sim.prepareSlice(() => false)) finished++;
    sim.step(true);
  }
  assert.ok(finished > 0, 'an index was finished from slices');
  assert.equal(result(sim), result(plain));
});

test('some bundled examples bind pods', () => assert.ok(placing.length >= 5, placing.join(', ')));

for (const f of placing)
  for (const way of ways)
    test(`${f}: ${way.name}: the same trace and state as never prepared, each index made in slices equal to one made at once`, () =>
      assertDrivenLikeStraight({ straight: () => fromExample(f), driven: () => fromExample(f) }, way.drive, END));

test('slices resume while nothing changes, and start again after a restore', () => {
  const whole = sliceToEnd(make());
  assert.ok(whole > 3, `${whole} slices`);
  const sim = make();
  sim.goToPass(20);
  sim.settle();
  // three slices, then views only and a jump to where it is (nothing changes): the rest
  for (let i = 0; i < 3; i++)
    assert.equal(
      sim.prepareSlice(() => false),
      true,
    );
  sim.zones();
  sim.explain(`Node/${sim.cluster.nodes.keys().next().value}`);
  sim.goToPass(20);
  assert.equal(sliceToEnd(sim), whole - 3);
  assert.equal(
    sim.prepareSlice(() => false),
    false,
    'done: nothing left',
  );
  // three slices, then a step back (a new binder, and no index to take over): all of it again
  const back = make();
  back.goToPass(12);
  back.settle();
  for (let i = 0; i < 3; i++) back.prepareSlice(() => false);
  back.goToPass(11);
  back.settle();
  assert.equal(sliceToEnd(back), whole);
});

test('pods deleted between two slices (a scale-down, no node changed): the build starts again', () => {
  const labels = { app: 'web' };
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
  // more nodes than two chunks: the build reads the binder's pod sums (nodeUsage.ts), one a node, not the pods
  const objects = [
    node('a'),
    node('b'),
    ...Array.from({ length: 2 * BUILD_CHUNK }, (_, i) => node(`n${i}`)),
    replicaSet('default', 'web', 3 * BUILD_CHUNK, labels),
  ];
  for (let i = 0; i < 3 * BUILD_CHUNK; i++) objects.push(pod('default', `web-${i}`, i % 2 ? 'a' : 'b', { labels, owner }));
  const events = [{ at: '12s', kind: 'scale', replicaSet: 'default/web', replicas: 10 } as EventSpec];
  const run = () => createSimulation(scenarioOf({ objects, version: '1.31', events }), { checks: { nodeIndexRebuild: true } });
  const sim = run();
  sim.goToPass(1);
  sim.settle();
  // the first two chunks of nodes, each with its pods' sums
  assert.equal(
    sim.prepareSlice(() => false),
    true,
  );
  assert.equal(
    sim.prepareSlice(() => false),
    true,
  );
  sim.goToPass(4);
  assert.ok(sim.cluster.pods.size < BUILD_CHUNK, 'pods were deleted');
  assert.ok(!sim.trace.some((d) => d.pass !== null && d.pass > 1 && d.object.startsWith('Node/')), 'no node changed');
  sliceToEnd(sim);
  const plain = run();
  plain.goToPass(4);
  assert.equal(result(sim), result(plain));
});
