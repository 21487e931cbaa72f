/**
 * A simulation made a slice at a time (simulationInSlices: run-ahead's, in the extension host's idle
 * time) is the simulation createSimulation makes: the same records in the same order, the same pod
 * index, the same controllers' memory after their start (made in pieces too), nothing shared with the
 * snapshot, and the same run after it, however it was cut.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, loadScenario, simulationInSlices, type Scenario } from '../../../src/engine';
import type { SimulationImpl } from '../../../src/engine/simulation/simulation';
import { PodMap } from '../../../src/engine/model/podOrder';
import { nodeFs } from '../../../src/platform/nodeFs';
import { writeZoneOutage } from '../../helpers/generatedOutage';

const root = new URL('../../..', import.meta.url).pathname;
const example = (name: string) => loadScenario(join(root, 'examples', name), nodeFs());

interface Case {
  name: string;
  scenario: () => Scenario;
  /** records copied (or indexed) per piece; undefined: the default */
  perPiece?: number;
  /** questions to more() a call answers yes to */
  yes: number;
  /** the pass both simulations go to after it */
  pass: number;
}

const dir = mkdtempSync(join(tmpdir(), 'cs-make-in-slices-'));
let generated: Scenario | undefined;
// 80 nodes in two zones, 5 pods a node: over a thousand records, so that the default piece cuts too
const outage = () => (generated ??= loadScenario(writeZoneOutage(dir, 5, { nodes: 80 }), nodeFs()));

/** every pod with one more ownerReference, to a ReplicaSet that does not exist: a problem per pod, which the ReplicaSet controller's start finds */
const dangling = () => {
  const s = example('rs-zone-outage.yaml');
  const pods = s.snapshot.cluster.pods;
  for (const [key, pod] of pods)
    pods.set(key, {
      ...pod,
      meta: { ...pod.meta, ownerReferences: [...pod.meta.ownerReferences, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'gone' }] },
    });
  return s;
};

const cases: Case[] = [
  { name: 'one record a piece, one piece a call', scenario: () => example('rs-zone-outage.yaml'), perPiece: 1, yes: 0, pass: 40 },
  { name: 'seven records a piece, three pieces a call', scenario: () => example('rs-zone-outage.yaml'), perPiece: 7, yes: 2, pass: 40 },
  { name: "every pod's owners in question, seven records a piece", scenario: dangling, perPiece: 7, yes: 0, pass: 20 },
  { name: 'the 1.12 path, two records a piece', scenario: () => example('outage-1.12.yaml'), perPiece: 2, yes: 1, pass: 30 },
  { name: 'one node, uncut (all in one call)', scenario: () => example('one-node-stops.yaml'), yes: 1_000_000, pass: 20 },
  { name: 'a generated zone outage, the default piece, one a call', scenario: outage, yes: 0, pass: 14 },
  { name: 'a generated zone outage, 13 records a piece', scenario: outage, perPiece: 13, yes: 4, pass: 14 },
];

const entries = <T>(m: ReadonlyMap<string, T>) => [...m.entries()];
/** saved memory as text: maps and sets as their entries, a selector's matching function left out (each simulation makes its own) */
const plain = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'function' ? undefined : x instanceof Map || x instanceof Set ? [...x] : x));

test('a simulation made in slices is the one createSimulation makes, and runs the same', (t) => {
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const c of cases) {
    const scenario = c.scenario();
    const whole = createSimulation(scenario);
    const make = simulationInSlices(scenario, {}, c.perPiece);
    let cut: SimulationImpl | undefined;
    let calls = 0;
    while (!cut) {
      let yes = c.yes;
      cut = make(() => yes-- > 0);
      if (++calls > 1_000_000) assert.fail(`${c.name}: never made`);
    }
    const records = scenario.snapshot.cluster.pods.size + scenario.snapshot.cluster.nodes.size;
    if (c.yes < 1000 && records > (c.perPiece ?? 500) * (c.yes + 1)) assert.ok(calls > 1, `${c.name}: it was not cut`);
    // the controllers' start in pieces too (the ReplicaSet controller's index and checks of every pod): more calls than the copy's
    const s = scenario.snapshot.cluster;
    const copied = s.nodes.size + 2 * s.pods.size + s.replicaSets.size + s.daemonSets.size + s.leases.size;
    if (c.yes === 0 && c.perPiece !== undefined)
      assert.ok(calls > Math.floor(copied / c.perPiece) + whole.controllers.length, `${c.name}: the start was not cut`);
    // what the controllers hold after their start (the ReplicaSet controller's pod index, entries and checks; the others')
    assert.equal(plain(cut.controllers.map((x) => x.save())), plain(whole.controllers.map((x) => x.save())), `${c.name}: the controllers' memory`);
    assert.deepEqual(cut.problems, whole.problems, `${c.name}: the problems`);
    const a = whole.cluster;
    const b = cut.cluster;
    assert.ok(b.pods instanceof PodMap, c.name);
    for (const key of ['nodes', 'pods', 'replicaSets', 'daemonSets', 'leases', 'podsByNode'] as const)
      assert.deepEqual(entries(b[key] as Map<string, unknown>), entries(a[key] as Map<string, unknown>), `${c.name}: ${key}`);
    assert.deepEqual(b.ignored, a.ignored, c.name);
    assert.deepEqual(entries(cut.host.currentIndex.podNode), entries(whole.host.currentIndex.podNode), `${c.name}: the pod index`);
    // a copy: no record is the snapshot's
    const [key, pod] = [...scenario.snapshot.cluster.pods][0];
    assert.notEqual(b.pods.get(key), pod, c.name);
    assert.deepEqual(b.pods.get(key), pod, c.name);
    for (const s of [whole, cut]) s.goToPass(c.pass, { interactive: true });
    assert.equal(cut.pass, whole.pass, c.name);
    assert.equal(JSON.stringify(cut.trace), JSON.stringify(whole.trace), `${c.name}: the trace`);
    assert.deepEqual(entries(cut.cluster.pods), entries(whole.cluster.pods), `${c.name}: the pods after the run`);
    assert.deepEqual(entries(cut.cluster.podsByNode), entries(whole.cluster.podsByNode), `${c.name}: the index after the run`);
    // and back: the checkpoints it took are the same
    for (const s of [whole, cut]) s.goToPass(Math.floor(c.pass / 2));
    assert.equal(JSON.stringify(cut.trace), JSON.stringify(whole.trace), `${c.name}: the trace after going back`);
    assert.deepEqual(entries(cut.cluster.pods), entries(whole.cluster.pods), `${c.name}: the pods after going back`);
  }
});
