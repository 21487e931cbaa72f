/**
 * A stop inside one long instant (SimulationOptions.shouldYield, issues 14 and 17): the ReplicaSet
 * controller yields between syncs and the binder between pods, the simulation after each
 * controller's work; running on from there must give, byte for byte, the trace and state of a run
 * never stopped. Two ReplicaSets scaled at the same instant (several syncs of 500 each, and
 * thousands of pods for the binder, most with no room), stopped at every chance, or every 7th.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import type { SimulationOptions } from '../../../../src/engine/simulation/api';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { exportCluster } from '../../../../src/engine/model/export';
import { traceToJsonLines } from '../../../../src/engine/trace/serialize';
import { nodeFs } from '../../../../src/platform/nodeFs';

const dir = mkdtempSync(join(tmpdir(), 'cs-yield-'));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'clusters'));
copyFileSync(join(__dirname, '..', '..', '..', '..', 'examples', 'clusters', 'three-zones.yaml'), join(dir, 'clusters', 'three-zones.yaml'));

const scenario = (version: string) => `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: yield}
kubernetesVersion: "${version}"
startTime: "2026-01-01T00:00:00Z"
snapshot: ./clusters/three-zones.yaml
events:
  - {at: 10s, scale: {replicaSet: default/web-7d9f, replicas: 1800}}
  - {at: 10s, kubelet: stop, zone: us-east-1b}
  - {at: 75s, scale: {replicaSet: default/web-7d9f, replicas: 40}}
`;

const END = 120e6;

function run(version: string, options: SimulationOptions = {}) {
  const path = join(dir, `yield-${version}.yaml`);
  writeFileSync(path, scenario(version));
  return createSimulation(loadScenario(path, nodeFs()), options);
}

const result = (sim: ReturnType<typeof run>) => traceToJsonLines(sim.trace) + JSON.stringify(exportCluster(sim.cluster));

for (const version of ['1.12', '1.31'])
  for (const every of [1, 7])
    for (const drive of ['runUntil', 'step'] as const)
      test(`v${version}: stopped inside instants at every ${every === 1 ? '' : `${every}th `}chance (${drive}), then on: the same trace and state as a run never stopped`, () => {
        const straight = run(version);
        straight.runUntil(straight.startTime + END);
        let asked = 0;
        let midInstant = 0;
        const sim = run(version, { shouldYield: () => ++asked % every === 0 });
        let lastNow = -1;
        for (let guard = 0; guard < 1_000_000; guard++) {
          if (drive === 'runUntil') sim.runUntil(sim.startTime + END);
          else sim.step();
          if (!sim.stopped && (drive === 'runUntil' || sim.now >= sim.startTime + END)) break;
          if (sim.stopped && sim.now === lastNow) midInstant++;
          lastNow = sim.now;
        }
        if (drive === 'step') sim.runUntil(sim.startTime + END);
        assert.ok(midInstant >= (every === 1 ? 20 : 3), `stopped ${midInstant} times inside an instant`);
        assert.equal(result(sim), result(straight));
      });
