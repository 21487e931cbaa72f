/**
 * The simulation's checking mode (checkInvariants, which the fuzzer and the
 * examples' invariant test turn on) builds the node lifecycle controller with
 * strict machines: a refused event throws there instead of writing nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import { defaultControllerFactory } from '../../../../src/engine/simulation/wiring';
import type { ControllerFactory } from '../../../../src/engine/simulation/controllerPlan';
import { lease, node, scenarioOf } from '../../../helpers/scenario';

test('checking mode asks the factory for strict machines; a plain run does not', () => {
  const cases: { options: { checkInvariants?: boolean }; strict: boolean }[] = [
    { options: { checkInvariants: true }, strict: true },
    { options: {}, strict: false },
  ];
  for (const c of cases) {
    const seen: (boolean | undefined)[] = [];
    const factory: ControllerFactory = (name, ctx) => {
      if (name === 'node-lifecycle') seen.push(ctx.strictMachines);
      return defaultControllerFactory(name, ctx);
    };
    const sim = createSimulation(scenarioOf({ objects: [node('a', { zone: 'z1' }), lease('a', '1s')], version: '1.31' }), {
      ...c.options,
      controllerFactory: factory,
    });
    sim.runUntil(sim.startTime + 60_000_000);
    assert.deepEqual(seen.map(Boolean), [c.strict], JSON.stringify(c.options));
  }
});
