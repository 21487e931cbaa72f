/**
 * Redo (redo.ts): after a step back, a simulation going forward again takes the passes it ran before from its own
 * dropped checkpoints instead of stepping them. At every place the panel's moves land, its trace, cluster, pod index,
 * machines and problems are a fresh run's; so are the step backs after a pass so taken (its Ready writes undone in
 * place from the log ownCopy rebuilds), with every checking mode on too; and the forward moves onto pass 0 or a heavy
 * pass are taken so (counted: a quiet pass is stepped, cheaper than a hand-off), or the test would pass with redo never used.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const dir = mkdtempSync(join(tmpdir(), 'cs-redo-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// 120 of 240 nodes go Unknown at once: MarkPodsNotReady on their 1,200 pods (a heavy pass), then their evictions
const OUTAGE = writeZoneOutage(dir, 10, { nodes: 240, seed: 'redo' });
const examples = join(__dirname, '..', '..', '..', 'examples');

const snapshotOf = simSnapshot;

/** The outage with a pod's kubelet report 2 s before the heavy pass: an instant of its own inside the pass a redo takes whole. */
function withReportInHeavyPass(): string {
  const scenario = loadScenario(OUTAGE, nodeFs());
  const sim = createSimulation(scenario);
  sim.goToPass(heavyPass(scenario));
  const at = (sim.now - sim.startTime) / 1_000_000 - 2;
  const pod = [...scenario.snapshot.cluster.pods.keys()][0];
  const file = join(dir, 'report.yaml');
  writeFileSync(file, `${readFileSync(OUTAGE, 'utf8')}  - {at: ${at}s, pod: ${pod}, ready: false}\n`);
  return file;
}

/** The pass in which MarkPodsNotReady runs (a fresh run's). */
function heavyPass(scenario: Scenario): number {
  const sim = createSimulation(scenario);
  for (let n = 0; n < 200; n++) {
    sim.goToPass(n);
    if (sim.trace.some((d) => d.pass === n && d.action === 'PodsMarkedNotReady')) return n;
  }
  throw new Error('no heavy pass');
}

/**
 * A move as the panel makes it: a Step (`+`), a Step Back (`-`), a jump (`>n`), Reset (`0`), Run Until N seconds on
 * (`@N`), Run Until the next decision of an action (`?Action`, as the panel's Next decision and "next TaintAdded" run).
 */
type Move = '+' | '-' | `>${number}` | 'reset' | `@${number}` | `?${string}`;

interface Case {
  name: string;
  file: string;
  /** the pass the moves are counted from (p: the heavy pass, else a number) */
  from: (scenario: Scenario) => number;
  options?: SimulationOptions;
  moves: Move[];
  /** moves (by index) onto pass 0 or the heavy pass, which must be taken from the run before (at least one pass redone) */
  redone: number[];
  /** of them, those right after the step back over the heavy pass: its Ready writes redone into the conditions its undone log holds */
  fromLog?: number[];
  /** of those, the ones whose every Ready write was redone so: the checkpoint kept shares that log's lists */
  logShared?: number[];
}

const heavy = (s: Scenario) => heavyPass(s);
const cases: Case[] = [
  {
    name: 'back over the heavy pass and on again, twice',
    file: OUTAGE,
    from: (s) => heavy(s) + 2,
    moves: ['-', '-', '-', '+', '+', '+', '-', '-', '-', '-', '+', '+', '+', '+', '+'],
    redone: [3, 11],
    fromLog: [3],
    logShared: [3],
  },
  {
    name: 'the same with every checking mode and the invariants on',
    file: OUTAGE,
    from: (s) => heavy(s) + 1,
    options: { checks: EVERY_CHECK, checkInvariants: true },
    moves: ['-', '-', '+', '+', '-', '-', '-', '+', '+', '+'],
    redone: [2, 8],
    fromLog: [2],
    logShared: [2],
  },
  {
    name: 'Step Back from pass 0, then Step',
    file: OUTAGE,
    from: () => 1,
    moves: ['-', 'reset', '+', '+', '-', '-', '+', '+', '+'],
    redone: [2, 6],
  },
  {
    name: 'Reset after the outage, then jumps on',
    file: OUTAGE,
    from: (s) => heavy(s) + 4,
    moves: ['reset', '>3', '>12', '-', '-', '+', '>24'],
    redone: [1],
  },
  {
    name: 'Run Until and Next decision over the heavy pass after a step back',
    file: OUTAGE,
    from: (s) => heavy(s) + 2,
    moves: ['-', '-', '-', '@27', '-', '-', '-', '-', '-', '?PodEvicted', '-', '-', '?TaintAdded', '>2', '?PodsMarkedNotReady', '+', '@3'],
    redone: [3, 9],
  },
  {
    name: 'the same with every checking mode and the invariants on',
    file: OUTAGE,
    from: (s) => heavy(s) + 1,
    options: { checks: EVERY_CHECK, checkInvariants: true },
    moves: ['-', '-', '@12', '-', '-', '?PodEvicted', '-'],
    redone: [2, 5],
  },
  {
    // the pass is taken whole or not at all: a run that ends or finds its decision inside it steps it
    name: 'Run Until and Next decision that end inside the heavy pass, after a step back',
    file: withReportInHeavyPass(),
    from: (s) => heavy(s) + 1,
    moves: ['-', '-', '?ObjectApplied', '-', '+', '@4', '-', '-', '+', '+', '+'],
    redone: [10],
  },
  {
    name: 'an example: evictions and replacements (1.31)',
    file: join(examples, 'outage-1.31.yaml'),
    from: () => 30,
    moves: ['-', '-', '-', '-', '+', '+', '+', '+', '+', '>20', '>34'],
    redone: [],
  },
  {
    name: 'an example: a controller-manager restart mid-outage',
    file: join(examples, 'restart-mid-outage.yaml'),
    from: () => 24,
    moves: ['-', '-', '-', '+', '+', '+', '+', 'reset', '>26'],
    redone: [8],
  },
];

