/**
 * After the shown simulation goes back (a step back, a jump) to before the pass the ahead one aligned on, the ahead one
 * waits there instead of restoring a checkpoint of its own in idle time (one block of 120-300 ms at 5,000 nodes): the
 * shown one steps the light passes back to that position itself, and the step from there is a swap again. Before a
 * heavy pass it catches up as before, so that the step onto the heavy pass stays a swap. Every message and tree answer
 * is a run-ahead-less session's (the invisibility runAhead.test.ts asks for, on these sequences too).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeZoneOutage } from '../helpers/generatedOutage';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import type { Simulation } from '../../src/engine/simulation/api';
import type { HostMessage } from '../../src/protocol/webview';

const example = (name: string) => resolve(__dirname, '../../examples', name);
const dir = mkdtempSync(join(tmpdir(), 'cs-run-ahead-back-'));
// 1,200 pods marked not ready in the pass the zone's nodes go Unknown: a heavy pass, forecast the pass before
const HEAVY = writeZoneOutage(dir, 10, { nodes: 240, seed: 'run-ahead-heavy' });
after(() => rmSync(dir, { recursive: true, force: true }));
const heavyPass = (() => {
  const o = openScenario(HEAVY, '');
  const sim = o.make(o.options);
  sim.goToPass(40);
  return sim.trace.find((d) => d.action === 'PodsMarkedNotReady')!.pass!;
})();

function open(file: string, runAhead: boolean) {
  const sent: HostMessage[] = [];
  const o = openScenario(file, '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m), runAhead });
  session.sendAll();
  return { session, sent };
}

type Command = (s: Session) => unknown;
const step: Command = (s) => s.step();
const back: Command = (s) => s.stepBack();
const to =
  (n: number): Command =>
  (s) =>
    s.goToPass(n);

interface Case {
  name: string;
  file: string;
  /** run with all the idle time there is after each */
  before: Command[];
  /** the commands measured, all the idle time there is after each */
  commands: Command[];
  /** the goToPass calls back (restores) the idle slices make in the ahead simulation during `commands` */
  restores: (n: number) => boolean;
  /** after each of `commands`: whether it was a swap */
  swaps: boolean[];
}

const cases: Case[] = [
  {
    name: 'one step back, then forward: the shown one steps the pass again, the step after it is a swap',
    file: example('rs-zone-outage.yaml'),
    before: [to(72), step],
    commands: [back, step, step],
    restores: (n) => n === 0,
    swaps: [false, false, true],
  },
  {
    name: 'three steps back, then forward over them',
    file: example('rs-zone-outage.yaml'),
    before: [to(70), step, step],
    commands: [back, back, back, step, step, step, step],
    restores: (n) => n === 0,
    swaps: [false, false, false, false, false, false, true],
  },
  {
    name: 'a jump back, then forward',
    file: example('outage-1.12.yaml'),
    before: [to(30), step],
    commands: [to(26), step, step, step, step, step, step],
    restores: (n) => n === 0,
    swaps: [false, false, false, false, false, false, true],
  },
  {
    name: 'a step back onto the pass before a heavy one: the ahead one catches up, the step onto the heavy pass is a swap',
    file: HEAVY,
    before: [to(heavyPass + 1), step],
    commands: [back, back, back, step],
    restores: (n) => n >= 1,
    swaps: [false, false, false, true],
  },
];

for (const c of cases) {
  test(`run-ahead after going back: ${c.name}`, () => {
    const one = open(c.file, false);
    const two = open(c.file, true);
    const idle = (s: Session) => {
      for (let i = 0; i < 10_000 && s.idleSlice(() => true); i++);
    };
    for (const command of c.before) {
      for (const s of [one, two]) {
        command(s.session);
        idle(s.session);
      }
    }
    // the goToPass calls back made while idle, in either of the two simulations (they change places at a swap)
    let idling = false;
    let restores = 0;
    const counted = new Set<Simulation>();
    const count = (sim: Simulation | undefined) => {
      if (!sim || counted.has(sim)) return;
      counted.add(sim);
      const goToPass = sim.goToPass.bind(sim);
      sim.goToPass = (n, how) => {
        if (idling && sim.pass !== null && n < sim.pass) restores++;
        goToPass(n, how);
      };
    };
    const swaps: boolean[] = [];
    c.commands.forEach((command, i) => {
      count(two.session.sim);
      count(two.session.ahead.sim);
      const shownBefore = two.session.sim;
      for (const s of [one, two]) command(s.session);
      swaps.push(two.session.ahead.sim === shownBefore && two.session.sim !== shownBefore);
      idling = true;
      for (const s of [one, two]) idle(s.session);
      idling = false;
      assert.deepEqual(JSON.parse(JSON.stringify(two.sent)), JSON.parse(JSON.stringify(one.sent)), `after command ${i}`);
      assert.deepEqual([...two.session.runByPass(false)], [...one.session.runByPass(false)], `the Decisions tree after command ${i}`);
      assert.deepEqual([...two.session.nodeItems], [...one.session.nodeItems], `the Cluster tree after command ${i}`);
    });
    assert.ok(c.restores(restores), `the ahead simulation's restores in idle time: ${restores}`);
    assert.deepEqual(swaps, c.swaps, 'which steps were swaps');
  });
}
