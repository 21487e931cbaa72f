/**
 * The newest versions the engine simulates, 1.36 and 1.37: accepted wherever a version is read,
 * 1.38 refused as 1.11 is (and a snapshot whose kubelets report 1.38 simulated as 1.37, with a
 * warning), their one new gate, and their decisions: the two rows the table has for them guard
 * against stale informer caches, which the simulation does not have, so they decide what 1.35 does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { generateClusterStream, listChunks, renderObject, type TimelineOptions } from '../../../src/engine/generate/index';
import { orderedDecision } from '../../../src/engine/trace/serialize';
import type { Decision } from '../../../src/engine/trace/decision';
import type { Scenario } from '../../../src/engine/snapshot/types';
import { defaultHorizon } from '../../../src/cli/horizon';
import { nodeFs } from '../../../src/platform/nodeFs';
import { join } from 'node:path';

const HEAD = 'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\n';
const NODE =
  '{apiVersion: v1, kind: Node, metadata: {name: n1}, status: {conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2026-01-01T00:00:00Z"}]}}';

function scenarioProblems(version: string, extra = ''): { simulated: string; codes: string[] } {
  const fs = new MemoryFs({ '/w/s.yaml': `${HEAD}kubernetesVersion: "${version}"\nstartTime: "2026-01-01T00:00:00Z"\n${extra}objects: [${NODE}]\n` });
  const sim = createSimulation(loadScenario('/w/s.yaml', fs));
  return { simulated: sim.behaviour.version.text, codes: sim.problems.filter((p) => p.severity === 'error').map((p) => p.code) };
}

test('a scenario may name 1.36 or 1.37; 1.38 is refused as 1.11 is', () => {
  const cases: { version: string; refused: boolean }[] = [
    { version: '1.11', refused: true },
    { version: '1.12', refused: false },
    { version: '1.35', refused: false },
    { version: '1.36', refused: false },
    { version: '1.37', refused: false },
    { version: 'v1.37.2', refused: false },
    { version: '1.38', refused: true },
    { version: 'v1.38.0-alpha.2', refused: true },
  ];
  for (const c of cases) {
    const got = scenarioProblems(c.version);
    assert.equal(got.codes.includes('unsupported-version'), c.refused, `${c.version}: ${got.codes.join(', ')}`);
    if (!c.refused) assert.deepEqual(got.codes, [], c.version);
  }
});

test('--version 1.37 is simulated, --version 1.38 is refused', () => {
  const fs = new MemoryFs({ '/w/s.yaml': `${HEAD}kubernetesVersion: "1.31"\nobjects: [${NODE}]\n` });
  const cases: { version: string; simulated?: string; refused: boolean }[] = [
    { version: '1.36', simulated: '1.36', refused: false },
    { version: '1.37', simulated: '1.37', refused: false },
    { version: '1.38', refused: true },
  ];
  for (const c of cases) {
    const sim = createSimulation(loadScenario('/w/s.yaml', fs), { version: c.version });
    const refused = sim.problems.some((p) => p.code === 'unknown-version' && /1\.12 to 1\.37/.test(p.message));
    assert.equal(refused, c.refused, c.version);
    if (c.simulated) assert.equal(sim.behaviour.version.text, c.simulated, c.version);
  }
});

test('a snapshot whose kubelets report 1.37 is simulated as 1.37; one reporting 1.38 as 1.37, with a warning', () => {
  const nodes = (kubelet: string) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { nodeInfo: { kubeletVersion: kubelet } } }],
    });
  const cases: { kubelet: string; simulated: string; warned: boolean }[] = [
    { kubelet: 'v1.36.3', simulated: '1.36', warned: false },
    { kubelet: 'v1.37.1', simulated: '1.37', warned: false },
    { kubelet: 'v1.38.0', simulated: '1.37', warned: true },
  ];
  for (const c of cases) {
    const sim = createSimulation(loadScenario('/w/nodes.json', new MemoryFs({ '/w/nodes.json': nodes(c.kubelet) })));
    assert.equal(sim.behaviour.version.text, c.simulated, c.kubelet);
    assert.equal(
      sim.problems.some((p) => p.code === 'version-clamped'),
      c.warned,
      c.kubelet,
    );
  }
});

test('StaleControllerConsistencyReplicaSet exists from 1.36 (beta, on) and not before', () => {
  const cases: { version: string; value: boolean; codes: string[] }[] = [
    { version: '1.35', value: false, codes: ['gate-not-in-version'] },
    { version: '1.36', value: false, codes: [] },
    { version: '1.37', value: true, codes: [] },
  ];
  for (const c of cases) {
    const got = scenarioProblems(c.version, `controllerManager: {featureGates: {StaleControllerConsistencyReplicaSet: ${c.value}}}\n`);
    assert.deepEqual(got.codes, c.codes, c.version);
  }
});

/** A scenario run as `version`: its decisions without their explanations or the version they cite. */
function decisions(scenario: Scenario, version: string, until?: number): string[] {
  const sim = createSimulation(scenario, { version });
  assert.deepEqual(
    sim.problems.filter((p) => p.severity === 'error'),
    [],
  );
  sim.runUntil(until ?? defaultHorizon(scenario, sim.startTime));
  return sim.trace.map((d: Decision) => {
    const o = orderedDecision(d);
    delete o.because;
    // the upstream file a decision cites is named at the version simulated
    if (typeof o.source === 'string') o.source = o.source.split(`v${version}`).join('vN');
    return JSON.stringify(o);
  });
}

