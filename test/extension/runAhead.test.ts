/**
 * Run-ahead is invisible: a session that keeps a second simulation one pass ahead (runAhead.ts) sends
 * the panel every message, and answers the trees, as a session of one simulation does, whatever idle
 * time it was given between two commands (none, part of what it needs, all of it). Driven on the real
 * engine and the bundled examples.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeZoneOutage } from '../helpers/generatedOutage';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import { positionOf } from '../../src/extension/runAhead';
import type { KeptView } from '../../src/extension/keptView';
import type { HostMessage } from '../../src/protocol/webview';

const example = (name: string) => resolve(__dirname, '../../examples', name);
// over a thousand records: the ahead simulation and its first view are made in several slices (makeInSlices, KeptView.alignSlice)
const generatedDir = mkdtempSync(join(tmpdir(), 'cs-run-ahead-'));
const GENERATED = writeZoneOutage(generatedDir, 5, { nodes: 240 });
// 1,200 pods marked not ready in the pass the zone's nodes go Unknown: a heavy pass (HEAVY_PASS_MIN_PODS), forecast
// the pass before, so that the ahead simulation runs on to it (RunAhead.runOn)
const HEAVY = writeZoneOutage(generatedDir, 10, { nodes: 240, seed: 'run-ahead-heavy' });
after(() => rmSync(generatedDir, { recursive: true, force: true }));
/** the heavy pass: the one with the PodsMarkedNotReady */
const heavyPass = (() => {
  const o = openScenario(HEAVY, '');
  const sim = o.make(o.options);
  sim.goToPass(40);
  const marked = sim.trace.filter((d) => d.action === 'PodsMarkedNotReady');
  assert.ok(marked.length >= 100, `the zone's 120 nodes' 1,200 pods (${marked.length} PodsMarkedNotReady)`);
  return marked[0].pass!;
})();

/** Idle time: none, `slices` slices of `pieces` questions to more() each, or all the work there is. */
type Idle = 0 | { slices: number; pieces: number } | 'all';

