/**
 * A step back puts the ReplicaSet controller's problems back as the live run
 * had them at that pass (restore keeps the checks and the pods' problems of
 * the checkpoint instead of checking every pod again): a ReplicaSet deleted
 * after its pods were checked leaves them with an ownerReference to nothing,
 * which the live run does not report (their ownerReferences did not change,
 * so they are not checked again), and neither must the restored run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { createSimulation } from '../../../../src/engine/simulation/simulation';

const pod = (name: string) => `
  - apiVersion: v1
    kind: Pod
    metadata:
      name: ${name}
      namespace: default
      uid: ${name}-uid
      labels: {app: web}
      creationTimestamp: "2025-12-30T00:00:00Z"
      ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: web-uid, controller: true, blockOwnerDeletion: true}]
    spec: {nodeName: node-1, containers: [{name: web, image: nginx}]}
    status:
      phase: Running
      conditions: [{type: Ready, status: "True", lastTransitionTime: "2025-12-30T00:01:00Z"}]`;

const SCENARIO = `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata:
  name: rs-deleted-under-its-pods
kubernetesVersion: "1.31"
startTime: "2026-01-01T00:00:00Z"
objects:
  - apiVersion: v1
    kind: Node
    metadata: {name: node-1, uid: node-1-uid, labels: {kubernetes.io/hostname: node-1}}
    status:
      conditions:
        - {type: Ready, status: "True", lastHeartbeatTime: "2025-12-31T23:59:58Z", lastTransitionTime: "2025-12-01T00:00:00Z"}
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {name: web, namespace: default, uid: web-uid, generation: 1}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx}]}
    status: {replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1}
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {name: no-selector, namespace: default, uid: no-selector-uid, generation: 1}
    spec:
      replicas: 1
      template:
        metadata: {labels: {app: other}}
        spec: {containers: [{name: web, image: nginx}]}
${pod('web-aaaaa')}
${pod('web-bbbbb')}
events:
  - at: 12s
    delete: ReplicaSet/default/web
`;

const codes = (problems: readonly { code: string; message: string }[]) => problems.map((p) => `${p.code} ${p.message}`).sort();

test('after a step back past the deletion of a ReplicaSet, its pods are not reported as dangling when the live run did not report them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rs-restore-'));
  try {
    const path = join(dir, 'scenario.yaml');
    writeFileSync(path, SCENARIO);
    const sim = createSimulation(loadScenario(path, nodeFs()));
    const live = new Map<number, string[]>();
    while ((sim.pass ?? 0) < 25) {
      sim.step();
      live.set(sim.pass!, codes(sim.problems));
    }
    assert.ok(
      sim.trace.some((d) => d.action === 'ObjectDeleted' || d.summary.toLowerCase().includes('delete')),
      'the ReplicaSet was deleted',
    );
    assert.ok(!sim.cluster!.replicaSets.has('default/web'));
    assert.ok(sim.cluster!.pods.has('default/web-aaaaa'), 'its pods are left (no garbage collector)');
    const at22 = live.get(22)!;
    assert.ok(
      at22.some((p) => p.startsWith('replicaset-no-selector')),
      'the ReplicaSet without a selector is reported',
    );
    assert.ok(!at22.some((p) => p.startsWith('pod-dangling-owner')), 'the live run did not check the pods again');
    for (const n of [22, 15, 11, 3]) {
      sim.goToPass(n);
      assert.deepEqual(codes(sim.problems), live.get(n), `problems at pass ${n} after stepping back`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
