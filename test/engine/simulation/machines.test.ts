/**
 * The machine views the controllers keep from one call to the next (the ReplicaSet controller's
 * and the node lifecycle controller's node machines: their sorted order and each unchanged view).
 * With verification on, the ReplicaSet controller also builds its views anew on every call and
 * throws when the two differ; every controller's views are compared with those of a new simulation
 * taken to the same pass. Asked after every step, as the webview does, over the bundled examples,
 * stepping back and on again, and with nodes deleted and applied mid-run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { defaultHorizon } from '../../../src/cli/horizon';
import { verifyingFactory } from '../controllers/replicaSet/verifyingFactory';

const examples = join(__dirname, '..', '..', '..', 'examples');
for (const file of readdirSync(examples)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  test(`example ${file}: the machine views kept are the views built anew, at every step and after stepping back`, () => {
    const sim = createSimulation(loadScenario(join(examples, file), nodeFs()), { controllerFactory: verifyingFactory });
    const end = defaultHorizon(sim.scenario, sim.startTime);
    const ids = (): string[] =>
      sim
        .machines()
        .filter((m) => m.id.startsWith('replicaset/'))
        .map((m) => m.id);
    let views = 0;
    let backAt: number | undefined;
    for (let steps = 0; steps < 400 && sim.now < end; steps++) {
      sim.step();
      views += ids().length;
      if (backAt === undefined && (sim.pass ?? 0) >= 12) {
        backAt = (sim.pass as number) - 7;
        sim.goToPass(backAt);
        ids();
      }
    }
    if (file.startsWith('rs-')) assert.ok(views > 0, 'the example has ReplicaSets');
    const rsKeys = [...sim.cluster!.replicaSets.keys()].sort();
    assert.deepEqual(
      ids(),
      rsKeys.map((k) => `replicaset/${k}`),
      'one view per ReplicaSet, in key order',
    );
  });
}

test("every controller's machine views, kept from call to call, are the views a new simulation builds at the same pass", () => {
  // sim is asked after every step; a new simulation taken to the same pass builds its views for the first time
  for (const file of ['rs-deletion-cost.yaml', 'outage-1.31.yaml', 'outage-1.12.yaml', 'restart-mid-outage.yaml', 'zone-large-partial.yaml']) {
    const scenario = loadScenario(join(examples, file), nodeFs());
    const sim = createSimulation(scenario, { controllerFactory: verifyingFactory });
    const strip = (ms: ReturnType<typeof sim.machines>) => ms.map((m) => JSON.stringify({ id: m.id, state: m.state, lastTransition: m.lastTransition }));
    const compare = (where: string) => {
      const fresh = createSimulation(scenario, { controllerFactory: verifyingFactory });
      fresh.goToPass(sim.pass as number);
      assert.deepEqual(strip(sim.machines()), strip(fresh.machines()), `${file} ${where}`);
    };
    let compared = 0;
    for (let steps = 0; steps < 120; steps++) {
      sim.step();
      sim.machines();
      if (sim.pass !== null && steps % 23 === 22) {
        compare(`pass ${sim.pass}`);
        compared++;
      }
      if (steps === 60 && sim.pass !== null && sim.pass > 10) {
        sim.goToPass(sim.pass - 9);
        sim.machines();
        compare(`back to pass ${sim.pass}`);
      }
    }
    assert.ok(compared >= 3, `${file}: compared ${compared} times`);
  }
});

test('node machines that come and go mid-run (a node deleted, a node applied) are in the kept views as in new ones', () => {
  const dir = mkdtempSync(join(tmpdir(), 'machines-'));
  try {
    const snapshot = join(examples, 'clusters', 'three-zones.yaml');
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-new', labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
      status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:01:00Z', lastTransitionTime: '2026-01-01T00:01:00Z' }] },
    };
    writeFileSync(
      join(dir, 's.yaml'),
      [
        'apiVersion: controllerstepper.io/v1alpha1',
        'kind: Scenario',
        'metadata: {name: nodes-come-and-go}',
        'kubernetesVersion: "1.31"',
        'startTime: "2026-01-01T00:00:00Z"',
        `snapshot: ${JSON.stringify(snapshot)}`,
        'events:',
        '  - {at: 40s, delete: Node/node-a2}',
        `  - {at: 60s, apply: ${JSON.stringify(node)}}`,
        '',
      ].join('\n'),
    );
    assert.ok(readFileSync(snapshot, 'utf8').includes('node-a2'));
    const scenario = loadScenario(join(dir, 's.yaml'), nodeFs(), { allowOutside: true }); // the snapshot is an example, outside the temporary folder
    assert.deepEqual(
      scenario.problems.filter((p) => p.severity === 'error'),
      [],
    );
    const sim = createSimulation(scenario, { controllerFactory: verifyingFactory });
    const ids = () =>
      sim
        .machines()
        .filter((m) => m.id.startsWith('node/'))
        .map((m) => m.id);
    const seen = new Set<string>();
    for (let steps = 0; steps < 30; steps++) {
      sim.step();
      const got = ids();
      for (const id of got) seen.add(id);
      const fresh = createSimulation(scenario, { controllerFactory: verifyingFactory });
      fresh.goToPass(sim.pass as number);
      assert.deepEqual(
        got,
        fresh
          .machines()
          .filter((m) => m.id.startsWith('node/'))
          .map((m) => m.id),
        `pass ${sim.pass}`,
      );
    }
    assert.ok(seen.has('node/node-a2') && seen.has('node/node-new'), 'both nodes had machines');
    assert.ok(!ids().includes('node/node-a2') && ids().includes('node/node-new'), "the deleted node's machine is gone, the new one's is there");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