function generated(timeline: TimelineOptions): Scenario {
  const stream = generateClusterStream({ nodes: 24, podsPerNode: 6, zones: 3, detail: 'lean', kubernetesVersion: '1.35', seed: 'newest', timeline });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  return loadScenario(
    '/w/s.yaml',
    new MemoryFs({ '/w/cluster.json': text, '/w/s.yaml': renderObject({ ...stream.scenario!, snapshot: 'cluster.json' } as never, 'yaml') }),
  );
}

test('1.36 and 1.37 decide what 1.35 decides (their rows guard against stale caches the simulation does not have)', () => {
  const examples = join(__dirname, '..', '..', '..', 'examples');
  const cases: { name: string; scenario: () => Scenario; hour?: boolean }[] = [
    { name: 'a zone stops and recovers', scenario: () => generated({ zoneOutage: { zone: 1, at: '60s', recoverAt: '30m' } }), hour: true },
    {
      name: "a zone's Leases stop, its status posts go on",
      scenario: () => generated({ zoneOutage: { zone: 0, at: '30s', recoverAt: '20m', only: 'lease' } }),
      hour: true,
    },
    { name: 'a ReplicaSet scales down (examples/rs-scale-down-1.31.yaml)', scenario: () => loadScenario(join(examples, 'rs-scale-down-1.31.yaml'), nodeFs()) },
    {
      name: 'pod-deletion-cost ranks the scale-down (examples/rs-deletion-cost.yaml)',
      scenario: () => loadScenario(join(examples, 'rs-deletion-cost.yaml'), nodeFs()),
    },
    { name: 'slow start after create failures (examples/rs-slow-start.yaml)', scenario: () => loadScenario(join(examples, 'rs-slow-start.yaml'), nodeFs()) },
  ];
  for (const c of cases) {
    const scenario = c.scenario();
    const until = (v: string) => (c.hour ? createSimulation(scenario, { version: v }).startTime + 3600 * 1_000_000 : undefined);
    const base = decisions(scenario, '1.35', until('1.35'));
    assert.ok(base.length > 10, `${c.name}: the 1.35 run decides something (${base.length})`);
    for (const v of ['1.36', '1.37']) assert.deepEqual(decisions(scenario, v, until(v)), base, `${c.name}: ${v}`);
  }
});
