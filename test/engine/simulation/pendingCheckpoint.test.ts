/**
 * A checkpoint due after an instant is left pending and taken later (SimulationImpl.settle: at the
 * next instant, jump, restore or export, or when idle), and must be exactly the one that would have
 * been taken at once. Two runs of each scenario go through the same operations: one takes each
 * checkpoint at the end of its instant (at once, as before), the other reads every view in between (what
 * the panel does after a step) and leaves the checkpoint pending. Every checkpoint saved is compared
 * as it is saved (its whole content, hashed), and at the end each kept checkpoint is restored in both
 * (newest first) and the whole state compared. A last case changes the live state before the
 * pending checkpoint is taken, and must be caught: the comparison can fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, type Hash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { exportCluster } from '../../../src/engine/model/export';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { nodeFs } from '../../../src/platform/nodeFs';
import { writeZoneOutage } from '../../helpers/generatedOutage';
import type { DecisionList } from '../../../src/engine/trace/decisionLog';

const examples = join(__dirname, '..', '..', '..', 'examples');

/** A zone outage whose Unknown pass is heavy: 1,200 pods of 2,400 marked not ready in one pass. */
const heavyOutage = (dir: string): string => writeZoneOutage(dir, 10, { nodes: 240, seed: 'pending-checkpoint', recoverAt: '4m' });

/** Where a text is written: kept whole, or fed to a hash as it grows (the checkpoints here hold thousands of pods). */
class Sink {
  text = '';
  constructor(private readonly hash?: Hash) {}
  put(s: string): void {
    this.text += s;
    if (this.hash && this.text.length > 1 << 16) {
      this.hash.update(this.text);
      this.text = '';
    }
  }
}

/** A deep, ordered text of any value: Maps and Sets with their order, class names, no cycles. */
function write(v: unknown, out: Sink, path: Set<object>): void {
  if (v === null || typeof v !== 'object') {
    out.put(typeof v === 'function' ? 'fn' : typeof v === 'undefined' ? 'u' : JSON.stringify(v));
    return;
  }
  if (path.has(v)) throw new Error('a cycle');
  path.add(v);
  if (v instanceof Map) {
    out.put('Map{');
    let i = 0;
    for (const [k, x] of v) {
      if (i++) out.put(',');
      write(k, out, path);
      out.put(':');
      write(x, out, path);
    }
    out.put('}');
  } else if (v instanceof Set || Array.isArray(v)) {
    out.put(v instanceof Set ? 'Set{' : '[');
    let i = 0;
    for (const x of v) {
      if (i++) out.put(',');
      write(x, out, path);
    }
    out.put(v instanceof Set ? '}' : ']');
  } else {
    // a checkpoint's pods (PodChanges) hold either their list or their map: read as the map
    const o = v as Record<string, unknown>;
    const keys = 'readyLog' in o ? ['delta', 'keyLog', 'order', 'other', 'readyLog'] : Object.keys(o);
    out.put(`${v.constructor?.name ?? ''}{`);
    for (let i = 0; i < keys.length; i++) {
      out.put(i ? `,${keys[i]}:` : `${keys[i]}:`);
      write(o[keys[i]], out, path);
    }
    out.put('}');
  }
  path.delete(v);
}

function text(v: unknown): string {
  const out = new Sink();
  write(v, out, new Set());
  return out.text;
}

/** The text's hash, fed as it is written (the text itself is made only when two hashes differ). */
function digest(v: unknown): string {
  const hash = createHash('sha256');
  const out = new Sink(hash);
  write(v, out, new Set());
  return hash.update(out.text).digest('hex');
}

/** Two states the same: their hashes compared, and their texts when those differ (for the diff). */
function sameState(actual: unknown, expected: unknown, message: string): void {
  if (digest(actual) !== digest(expected)) assert.equal(text(actual), text(expected), message);
}

interface Store {
  list: unknown[];
  save(...a: unknown[]): void;
}

