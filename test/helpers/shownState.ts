/**
 * What a session's shown position is made of, as text: a fresh simulation's at the same position has the same
 * (swapAtOpen.test, resetStart.test, pendingStart.test). Maps and sets as their entries, functions left out. And a
 * session opened as ctx.ts opens one, with the panel's Store fed its messages (openedWithStore).
 */
import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { Session, type MakeSimulation } from '../../src/extension/session';
import { openScenario } from '../../src/extension/openScenario';
import { AHEAD_AT_OPEN_SLICE_MS, nextPassInSlices } from '../../src/extension/aheadAtOpen';
import { panelIdleWork } from '../../src/extension/warmSelection';
import { Store } from '../../src/webview/state';
import type { Simulation } from '../../src/engine/simulation/api';
import { writeZoneOutage } from './generatedOutage';

/**
 * The scenarios the start's tests open (two examples and a generated 60-node outage of 7 pods a node, whose making and
 * pass take several pieces), each loaded once: a scenario is never edited, every simulation copies its records.
 */
export function startScenarios(prefix: string): {
  files: string[];
  load: (file: string) => ReturnType<typeof openScenario>;
  /** a session opened on the file's loaded scenario, with the webview's Store fed (openedWithStore) */
  opened: (file: string) => ReturnType<typeof openedWithStore>;
  /** the file's first node, as a Click's `select` */
  firstNode: (file: string) => string;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const example = (name: string) => resolve(__dirname, '../../examples', name);
  const files = [example('rs-zone-outage.yaml'), example('outage-1.12.yaml'), writeZoneOutage(dir, 7, { nodes: 60 })];
  const loaded = new Map<string, ReturnType<typeof openScenario>>();
  const load = (file: string) => loaded.get(file) ?? loaded.set(file, openScenario(file, '')).get(file)!;
  return { files, load, opened: (file) => openedWithStore(load(file)), firstNode: firstNodeOf(load) };
}

/** A click of the panel's, or a move before one, as the session tests drive them (resetStart, viewsFirst). */
export type Click = 'step' | 'back' | 'reset' | { goTo: number } | { runUntil: string } | { select: (file: string) => string };

/** The first node of the scenario loaded from `file`, as an object reference (a Click's `select`). */
export const firstNodeOf = (load: (file: string) => ReturnType<typeof openScenario>) => (file: string) =>
  `Node/${[...load(file).scenario.snapshot.cluster.nodes.keys()][0]}`;

/** `a` on the session, which must say ok (`backAtStart`: a Step Back at the start may refuse, as the panel does). */
export function click(s: Session, a: Click, file: string, where: string, backAtStart = false): void {
  if (a === 'step') assert.equal(s.step().ok, true, where);
  else if (a === 'back') assert.equal(s.stepBack().ok || (backAtStart && s.shown.pass === null), true, where);
  else if (a === 'reset') assert.equal(s.reset().ok, true, where);
  else if ('goTo' in a) assert.equal(s.goToPass(a.goTo).ok, true, where);
  else if ('runUntil' in a) assert.equal(s.runUntil(a.runUntil).ok, true, where);
  else assert.equal(s.selectObject(a.select(file)).ok, true, where);
}

/**
 * `a` and `fresh` stepped on together, with `moments` of idle time before each Step (a number of the panel's turns, or
 * all its idle work): what the panel shows and the shown simulation must be the fresh session's after every step.
 */
export function stepsLikeFresh(
  a: ReturnType<typeof openedWithStore>,
  fresh: ReturnType<typeof openedWithStore>,
  moments: readonly (number | 'all')[],
  file: string,
  where: string,
): void {
  for (const [i, m] of moments.entries()) {
    a.idle(m);
    fresh.idle(m);
    click(a.session, 'step', file, where);
    click(fresh.session, 'step', file, where);
    assert.equal(shownStore(a.store), shownStore(fresh.store), `${where}: what the panel shows after step ${i + 1}`);
    assert.equal(shownState(a.session), shownState(fresh.session), `${where}: the shown simulation after step ${i + 1}`);
  }
}

const plain = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'function' ? undefined : x instanceof Map || x instanceof Set ? [...x] : x));

export function shownState(s: Session): string {
  const sim = s.sim;
  // a restore's controllers the views do not read, left for idle time (GoToPassOptions.viewsFirst), finished as a read of them finishes them
  sim.finishRestore?.();
  const c = sim.cluster!;
  const node = [...c.nodes.keys()][1];
  const pod = [...c.pods.values()].find((p) => p.nodeName === node) ?? [...c.pods.values()][0];
  const podRef = `Pod/${pod.meta.namespace}/${pod.meta.name}`;
  return plain({
    pass: sim.pass,
    now: sim.now,
    partDone: sim.partDone,
    trace: sim.trace,
    problems: sim.problems,
    records: [c.nodes, c.pods, c.replicaSets, c.daemonSets, c.leases, c.podsByNode],
    why: [sim.explain(`Node/${node}`), sim.explain(podRef)],
    machines: [s.machineFor(`node/${node}`), s.machineFor(podRef)],
    zones: sim.zones(() => true),
  });
}

/**
 * A session opened as ctx.ts opens one, its messages applied to a Store as the page applies them; the simulations it
 * makes counted. `clock`: the session's (tests that cut its slices give one of their own).
 */
export function openedWithStore(o: ReturnType<typeof openScenario>, clock?: () => number) {
  const made = { atOnce: 0, inSlices: 0 };
  const make: MakeSimulation = Object.assign((x: Parameters<MakeSimulation>[0]) => (made.atOnce++, o.make(x)), {
    inSlices: (x: Parameters<MakeSimulation>[0], like?: Simulation) => (made.inSlices++, o.make.inSlices!(x, like)),
  });
  const store = new Store();
  const session = new Session({ make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => store.apply(m), clock });
  made.atOnce = 0;
  session.sendAll();
  const queue: (() => void)[] = [];
  let t = 0;
  nextPassInSlices(session, () => true, { next: (run) => queue.push(run), now: () => (t += AHEAD_AT_OPEN_SLICE_MS) });
  const idle = panelIdleWork(() => session);
  return {
    session,
    store,
    made,
    /** one moment: the open's next turn, else a slice of idle work of three pieces; false once nothing is left */
    advance(): boolean {
      const turn = queue.shift();
      if (turn) return (turn(), true);
      let pieces = 3;
      return idle(() => pieces-- > 0);
    },
    idle(moments: number | 'all'): void {
      for (let i = 0; (moments === 'all' || i < moments) && this.advance(); i++) if (i > 10_000) assert.fail('still working after 10,000 moments');
    },
  };
}

/** What the panel shows: the Store but its counters, the decisions seen whole, and the furthest run's marks (kept by a reset, as on main). */
export function shownStore(store: Store): string {
  const {
    version: _v,
    nodesVersion: _n,
    nodeKeysVersion: _k,
    replicaSetsVersion: _r,
    replicaSetKeysVersion: _rk,
    podsVersion: _p,
    detailsVersion: _d,
    ...rest
  } = store;
  const { details: _details, passMarks: _marks, lastPass: _last, ...compared } = rest;
  return JSON.stringify(compared, (_key, x: unknown) => (x instanceof Map || x instanceof Set ? [...x] : x));
}
