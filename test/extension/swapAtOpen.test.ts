/**
 * The open's roles swapped (swapAtOpen.ts): after the open's messages the simulation the open made goes on to pass 0
 * as the run-ahead's, and the start is shown by a simulation made like it in idle time after, or at once when read.
 * Whatever the user does at whichever moment of that (a selection, a why, a jump, Run Until, a step, a step back, a
 * reset, another scenario), the session sends what a session of one simulation sends, and the shown simulation is
 * one made afresh at its position: records, trace, problems, the why and the machines of a node and a pod.
 * The moments are driven by hand: the open's turns (aheadAtOpen.ts, the test's own timers, a piece a turn), then the
 * panel's idle work (warmSelection.ts panelIdleWork, as ctx.ts gives it to IdlePrepare), a piece a slice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session, type MakeSimulation } from '../../src/extension/session';
import { AHEAD_AT_OPEN_SLICE_MS, nextPassInSlices } from '../../src/extension/aheadAtOpen';
import { panelIdleWork } from '../../src/extension/warmSelection';
import { positionOf } from '../../src/extension/runAhead';
import type { Simulation } from '../../src/engine/simulation/api';
import type { HostMessage } from '../../src/protocol/webview';
import { shownState as state, startScenarios } from '../helpers/shownState';

const { files: FILES, load } = startScenarios('cs-swap-open-');
const [RS_ZONE_OUTAGE, , GENERATED] = FILES;

/** A session opened as ctx.ts opens one: its messages sent, then the open's run-ahead in turns, then idle work. */
function opened(file: string, runAhead = true) {
  const sent: HostMessage[] = [];
  const o = load(file);
  // the simulations begun in slices (the run-ahead's, the shown start's)
  let makings = 0;
  const make: MakeSimulation = Object.assign((x: Parameters<MakeSimulation>[0]) => o.make(x), {
    inSlices: (x: Parameters<MakeSimulation>[0], like?: Simulation) => (makings++, o.make.inSlices!(x, like)),
  });
  const session = new Session({ make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m), runAhead });
  session.sendAll();
  const first = session.sim;
  const queue: (() => void)[] = [];
  let t = 0;
  let current = true;
  nextPassInSlices(session, () => current, { next: (run) => queue.push(run), now: () => (t += AHEAD_AT_OPEN_SLICE_MS) });
  const idle = panelIdleWork(() => session);
  return {
    session,
    sent,
    first,
    makings: () => makings,
    /** one moment: the open's next turn (one piece), else a slice of idle work of three pieces; false once nothing is left */
    advance(): boolean {
      const turn = queue.shift();
      if (turn) return (turn(), true);
      let pieces = 3;
      return idle(() => pieces-- > 0);
    },
    /** another scenario was opened (ctx.ts: `current()` is false for this one, its idle work disposed) */
    leave(): (() => void)[] {
      current = false;
      return queue;
    },
  };
}

type Opened = ReturnType<typeof opened>;
type Action = 'step' | 'back' | 'reset' | 'next' | { select: string } | { why: true } | { goTo: number } | { runUntil: string };

function act(s: Session, a: Action, where: string): void {
  if (a === 'step') assert.equal(s.step().ok, true, where);
  else if (a === 'back') s.stepBack();
  else if (a === 'reset') assert.equal(s.reset().ok, true, where);
  else if (a === 'next') s.nextDecision();
  else if ('select' in a) s.selectObject(a.select);
  else if ('why' in a) s.selectDecision(s.sim.trace.find((d) => d.object.startsWith('Node/'))?.seq ?? s.sim.trace.at(0)!.seq);
  else if ('goTo' in a) assert.equal(s.goToPass(a.goTo).ok, true, where);
  else assert.equal(s.runUntil(a.runUntil).ok, true, where);
}

function firstNode(file: string): string {
  return `Node/${[...load(file).scenario.snapshot.cluster.nodes.keys()][0]}`;
}

function firstPod(file: string): string {
  const p = [...load(file).scenario.snapshot.cluster.pods.values()][0];
  return `Pod/${p.meta.namespace}/${p.meta.name}`;
}

/** Every moment of the open's run-ahead and of the shown start's making, from the open to the idle work's end. */
function moments(file: string): number {
  const o = opened(file);
  let n = 0;
  while (o.advance()) if (++n > 10_000) assert.fail('still working after 10,000 moments');
  return n;
}

/**
 * The messages but the selections that say the why waits for the start being made (selected while it is: the why, sent
 * once it is made, is compared with the one-simulation session's, pendingStart.test.ts).
 */
const answered = (sent: HostMessage[]) => sent.filter((m) => !(m.type === 'selection' && m.waiting));

interface Seen {
  sent: HostMessage[];
  state: string;
}

