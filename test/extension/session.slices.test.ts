/**
 * Long runs in slices (issue 17 §2): with slicing on, the engine stops at the
 * end of each slice (SimulationOptions.shouldStop, between instants), the
 * run goes on after the host's events had their turn, and a cancel leaves it
 * where it stopped. The clock here is a counter: no test waits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session, SLICE_MS, type SessionResult } from '../../src/extension/session';
import { traceToJsonLines } from '../../src/engine/trace/serialize';
import type { HostMessage } from '../../src/protocol/webview';

const EXAMPLE = join(__dirname, '../../examples/rs-zone-outage.yaml');

function open(onYield: () => void = () => {}, msPerLook = 10) {
  let t = 0;
  const sent: HostMessage[] = [];
  const o = openScenario(EXAMPLE, '');
  const session = new Session({
    make: o.make,
    options: o.options,
    settings: { collapseNoise: true, playSpeed: 2 },
    post: (m) => sent.push(m),
    // each look at the clock is 10 ms later: a slice is SLICE_MS / 10 instants
    clock: () => (t += msPerLook),
    yieldNow: async () => onYield(),
  });
  return { session, sent };
}

const plain = (run: (s: Session) => SessionResult): string => {
  const { session } = open();
  run(session);
  return traceToJsonLines(session.sim.trace);
};

const cases: { name: string; run: (s: Session) => SessionResult }[] = [
  { name: 'run until a time', run: (s) => s.runUntil('10m') },
  { name: 'run until a decision', run: (s) => s.runUntil('next PodEvicted') },
  { name: 'go to a pass far ahead', run: (s) => s.goToPass(90) },
  { name: 'next decision', run: (s) => s.nextDecision() },
];

test('a long run in slices ends where the same run without slices ends, with the same trace', async () => {
  for (const c of cases) {
    const { session } = open();
    const token = { isCancellationRequested: false };
    session.slices.begin(token);
    let r = c.run(session);
    if (c.name !== 'next decision') assert.equal(r.ok && r.pending, true, `${c.name}: stopped at the end of its first slice`);
    let slices = 0;
    r = await session.finishLong(token, () => slices++);
    session.slices.end();
    assert.equal(r.ok, true, `${c.name}: ${r.message}`);
    assert.equal(traceToJsonLines(session.sim.trace), plain(c.run), `${c.name}: the same trace`);
    if (c.name !== 'next decision') assert.ok(slices > 1, `${c.name}: ${slices} slices`);
  }
});

test('a cancelled run stops between instants, the panel shows where, and the session takes the next command', async () => {
  const token = { isCancellationRequested: false };
  let yields = 0;
  const { session, sent } = open(() => {
    if (++yields === 3) token.isCancellationRequested = true;
  });
  session.slices.begin(token);
  const target = session.sim.startTime + 10 * 60_000_000;
  const r0 = session.runUntil('10m');
  assert.equal(r0.ok && r0.pending, true);
  assert.deepEqual(session.step(), { ok: false, message: 'A run is under way: wait for it or cancel it.' }, 'nothing else runs meanwhile');
  const r = await session.finishLong(token);
  session.slices.end();
  assert.equal(r.ok, false);
  assert.match(r.message ?? '', /^Cancelled at \S+ \(pass \d+\)/);
  assert.ok(session.sim.now > session.sim.startTime && session.sim.now < target, 'stopped on the way');
  const last = sent.filter((m) => m.type === 'update').at(-1);
  assert.equal(last?.type === 'update' && last.pass, session.sim.pass, 'the panel was told where');
  const before = session.sim.pass ?? -1;
  assert.deepEqual(session.step(), { ok: true }, 'the next command runs');
  assert.ok((session.sim.pass ?? -1) > before);
});

test('without slicing nothing is ever pending, whatever the clock says', () => {
  const { session } = open();
  for (const c of cases) assert.equal((c.run(session) as { pending?: true }).pending, undefined, c.name);
  assert.ok(SLICE_MS > 0);
});

/** A scenario whose instant at 1m holds the creation of 2,000 pods: the slices must cut inside it. */
function bigInstant(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-slices-'));
  const scenario = readFileSync(join(__dirname, '../../examples/rs-slow-start.yaml'), 'utf8')
    .replace('./clusters/three-zones.yaml', join(__dirname, '../../examples/clusters/three-zones.yaml'))
    .replace('scale: {replicaSet: default/api, replicas: 10}', 'scale: {replicaSet: default/api, replicas: 2000}');
  writeFileSync(join(dir, 'big.yaml'), scenario);
  return join(dir, 'big.yaml');
}