for (const c of cases)
  test(`redo: ${c.name}`, () => {
    const scenario = loadScenario(c.file, nodeFs());
    const start = c.from(scenario);
    const make = () => createSimulation(scenario, c.options);
    const at = new Map<number | null, { snap: string; trace: string }>();
    const want = (n: number | null) => {
      if (!at.has(n)) {
        const f = make();
        if (n !== null) f.goToPass(n);
        at.set(n, { snap: snapshotOf(f), trace: traceToJsonLines(f.trace) });
      }
      return at.get(n)!;
    };
    const sim = make();
    // onto the first pass by the user's steps (each keeps a checkpoint, as the panel's do)
    for (let n = 0; n <= start; n++) sim.goToPass(n, { interactive: true });
    for (const [i, m] of c.moves.entries()) {
      const before = sim.redoneCount;
      const fromLog = sim.redoneFromLog;
      const shared = sim.redoneLogShared;
      const pass = sim.pass;
      // a run to a time or a decision may end between passes: the fresh run makes the same call from the start
      const run = (s: SimulationImpl, last: number, until: number) =>
        m.startsWith('@')
          ? s.runUntil(until, { interactive: true })
          : s.runUntilDecision((d) => d.seq > last && d.action === m.slice(1), until, { interactive: true });
      if (m.startsWith('@') || m.startsWith('?')) {
        const last = sim.trace.at(-1)?.seq ?? -1;
        const until = sim.now + (m.startsWith('@') ? Number(m.slice(1)) * 1_000_000 : 3_600_000_000);
        const found = run(sim, last, until);
        const f = make();
        const fresh = run(f, last, until);
        const where = `move ${i} (${m}) from pass ${pass} to ${sim.pass}`;
        assert.equal(found?.seq, fresh?.seq, `${c.name}: the decision found by ${where}`);
        assert.equal(sim.now, f.now, `${c.name}: the time after ${where}`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(f.trace), `${c.name}: the trace after ${where}`);
        assert.equal(snapshotOf(sim), snapshotOf(f), `${c.name}: the state after ${where}`);
        if (c.redone.includes(i)) assert.ok(sim.redoneCount > before, `${c.name}: ${where} taken from the run before`);
        continue;
      }
      if (m === '+') sim.goToPass((pass ?? -1) + 1, { interactive: true });
      else if (m === '-') {
        if (pass === 0) sim.reset();
        else sim.goToPass(pass! - 1);
      } else if (m === 'reset') sim.reset();
      else sim.goToPass(Number(m.slice(1)));
      const where = `move ${i} (${m}) from pass ${pass} to ${sim.pass}`;
      const w = want(sim.pass);
      assert.equal(traceToJsonLines(sim.trace), w.trace, `${c.name}: the trace after ${where}`);
      assert.equal(snapshotOf(sim), w.snap, `${c.name}: the state after ${where}`);
      if (c.redone.includes(i)) assert.ok(sim.redoneCount > before, `${c.name}: ${where} taken from the run before`);
      if (c.fromLog?.includes(i)) assert.ok(sim.redoneFromLog > fromLog, `${c.name}: ${where} wrote its Ready fields through the undone log`);
      if (c.logShared?.includes(i)) assert.ok(sim.redoneLogShared > shared, `${c.name}: ${where} kept the undone log's writes as they are`);
    }
  });

test('redo: nothing is taken where no pass was dropped, or where the simulation stands off its checkpoints', () => {
  const scenario = loadScenario(OUTAGE, nodeFs());
  const sim = createSimulation(scenario);
  // a run forward only: nothing dropped
  for (let n = 0; n <= 6; n++) sim.goToPass(n, { interactive: true });
  assert.equal(sim.redoneCount, 0);
  // a Run Until between passes after a step back: the run's passes are stepped until it stands on a checkpoint again
  sim.goToPass(3);
  sim.runUntil(sim.now + 1_000_000, { interactive: true });
  const off = createSimulation(scenario);
  off.goToPass(3);
  off.runUntil(off.now + 1_000_000);
  assert.equal(snapshotOf(sim), snapshotOf(off));
  assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(off.trace));
});
