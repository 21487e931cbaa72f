/**
 * An expectation about an object that never existed is a failure that says
 * so (spec 4, issue 13 §1), whatever it asserts — except `exists: false`
 * about an object the scenario can still create ("not yet").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCliWith } from '../helpers/cliRun';
import { MemoryFs } from '../../src/engine/snapshot/source';

const HEAD = `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: never}
kubernetesVersion: "1.31"
startTime: "2026-01-01T00:00:00Z"
binder: none
objects:
  - {apiVersion: v1, kind: Node, metadata: {name: a1}, status: {conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-01T00:00:00Z"}]}}
  - {apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: web, namespace: default, uid: u1}, spec: {replicas: 0, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: i}]}}}}
  - {apiVersion: v1, kind: Pod, metadata: {name: solo, namespace: default}, spec: {nodeName: a1, containers: [{name: c, image: i}]}, status: {phase: Running}}
events:
  - {at: 30s, delete: Pod/default/solo}
  - {at: 2m, apply: {apiVersion: v1, kind: Node, metadata: {name: late}}}
expect:
`;

const cases: { name: string; entry: string; ok: boolean }[] = [
  { name: 'deleted: true for a pod that never existed fails', entry: '{at: 1m, pod: default/sloo, deleted: true}', ok: false },
  { name: 'deleted: true for a pod an event deleted passes', entry: '{at: 1m, pod: default/solo, deleted: true}', ok: true },
  { name: 'exists: false for a pod nothing can create fails', entry: '{at: 1m, pod: default/sloo, exists: false}', ok: false },
  { name: 'exists: false for a node a later apply creates passes: not yet', entry: '{at: 1m, node: late, exists: false}', ok: true },
  { name: 'exists: true for that node after the apply passes', entry: '{at: 3m, node: late, exists: true}', ok: true },
  { name: 'exists: false for a pod named after a ReplicaSet passes: none was created', entry: '{at: 1m, pod: default/web-x7k2p, exists: false}', ok: true },
  { name: 'deleted: true for a pod named after a ReplicaSet that never created it fails', entry: '{at: 1m, pod: default/web-x7k2p, deleted: true}', ok: false },
  { name: 'ready for a misspelt node fails', entry: '{at: 1m, node: a2, ready: "True"}', ok: false },
  { name: 'replicas for a misspelt ReplicaSet fails', entry: '{at: 1m, replicaSet: default/wbe, replicas: 0}', ok: false },
  { name: 'lacksTaint on a misspelt node fails', entry: '{at: 1m, node: a2, lacksTaint: node.kubernetes.io/unreachable}', ok: false },
];

for (const c of cases) {
  test(c.name, async () => {
    const fs = new MemoryFs({ '/s/never.yaml': `${HEAD}  - ${c.entry}\n` });
    const { code, out, err } = await runCliWith(['test', '/s/never.yaml'], { fs });
    assert.equal(code, c.ok ? 0 : 1, out + err);
    if (c.ok) assert.match(out, /\n1 passed, 0 failed\n$/);
    else assert.match(out, /never existed: it is not in the snapshot and no event or controller created it[\s\S]*\n0 passed, 1 failed\n$/);
  });
}
