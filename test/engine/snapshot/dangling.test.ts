/**
 * What a partial export leaves dangling is named in a warning before pass 0: pods bound to nodes
 * the snapshot does not hold, and ReplicaSets that report replicas none of whose pods it holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import type { KObject } from '../../../src/engine/model/types';

function node(name: string): KObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
}
function pod(name: string, nodeName: string, owner?: { name: string; uid?: string }): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.name, uid: owner.uid ?? '', controller: true }] } : {}),
    },
    spec: { nodeName, containers: [{ name: 'c', image: 'x' }] },
  };
}
function rs(name: string, statusReplicas: number, uid = `uid-${name}`, replicas = 3): KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', uid },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    },
    status: { replicas: statusReplicas },
  };
}

function warnings(items: KObject[]) {
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 1);
  return loadSnapshot({ file: 'x.json', text }).problems.filter((p) => p.severity === 'warning');
}

const cases: { name: string; items: KObject[]; want: string[] }[] = [
  {
    name: 'a pod on a node the snapshot holds is not named',
    items: [node('n1'), pod('a', 'n1')],
    want: [],
  },
  {
    name: 'pods on a missing node are named, with the node, in one warning',
    items: [node('n1'), pod('b', 'gone'), pod('a', 'gone')],
    want: [
      'pods-on-missing-nodes: 2 pods default/a, default/b are bound to Node gone, which is not in the snapshot: no simulated controller acts on them (if the node is really gone, the pod garbage collector, which is not simulated, would delete them; if the export left it out, export the node too)',
    ],
  },
  {
    name: 'each missing node gets its own warning, in name order',
    items: [pod('a', 'n2'), pod('b', 'n1')],
    want: [
      'pods-on-missing-nodes: Pod default/b is bound to Node n1, which is not in the snapshot: no simulated controller acts on it (if the node is really gone, the pod garbage collector, which is not simulated, would delete it; if the export left it out, export the node too)',
      'pods-on-missing-nodes: Pod default/a is bound to Node n2, which is not in the snapshot: no simulated controller acts on it (if the node is really gone, the pod garbage collector, which is not simulated, would delete it; if the export left it out, export the node too)',
    ],
  },
  {
    name: 'a ReplicaSet that reports replicas and owns no pod in the snapshot is named, with what the controller will do',
    items: [node('n1'), rs('web', 2)],
    want: [
      'replicaset-pods-missing: ReplicaSet default/web reports 2 replicas (status.replicas) but the snapshot holds none of its pods: the ReplicaSet controller creates 3 new pods at its first sync (export its pods too: kubectl get pods -n default -o yaml)',
    ],
  },
  {
    name: 'a ReplicaSet whose pods are in the snapshot is not named',
    items: [node('n1'), rs('web', 1), pod('web-1', 'n1', { name: 'web', uid: 'uid-web' })],
    want: [],
  },
  {
    name: 'a ReplicaSet that reports no replicas is not named',
    items: [node('n1'), rs('web', 0)],
    want: [],
  },
  {
    name: 'a pod owned by another ReplicaSet of the same name (another uid) does not count as its pod',
    items: [node('n1'), rs('web', 1, 'uid-new', 1), pod('web-1', 'n1', { name: 'web', uid: 'uid-old' })],
    want: [
      'replicaset-pods-missing: ReplicaSet default/web reports 1 replica (status.replicas) but the snapshot holds none of its pods: the ReplicaSet controller creates 1 new pod at its first sync (export its pods too: kubectl get pods -n default -o yaml)',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(
      warnings(c.items).map((p) => `${p.code}: ${p.message}`),
      c.want,
    );
  });
}

test('the warnings point at the first pod on the missing node and at the ReplicaSet', () => {
  const w = warnings([pod('a', 'gone'), rs('web', 1)]);
  assert.deepEqual(
    w.map((p) => [p.code, p.position?.file, p.position?.line]),
    [
      ['pods-on-missing-nodes', 'x.json', 5],
      ['replicaset-pods-missing', 'x.json', 22],
    ],
  );
});

test('past 20 missing nodes the rest are counted in one more warning', () => {
  const items = Array.from({ length: 23 }, (_, i) => pod(`p${i}`, `gone-${String(i).padStart(2, '0')}`));
  const w = warnings(items);
  assert.equal(w.length, 21);
  assert.equal(w[20].message, '3 more pod(s) are bound to 3 more node(s) not in the snapshot (gone-20, gone-21, gone-22)');
});
