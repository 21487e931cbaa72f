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

// A post of the timeline's that changes no condition's status (a kubelet started while its node is still Ready, a
// `condition` the node already has) is a new heartbeat all the same: upstream's pass sees the new lastHeartbeatTime and
// moves the probe. Announced only to checkpoints, the lazy pass missed it and later took the stale heartbeat for news,
// moving the probe at the grace's end instead: node-a1 went Unknown at +2m10s rather than +1m20s.
test('a post of the timeline that changes no status moves the probe as every-node evaluation does (table)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-full-walk-'));
  const cases: { name: string; version: string; events: string[]; unknownAt: string }[] = [
    {
      name: 'stopped, started while still Ready, stopped again (Leases)',
      version: '1.31',
      events: ['{at: 30s, kubelet: stop, nodes: [node-a1]}', '{at: 35s, kubelet: start, nodes: [node-a1]}', '{at: 40s, kubelet: stop, nodes: [node-a1]}'],
      // the start's post at +35s: Unknown at the first pass past +35s + 40s
      unknownAt: '2026-01-01T00:01:20.000Z',
    },
    {
      name: 'only the Lease stopped, started again, then everything stopped (a control: no status post)',
      version: '1.35',
      events: [
        '{at: 30s, kubelet: stop, only: lease, nodes: [node-a1]}',
        '{at: 32s, kubelet: start, only: lease, nodes: [node-a1]}',
        '{at: 33s, kubelet: stop, nodes: [node-a1]}',
      ],
      // the Lease renewed at +32s, seen at +35s; 1.35's nodeMonitorGracePeriod is 50s
      unknownAt: '2026-01-01T00:01:30.000Z',
    },
    {
      name: 'a stopped kubelet posts Ready True once (Leases)',
      version: '1.31',
      events: ['{at: 30s, kubelet: stop, nodes: [node-a1]}', '{at: 50s, node: node-a1, condition: {type: Ready, status: "True"}}'],
      // the post seen at +50s makes a new health entry without the saved Lease, so the pass at +55s takes the
      // unchanged Lease for a renewal (upstream's savedLease == nil) and moves the probe there: +55s + 40s
      unknownAt: '2026-01-01T00:01:40.000Z',
    },
    {
      name: 'stopped, started, stopped before its next post (1.12, no Leases)',
      version: '1.12',
      events: ['{at: 30s, kubelet: stop, nodes: [node-a1]}', '{at: 35s, kubelet: start, nodes: [node-a1]}', '{at: 38s, kubelet: stop, nodes: [node-a1]}'],
      unknownAt: '2026-01-01T00:01:20.000Z',
    },
  ];
  try {
    copyFileSync(join(examples, 'clusters', 'three-zones.yaml'), join(dir, 'three-zones.yaml'));
    for (const [i, c] of cases.entries()) {
      const file = join(dir, `posts-${i}.yaml`);
      writeFileSync(
        file,
        [
          'apiVersion: controllerstepper.io/v1alpha1',
          'kind: Scenario',
          'metadata: {name: posts}',
          `kubernetesVersion: "${c.version}"`,
          'startTime: "2026-01-01T00:00:00Z"',
          'snapshot: ./three-zones.yaml',
          'events:',
          ...c.events.map((e) => `  - ${e}`),
          '',
        ].join('\n'),
      );
      const lazy = run(file, false);
      const full = run(file, true);
      const unknown = (JSON.parse(full.trace) as { action: string; object: string; time: string }[]).find(
        (d) => d.action === 'NodeStatusUnknown' && d.object === 'Node/node-a1',
      );
      assert.equal(unknown?.time, c.unknownAt, `${c.name}: every-node evaluation sets Ready Unknown then`);
      assert.equal(lazy.trace, full.trace, `${c.name}: the same trace`);
      assert.equal(lazy.state, full.state, `${c.name}: the same final state`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