/** Records a hash of every checkpoint the simulation saves, as it saves it. */
function watchSaves(sim: SimulationImpl): string[] {
  const store = (sim as unknown as { store: Store }).store;
  const saves: string[] = [];
  const save = store.save.bind(store);
  store.save = (...a) => {
    const n = store.list.length;
    const last = store.list[n - 1];
    save(...a);
    const cp = store.list[store.list.length - 1];
    saves.push(cp === last ? 'none' : digest(cp));
  };
  return saves;
}

/** The whole live state: every map's keys in order, the records, the controllers', kubelets' and loop's saved state, the trace. */
function whole(sim: SimulationImpl): unknown {
  const c = sim.cluster;
  const own = sim as unknown as Record<string, unknown>;
  return {
    pass: sim.pass,
    now: sim.now,
    keys: [[...c.pods.keys()], [...c.nodes.keys()], [...c.leases.keys()], [...c.replicaSets.keys()]],
    podsByNode: c.podsByNode,
    cluster: exportCluster(c),
    controllers: sim.controllers.map((x) => [x.name, x.save()]),
    kubelets: sim.kubelets.save(),
    loop: [own.eventIndex, own.nextMonitorAt, own.leaderAt, own.lastPassTime, own.processedUpTo, sim.problems.length],
    facts: sim.host.facts,
    trace: traceToJsonLines(sim.trace),
  };
}

/** What the panel reads after a step (none of it may change what a checkpoint keeps). */
function readViews(sim: SimulationImpl): void {
  sim.takePodChanges();
  sim.takeRecordChanges();
  sim.zones();
  sim.zones(() => true);
  for (const m of sim.machines()) sim.machine(m.id);
  const node = sim.cluster.nodes.keys().next().value;
  const pod = sim.cluster.pods.values().next().value;
  const rs = sim.cluster.replicaSets.values().next().value;
  const refs = [node && `Node/${node}`, pod && `Pod/${pod.meta.namespace}/${pod.meta.name}`, rs && `ReplicaSet/${rs.meta.namespace}/${rs.meta.name}`];
  for (const ref of refs) if (ref) sim.explain(ref);
  sim.podEvictionDeadlines(10);
  if (node) sim.podsEvictedFrom(node);
  void sim.problems;
  void sim.partDone;
}

type Op = (sim: SimulationImpl) => void;
const back: Op = (sim) => sim.goToPass(Math.max(0, (sim.pass ?? 0) - 1));
const steps =
  (n: number, interactive = true): Op =>
  (sim) => {
    for (let i = 0; i < n; i++) sim.step(interactive);
  };
const OPS: Op[] = [
  steps(14),
  steps(14),
  back,
  back,
  steps(3),
  (sim) => sim.runUntil(sim.now + 95e6),
  steps(2, false),
  (sim) => sim.goToPass(5),
  (sim) => sim.goToPass(60, { interactive: true }),
  back,
  (sim) => sim.runUntilDecision(() => false, sim.now + 30e6),
  steps(2),
  (sim) => sim.prepare(),
  steps(2),
];

/**
 * Idle slices after each operation (`sliced`), as the panel runs them, each allowed this many more chunks
 * (POD_COPY_CHUNK pods each) than the first: a pending checkpoint's pod copies are left part-made (the rest
 * made at settle), all made with the rest of it still pending, or the checkpoint taken.
 */
const SLICES = [0, 1, 0, 3, 100, 2];

/**
 * Runs the operations: `later` leaves each due checkpoint pending while the views are read; `meddle` changes
 * the live state then; `sliced` runs an idle slice then too.
 */
