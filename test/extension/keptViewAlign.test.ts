/**
 * The ahead simulation's view aligned a slice at a time (KeptView.alignSlice: its first alignment
 * makes the view without the pods' items, completeSlice makes them in pieces) ends as the view aligned
 * in one update (the uncut alignment), whatever the pieces and the slices, and whether or not the
 * simulation moved on between two slices (then aligned again, as the run-ahead does); the next step's
 * update is then the same on both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSimulation, loadScenario, type Scenario, type Simulation } from '../../src/engine';
import { nodeFs } from '../../src/platform/nodeFs';
import { KeptView } from '../../src/extension/keptView';
import { KEYS_PER_POD, PODS_PER_PIECE, REPLICA_SETS_PER_PIECE } from '../../src/extension/recordsView';
import { writeZoneOutage } from '../helpers/generatedOutage';

const example = (name: string) => loadScenario(resolve(__dirname, '../../examples', name), nodeFs());
const dir = mkdtempSync(join(tmpdir(), 'cs-kept-align-'));
let generated: Scenario | undefined;
// over a thousand pods, so that the default pieces cut too
const outage = () => (generated ??= loadScenario(writeZoneOutage(dir, 5, { nodes: 300 }), nodeFs()));

interface Case {
  name: string;
  scenario: () => Scenario;
  /** the pass both stand on when they align */
  at: number;
  /** pods' items per piece (undefined: the default) */
  pods?: number;
  /** questions to more() a slice answers yes to */
  yes: number;
  /** the simulation goes to this pass after this many slices of the alignment (a move of the shown one) */
  moveTo?: { pass: number; after: number };
}

const cases: Case[] = [
  { name: 'before the first pass, a pod and a node a piece', scenario: () => example('rs-zone-outage.yaml'), at: -1, pods: 1, yes: 0 },
  { name: 'mid-outage, three pods and two nodes a piece', scenario: () => example('rs-zone-outage.yaml'), at: 72, pods: 3, yes: 1 },
  { name: 'the 1.12 path, evictions counting down', scenario: () => example('outage-1.12.yaml'), at: 12, pods: 2, yes: 2 },
  {
    name: 'moved on mid-alignment (the pods half made)',
    scenario: () => example('rs-zone-outage.yaml'),
    at: 70,
    pods: 2,
    yes: 0,
    moveTo: { pass: 74, after: 6 },
  },
  { name: 'moved back mid-alignment', scenario: () => example('rs-zone-outage.yaml'), at: 74, pods: 2, yes: 0, moveTo: { pass: 71, after: 4 } },
  { name: 'a generated outage, the default pieces', scenario: outage, at: 0, yes: 0 },
  { name: 'a generated outage mid-run, the default pieces, moved on', scenario: outage, at: 13, yes: 0, moveTo: { pass: 15, after: 2 } },
];

const go = (sim: Simulation, pass: number) => (pass < 0 ? undefined : sim.goToPass(pass, { interactive: true }));
/**
 * The view as data: every map's entries, in order. `byKey`: the pods and the nodes' pod lists sorted (after a move, a
 * pod whose item was made before it and again after comes later in the map, as after a step back: what is drawn does
 * not read that order).
 */
const viewOf = (kept: KeptView, sim: Simulation, byKey = false) => {
  const v = kept['view']!;
  const order = <T>(m: ReadonlyMap<string, T>) => (byKey ? [...m].sort(([a], [b]) => (a < b ? -1 : 1)) : [...m]);
  return JSON.stringify({
    nodes: [...v.nodes],
    pods: order(v.pods),
    replicaSets: [...v.replicaSets],
    byNode: order(v.podsByNode ?? new Map()).map(([n, m]) => [n, order(m)]),
    counts: [...kept['podCounts']['sent']],
    stale: kept.records.stalePods,
    sim: sim.pass,
  });
};

