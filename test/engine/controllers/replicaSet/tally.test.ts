/**
 * The ReplicaSet controller's running counts of its pods (tally.ts) against
 * reading every pod: with verification on, every sync that answers from the
 * counts also reads every pod and throws when the two differ. Run over the
 * bundled examples (restarts, create failures, scale-downs, outages) and a
 * generated zone outage, stepped back to the middle and run on again (the
 * counts are made afresh after a restore).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import { defaultHorizon } from '../../../../src/cli/horizon';
import { generateClusterStream, listChunks, renderObject } from '../../../../src/engine/generate/index';
import { traceToJsonLines } from '../../../../src/engine/trace/serialize';
import { verifyingFactory } from './verifyingFactory';
import type { SimController } from '../../../../src/engine/controllers/controller';
import { World, podObject, rsObject } from './harness';

function runAndStepBack(path: string, until?: (start: number) => number): void {
  const scenario = loadScenario(path, nodeFs());
  const sim = createSimulation(scenario, { controllerFactory: verifyingFactory });
  const end = until ? until(sim.startTime) : defaultHorizon(scenario, sim.startTime);
  sim.runUntil(end);
  const trace = traceToJsonLines(sim.trace);
  const pass = sim.pass ?? 0;
  // every case here runs long enough to step back into its middle; a run that did not is a broken case
  assert.ok(pass > 2, `the run reached pass ${pass} only`);
  sim.goToPass(Math.floor(pass / 2));
  sim.runUntil(end);
  assert.equal(traceToJsonLines(sim.trace), trace, 'the same trace after stepping back and running on');
}

const examples = join(__dirname, '..', '..', '..', '..', 'examples');
for (const file of readdirSync(examples)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  test(`example ${file}: the running counts agree with every pod read, also after stepping back`, () => {
    runAndStepBack(join(examples, file));
  });
}

test('a generated zone outage (1.35, terminatingReplicas counted): the running counts agree with every pod read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rs-tally-'));
  try {
    const stream = generateClusterStream({
      nodes: 60,
      podsPerNode: 12,
      zones: 3,
      detail: 'lean',
      kubernetesVersion: 'v1.35.0',
      seed: 'tally',
      timeline: { zoneOutage: { zone: 1, at: '60s', recoverAt: '30m' } },
    });
    let text = '';
    for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
    writeFileSync(join(dir, 'cluster.json'), text);
    writeFileSync(join(dir, 'outage.yaml'), renderObject({ ...stream.scenario!, snapshot: 'cluster.json' } as never, 'yaml'));
    runAndStepBack(join(dir, 'outage.yaml'), (start) => start + 3600 * 1_000_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a claimed pod that changes while the sync creates pods is counted as it is after the creations, as reading every pod does', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 3 })],
    pods: [podObject('a', 'web', { node: 'n1' }), podObject('b', 'web', { node: 'n1' })],
  });
  // another controller that reacts to the new pod at once by marking pod a not ready
  const meddler: SimController = {
    name: 'node-lifecycle',
    start() {},
    onPodEvent(host, type, pod) {
      if (type !== 'added' || pod.meta.name === 'a') return;
      const a = host.cluster.pods.get('default/a')!;
      const ready = a.conditions.find((c) => c.type === 'Ready')!;
      if (ready.status === 'False') return;
      ready.status = 'False';
      host.updatePod(a);
    },
    nextWake: () => undefined,
    wake() {},
    machines: () => [],
    whyNot: () => [],
    save: () => null,
    restore() {},
  };
  w.host.controllers.push(meddler);
  w.settle();
  const first = w.host.actions('ReplicaSetStatusUpdated')[0]!;
  // the two pods claimed before the creation, a no longer ready (the running counts at claim time said 2 ready)
  assert.deepEqual([first.details!.status, w.host.actions('PodsCreated').length], [{ ...(first.details!.status as object), replicas: 2, readyReplicas: 1 }, 1]);
});

test('the running counts keep what a labels object gave; a labels object they read cannot be edited in place (it is replaced), and a replaced one is read again', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 2 })],
    pods: [podObject('a', 'web', { node: 'n1' }), podObject('b', 'web', { node: 'n1' })],
  });
  w.settle();
  const a = w.host.cluster.pods.get('default/a')!;
  // verification freezes every labels object the counts read: an edit in place would go unseen by them
  assert.throws(() => {
    (a.meta.labels as Record<string, string>).app = 'other';
  }, TypeError);
  // replaced: a no longer matches, is released, and a pod is created for it (the sync's verification agrees)
  a.meta.labels = { ...a.meta.labels, app: 'other' };
  w.host.updatePod(a);
  w.settle();
  assert.deepEqual([w.host.actions('PodsReleased').length, w.host.actions('PodsCreated').length], [1, 1]);
});
