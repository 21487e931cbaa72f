/**
 * What an export leaves out is said on the command line before anything is simulated, by
 * `replay` and by `validate` alike, with file:line:column (real exports from ../shared/fixtures/real).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { runCli } from '../helpers/cliRun';

const REAL = resolve(__dirname, '../../../shared/fixtures/real');

const cases: { name: string; export: string; line: RegExp }[] = [
  {
    name: 'a pod whose node is not in the export is named with its node',
    export: 'mustgather-ocp-kube-system-pod-csi-nfs-node-2r5tx.yaml',
    line: /mustgather-ocp-kube-system-pod-csi-nfs-node-2r5tx\.yaml:2:1: warning pods-on-missing-nodes: Pod kube-system\/csi-nfs-node-2r5tx is bound to Node qemtv-05-s8dvn-worker-0-486zc, which is not in the snapshot/,
  },
  {
    name: 'a ReplicaSet whose pods are not in the export is named',
    export: 'mustgather-ocp-kube-system-replicasets.yaml',
    line: /mustgather-ocp-kube-system-replicasets\.yaml:4:3: warning replicaset-pods-missing: ReplicaSet kube-system\/csi-nfs-controller-c54d89cd5 reports 1 replica/,
  },
  {
    name: 'a 1.10 export is simulated as 1.12, and says so',
    export: 'gke-v1.10-node-from-raw-api.excerpt.json',
    line: /gke-v1\.10-node-from-raw-api\.excerpt\.json:1:1: warning version-clamped: the nodes' kubelets report v1\.10\.7-gke\.2, which the engine does not simulate: simulating 1\.12/,
  },
  {
    name: 'heartbeats a week apart in an export without Leases: the oldest looks stale only if its Lease is not assumed',
    export: 'sonobuoy-kind-v1.20-core_v1_nodes.json',
    line: /warning heartbeats-disagree: .*so kind-control-plane will look stale unless its Lease is taken as renewed at the start time \(no-leases\)/,
  },
  {
    name: 'an export without Leases says what is assumed about them',
    export: 'insights-ocp44-gcp-nodes',
    line: /warning no-leases: .*nodes whose Ready is True are taken as having renewed their Lease at the start time/,
  },
];

describe('export gaps on the command line', () => {
  for (const c of cases) {
    it(`replay: ${c.name}`, async () => {
      const r = await runCli('replay', resolve(REAL, c.export), '--until', '1m', '--format', 'json');
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, c.line);
    });
    it(`validate: ${c.name}`, async () => {
      const r = await runCli('validate', resolve(REAL, c.export));
      assert.equal(r.code, 0, r.err + r.out);
      assert.match(r.err + r.out, c.line);
    });
  }

  it('replay of an export without Leases starts its trace with the assumption, one decision per Ready node', async () => {
    const r = await runCli('replay', resolve(REAL, 'sonobuoy-kind-v1.20-core_v1_nodes.json'), '--until', '10m', '--output', 'trace', '--format', 'json');
    const trace = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; action: string; object: string; pass: number | null });
    assert.deepEqual(
      trace.slice(0, 2).map((d) => [d.seq, d.action, d.object, d.pass]),
      [
        [1, 'AssumptionMade', 'Node/kind-control-plane', null],
        [2, 'AssumptionMade', 'Node/kind-worker2', null],
      ],
    );
    assert.equal(trace.filter((d) => d.action === 'NodeStatusUnknown').length, 0);
  });
});