function open(file: string, runAhead: boolean) {
  const sent: HostMessage[] = [];
  const o = openScenario(example(file), '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m), runAhead });
  let swaps = 0;
  /** every view state the session has shown from (two swap places), for the updates they answered with a prepared one */
  const views = new Set<KeptView>();
  const kept = () => session['kept'];
  const idle = (amount: Idle): void => {
    const slices = amount === 0 ? 0 : amount === 'all' ? 10_000 : amount.slices;
    const pieces = amount === 'all' ? 1_000_000 : amount === 0 ? 0 : amount.pieces;
    for (let i = 0; i < slices; i++) {
      let left = pieces;
      if (!session.idleSlice(() => left-- > 0)) break;
    }
  };
  return {
    session,
    sent,
    idle,
    get swaps() {
      return swaps;
    },
    /** the steps whose update was prepared in idle time (KeptView.prepare) */
    get prepared() {
      return [...views].reduce((n, v) => n + v.preparedUsed, 0);
    },
    /** a command, counting the steps the ahead simulation took over */
    run(c: Command): void {
      const before = session.sim;
      c(session);
      if (session.ahead.sim === before) swaps++;
      views.add(kept());
    },
  };
}

type Command = (s: Session) => unknown;
const step: Command = (s) => s.step();
const steps = (n: number): Command[] => Array.from({ length: n }, () => step);
const firstNode = (s: Session) => `Node/${[...s.sim.cluster!.nodes.keys()].sort()[0]}`;
const lastPod = (s: Session) => `Pod/${[...s.sim.cluster!.pods.keys()].sort().at(-1)}`;
const lastDecision = (s: Session) => s.sim.trace.at(-1)!.seq;

const cases: { name: string; file: string; commands: Command[] }[] = [
  { name: 'steps from the start', file: 'one-node-stops.yaml', commands: steps(14) },
  { name: 'steps through the evictions and replacements', file: 'rs-zone-outage.yaml', commands: [(s) => s.goToPass(70), ...steps(8)] },
  {
    name: 'selections and windows between steps',
    file: 'rs-zone-outage.yaml',
    commands: [
      (s) => s.goToPass(71),
      (s) => s.selectObject(firstNode(s)),
      step,
      (s) => s.nodeWindow([firstNode(s)]),
      step,
      (s) => s.selectObject(lastPod(s)),
      step,
      (s) => s.selectDecision(lastDecision(s)),
      step,
      (s) => s.replicaSetWindow(['ReplicaSet/default/web-7d9f']),
      (s) => s.zoneQueue('us-east-1/us-east-1b', true),
      step,
      (s) => s.allDecisions(),
      step,
    ],
  },
  {
    name: 'the node filter across steps',
    file: 'rs-zone-outage.yaml',
    commands: [(s) => s.nodeFilter('unk'), ...steps(3), (s) => s.goToPass(14), ...steps(3), (s) => s.nodeFilter('')],
  },
  {
    name: 'step back, go to pass, and steps after them',
    file: 'rs-zone-outage.yaml',
    commands: [
      (s) => s.goToPass(72),
      step,
      step,
      (s) => s.stepBack(),
      step,
      step,
      (s) => s.goToPass(60),
      step,
      (s) => s.goToPass(75),
      step,
      (s) => s.stepBack(),
      (s) => s.stepBack(),
      step,
    ],
  },
  {
    name: 'Run Until a time, Next decision, previous decision',
    file: 'rs-zone-outage.yaml',
    commands: [
      (s) => s.runUntil('1m02s'),
      step,
      step,
      (s) => s.nextDecision(),
      step,
      (s) => s.runUntil('PodEvicted'),
      step,
      step,
      (s) => s.previousDecision(),
      step,
    ],
  },
  {
    name: 'Reset between steps',
    file: 'one-node-stops.yaml',
    commands: [...steps(3), (s) => s.reset(), ...steps(3), (s) => s.goToPass(10), (s) => s.reset(), step],
  },
  {
    name: 'what-if between steps',
    file: 'rs-zone-outage.yaml',
    commands: [(s) => s.goToPass(73), step, (s) => s.whatIf('nodeMonitorGracePeriod', '20s'), step, step],
  },
  {
    name: 'a generated zone outage, the ahead simulation and its first view made in slices',
    file: GENERATED,
    commands: [...steps(3), (s) => s.goToPass(12), ...steps(3), (s) => s.stepBack(), step],
  },
  {
    name: 'a generated outage with a heavy pass, which the ahead simulation runs on to',
    file: HEAVY,
    commands: [(s) => s.goToPass(heavyPass - 4), ...steps(6), (s) => s.goToPass(heavyPass - 3), ...steps(3), (s) => s.stepBack(), step],
  },
  {
    name: 'the 1.12 pod-eviction path',
    file: 'outage-1.12.yaml',
    commands: [...steps(4), (s) => s.runUntil('1m'), ...steps(6), (s) => s.stepBack(), ...steps(3)],
  },
];

const idles: { name: string; between: (i: number, next: Command) => Idle }[] = [
  { name: 'no idle time', between: () => 0 },
  { name: 'all the idle time it needs', between: () => 'all' },
  { name: 'part of it', between: (i) => ({ slices: 1 + (i % 3), pieces: 1 + ((i * 7) % 5) }) },
  { name: 'varied', between: (i) => ([0, 'all', { slices: 2, pieces: 1 }, { slices: 1, pieces: 3 }, 'all'] as Idle[])[i % 5] },
  // the step's views prepared, then another command (a selection, a window, the filter, a what-if, a move) before the step
  { name: 'all of it, but none right before a step', between: (_i, next) => (next === step ? 0 : 'all') },
];

for (const c of cases) {
  for (const idle of idles) {
    test(`run-ahead is invisible: ${c.name}, ${idle.name}`, () => {
      const one = open(c.file, false);
      const two = open(c.file, true);
      for (const s of [one, two]) s.session.sendAll();
      c.commands.forEach((command, i) => {
        for (const s of [one, two]) s.idle(idle.between(i, command));
        for (const s of [one, two]) s.run(command);
        assert.deepEqual(JSON.parse(JSON.stringify(two.sent)), JSON.parse(JSON.stringify(one.sent)), `after command ${i}`);
        // the trees' and status's answers
        assert.deepEqual([...two.session.runByPass(false)], [...one.session.runByPass(false)], `the Decisions tree after command ${i}`);
        assert.deepEqual([...two.session.nodeItems], [...one.session.nodeItems], `the Cluster tree after command ${i}`);
        assert.equal(two.session.sim.now, one.session.sim.now);
      });
      // the Cluster tree's whole view (every pod's item made), by ref: a swapped-in view lacks no item
      const byRef = (s: Session) => [...s.clusterView.pods].sort(([a], [b]) => (a < b ? -1 : 1));
      assert.deepEqual(byRef(two.session), byRef(one.session), 'every pod item at the end');
      assert.equal(one.swaps, 0);
      // with idle time, the ahead simulation took steps over: the comparison is not of two sessions of one simulation
      if (idle.between(0, step) === 'all' && c.commands.filter((x) => x === step).length > 2) {
        assert.ok(two.swaps > 0, 'no step was taken over');
        // and the step's views were made in idle time, not at the step
        assert.ok(two.prepared > 0, 'no step used views prepared ahead');
      }
      assert.ok(two.prepared <= two.swaps);
    });
  }
}

test('a step before the ahead simulation is ready finishes its part-done work', () => {
  const two = open('rs-zone-outage.yaml', true);
  two.session.goToPass(73);
  two.idle('all');
  two.session.step();
  // a piece at a time, until the old shown simulation has caught up to pass 74 and gone on toward 75 (inside an instant, or between two)
  const ahead = two.session.ahead.sim!;
  let caughtUp = false;
  for (let i = 0; i < 500 && !(caughtUp && positionOf(ahead) !== positionOf(two.session.sim)); i++) {
    // one question to more(), which the session's idleSlice asks before the ahead simulation's: its one piece of work a slice
    two.idle({ slices: 1, pieces: 1 });
    caughtUp ||= positionOf(ahead) === positionOf(two.session.sim);
  }
  assert.ok(caughtUp);
  assert.ok(ahead.partDone || ahead.pass === 74, `the ahead simulation is part-way to pass 75 (at ${ahead.pass})`);
  two.run(step);
  assert.ok(two.session.sim === ahead, 'the step finished the ahead simulation');
  assert.equal(two.session.sim.pass, 75);
});

test('run-ahead turned off lets the ahead simulation go, and steps on its own', () => {
  const two = open('one-node-stops.yaml', true);
  two.idle('all');
  assert.ok(two.session.ahead.sim);
  two.session.ahead.setEnabled(false);
  assert.equal(two.session.ahead.sim, undefined);
  two.idle('all');
  assert.equal(two.session.ahead.sim, undefined);
  two.run(step);
  assert.equal(two.swaps, 0);
});

test('before a heavy pass, the ahead simulation goes on to it in the idle time of the pass before the pass before', () => {
  const cases: { name: string; idleAtNext: Idle; swapOntoHeavy: boolean }[] = [
    { name: 'read two passes', idleAtNext: 'all', swapOntoHeavy: true },
    { name: 'no idle time at the pass before', idleAtNext: 0, swapOntoHeavy: true },
  ];
  for (const c of cases) {
    const two = open(HEAVY, true);
    two.session.goToPass(heavyPass - 2);
    two.idle('all');
    const ahead = two.session.ahead.sim!;
    assert.equal(ahead.pass, heavyPass, `${c.name}: the ahead simulation stands on the heavy pass`);
    assert.equal(ahead.partDone, false);
    // the step onto the light pass before it is the shown simulation's own
    two.run(step);
    assert.equal(two.swaps, 0, c.name);
    assert.equal(two.session.sim.pass, heavyPass - 1);
    two.idle(c.idleAtNext);
    // and the step onto the heavy pass is a swap, its views prepared
    two.run(step);
    assert.equal(two.session.sim, ahead, `${c.name}: the step onto the heavy pass took the ahead simulation`);
    assert.equal(two.session.sim.pass, heavyPass);
    assert.equal(two.prepared, 1, c.name);
  }
});

// Issue 14 §5, left for the next step (bench/README.md, "handoff"): after the swap onto the heavy pass, the other
// simulation (left on the pass before) steps the heavy pass a second time before it can be ahead on the pass after it
// (2-4 s of idle work at 5,000 nodes under load). The wanted hand-off (the shown one's state of the heavy pass given to
// the other instead) is not there yet: a todo until it is, then an ordinary case.
test('after the swap onto a heavy pass, the other simulation gets ahead without stepping the heavy pass again', () => {
  const two = open(HEAVY, true);
  two.session.goToPass(heavyPass - 2);
  two.idle('all');
  two.run(step);
  two.idle('all');
  const shownBefore = two.session.sim;
  two.run(step);
  assert.equal(two.session.sim.pass, heavyPass);
  const other = two.session.ahead.sim!;
  assert.equal(other, shownBefore, 'the step onto the heavy pass was a swap');
  // the passes the other simulation computes from here: a goToPass or step that crosses the heavy pass computed it
  let heavyStepped = 0;
  // (goToPass steps: only the outermost call counts)
  let depth = 0;
  const crossing = <A extends unknown[]>(f: (...args: A) => unknown) =>
    function (this: typeof other, ...args: A) {
      const from = this.pass ?? -1;
      depth++;
      try {
        return f.apply(this, args);
      } finally {
        depth--;
        if (depth === 0 && from < heavyPass && (this.pass ?? -1) >= heavyPass) heavyStepped++;
      }
    };
  other.goToPass = crossing(other.goToPass) as typeof other.goToPass;
  other.step = crossing(other.step) as typeof other.step;
  two.idle('all');
  assert.equal(other.pass, heavyPass + 1, 'the other simulation is ahead on the pass after the heavy one');
  assert.equal(other.partDone, false);
  assert.equal(heavyStepped, 0, 'the other simulation stepped the heavy pass again');
  const o = openScenario(HEAVY, '');
  const fresh = o.make(o.options);
  fresh.goToPass(heavyPass + 1);
  assert.equal(positionOf(other), positionOf(fresh));
  const state = (s: typeof other) => JSON.stringify([[...s.cluster!.nodes], [...s.cluster!.pods], [...s.cluster!.replicaSets], s.trace]);
  assert.equal(state(other), state(fresh), "the other simulation's state is a fresh replay's");
});