test('a view aligned in slices is the view aligned at once, and the next update is the same', (t) => {
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const c of cases) {
    const scenario = c.scenario();
    const [simA, simB] = [createSimulation(scenario), createSimulation(scenario)];
    for (const s of [simA, simB]) go(s, c.at);
    const [whole, cut] = [new KeptView(), new KeptView()];
    let slices = 0;
    // as the run-ahead does: aligned (again after a move of the simulation), then the pods' items made
    let aligning = true;
    for (;;) {
      let yes = c.yes;
      const more = () => yes-- > 0;
      if (aligning) aligning = cut.alignSlice(simB, more, c.pods);
      else if (!cut.completeSlice(simB, more, c.pods)) break;
      if (++slices === c.moveTo?.after) {
        go(simB, c.moveTo.pass);
        aligning = true;
      }
      assert.ok(slices < 100_000, `${c.name}: the alignment does not end`);
    }
    assert.ok(slices > 2, `${c.name}: not cut (${slices} slices)`);
    if (c.moveTo) {
      assert.ok(slices > c.moveTo.after, `${c.name}: ended before the move`);
      go(simA, c.moveTo.pass);
    }
    whole.update(simA, false);
    const moved = c.moveTo !== undefined;
    // every item read, so that a pod left stale (to be made again when read) on one side and made on the other compares
    for (const [kept, sim] of [
      [cut, simB],
      [whole, simA],
    ] as const)
      kept.clusterView(sim);
    assert.equal(viewOf(cut, simB, moved), viewOf(whole, simA, moved), `${c.name}: the aligned view`);
    // the step after it: the same update on both (the items, the removed refs, the nodes' counts)
    const next = (c.moveTo?.pass ?? Math.max(c.at, 0)) + 1;
    for (const s of [simA, simB]) go(s, next);
    assert.deepEqual(JSON.parse(JSON.stringify(cut.update(simB, false))), JSON.parse(JSON.stringify(whole.update(simA, false))), `${c.name}: the next update`);
    assert.equal(viewOf(cut, simB, moved), viewOf(whole, simA, moved), `${c.name}: the view after the next update`);
  }
});

interface Budget {
  name: string;
  at: number;
  /** pods' items per piece (undefined: the default, PODS_PER_PIECE) */
  pods?: number;
  /** the view aligned whole at `at`, then the simulation goes on to this pass and the view aligns again in slices */
  then?: number;
  /** ReplicaSets a piece (undefined: the default, REPLICA_SETS_PER_PIECE) */
  replicaSets?: number;
}

const budgets: Budget[] = [
  { name: 'a generated outage, the default pieces', at: 0 },
  { name: 'a generated outage mid-run, two pods a piece', at: 13, pods: 2 },
  { name: 'aligned at pass 10 and again at pass 90, three ReplicaSets a piece', at: 10, then: 90, replicaSets: 3 },
];

test("a slice of the alignment makes at most a piece of pods' items, reads at most a piece of the records' keys, and takes the reports in a slice of its own", () => {
  for (const c of budgets) {
    const sim = createSimulation(outage());
    go(sim, c.at);
    const pods = sim.cluster!.pods as Map<string, unknown>;
    let read = 0;
    const keys = pods.keys.bind(pods);
    pods.keys = () => {
      const it = keys();
      const counted = { next: () => (read++, it.next()), [Symbol.iterator]: () => counted };
      return counted as unknown as MapIterator<string>;
    };
    let reports = 0;
    const take = sim.takePodChanges!.bind(sim);
    sim.takePodChanges = (apart) => (reports++, take(apart));
    const kept = new KeptView();
    const piece = c.pods ?? PODS_PER_PIECE;
    const rsPiece = c.replicaSets ?? REPLICA_SETS_PER_PIECE;
    let made = 0;
    let visited = 0;
    if (c.then !== undefined) {
      while (kept.alignSlice(sim, () => true));
      go(sim, c.then);
      made = pods.size;
      const rs = sim.cluster!.replicaSets as Map<string, unknown>;
      const get = rs.get.bind(rs);
      rs.get = (key) => (visited++, get(key));
    }
    let most = 0;
    for (let slices = 0, aligning = true; aligning; slices++) {
      const [items, r0] = [kept.records['pods'].size, reports];
      read = visited = 0;
      aligning = kept.alignSlice(sim, () => false, c.pods, c.replicaSets);
      const itemsMade = kept.records['pods'].size - items;
      made += itemsMade;
      most = Math.max(most, visited);
      assert.ok(itemsMade <= piece, `${c.name}: ${itemsMade} pods' items made in slice ${slices}`);
      assert.ok(read <= piece * KEYS_PER_POD + 1, `${c.name}: ${read} records' keys read in slice ${slices}`);
      assert.ok(visited <= rsPiece, `${c.name}: ${visited} ReplicaSets visited in slice ${slices}`);
      // the first slice makes the view, the pods' items left out (as the open's): its reports are taken then
      if (slices > 0) assert.ok(itemsMade === 0 || reports === r0, `${c.name}: the reports taken in slice ${slices}, which made ${itemsMade} items`);
      assert.ok(slices < 100_000, `${c.name}: the alignment does not end`);
    }
    assert.equal(made, pods.size, `${c.name}: every pod's item made`);
    if (c.then !== undefined) {
      assert.ok(most > 0, `${c.name}: ReplicaSets were visited`);
      // the view aligned in slices is the one a single update makes
      const whole = new KeptView();
      const fresh = createSimulation(outage());
      go(fresh, c.at);
      whole.update(fresh, false);
      go(fresh, c.then);
      whole.update(fresh, false);
      for (const [k, s] of [
        [kept, sim],
        [whole, fresh],
      ] as const)
        k.clusterView(s);
      assert.equal(viewOf(kept, sim), viewOf(whole, fresh), `${c.name}: the aligned view`);
    }
  }
});