function drive(
  file: string,
  later: boolean,
  meddle = false,
  sliced = false,
  ops = OPS,
): { sim: SimulationImpl; saves: string[]; pending: number; partly: number } {
  const sim = createSimulation(loadScenario(file, nodeFs()), { checkpointEvery: 7 });
  const saves = watchSaves(sim);
  if (!later) {
    // the checkpoint at once, as before: right at the end of the instant
    const own = sim as unknown as { finishInstant(m: unknown): void };
    const finish = own.finishInstant.bind(sim);
    own.finishInstant = (m) => {
      finish(m);
      sim.settle();
    };
  }
  let pending = 0;
  let partly = 0;
  let slice = 0;
  for (const op of ops) {
    op(sim);
    if (later) {
      if (sim.hasPendingCheckpoint) pending++;
      readViews(sim);
      if (sliced && sim.hasPendingCheckpoint) {
        let budget = SLICES[slice++ % SLICES.length];
        sim.prepareSlice(() => budget-- > 0);
        // copies made, some left: the settle below (the next operation) makes the rest
        const copies = sim.host.dirtyPods.copied;
        if (copies && copies.done > 0 && copies.done < copies.of) partly++;
        readViews(sim);
      }
      // the clock moved on without the checkpoint taken first (as runUntil does after its last instant)
      if (meddle && sim.hasPendingCheckpoint) sim.host.now += 1;
    }
  }
  return { sim, saves, pending, partly };
}

/** The at-once run's saves of a file's OPS: the meddled run below is compared with them (one run of the heavy outage fewer). */
const savedAtOnce = new Map<string, string[]>();

function compare(file: string, sliced = false, ops = OPS): number {
  const now = drive(file, false, false, false, ops);
  if (ops === OPS) savedAtOnce.set(file, [...now.saves]);
  const later = drive(file, true, false, sliced, ops);
  assert.ok(later.pending > 0, 'no checkpoint was ever left pending');
  // one left pending by the last operation (a user's step leaves one) is taken now, later
  later.sim.settle();
  assert.deepEqual(later.saves, now.saves, 'the checkpoints saved');
  const passes = now.sim.checkpointPasses;
  assert.deepEqual(later.sim.checkpointPasses, passes);
  sameState(whole(later.sim), whole(now.sim), 'at the end');
  // each checkpoint kept, restored (newest first: a restore drops the later ones)
  for (const p of [...passes].reverse()) {
    if (p === null || p === now.sim.pass) continue;
    now.sim.goToPass(p);
    later.sim.goToPass(p);
    sameState(whole(later.sim), whole(now.sim), `restored at pass ${p}`);
  }
  return later.partly;
}

const files = readdirSync(examples)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => join(examples, f));
for (const file of files)
  test(`${file.split('/').pop()}: a checkpoint taken later is the one taken at once`, () => {
    compare(file);
  });

const dir = mkdtempSync(join(tmpdir(), 'pending-checkpoint-'));
const outage = heavyOutage(dir);
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** The outage's first 30 passes' decisions, run once for the two tests that read them. */
let probed: DecisionList | undefined;
function probe(): DecisionList {
  if (probed) return probed;
  const sim = createSimulation(loadScenario(outage, nodeFs()), { checkpointEvery: 7 });
  sim.goToPass(30);
  return (probed = sim.trace);
}

test('a generated outage with a heavy pass: a checkpoint taken later is the one taken at once', () => {
  const marked = probe().filter((d) => d.action === 'PodsMarkedNotReady').length;
  assert.ok(marked >= 100, `the zone's nodes go Unknown (${marked} PodsMarkedNotReady)`);
  compare(outage);
});

test('a generated outage with a heavy pass: a checkpoint whose pod copies were made in idle slices is the one taken at once', () => {
  const heavy = probe().find((d) => d.action === 'PodsMarkedNotReady')?.pass;
  assert.ok(typeof heavy === 'number');
  // each operation ends on a pass whose checkpoint is left pending: the heavy pass (1,200 pods), its recovery's, the step backs'
  const ops: Op[] = [steps(heavy), steps(1), back, back, steps(3), (sim) => sim.goToPass(heavy, { interactive: true }), steps(40), back, steps(2)];
  const partly = compare(outage, true, ops);
  assert.ok(partly > 0, 'a checkpoint was left with its pod copies part-made');
});

for (const file of files.slice(0, 4))
  test(`${file.split('/').pop()}: a checkpoint whose pod copies were made in idle slices is the one taken at once`, () => {
    compare(file, true);
  });

test('the comparison fails when the live state changes before a pending checkpoint is taken', () => {
  const atOnce = savedAtOnce.get(outage) ?? drive(outage, false).saves;
  const meddled = drive(outage, true, true);
  assert.notDeepEqual(meddled.saves, atOnce);
});
