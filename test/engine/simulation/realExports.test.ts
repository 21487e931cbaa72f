/**
 * No invented outages (issue 13): every real export in the shared fixtures (../shared/fixtures/real,
 * beside the checkout; SOURCES.md says where each comes from) replays 10 minutes with no node going
 * Unknown unless the export says it was. Each export is opened as a user opens it, alone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { nodeFs } from '../../../src/platform/nodeFs';
import { MAX_MINOR } from '../../../src/engine/versions/table';

const REAL = resolve(__dirname, '../../../../shared/fixtures/real');
const TEN_MINUTES = 10 * 60 * 1_000_000;

interface Case {
  export: string;
  /** the version simulated when nothing names one */
  version: string;
  /** nodes whose Lease is assumed renewed at the start (the export holds no Lease) */
  assumed: number;
  /** warnings the run must show before pass 0, by code */
  warns?: string[];
}

const NEWEST = `1.${MAX_MINOR}`;

const cases: Case[] = [
  // 1.20: kind-control-plane's and kind-worker2's heartbeats are a week older than kind-worker's (NotReady)
  { export: 'sonobuoy-kind-v1.20-core_v1_nodes.json', version: '1.20', assumed: 2 },
  // 1.17: three of six Ready nodes posted more than 40 s before the newest heartbeat
  { export: 'insights-ocp44-gcp-nodes', version: '1.17', assumed: 6 },
  { export: 'aks-v1.16-cluster-info-dump-dir', version: '1.16', assumed: 1 },
  { export: 'mustgather-ocp418-node-worker-0-5ddfx.yaml', version: '1.31', assumed: 1 },
  // a 1.10 kubelet: simulated as 1.12, whose kubelets post status every 10 s (no Leases)
  { export: 'gke-v1.10-node-from-raw-api.excerpt.json', version: '1.12', assumed: 0, warns: ['version-clamped'] },
  // no kubelet version in these: the newest is simulated
  { export: 'eks-v1.29-node-lease.excerpt.yaml', version: NEWEST, assumed: 0 },
  { export: 'mustgather-ocp-kube-system-daemonsets.yaml', version: NEWEST, assumed: 0 },
  { export: 'mustgather-ocp-kube-system-pod-csi-nfs-node-2r5tx.yaml', version: NEWEST, assumed: 0, warns: ['pods-on-missing-nodes'] },
  { export: 'mustgather-ocp-kube-system-replicasets.yaml', version: NEWEST, assumed: 0, warns: ['replicaset-pods-missing'] },
];

function readyOf(conditions: { type: string; status: string }[]): string | undefined {
  return conditions.find((c) => c.type === 'Ready')?.status;
}

describe('real exports replay without invented outages', () => {
  it('the table covers every export in the fixture folder', () => {
    const all = readdirSync(REAL)
      .filter((f) => f !== 'SOURCES.md')
      .sort();
    assert.deepEqual(cases.map((c) => c.export).sort(), all);
  });

  for (const c of cases) {
    it(`${c.export} replays 10 minutes as ${c.version} with no node going Unknown that the export does not show Unknown`, () => {
      const scenario = loadScenario(resolve(REAL, c.export), nodeFs());
      const sim = createSimulation(scenario);
      assert.equal(sim.behaviour.version.text, c.version);
      const unknownInExport = new Set([...scenario.snapshot.cluster.nodes.values()].filter((n) => readyOf(n.conditions) === 'Unknown').map((n) => n.meta.name));
      assert.equal(sim.trace.filter((d) => d.action === 'AssumptionMade' && d.object.startsWith('Node/')).length, c.assumed);
      const codes = sim.problems.filter((p) => p.severity === 'warning').map((p) => p.code);
      for (const w of c.warns ?? []) assert.ok(codes.includes(w), `${w} in ${codes.join(', ')}`);
      sim.runUntil(sim.startTime + TEN_MINUTES);
      const wentUnknown = sim.trace.filter((d) => d.action === 'NodeStatusUnknown' && !unknownInExport.has(d.object.slice('Node/'.length)));
      assert.deepEqual(
        wentUnknown.map((d) => `${d.time} ${d.object}: ${d.summary}`),
        [],
      );
      const unreachable = sim.trace.filter(
        (d) => d.action === 'TaintAdded' && /unreachable/.test(d.summary) && !unknownInExport.has(d.object.slice('Node/'.length)),
      );
      assert.deepEqual(
        unreachable.map((d) => `${d.time} ${d.object}: ${d.summary}`),
        [],
      );
    });
  }
});
