/**
 * When the binder tries a waiting pod again, through whole scenarios, per
 * version (schedulingQueue.ts): only a change that may make it fit (a pod
 * leaving a node; a node's Ready status, uncordon, NoSchedule/NoExecute
 * taints, labels or allocatable) moves it, from v1.21 only when it would fit
 * the changed node (preCheckForNode); from v1.14 it waits out its backoff and
 * the leftover flush tries it again; and a step back to any pass, then on to
 * the end, gives the trace of a run straight through (the binder's index is
 * dropped on a restore and rebuilt later, which must not change what it
 * decides).
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

const scenario = (version: string) => `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: binder-retry}
kubernetesVersion: "${version}"
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

function run(version = '1.31', file = scenario(version)): ReturnType<typeof createSimulation> {
  const path = join(dir, `retry-${version}.yaml`);
  writeFileSync(path, file);
  return createSimulation(loadScenario(path, nodeFs()), { checkpointEvery: 1 });
}

const T0 = Date.parse('2026-01-01T00:00:00Z');
const binderLines = (sim: ReturnType<typeof createSimulation>) =>
  sim.trace
    .filter((d) => d.controller === 'scheduler' && d.action !== 'PodStarted')
    .map((d) => `${(Date.parse(d.time) - T0) / 1000}s ${d.action} ${d.object} ${d.details?.node ?? d.details?.message}`);

const P1 = 'PodUnschedulable Pod/default/p1 0/2 nodes are available: 1 Too many pods, 1 node(s) had';
const P2 = 'PodUnschedulable Pod/default/p2 0/2 nodes are available: 1 Insufficient cpu, 1 Too many pods.';
const tainted = (minor: number) =>
  minor < 18
    ? " taints that the pod didn't tolerate."
    : minor < 25
      ? " taint {dedicated: }, that the pod didn't tolerate."
      : ' untolerated taint {dedicated: }.';

// 20s: a PreferNoSchedule taint is not filtered on, so nothing moves the pod
const RETRIES: { version: string; p1: string[]; why: string }[] = [
  // every node change moves it, at once: 25s hostname, 30s label, 40s allocatable
  { version: '1.12', p1: ['10s', '25s', '30s', '40s'], why: 'no backoff, no preCheck' },
  // its backoff (1 s, 2 s, 4 s) has ended at each event
  { version: '1.18', p1: ['10s', '25s', '30s', '40s'], why: 'backoff over, no preCheck' },
  // node b is still tainted and node a full: preCheckForNode keeps it parked
  { version: '1.31', p1: ['10s'], why: 'preCheckForNode' },
];

for (const c of RETRIES)
  test(`v${c.version}: a waiting pod is tried again only after a change that may make it fit (${c.why}), and bound when one does`, () => {
    const sim = run(c.version);
    sim.runUntil(sim.startTime + 90e6);
    const minor = Number(c.version.split('.')[1]);
    assert.deepEqual(binderLines(sim), [
      ...c.p1.map((t) => `${t} ${P1}${tainted(minor)}`),
      '50s PodBound Pod/default/p1 b',
      `60s ${P2}`,
      '70s PodBound Pod/default/p2 a',
    ]);
  });

/** p fits nowhere (2 cpu on a 1-cpu node); x1 and x2 leave node a at 10.5 s and 11.5 s: each move is an AssignedPodDelete. */
const backoffScenario = (version: string) => `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: binder-backoff}
kubernetesVersion: "${version}"
startTime: "2026-01-01T00:00:00Z"
objects:
  - {apiVersion: v1, kind: Node, metadata: {name: a, labels: {kubernetes.io/hostname: a}}, status: {allocatable: {cpu: "1", memory: 1Gi, pods: "4"}, conditions: [${ready}]}}
  - ${podOn('x1', 'a')}
  - ${podOn('x2', 'a')}
events:
  - {at: 10s, apply: ${newPod('p', '2')}}
  - {at: 10500ms, delete: Pod/default/x1}
  - {at: 11500ms, delete: Pod/default/x2}
`;

const ATTEMPTS: { version: string; at: number[]; why: string }[] = [
  { version: '1.12', at: [10, 10.5, 11.5], why: 'moved at once; never flushed' },
  // backoff 1 s after attempt 1 (to 11 s), 2 s after attempt 2 (to 13 s); then parked > 60 s: flushed at 90, 180, 270, 360 s
  { version: '1.18', at: [10, 11, 13, 90, 180, 270, 360], why: 'backoff; leftover flush after 60 s' },
  // parked > 5 min: the flush at 330 s (every 30 s from the start)
  { version: '1.31', at: [10, 11, 13, 330], why: 'backoff; leftover flush after 5 min' },
  // popped from backoffQ at once while nothing else waits
  { version: '1.33', at: [10, 10.5, 11.5, 330], why: 'pop from backoffQ; leftover flush after 5 min' },
];

for (const c of ATTEMPTS)
  test(`v${c.version}: the attempts of a pod that never fits (${c.why})`, () => {
    const sim = run(c.version, backoffScenario(c.version));
    sim.runUntil(sim.startTime + 400e6);
    const at = sim.trace.filter((d) => d.action === 'PodUnschedulable').map((d) => (Date.parse(d.time) - T0) / 1000);
    assert.deepEqual(at, c.at);
  });

const STEP_BACK: { name: string; version: string; file: () => string; until: number; passes: number[] }[] = [
  { name: 'node changes', version: '1.31', file: () => scenario('1.31'), until: 90e6, passes: [1, 3, 5, 7, 9, 11, 13, 15] },
  // every node change moves the pod on 1.12: back before the allocatable change at 40s, the binder must see it again
  // (the restore takes over what the binder before it heard of, and reads the nodes put back)
  { name: 'node changes, each one a retry (1.12)', version: '1.12', file: () => scenario('1.12'), until: 90e6, passes: [1, 5, 7, 8, 9, 11] },
  // a restore in the middle of a backoff and of a parked wait: the attempts, last attempt and flush origin come back
  { name: 'backoff and leftover flush', version: '1.18', file: () => backoffScenario('1.18'), until: 400e6, passes: [2, 3, 10, 30, 60] },
];

for (const c of STEP_BACK)
  test(`a step back to any pass, then on, decides what the run straight through decided (${c.name})`, () => {
    const straight = run(c.version, c.file());
    straight.runUntil(straight.startTime + c.until);
    const want = traceToJsonLines(straight.trace);
    for (const pass of c.passes) {
      const sim = run(c.version, c.file());
      sim.runUntil(sim.startTime + c.until);
      sim.goToPass(pass);
      sim.runUntil(sim.startTime + c.until);
      assert.equal(traceToJsonLines(sim.trace), want, `back to pass ${pass}`);
    }
  });
