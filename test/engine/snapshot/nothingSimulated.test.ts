/**
 * A snapshot whose objects are all of kinds the controllers do not read (a manifest of
 * Deployments given for an export) says so in a warning at the first of them: the replay would
 * otherwise run on an empty cluster and print a trace as if all were well.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSnapshot } from '../../../src/engine/snapshot/load';

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n';
const SERVICE = 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\n';
const NODE = 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {conditions: [{type: Ready, status: "True"}]}\n';
const POD = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {containers: [{name: c, image: x}]}\n';
const LEASE =
  'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: n1, namespace: kube-node-lease}\nspec: {holderIdentity: n1, renewTime: "2026-01-01T00:00:00.000000Z"}\n';

const cases: { name: string; text: string; want?: { message: RegExp; line: number; column?: number } }[] = [
  {
    name: 'only Deployments and a Service',
    text: `${SERVICE}---\n${DEPLOYMENT}---\n${DEPLOYMENT.replace('web', 'api')}`,
    want: {
      message: /^none of the 3 objects read \(1 Service, 2 Deployments\) is of a kind the controllers read \(Node, Pod, ReplicaSet, DaemonSet, node Lease\)/,
      line: 1,
    },
  },
  { name: 'one Deployment', text: `---\n${DEPLOYMENT}`, want: { message: /^none of the 1 object read \(1 Deployment\)/, line: 2 } },
  {
    name: 'kubectl get events -o yaml: sent to import',
    text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Event\n  metadata: {name: n1.17, namespace: default}\n  involvedObject: {kind: Node, name: n1}\n  reason: NodeNotReady\n',
    want: {
      message: /^none of the 1 object read \(1 Event\) .*; Events record what happened: controller-stepper import turns them into a scenario$/,
      line: 4,
      column: 3,
    },
  },
  { name: 'a Node beside a Deployment', text: `${DEPLOYMENT}---\n${NODE}` },
  { name: 'an unbound Pod beside a Service', text: `${SERVICE}---\n${POD}` },
  { name: 'a node Lease alone', text: LEASE },
  { name: 'an empty List', text: 'apiVersion: v1\nkind: List\nitems: []\n' },
];

for (const c of cases) {
  test(`nothing-simulated: ${c.name}`, () => {
    const snap = loadSnapshot([{ file: 'in.yaml', text: c.text }]);
    const found = snap.problems.filter((p) => p.code === 'nothing-simulated');
    if (!c.want) {
      assert.deepEqual(found, []);
      return;
    }
    assert.equal(found.length, 1, JSON.stringify(snap.problems));
    assert.equal(found[0].severity, 'warning');
    assert.match(found[0].message, c.want.message);
    assert.deepEqual([found[0].position?.file, found[0].position?.line, found[0].position?.column], ['in.yaml', c.want.line, c.want.column ?? 1]);
  });
}