/**
 * What a session of one simulation (no run-ahead) sends and shows after each of a case's actions, and after the two
 * steps that follow them: the same at whichever moment the session under test is, so made once for a file and a case
 * and not again for every moment (two sessions opened and driven at each of ~300 moments were most of this file's
 * minutes).
 */
const references = new Map<string, { at: Seen[]; rest: Seen[] }>();
function reference(file: string, name: string, actions: Action[]): { at: Seen[]; rest: Seen[] } {
  const key = `${file}\n${name}`;
  const known = references.get(key);
  if (known) return known;
  const one = opened(file, false);
  const at = actions.map((action) => (act(one.session, action, name), { sent: [...one.sent], state: state(one.session) }));
  one.sent.length = 0;
  const rest = (['step', 'step'] as const).map((action) => (act(one.session, action, name), { sent: [...one.sent], state: state(one.session) }));
  const made = { at, rest };
  references.set(key, made);
  return made;
}

/** The session after `k` moments and `actions`, against a session of one simulation (no run-ahead) after the same actions. */
async function compareAt(file: string, k: number, actions: Action[], name: string): Promise<Opened> {
  const a = opened(file);
  for (let i = 0; i < k; i++) a.advance();
  // from the open's first turn on, the open's simulation is the run-ahead's (until a step takes it over)
  if (k > 0) assert.equal(a.session.ahead.sim, a.first, `${name}, at moment ${k}: the open's simulation is the ahead one`);
  const one = reference(file, name, actions).at;
  for (const [i, action] of actions.entries()) {
    const where = `${name}, ${file.split('/').pop()}, at moment ${k}, after ${JSON.stringify(action)} (#${i})`;
    act(a.session, action, where);
    await a.session.started();
    assert.deepEqual(answered(a.sent), one[i].sent, `${where}: the messages`);
    assert.equal(state(a.session), one[i].state, `${where}: the shown simulation`);
    assert.notEqual(a.session.sim, a.session.ahead.sim, `${where}: the shown simulation is not the ahead one`);
  }
  return a;
}

const cases: { name: string; actions: (file: string) => Action[] }[] = [
  { name: 'a node selected', actions: (f) => [{ select: firstNode(f) }, 'step'] },
  { name: 'a pod selected', actions: (f) => [{ select: firstPod(f) }, 'step', 'step'] },
  { name: 'a decision asked why', actions: () => [{ why: true }, 'step'] },
  { name: 'a jump', actions: () => [{ goTo: 3 }, 'step', 'back'] },
  { name: 'Run Until', actions: () => [{ runUntil: '2m' }, 'back', 'step'] },
  { name: 'Next Decision', actions: () => ['next', 'step'] },
  { name: 'a step back at the start', actions: () => ['back', 'step'] },
  { name: 'a step, and the step after', actions: () => ['step', 'step', 'step'] },
  { name: 'a step, then a step back', actions: () => ['step', 'back', 'step', 'step'] },
  { name: 'a step, then two steps back', actions: () => ['step', 'step', 'back', 'back', 'step'] },
  { name: 'a reset', actions: () => ['reset', 'step', 'step'] },
  { name: 'a step, then a reset', actions: () => ['step', 'reset', 'step'] },
];

test('the shown start is a fresh simulation’s whatever the user does at whichever moment of the swap', async () => {
  for (const file of FILES) {
    const n = moments(file);
    assert.ok(n > 4, `${file}: ${n} moments`);
    // every moment of the examples; about twenty of the generated outage's, the first three among them
    const every = Math.ceil(n / 20);
    for (const c of cases)
      for (let k = 0; k <= n; k += k < 3 ? 1 : every) {
        const a = await compareAt(file, k, c.actions(file), c.name);
        // then the rest of the idle work, and two more steps
        for (let i = 0; i < 10_000 && a.advance(); i++);
        compareRest(a, file, c);
      }
  }
});

function compareRest(a: Opened, file: string, c: (typeof cases)[number]): void {
  const one = reference(file, c.name, c.actions(file)).rest;
  a.sent.length = 0;
  for (const [i, action] of (['step', 'step'] as const).entries()) {
    act(a.session, action, c.name);
    assert.deepEqual(a.sent, one[i].sent, `${c.name}: the steps after the idle work`);
    assert.equal(state(a.session), one[i].state, `${c.name}: after the idle work`);
  }
}

