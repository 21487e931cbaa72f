/**
 * The hand-off (handOff.ts): a simulation that takes another one's next pass from that one's checkpoints
 * is the simulation that stepped it: its trace, cluster, zones and controllers' machines there, every pass
 * it steps after, and every step back to before the hand-off (its pods then put back from records, the
 * other's Ready log not being its own). The simulation handed from is not changed by any of it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeZoneOutage } from '../../helpers/generatedOutage';
import { EVERY_CHECK } from '../../helpers/everyCheck';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import type { SimulationOptions } from '../../../src/engine/simulation/api';
import type { Scenario } from '../../../src/engine/snapshot/types';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import type { Checkpoint } from '../../../src/engine/simulation/checkpointStore';
import type { CachedCheck, Entry, SavedEntry } from '../../../src/engine/controllers/replicaSet/entry';
import type { ReplicaSetCheck } from '../../../src/engine/controllers/replicaSet/validate';

const dir = mkdtempSync(join(tmpdir(), 'cs-hand-off-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// 120 of 240 nodes go Unknown at once: MarkPodsNotReady on their 1,200 pods (a heavy pass), then their evictions
const OUTAGE = writeZoneOutage(dir, 10, { nodes: 240, seed: 'hand-off' });
const examples = join(__dirname, '..', '..', '..', 'examples');
// the same outage, with two ReplicaSets scaled and a third deleted in pass 8 (at 40 s): their entries and checks change
const SCALED = (() => {
  const d = join(dir, 'scaled');
  const path = writeZoneOutage(mkdirp(d), 10, { nodes: 240, seed: 'hand-off' });
  const items = (
    JSON.parse(readFileSync(join(d, 'cluster.json'), 'utf8')) as {
      items: { kind: string; metadata: { namespace: string; name: string }; spec: { replicas: number } }[];
    }
  ).items;
  const sets = items.filter((x) => x.kind === 'ReplicaSet' && x.spec.replicas > 0).slice(0, 3);
  const key = (i: number) => `${sets[i].metadata.namespace}/${sets[i].metadata.name}`;
  let events = '';
  for (const i of [0, 1]) events += `  - at: 40s\n    scale: {replicaSet: ${key(i)}, replicas: ${sets[i].spec.replicas + 2}}\n`;
  appendFileSync(path, events + `  - at: 40s\n    delete: ReplicaSet/${key(2)}\n`);
  return path;
})();

function mkdirp(d: string): string {
  mkdirSync(d, { recursive: true });
  return d;
}

/** Everything a pass leaves that a view or a later pass reads. */
function snapshotOf(sim: SimulationImpl): string {
  const machines = sim.machines().map((m) => ({ id: m.id, state: m.state, lastTransition: m.lastTransition }));
  // the pod index too: the controllers read a node's pods there, in its order
  const podsByNode = [...sim.cluster.podsByNode].map(([node, keys]) => [node, [...keys]]);
  return JSON.stringify({ pass: sim.pass, now: sim.now, state: sim.state(), podsByNode, machines, problems: sim.problems });
}

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
  { name: 'a pass in which ReplicaSets are scaled and deleted', file: SCALED, pass: () => 8, on: 12 },
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

type ReplicaSetMemory = { entries: Map<string, Entry>; checks: Map<string, CachedCheck> };
type SavedReplicaSet = { entries: SavedEntry[]; checks: [string, ReplicaSetCheck][] };
const rsOf = (sim: SimulationImpl) => sim.controllers.find((c) => c.name === 'replicaset') as unknown as ReplicaSetMemory;

test('a hand-off keeps the live ReplicaSet entries and checks the pass left as they were, and replaces the others', () => {
  const cases = [
    { name: 'a quiet pass', file: OUTAGE, pass: () => 8, changes: false },
    { name: 'the heavy pass', file: OUTAGE, pass: heavy, changes: true },
    { name: 'a pass in which ReplicaSets are scaled and deleted', file: SCALED, pass: () => 8, changes: true },
  ];
  for (const c of cases) {
    const scenario = loadScenario(c.file, nodeFs());
    const p = c.pass(scenario);
    const from = createSimulation(scenario);
    from.goToPass(p - 2);
    from.step(true);
    from.step(true);
    void from.checkpointPasses;
    const to = createSimulation(scenario);
    to.goToPass(p - 2);
    to.step(true);
    void to.checkpointPasses;
    const live = rsOf(to);
    const actors = new Map([...live.entries].map(([k, e]) => [k, e.actor]));
    const checks = new Map(live.checks);
    while (to.handOffSlice(from, p, () => true));
    // what the pass left as it was: the same saved objects in the checkpoints before and after it
    const list = (from as unknown as { store: { list: Checkpoint[] } }).store.list;
    const i = list.findIndex((x) => x.pass === p);
    const saved = (cp: Checkpoint) => cp.controllers.find((x) => x.name === 'replicaset')!.saved as SavedReplicaSet;
    const [before, after] = [saved(list[i - 1]), saved(list[i])];
    const unchanged = new Set(before.entries);
    const beforeChecks = new Map(before.checks);
    const r = rsOf(to);
    let kept = 0;
    for (const se of after.entries) {
      const same = r.entries.get(se.key)!.actor === actors.get(se.key);
      assert.equal(same, unchanged.has(se), `${c.name}: the entry of ${se.key} ${unchanged.has(se) ? 'kept' : 'replaced'}`);
      if (same) kept++;
    }
    assert.ok(kept > 0, `${c.name}: ${kept} of ${after.entries.length} entries kept`);
    assert.equal(kept < after.entries.length, c.changes, `${c.name}: ${kept} of ${after.entries.length} entries kept`);
    for (const [key, check] of after.checks) {
      const got = r.checks.get(key)!;
      assert.equal(got.check, check, `${c.name}: the check of ${key} is the checkpoint's`);
      if (beforeChecks.get(key) === check) assert.equal(got.rs, checks.get(key)!.rs, `${c.name}: the live check of ${key} kept`);
      else assert.equal(got.rs, undefined, `${c.name}: the check of ${key}, changed in the pass, made again at its first use`);
    }
  }
});
