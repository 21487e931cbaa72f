/**
 * A simulation made beside another of the same scenario and options takes that one's start (startLike.ts: the
 * run-ahead's second simulation, makeInSlices.ts `like`) and is then the simulation made afresh: the same
 * controllers' memory, problems, trace and records at the start, and the same decisions and records after passes,
 * a step back and a jump, whatever position the other stands in when it is taken from.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation, loadScenario, simulationInSlices, type Scenario, type SimulationOptions } from '../../../src/engine';
import type { SimulationImpl } from '../../../src/engine/simulation/simulation';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import { supportedVersions } from '../../../src/engine/versions/table';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import { nodeFs } from '../../../src/platform/nodeFs';

const root = new URL('../../..', import.meta.url).pathname;
const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.yaml'));
const newest = supportedVersions().at(-1)!.text;

interface Case {
  name: string;
  file: string;
  version: string;
  /** where the simulation taken from stands when the new one is made: null, never stepped; a pass (and back to the start: 'back') */
  from: null | number | 'back';
  /** records a piece of the making */
  perPiece?: number;
}

const cases: Case[] = examples.flatMap((file): Case[] => [
  { name: `${file} at 1.12, taken from a simulation never stepped`, file, version: '1.12', from: null },
  { name: `${file} at ${newest}, taken from a simulation never stepped, three records a piece`, file, version: newest, from: null, perPiece: 3 },
  { name: `${file} at ${newest}, taken from a simulation at pass 12`, file, version: newest, from: 12 },
  { name: `${file} at 1.12, taken from a simulation stepped to pass 7 and back to the start`, file, version: '1.12', from: 'back' },
]);

/** saved memory as text: maps and sets as their entries, functions (a selector's matcher) left out */
const plain = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'function' ? undefined : x instanceof Map || x instanceof Set ? [...x] : x));
const entries = <T>(m: ReadonlyMap<string, T>) => [...m.entries()];

/** what a position is made of, compared between the two */
function state(s: SimulationImpl): unknown {
  const c = s.cluster;
  return {
    pass: s.pass,
    now: s.now,
    trace: JSON.stringify(s.trace),
    problems: s.problems,
    controllers: plain(s.controllers.map((x) => x.save())),
    records: ['nodes', 'pods', 'replicaSets', 'daemonSets', 'leases', 'podsByNode'].map((k) => entries(c[k as keyof typeof c] as Map<string, unknown>)),
    checkpoints: s.checkpointPasses,
  };
}

function make(scenario: Scenario, options: SimulationOptions, perPiece: number | undefined, like?: SimulationImpl): SimulationImpl {
  const making = simulationInSlices(scenario, options, perPiece, like);
  let sim: SimulationImpl | undefined;
  for (let calls = 0; !sim; calls++) {
    sim = making(() => false);
    if (calls > 10_000_000) assert.fail('never made');
  }
  return sim;
}

test("a simulation that takes another's start is the one made afresh, pass for pass", () => {
  for (const c of cases) {
    const scenario = loadScenario(join(root, 'examples', c.file), nodeFs());
    let starts = 0;
    const factory: ControllerFactory = (name, ctx) => {
      const made = defaultControllerFactory(name, ctx);
      if (!made) return made;
      const start = made.start.bind(made);
      const startInPieces = made.startInPieces?.bind(made);
      made.start = (...a) => (starts++, start(...a));
      if (startInPieces) made.startInPieces = (...a) => (starts++, startInPieces(...a));
      return made;
    };
    const options: SimulationOptions = { version: c.version, controllerFactory: factory };
    const other = createSimulation(scenario, options);
    if (c.from !== null) other.goToPass(c.from === 'back' ? 7 : c.from, { interactive: true });
    if (c.from === 'back') other.reset();
    const fresh = make(scenario, options, c.perPiece);
    starts = 0;
    const taken = make(scenario, options, c.perPiece, other);
    assert.equal(starts, 0, `${c.name}: the controllers were started, not taken`);
    assert.deepEqual(state(taken), state(fresh), `${c.name}: at the start`);
    assert.deepEqual(entries(taken.host.currentIndex.podNode), entries(fresh.host.currentIndex.podNode), `${c.name}: the pod index`);
    const moves: [string, (s: SimulationImpl) => void][] = [
      ['pass 0', (s) => s.goToPass(0, { interactive: true })],
      ['pass 5', (s) => s.goToPass(5, { interactive: true })],
      ['pass 25', (s) => s.goToPass(25, { interactive: true })],
      ['back to pass 3', (s) => s.goToPass(3, { interactive: true })],
      ['a jump to pass 60', (s) => s.goToPass(60)],
      ['the start', (s) => s.reset()],
      ['pass 30', (s) => s.goToPass(30, { interactive: true })],
    ];
    for (const [what, move] of moves) {
      move(fresh);
      move(taken);
      assert.deepEqual(state(taken), state(fresh), `${c.name}: ${what}`);
    }
  }
});

test('a simulation of another scenario is not taken from: its controllers start', () => {
  const a = loadScenario(join(root, 'examples', 'rs-zone-outage.yaml'), nodeFs());
  const b = loadScenario(join(root, 'examples', 'rs-zone-outage.yaml'), nodeFs());
  let starts = 0;
  const factory: ControllerFactory = (name, ctx) => {
    const made = defaultControllerFactory(name, ctx);
    if (made?.startInPieces) {
      const startInPieces = made.startInPieces.bind(made);
      made.startInPieces = (...x) => (starts++, startInPieces(...x));
    }
    return made;
  };
  const other = createSimulation(a, { controllerFactory: factory });
  starts = 0;
  const sim = make(b, { controllerFactory: factory }, undefined, other);
  assert.ok(starts > 0);
  assert.deepEqual(state(sim), state(createSimulation(b)));
});