test('the open’s simulation goes on to pass 0 itself: after its first turn it is the ahead one, and no other is made before pass 0 is prepared', () => {
  for (const file of FILES) {
    const a = opened(file);
    a.advance();
    assert.equal(a.session.ahead.sim, a.first, `${file}: the open's simulation is the ahead one`);
    assert.equal(a.session.shownPending, true, `${file}: the start is shown while its simulation is made`);
    while (a.session.ahead.views?.hasPrepared !== true) assert.ok(a.advance(), `${file}: pass 0 prepared`);
    assert.equal(a.session.ahead.sim?.pass, 0);
    assert.equal(a.makings(), 0, `${file}: no simulation made before pass 0 is prepared`);
    assert.equal(a.session.shownPending, true, `${file}: the shown one is made after`);
    while (a.advance());
    assert.equal(a.session.shownPending, false, `${file}: the shown one made in idle time`);
    assert.equal(a.makings(), 1, `${file}: one simulation made`);
    // the start made, the open's simulation is still the ahead one, on pass 0: the Step is a swap onto it
    assert.equal(a.session.step().ok, true);
    assert.equal(a.session.sim, a.first, `${file}: the Step after the idle work shows the open's simulation`);
    assert.equal(a.session['kept'].preparedUsed, 1, `${file}: with its prepared update`);
  }
});

test('a Step at once after the open’s messages is the open’s simulation on pass 0, its update the one prepared', () => {
  for (const file of FILES) {
    const a = opened(file);
    while (a.session.ahead.views?.hasPrepared !== true) a.advance();
    const one = opened(file, false);
    for (const s of [a.session, one.session]) assert.equal(s.step().ok, true);
    assert.equal(a.session.sim, a.first, `${file}: the open's simulation shown on pass 0`);
    assert.equal(a.session['kept'].preparedUsed, 1, `${file}: the update prepared ahead`);
    assert.equal(a.makings(), 0, `${file}: no simulation made for the step`);
    assert.deepEqual(a.sent, one.sent, `${file}: the messages`);
    assert.equal(state(a.session), state(one.session), `${file}: pass 0`);
    // the shown start's making goes on as the ahead one's, which then catches up to pass 0 and prepares pass 1
    for (let i = 0; i < 10_000 && a.advance(); i++);
    assert.equal(a.session.ahead.sim?.pass, 1, `${file}: the ahead simulation on pass 1`);
    assert.notEqual(a.session.ahead.sim, a.first);
    assert.equal(a.session.step().ok, true);
    assert.equal(one.session.step().ok, true);
    assert.deepEqual(a.sent, one.sent, `${file}: the step after`);
    assert.equal(state(a.session), state(one.session), `${file}: pass 1`);
  }
});

test('another scenario opened while the swap’s slices run: the old session’s slices stop', () => {
  for (const k of [1, 2, 5]) {
    const a = opened(GENERATED);
    for (let i = 0; i < k; i++) a.advance();
    assert.equal(a.session.ahead.sim, a.first);
    const ahead = a.session.ahead.sim!;
    const at = positionOf(ahead);
    const left = a.leave();
    const b = opened(RS_ZONE_OUTAGE);
    for (const turn of left.splice(0)) turn();
    assert.equal(positionOf(ahead), at, `after ${k} moments: the old ahead simulation did not move`);
    assert.equal(left.length, 0, 'no turn queued again');
    assert.equal(a.session.shownPending, true, 'the old start was not made');
    while (b.advance());
    const one = opened(RS_ZONE_OUTAGE, false);
    for (const s of [b.session, one.session]) assert.equal(s.step().ok, true);
    assert.deepEqual(b.sent, one.sent);
    assert.equal(state(b.session), state(one.session));
  }
});

test('run-ahead off: the open’s simulation stays shown, nothing is swapped', () => {
  const a = opened(RS_ZONE_OUTAGE, false);
  while (a.advance());
  assert.equal(a.session.shownPending, false);
  assert.equal(a.session.sim, a.first);
  assert.equal(a.makings(), 0);
});

test('the page’s questions after the paint and the idle warm-up leave the shown start to be made in idle slices', () => {
  for (const file of FILES) {
    const a = opened(file);
    a.advance();
    const nodes = [...a.session.nodeItems.keys()].slice(0, 3);
    const rs = [...load(file).scenario.snapshot.cluster.replicaSets.keys()].slice(0, 2).map((k) => `ReplicaSet/${k}`);
    const panel = { play() {}, pause() {} };
    const questions = [
      { type: 'painted' },
      { type: 'nodeWindow', refs: nodes },
      { type: 'replicaSetWindow', refs: rs },
      { type: 'nodeFilter', text: '' },
    ] as const;
    for (const m of questions) assert.equal(a.session.handle(m as Parameters<Session['handle']>[0], panel).ok, true);
    // the open's turns dropped: idle time alone goes on (the selections' warm-up would read the shown simulation)
    a.leave().splice(0);
    assert.equal(a.advance(), true);
    assert.equal(a.session.shownPending, true, `${file}: still being made after the page's questions and an idle slice`);
    assert.equal(a.makings(), 0);
    const one = opened(file, false);
    for (const m of questions) one.session.handle(m as Parameters<Session['handle']>[0], panel);
    assert.deepEqual(a.sent, one.sent, `${file}: the answers`);
  }
});
