/**
 * When the binder tries a waiting pod again, through whole scenarios: only a
 * change that may make it fit (a pod leaving a node; a node's Ready status,
 * cordon, NoSchedule/NoExecute taints, shared labels or allocatable) reports
 * it again; and a step back to any pass, then on to the end, gives the trace
 * of a run straight through (the binder's index is dropped on a restore and
 * rebuilt later, which must not change what it decides).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { traceToJsonLines } from '../../../../src/engine/trace/serialize';
import { nodeFs } from '../../../../src/platform/nodeFs';

const dir = mkdtempSync(join(tmpdir(), 'cs-binder-retry-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ready = '{type: Ready, status: "True", lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-01T00:00:00Z"}';
const nodeB = (pods: string) =>
  `{apiVersion: v1, kind: Node, metadata: {name: b, labels: {kubernetes.io/hostname: b}}, spec: {taints: [{key: dedicated, effect: NoSchedule}]}, status: {allocatable: {cpu: "1", memory: 1Gi, pods: "${pods}"}, conditions: [${ready}]}}`;
const podOn = (name: string, node: string) =>
  `{apiVersion: v1, kind: Pod, metadata: {name: ${name}, namespace: default}, spec: {nodeName: ${node}, containers: [{name: c, image: nginx}]}, status: {phase: Running}}`;
const newPod = (name: string, cpu: string) =>
  `{apiVersion: v1, kind: Pod, metadata: {name: ${name}, namespace: default}, spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: "${cpu}"}}}]}}`;

const scenario = `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: binder-retry}
kubernetesVersion: "1.31"
startTime: "2026-01-01T00:00:00Z"
objects:
  - {apiVersion: v1, kind: Node, metadata: {name: a, labels: {kubernetes.io/hostname: a}}, status: {allocatable: {cpu: "1", memory: 1Gi, pods: "2"}, conditions: [${ready}]}}
  - ${nodeB('2')}
  - ${podOn('x1', 'a')}
  - ${podOn('x2', 'a')}
events:
  - {at: 10s, apply: ${newPod('p1', '500m')}}
  - {at: 20s, taint: {key: soft, effect: PreferNoSchedule}, node: b}
  - {at: 25s, patch: {object: Node/a, merge: {metadata: {labels: {kubernetes.io/hostname: a-renamed}}}}}
  - {at: 30s, patch: {object: Node/b, merge: {metadata: {labels: {disk: ssd}}}}}
  - {at: 40s, apply: ${nodeB('3')}}
  - {at: 50s, untaint: {key: dedicated, effect: NoSchedule}, node: b}
  - {at: 60s, apply: ${newPod('p2', '600m')}}
  - {at: 70s, delete: Pod/default/x1}
`;

function run(): ReturnType<typeof createSimulation> {
  const path = join(dir, 'retry.yaml');
  writeFileSync(path, scenario);
  return createSimulation(loadScenario(path, nodeFs()), { checkpointEvery: 1 });
}

test('a waiting pod is reported again only after a change that may make it fit, and bound when one does', () => {
  const sim = run();
  sim.runUntil(sim.startTime + 90e6);
  const binder = sim.trace
    .filter((d) => d.controller === 'scheduler' && d.action !== 'PodStarted')
    .map((d) => `${(Date.parse(d.time) - Date.parse('2026-01-01T00:00:00Z')) / 1000}s ${d.action} ${d.object} ${d.details?.node ?? d.details?.message}`);
  assert.deepEqual(binder, [
    '10s PodUnschedulable Pod/default/p1 0/2 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint {dedicated: }.',
    // 20s: a PreferNoSchedule taint is not filtered on; 25s: the hostname label is each node's own
    '30s PodUnschedulable Pod/default/p1 0/2 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint {dedicated: }.',
    '40s PodUnschedulable Pod/default/p1 0/2 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint {dedicated: }.',
    '50s PodBound Pod/default/p1 b',
    '60s PodUnschedulable Pod/default/p2 0/2 nodes are available: 1 Insufficient cpu, 1 Too many pods.',
    '70s PodBound Pod/default/p2 a',
  ]);
});

test('a step back to any pass, then on, decides what the run straight through decided', () => {
  const straight = run();
  straight.runUntil(straight.startTime + 90e6);
  const want = traceToJsonLines(straight.trace);
  for (const pass of [1, 3, 5, 7, 9, 11, 13, 15]) {
    const sim = run();
    sim.runUntil(sim.startTime + 90e6);
    sim.goToPass(pass);
    sim.runUntil(sim.startTime + 90e6);
    assert.equal(traceToJsonLines(sim.trace), want, `back to pass ${pass}`);
  }
});
