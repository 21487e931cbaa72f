/**
 * The hand-off (handOff.ts): a simulation that takes another one's next pass from that one's checkpoints
 * is the simulation that stepped it: its trace, cluster, zones and controllers' machines there, every pass
 * it steps after, and every step back to before the hand-off (its pods then put back from records, the
 * other's Ready log not being its own). The simulation handed from is not changed by any of it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeZoneOutage } from '../../helpers/generatedOutage';
import { EVERY_CHECK } from '../../helpers/everyCheck';
import { simSnapshot } from '../../helpers/simSnapshot';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import type { SimulationOptions } from '../../../src/engine/simulation/api';
import type { Scenario } from '../../../src/engine/snapshot/types';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { PodReady } from '../../../src/engine/simulation/checkpoint';
import type { CheckpointStore } from '../../../src/engine/simulation/checkpointStore';

const dir = mkdtempSync(join(tmpdir(), 'cs-hand-off-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// 120 of 240 nodes go Unknown at once: MarkPodsNotReady on their 1,200 pods (a heavy pass), then their evictions
const OUTAGE = writeZoneOutage(dir, 10, { nodes: 240, seed: 'hand-off' });
const examples = join(__dirname, '..', '..', '..', 'examples');

const snapshotOf = simSnapshot;

/** The first pass (after `from`) of a fresh run at which `happens` holds. */
function passWhere(scenario: Scenario, from: number, happens: (sim: SimulationImpl, before: { pods: string }) => boolean): number {
  const sim = createSimulation(scenario);
  sim.goToPass(from);
  for (let n = from + 1; n < 200; n++) {
    const before = { pods: [...sim.cluster.pods.keys()].join() };
    sim.step();
    if (happens(sim, before)) return n;
  }
  throw new Error('no such pass');
}

const heavy = (scenario: Scenario) => passWhere(scenario, 0, (sim) => sim.trace.some((d) => d.pass === sim.pass && d.action === 'PodsMarkedNotReady'));
// pods deleted and created in the pass: the pod map's keys, the index and the ReplicaSets' pods move
const podsComeAndGo = (scenario: Scenario) => passWhere(scenario, 0, (sim, before) => [...sim.cluster.pods.keys()].join() !== before.pods);

interface Case {
  name: string;
  file: string;
  /** the pass handed off */
  pass: (scenario: Scenario) => number;
  options?: SimulationOptions;
  /** passes stepped after the hand-off */
  on: number;
}

const cases: Case[] = [
  { name: 'the heavy pass (a zone goes Unknown)', file: OUTAGE, pass: heavy, on: 12 },
  { name: 'the heavy pass, every checking mode on', file: OUTAGE, pass: heavy, options: { checks: EVERY_CHECK, checkInvariants: true }, on: 10 },
  { name: 'a quiet pass', file: OUTAGE, pass: () => 8, on: 15 },
  { name: 'the evictions and their replacements', file: OUTAGE, pass: podsComeAndGo, on: 12 },
  { name: 'an example: evictions and replacements (1.31)', file: join(examples, 'outage-1.31.yaml'), pass: podsComeAndGo, on: 20 },
  { name: 'an example: a controller-manager restart mid-outage', file: join(examples, 'restart-mid-outage.yaml'), pass: () => 20, on: 20 },
];

for (const c of cases)
  test(`a simulation handed ${c.name} is the one that stepped it, on and back`, () => {
    const scenario = loadScenario(c.file, nodeFs());
    const p = c.pass(scenario);
    const make = () => createSimulation(scenario, c.options);
    // the run that steps every pass itself, its state at each
    const fresh = make();
    const at = new Map<number, { snap: string; trace: string }>();
    for (let n = p - 6; n <= p + c.on; n++) {
      fresh.goToPass(n);
      at.set(n, { snap: snapshotOf(fresh), trace: traceToJsonLines(fresh.trace) });
    }
    const same = (sim: SimulationImpl, where: string) => {
      const want = at.get(sim.pass!)!;
      assert.equal(traceToJsonLines(sim.trace), want.trace, `${c.name}: the trace ${where}`);
      assert.equal(snapshotOf(sim), want.snap, `${c.name}: the state ${where}`);
    };
    // the one handed from: the panel's user steps onto p - 1 and p (each keeps a checkpoint of its pass)
    const from = make();
    from.goToPass(p - 2);
    from.step(true);
    from.step(true);
    void from.checkpointPasses; // (takes its pending checkpoint)
    // the one handed to: its user steps onto p - 1, its checkpoint left pending
    const to = make();
    to.goToPass(p - 2);
    to.step(true);
    const fromSeen = { snap: snapshotOf(from), trace: traceToJsonLines(from.trace) };
    let slices = 0;
    let left: boolean | undefined;
    // small slices, as the panel's idle time gives them
    do {
      let pieces = 3;
      left = to.handOffSlice(from, p, () => pieces-- > 0);
      slices++;
      assert.notEqual(left, undefined, `${c.name}: a hand-off was possible`);
    } while (left);
    assert.ok(slices > 2, `${c.name}: the hand-off took ${slices} slices`);
    assert.equal(to.pass, p);
    same(to, 'after the hand-off');
    // the passes after it, each
    for (let n = p + 1; n <= p + c.on; n++) {
      to.step(true);
      same(to, `at pass ${n}, stepped after the hand-off`);
    }
    // a step back to the pass before the hand-off, and further back, then on again past it
    for (const back of [p + c.on - 1, p, p - 1, p - 5]) {
      to.goToPass(back);
      same(to, `after going back to pass ${back}`);
    }
    to.goToPass(p + 2);
    same(to, 'on again, past the hand-off');
    // the simulation handed from: as it was, and its own step back and steps on still its own
    assert.equal(snapshotOf(from), fromSeen.snap, `${c.name}: the simulation handed from is unchanged`);
    assert.equal(traceToJsonLines(from.trace), fromSeen.trace);
    from.goToPass(p - 1);
    same(from, 'the one handed from, back before the pass');
    from.goToPass(p + 3);
    same(from, 'the one handed from, on');
  });

