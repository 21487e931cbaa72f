import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shareWithPrevious } from '../../../src/engine/snapshot/share';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { exportCluster } from '../../../src/engine/model/export';

const pod = (name: string, node: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    labels: { app: 'web', 'pod-template-hash': 'abc' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'rs-1', controller: true }],
  },
  spec: {
    nodeName: node,
    containers: [{ name: 'web', image: 'nginx:1.27.3', resources: { requests: { cpu: '100m' } } }],
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
  },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  ...extra,
});

test('equal parts of the next object become the previous object’s, different parts stay its own', () => {
  const a = JSON.parse(JSON.stringify(pod('web-abc-1', 'n1')));
  const b = JSON.parse(JSON.stringify(pod('web-abc-2', 'n2')));
  const before = JSON.stringify(b);
  assert.equal(shareWithPrevious(b, a), false);
  assert.equal(JSON.stringify(b), before, 'prints exactly as before');
  assert.notEqual(b, a);
  assert.equal(b.metadata.labels, a.metadata.labels);
  assert.equal(b.metadata.ownerReferences, a.metadata.ownerReferences);
  assert.equal(b.spec.containers, a.spec.containers);
  assert.equal(b.spec.tolerations, a.spec.tolerations);
  assert.equal(b.status, a.status);
  assert.notEqual(b.metadata, a.metadata, 'the names differ');
  assert.notEqual(b.spec, a.spec, 'the nodes differ');
  assert.equal(a.spec.nodeName, 'n1');
  assert.equal(a.metadata.name, 'web-abc-1', 'the previous object is never written');
});

test('a mapping with the same keys in another order is not shared (it would print differently)', () => {
  const a = { spec: { x: 1, y: 2 } };
  const b = { spec: { y: 2, x: 1 } };
  assert.equal(shareWithPrevious(b, a), false);
  assert.notEqual(b.spec, a.spec);
  assert.equal(JSON.stringify(b), '{"spec":{"y":2,"x":1}}');
  const c = { spec: { x: 1 } };
  const d = { spec: { x: 1, y: 2 } };
  shareWithPrevious(d, c);
  assert.notEqual(d.spec, c.spec, 'an extra key');
  shareWithPrevious(c, { spec: { x: 1, y: 2 } });
  assert.deepEqual(c, { spec: { x: 1 } }, 'a missing key');
});

test('lists of other lengths, other types and null are not shared; a key "__proto__" keeps the prototype', () => {
  const a = JSON.parse('{"l":[1,2],"m":{"n":null},"o":{"p":"1"},"__proto__":{"q":1}}');
  const b = JSON.parse('{"l":[1,2,3],"m":{"n":null},"o":{"p":1},"__proto__":{"q":1}}');
  shareWithPrevious(b, a);
  assert.notEqual(b.l, a.l);
  assert.equal(b.m, a.m);
  assert.notEqual(b.o, a.o);
  assert.equal(Object.getPrototypeOf(b), Object.prototype);
  assert.deepEqual(Object.keys(b), ['l', 'm', 'o', '__proto__']);
});

test('a tree that refers to itself (YAML aliases) or nests very deeply ends the walk', () => {
  const a: Record<string, unknown> = { name: 'a' };
  a.l = a;
  a.r = a;
  const b: Record<string, unknown> = { name: 'a' };
  b.l = b;
  b.r = b;
  assert.equal(shareWithPrevious(b, a), false);
  let deepA: unknown = 'x',
    deepB: unknown = 'x';
  for (let i = 0; i < 100_000; i++) {
    deepA = [deepA];
    deepB = [deepB];
  }
  assert.equal(shareWithPrevious({ v: deepB }, { v: deepA }), false);
});

test('the loader shares between neighbours of a kind, and the export is what was read', () => {
  const items = [pod('web-abc-1', 'n1'), pod('web-abc-2', 'n2'), pod('web-abc-3', 'n2', { spec: { nodeName: 'n2', containers: [] } })];
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
  const snap = loadSnapshot({ file: 'pods.json', text });
  // the pods' nodes are not in the snapshot: that warning is dangling.test.ts's
  assert.deepEqual(
    snap.problems.filter((p) => p.severity !== 'info' && p.code !== 'pods-on-missing-nodes'),
    [],
  );
  const [p1, p2, p3] = ['default/web-abc-1', 'default/web-abc-2', 'default/web-abc-3'].map((k) => snap.cluster.pods.get(k)!);
  assert.equal(p2.meta.labels, p1.meta.labels);
  assert.equal(p2.tolerations, p1.tolerations);
  assert.equal(p2.raw.status as object, p1.raw.status);
  assert.equal(p3.raw.status, p2.raw.status);
  assert.deepEqual(exportCluster(snap.cluster).items, JSON.parse(text).items);
  assert.deepEqual(
    snap.objects.map((o) => o.object),
    JSON.parse(text).items,
  );
});
