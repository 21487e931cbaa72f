/**
 * goToPass cut by the host's slices (SimulationOptions.shouldYield inside an instant, shouldStop
 * between instants): it stops short, `stopped` says so, and calling it again for the same pass goes
 * on from there. A pass whose instant was cut is not reached yet, even when it is the target: the
 * engine finishes it, so that the extension's Step keeps only its slices (it had its own loop
 * for this, and a part-done target once made it go round for ever). `interactive` steps forward as
 * the panel's Step does, keeping its checkpoints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation, loadScenario, type SimulationOptions } from '../../../src/engine';
import { nodeFs } from '../../../src/platform/nodeFs';

const root = new URL('../../..', import.meta.url).pathname;
const EXAMPLE = join(root, 'examples', 'rs-zone-outage.yaml');
// checkpoints every 30 passes, so that the fine ones a replay and a user's steps leave (every 10) show
const open = (options?: SimulationOptions) => createSimulation(loadScenario(EXAMPLE, nodeFs()), { checkpointEvery: 30, ...options });

interface Case {
  name: string;
  /** the cut: true on every `every`-th ask of this kind */
  yieldEvery?: number;
  stopEvery?: number;
  /** start at this pass, then go to `to` */
  from?: number;
  to: number;
  interactive?: boolean;
}

const cases: Case[] = [
  { name: 'forward, cut inside instants only (no shouldStop), reaches the pass', yieldEvery: 3, to: 30 },
  { name: 'forward, cut inside instants and between them, reaches the pass', yieldEvery: 4, stopEvery: 5, to: 30 },
  { name: 'forward a pass at a time as the panel steps, cut inside instants', yieldEvery: 2, to: 25, interactive: true },
  { name: 'back from a later pass, the replay cut inside instants', yieldEvery: 2, from: 40, to: 25 },
  { name: 'back one pass (a step back), cut between instants', stopEvery: 2, from: 38, to: 37 },
];

test('goToPass cut by the slices and called again for the same pass ends where one uncut call ends, its target pass whole', () => {
  for (const c of cases) {
    const whole = open();
    if (c.from !== undefined) whole.goToPass(c.from);
    whole.goToPass(c.to, { interactive: c.interactive });
    let cutting = false;
    let yields = 0,
      stops = 0;
    const cut = open({
      shouldYield: () => cutting && c.yieldEvery !== undefined && ++yields % c.yieldEvery === 0,
      shouldStop: () => cutting && c.stopEvery !== undefined && ++stops % c.stopEvery === 0,
    });
    if (c.from !== undefined) cut.goToPass(c.from);
    cutting = true;
    let calls = 0,
      targetPartDone = 0;
    for (;;) {
      cut.goToPass(c.to, { interactive: c.interactive });
      calls++;
      assert.ok(calls < 10_000, `${c.name}: ends`);
      if (!cut.stopped) break;
      if (cut.pass === c.to && cut.partDone === true) targetPartDone++;
    }
    assert.ok(calls > 2, `${c.name}: cut ${calls - 1} times`);
    assert.equal(cut.pass, c.to, `${c.name}: at the pass`);
    assert.equal(cut.partDone, false, `${c.name}: its instant whole`);
    assert.equal(cut.now, whole.now, `${c.name}: at the pass's instant`);
    assert.deepEqual([...cut.trace], [...whole.trace], `${c.name}: the same trace`);
    assert.deepEqual(cut.state(), whole.state(), `${c.name}: the same state`);
    if (c.yieldEvery !== undefined && c.from === undefined) assert.ok(targetPartDone > 0 || calls > 5, `${c.name}: cut often`);
  }
});

test("a call cut inside the target pass's instant leaves that pass part-done and not reached, and the next call only finishes it", () => {
  // the pass with the most decisions in the first 40 (the zone's nodes going Unknown); any pass's
  // instant can be cut, after the node lifecycle controller's monitor pass at least
  const probe = open();
  let heavy = 1,
    most = -1;
  for (let n = 1; n < 40; n++) {
    const before = probe.trace.length;
    probe.goToPass(n);
    if (probe.trace.length - before > most) [heavy, most] = [n, probe.trace.length - before];
  }
  let cutInside = false;
  const sim = open({ shouldYield: () => cutInside });
  sim.goToPass(heavy - 1);
  cutInside = true;
  sim.goToPass(heavy);
  assert.equal(sim.stopped, true);
  assert.equal(sim.pass, heavy);
  assert.equal(sim.partDone, true, 'cut inside the target pass');
  cutInside = false;
  const decided = sim.trace.length;
  sim.goToPass(heavy);
  assert.equal(sim.stopped, false);
  assert.equal(sim.pass, heavy, 'finished, not stepped past');
  assert.equal(sim.partDone, false);
  assert.ok(sim.trace.length >= decided);
  const whole = open();
  whole.goToPass(heavy);
  assert.deepEqual([...sim.trace], [...whole.trace]);
});

test('interactive goToPass forward keeps the checkpoints a user stepping one pass at a time keeps', () => {
  const stepped = open();
  for (let i = 0; i <= 34; i++) stepped.step(true);
  const jumped = open();
  jumped.goToPass(34, { interactive: true });
  const plain = open();
  plain.goToPass(34);
  assert.equal(stepped.pass, 34);
  assert.deepEqual(jumped.checkpointPasses, stepped.checkpointPasses);
  assert.notDeepEqual(plain.checkpointPasses, stepped.checkpointPasses, 'not what a plain goToPass keeps');
  assert.deepEqual([...jumped.trace], [...plain.trace]);
});