test('no hand-off where the other simulation kept no checkpoint of the position, or its next one is beyond the pass asked', () => {
  const scenario = loadScenario(OUTAGE, nodeFs());
  const cases: { name: string; set: (from: SimulationImpl, to: SimulationImpl) => number }[] = [
    {
      name: 'the other is behind',
      set: (from, to) => {
        from.goToPass(4);
        to.goToPass(6);
        return 8;
      },
    },
    {
      name: 'its next checkpoint is beyond the pass asked',
      set: (from, to) => {
        from.goToPass(3);
        from.step(true);
        from.step(true);
        void from.checkpointPasses;
        to.goToPass(3);
        to.step(true);
        return 4;
      },
    },
    {
      name: 'the one handed to is not on its own checkpoint',
      set: (from, to) => {
        from.goToPass(3);
        from.step(true);
        from.step(true);
        from.step(true);
        to.goToPass(4);
        return 5;
      },
    },
  ];
  for (const c of cases) {
    const from = createSimulation(scenario);
    const to = createSimulation(scenario);
    const upTo = c.set(from, to);
    const before = { pass: to.pass, trace: to.trace.length };
    let left: boolean | undefined;
    while ((left = to.handOffSlice(from, upTo, () => true)) === true);
    assert.equal(left, undefined, c.name);
    assert.deepEqual({ pass: to.pass, trace: to.trace.length }, before, c.name);
  }
});

test('a pass handed from a checkpoint thinning merged: a pod changed otherwise before its Ready write is put in whole', () => {
  // node-a1's pods go not ready at its first Unknown pass (A); web-7d9f-6wlhb's kubelet then reports it not ready and ready
  // again (its ContainersReady changes too: not a Ready write), and node-a1's second Unknown pass (B) marks it not ready.
  // Merged into B, the pod is a PodReady over the record after the kubelet's change, and in B's `other`: writing only its
  // Ready fields into the pod as it was at A would keep A's ContainersReady.
  const file = join(dir, 'merged.yaml');
  copyFileSync(join(examples, 'clusters', 'three-zones.yaml'), join(dir, 'three-zones.yaml'));
  writeFileSync(
    file,
    [
      'apiVersion: controllerstepper.io/v1alpha1',
      'kind: Scenario',
      'metadata: {name: merged}',
      'kubernetesVersion: "1.31"',
      'startTime: "2026-01-01T00:00:00Z"',
      'snapshot: three-zones.yaml',
      'events:',
      '  - {at: 30s, kubelet: stop, nodes: [node-a1]}',
      '  - {at: 2m, kubelet: start, nodes: [node-a1]}',
      '  - {at: 2m10s, pod: default/web-7d9f-6wlhb, ready: false}',
      '  - {at: 2m20s, pod: default/web-7d9f-6wlhb, ready: true}',
      '  - {at: 3m, kubelet: stop, nodes: [node-a1]}',
      '',
    ].join('\n'),
  );
  const scenario = loadScenario(file, nodeFs());
  const marked = (sim: SimulationImpl) => sim.trace.some((d) => d.pass === sim.pass && d.action === 'PodsMarkedNotReady');
  const a = passWhere(scenario, 0, marked);
  const b = passWhere(scenario, a, marked);
  const fresh = createSimulation(scenario);
  fresh.goToPass(b);
  const from = createSimulation(scenario);
  // the user steps onto A, and later onto B: each keeps a checkpoint of its pass
  from.goToPass(a - 1);
  from.step(true);
  void from.checkpointPasses;
  from.goToPass(b - 1);
  from.step(true);
  void from.checkpointPasses;
  const store = (from as unknown as { store: CheckpointStore }).store;
  const at = (p: number) => store.list.find((c) => c.pass === p);
  assert.ok(at(a) && at(b), `checkpoints of passes ${a} and ${b}: ${store.list.map((c) => c.pass).join(', ')}`);
  for (const c of store.list.filter((c) => c.pass! > a && c.pass! < b)) store.merge(c);
  const key = 'default/web-7d9f-6wlhb';
  assert.ok(at(b)!.pods.delta.get(key) instanceof PodReady, 'the pod is kept as a Ready change over its record');
  assert.ok(at(b)!.pods.other.includes(key), 'and the checkpoint says it changed otherwise too');
  const to = createSimulation(scenario);
  to.goToPass(a - 1);
  to.step(true);
  while (to.handOffSlice(from, b, () => true) === true);
  assert.equal(to.pass, b);
  assert.equal(snapshotOf(to), snapshotOf(fresh));
  assert.equal(traceToJsonLines(to.trace), traceToJsonLines(fresh.trace));
});
