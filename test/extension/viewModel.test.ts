import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildClusterView, diffItems, evictionOf, tolerates, zoneOfLabels } from '../../src/extension/viewModel';

const zoneCases: { name: string; labels: Record<string, string>; zone: string }[] = [
  { name: 'a zone label alone names the zone', labels: { 'topology.kubernetes.io/zone': 'a' }, zone: 'Zone/a' },
  { name: 'a region prefixes the zone', labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'a' }, zone: 'Zone/r/a' },
  { name: 'the beta labels are read when the GA ones are missing', labels: { 'failure-domain.beta.kubernetes.io/region': 'r', 'failure-domain.beta.kubernetes.io/zone': 'b' }, zone: 'Zone/r/b' },
  { name: 'a region without a zone is Zone/REGION/', labels: { 'topology.kubernetes.io/region': 'r' }, zone: 'Zone/r/' },
  { name: 'an unlabelled node is in Zone/', labels: {}, zone: 'Zone/' },
];
for (const c of zoneCases) test(`zone key: ${c.name}`, () => assert.equal(zoneOfLabels(c.labels), c.zone));

const tolCases: { name: string; tol: Parameters<typeof tolerates>[0]; taint: Record<string, string>; ok: boolean }[] = [
  { name: 'Exists with no key tolerates everything', tol: { key: '', operator: 'Exists', value: '', effect: '' }, taint: { key: 'k', effect: 'NoExecute' }, ok: true },
  { name: 'a different effect does not tolerate', tol: { key: 'k', operator: 'Exists', value: '', effect: 'NoSchedule' }, taint: { key: 'k', effect: 'NoExecute' }, ok: false },
  { name: 'Equal needs the same value', tol: { key: 'k', operator: 'Equal', value: 'v', effect: '' }, taint: { key: 'k', value: 'w', effect: 'NoExecute' }, ok: false },
  { name: 'a missing operator means Equal', tol: { key: 'k', operator: '', value: 'v', effect: '' }, taint: { key: 'k', value: 'v', effect: 'NoExecute' }, ok: true },
];
for (const c of tolCases) test(`toleration: ${c.name}`, () => assert.equal(tolerates(c.tol, c.taint), c.ok));

const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:01:00Z' };
const evictionCases: { name: string; tolerations: unknown[]; taints: Record<string, string>[]; expect: unknown }[] = [
  { name: 'no NoExecute taint means no eviction', tolerations: [], taints: [{ key: 'x', effect: 'NoSchedule' }], expect: {} },
  { name: 'an untolerated NoExecute taint evicts at once', tolerations: [], taints: [unreachable], expect: { evictNow: true, evictionTaint: 'node.kubernetes.io/unreachable:NoExecute' } },
  { name: 'tolerationSeconds counts from the taint being added', tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }], taints: [unreachable], expect: { evictionAt: '2026-01-01T00:06:00.000Z', evictionTaint: 'node.kubernetes.io/unreachable:NoExecute' } },
  { name: 'the smallest of the matching tolerationSeconds wins', tolerations: [{ operator: 'Exists', tolerationSeconds: 600 }, { key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 60 }], taints: [unreachable], expect: { evictionAt: '2026-01-01T00:02:00.000Z', evictionTaint: 'node.kubernetes.io/unreachable:NoExecute' } },
  { name: 'a toleration without seconds tolerates forever', tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }], taints: [unreachable], expect: {} },
];
for (const c of evictionCases) test(`pod eviction countdown: ${c.name}`, () => assert.deepEqual(evictionOf({ spec: { tolerations: c.tolerations } }, c.taints), c.expect));

test('the cluster view reads nodes, pods and ReplicaSets from the state list', () => {
  const view = buildClusterView({
    objects: {
      apiVersion: 'v1', kind: 'List',
      items: [
        { kind: 'Node', metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'a' } }, spec: { taints: [unreachable], unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } },
        { kind: 'Node', metadata: { name: 'n2' } },
        { kind: 'Pod', metadata: { name: 'p', namespace: 'ns', ownerReferences: [{ kind: 'ReplicaSet', name: 'rs', controller: true }] }, spec: { nodeName: 'n1' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } },
        { kind: 'ReplicaSet', metadata: { name: 'rs', namespace: 'ns' }, spec: {}, status: { replicas: 1, readyReplicas: 0 } },
        { kind: 'Lease', metadata: { name: 'n1' } },
      ],
    },
  });
  assert.deepEqual(view.nodes.get('Node/n1'), { ref: 'Node/n1', name: 'n1', zone: 'Zone/a', ready: 'Unknown', taints: ['node.kubernetes.io/unreachable:NoExecute'], unschedulable: true });
  assert.equal(view.nodes.get('Node/n2')?.ready, 'None');
  assert.deepEqual(view.pods.get('Pod/ns/p'), { ref: 'Pod/ns/p', node: 'n1', phase: 'Running', ready: false, owner: 'ReplicaSet/ns/rs', evictNow: true, evictionTaint: 'node.kubernetes.io/unreachable:NoExecute' });
  assert.deepEqual(view.replicaSets.get('ReplicaSet/ns/rs'), { ref: 'ReplicaSet/ns/rs', desired: 1, current: 1, ready: 0 });
});

test('the delta holds what is new or changed and what is gone, nothing else', () => {
  const a = new Map([['x', { ref: 'x', v: [1] }], ['y', { ref: 'y', v: [2] }], ['z', { ref: 'z', v: [3] }]]);
  const b = new Map([['x', { ref: 'x', v: [1] }], ['y', { ref: 'y', v: [4] }], ['w', { ref: 'w', v: [5] }]]);
  assert.deepEqual(diffItems(a, b), { upsert: [{ ref: 'y', v: [4] }, { ref: 'w', v: [5] }], remove: ['z'] });
  assert.deepEqual(diffItems(undefined, b).upsert.length, 3);
});
