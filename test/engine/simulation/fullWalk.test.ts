/**
 * The monitor pass evaluates only the nodes with something due (its deadline heap, the watched
 * not-Ready nodes, Lease news, the heartbeats' fast path); upstream's monitorNodeHealth evaluates
 * every node on every pass. Over every bundled example, run to its horizon with a step back into
 * the middle and on again, a simulation whose node lifecycle controller evaluates every node
 * (NodeLifecycleOptions.evaluateEveryNode) decides exactly what the lazy one decides, and ends in
 * the same state; the lazy one runs with the shortcuts' own check (checks.nodeTracks) on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import { createNodeLifecycleController } from '../../../src/engine/controllers/nodeLifecycle';
import { defaultHorizon } from '../../../src/cli/horizon';

const examples = join(__dirname, '..', '..', '..', 'examples');

/** upstream's pass: every node evaluated on every pass */
const everyNode: ControllerFactory = (name, ctx) =>
  name === 'node-lifecycle'
    ? createNodeLifecycleController({ strictMachines: ctx.strictMachines, evaluateEveryNode: true })
    : defaultControllerFactory(name, ctx);

function run(path: string, full: boolean): { trace: string; state: string; evaluated: number } {
  const scenario = loadScenario(path, nodeFs());
  const sim = createSimulation(scenario, full ? { controllerFactory: everyNode } : { checks: { nodeTracks: true } });
  const end = defaultHorizon(sim.scenario, sim.startTime);
  sim.runUntil(Math.min(end, sim.startTime + 20 * 60_000_000));
  const middle = Math.floor((sim.pass ?? 0) / 2);
  sim.goToPass(middle);
  sim.runUntil(end);
  const c = sim.cluster!;
  return {
    trace: JSON.stringify(sim.trace),
    state: JSON.stringify([[...c.nodes.values()], [...c.pods.values()], [...c.leases.values()]]),
    evaluated: sim.trace.filter((d) => d.controller === 'node-lifecycle').length,
  };
}

for (const file of readdirSync(examples)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  test(`example ${file}: evaluating only the nodes with something due decides what evaluating every node decides`, () => {
    const lazy = run(join(examples, file), false);
    const full = run(join(examples, file), true);
    assert.ok(lazy.evaluated > 0, 'the node lifecycle controller decided something');
    assert.equal(lazy.trace, full.trace, 'the same trace');
    assert.equal(lazy.state, full.state, 'the same final nodes, pods and Leases');
  });
}

// A user writes the controller's own NoExecute taints on healthy nodes: upstream's pass finds the
// node Ready and removes them (markNodeAsReachable); the heartbeat fast path must step aside for it.
test('a Ready node given the unreachable or not-ready NoExecute taint by hand: the lazy pass removes it when every-node evaluation does', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-full-walk-'));
  try {
    // beside the scenario: a snapshot is read from the scenario's folder
    copyFileSync(join(examples, 'clusters', 'three-zones.yaml'), join(dir, 'three-zones.yaml'));
    for (const version of ['1.31', '1.35']) {
      const file = join(dir, `hand-taints-${version}.yaml`);
      writeFileSync(
        file,
        [
          'apiVersion: controllerstepper.io/v1alpha1',
          'kind: Scenario',
          'metadata: {name: hand-taints}',
          `kubernetesVersion: "${version}"`,
          'startTime: "2026-01-01T00:00:00Z"',
          'snapshot: ./three-zones.yaml',
          'events:',
          '  - at: 1m',
          '    taint: {key: node.kubernetes.io/unreachable, effect: NoExecute}',
          '    node: node-a2',
          '  - at: 2m',
          '    taint: {key: node.kubernetes.io/not-ready, effect: NoExecute}',
          '    node: node-b1',
          '',
        ].join('\n'),
      );
      const lazy = run(file, false);
      const full = run(file, true);
      assert.ok(
        (JSON.parse(full.trace) as { action: string; object: string }[]).some((d) => d.action === 'TaintRemoved' && d.object === 'Node/node-a2'),
        `${version}: every-node evaluation removes the hand-made taint`,
      );
      assert.equal(lazy.trace, full.trace, `${version}: the same trace`);
      assert.equal(lazy.state, full.state, `${version}: the same final state`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