test('one long instant is cut into slices too (shouldYield), and every command ends as it would without slices', async () => {
  const file = bigInstant();
  const make = (onYield: () => void = () => {}) => {
    let t = 0;
    const o = openScenario(file, '');
    return new Session({
      make: o.make,
      options: o.options,
      settings: { collapseNoise: true, playSpeed: 2 },
      post: () => {},
      clock: () => (t += 10),
      yieldNow: async () => onYield(),
    });
  };
  const runs: { name: string; run: (s: Session) => SessionResult }[] = [
    { name: 'run until a time', run: (s) => s.runUntil('3m') },
    { name: 'go to a pass far ahead', run: (s) => s.goToPass(1500) },
    { name: 'run until the pass of the scale, then step three times and back once', run: (s) => s.goToPass(600) },
  ];
  for (const c of runs) {
    const straight = make();
    c.run(straight);
    let sawPartDone = false;
    const s: Session = make(() => (sawPartDone ||= s.sim.partDone === true));
    const token = { isCancellationRequested: false };
    s.slices.begin(token);
    c.run(s);
    let r = await s.finishLong(token);
    assert.equal(r.ok, true, `${c.name}: ${r.message}`);
    if (c.name.includes('step')) {
      for (const x of [straight, s]) {
        for (let i = 0; i < 3; i++) {
          x.step();
          r = await x.finishLong(token);
          assert.equal(r.ok, true, `${c.name}: ${r.message}`);
        }
        x.stepBack();
        r = await x.finishLong(token);
        assert.equal(r.ok, true, `${c.name}: ${r.message}`);
      }
    }
    s.slices.end();
    assert.ok(sawPartDone, `${c.name}: a slice ended inside an instant`);
    assert.equal(s.sim.pass, straight.sim.pass, `${c.name}: the same pass`);
    assert.equal(traceToJsonLines(s.sim.trace), traceToJsonLines(straight.sim.trace), `${c.name}: the same trace`);
  }
});

test('a step whose pass instant a slice cuts part-done finishes that instant in the next slices (it went round forever)', async () => {
  // every look at the clock ends the slice: a step is cut at each place the engine may stop
  const { session } = open(undefined, SLICE_MS);
  const ref = open().session;
  const token = { isCancellationRequested: false };
  let cut = 0;
  for (let i = 0; i < 40; i++) {
    ref.step();
    session.slices.begin(token);
    let r = session.step();
    let slices = 0;
    if (r.ok && r.pending) {
      cut++;
      // a step is a few slices; thousands mean it goes round without progress
      r = await session.finishLong(token, () => {
        if (++slices > 1000) token.isCancellationRequested = true;
      });
    }
    session.slices.end();
    assert.equal(r.ok, true, `step ${i}: ${r.ok ? '' : r.message} after ${slices} slices`);
    assert.equal(session.sim.pass, ref.sim.pass, `step ${i}: the pass`);
    assert.equal(session.sim.partDone ?? false, false, `step ${i}: its instant whole`);
  }
  assert.ok(cut > 0, 'some steps were cut by their slice');
  assert.equal(traceToJsonLines(session.sim.trace), traceToJsonLines(ref.sim.trace));
});
