/**
 * LoadOptions.keepOf: what each object read keeps of itself once its record
 * is built. A load that keeps only the objects' identities gives the cluster,
 * the problems and their positions that a load keeping everything gives, for
 * every way a file is read; and a streamed file hands each object over while
 * the rest of the file is still unread (so its bulk can go item by item).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import type { KObject } from '../../../src/engine/model/types';
import type { LoadedSnapshot } from '../../../src/engine/snapshot/types';

/** The least keepOf may keep (see KeepOf): identity, a pod's spec.nodeName, a node's status.nodeInfo. */
function identityKeep(o: KObject, kind: string): KObject {
  const md = o.metadata as KObject | undefined;
  const kept: KObject = { apiVersion: o.apiVersion, kind: o.kind, metadata: { name: md?.name, namespace: md?.namespace } };
  const nodeName = (o.spec as KObject | undefined)?.nodeName;
  if (kind === 'Pod' && nodeName !== undefined) kept.spec = { nodeName };
  const nodeInfo = (o.status as KObject | undefined)?.nodeInfo;
  if (kind === 'Node' && nodeInfo !== undefined) kept.status = { nodeInfo };
  kept.kept = true;
  return kept;
}

const node = (name: string, extra: KObject = {}): KObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'topology.kubernetes.io/zone': 'a' } },
  status: {
    conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    nodeInfo: { kubeletVersion: 'v1.31.0' },
  },
  ...extra,
});
const pod = (name: string, nodeName: string, extra: KObject = {}): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    creationTimestamp: '2025-12-31T00:00:00Z',
    ownerReferences: [{ kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true }],
  },
  spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
  status: { phase: 'Running' },
  ...extra,
});

/** Every path through unitObjects: used, duplicate (moved to another node), ignored kind, ignored Lease, kindless, bad field, not an object. */
const OBJECTS: unknown[] = [
  node('n1'),
  node('n2', { spec: { taints: [{ key: 'k', effect: 'NoSleep' }] } }),
  pod('p1', 'n1'),
  pod('p2', 'n2', { status: { phase: 'Sleeping' } }),
  {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: { replicas: 2, selector: { matchLabels: { a: 'b' } } },
  },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data: { big: 'x'.repeat(100) } },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'leader', namespace: 'kube-system' }, spec: { holderIdentity: 'a' } },
  pod('p1', 'n2'),
  { metadata: { name: 'mystery' } },
  'a string',
];

const list = (indent: number) => JSON.stringify({ apiVersion: 'v1', items: OBJECTS, kind: 'List', metadata: { resourceVersion: '' } }, null, indent);

const CASES: { name: string; file: string; text: string; streamFilesAbove?: number }[] = [
  { name: 'a JSON List read whole', file: '/c.json', text: list(4) },
  { name: 'a JSON List streamed item by item', file: '/c.json', text: list(4), streamFilesAbove: 0 },
  { name: 'a compact JSON List streamed', file: '/c.json', text: list(0), streamFilesAbove: 0 },
  { name: 'a JSON array read whole', file: '/c.json', text: JSON.stringify(OBJECTS) },
  { name: 'multi-document YAML read whole', file: '/c.yaml', text: OBJECTS.map((o) => stringify(o)).join('---\n') },
  { name: 'multi-document YAML streamed', file: '/c.yaml', text: OBJECTS.map((o) => stringify(o)).join('---\n'), streamFilesAbove: 0 },
  { name: 'a YAML List streamed', file: '/c.yaml', text: stringify({ apiVersion: 'v1', kind: 'List', items: OBJECTS }), streamFilesAbove: 0 },
];

const withoutRaw = (records: Map<string, { raw: KObject }>) => [...records].map(([k, r]) => [k, { ...r, raw: undefined }]);
const clusterOf = (s: LoadedSnapshot) => {
  const c = s.cluster;
  return {
    nodes: withoutRaw(c.nodes),
    pods: withoutRaw(c.pods),
    replicaSets: withoutRaw(c.replicaSets),
    leases: withoutRaw(c.leases),
    podsByNode: [...c.podsByNode].map(([n, set]) => [n, [...set]]),
  };
};
const problemsOf = (s: LoadedSnapshot) =>
  s.problems.map((p) => `${p.position?.line ?? '-'}:${p.position?.column ?? '-'} ${p.severity} ${p.code}: ${p.message}`);

test('a load that keeps only identities gives the cluster, problems and positions of a load that keeps everything', () => {
  for (const c of CASES) {
    const fs = new MemoryFs({ [c.file]: c.text });
    fs.chunkChars = 13;
    const options = c.streamFilesAbove === undefined ? {} : { streamFilesAbove: c.streamFilesAbove };
    const all = loadSnapshot(c.file, fs, options);
    const kept = loadSnapshot(c.file, fs, { ...options, keepOf: identityKeep });
    assert.ok(all.cluster.pods.size >= 2 && all.problems.length >= 4, `${c.name}: the input gives pods and problems`);
    assert.deepEqual(clusterOf(kept), clusterOf(all), `${c.name}: cluster`);
    assert.deepEqual(problemsOf(kept), problemsOf(all), `${c.name}: problems`);
    assert.deepEqual(
      kept.objects.map((o) => [o.kind, o.name, o.position]),
      all.objects.map((o) => [o.kind, o.name, o.position]),
      `${c.name}: objects`,
    );
    assert.deepEqual(kept.cluster.podsByNode.get('n1'), undefined, `${c.name}: the duplicate p1 left n1`);
    assert.ok(
      kept.objects.every((o) => o.object.kept === true),
      `${c.name}: every object is what keepOf returned`,
    );
    const records = [...kept.cluster.nodes.values(), ...kept.cluster.pods.values(), ...kept.cluster.replicaSets.values()];
    for (const r of records) {
      assert.equal(r.raw.kept, true, `${c.name}: ${r.meta.name}'s raw is kept`);
      assert.ok(
        kept.objects.some((o) => o.object === r.raw),
        `${c.name}: ${r.meta.name}'s raw is its loaded object`,
      );
    }
    const held = JSON.stringify(kept.objects.map((o) => o.object));
    for (const bulk of ['containers', 'conditions', 'ownerReferences', 'xxxx']) assert.ok(!held.includes(bulk), `${c.name}: no ${bulk} held`);
  }
});

test('a streamed file hands each object to keepOf before the rest of the file is read', () => {
  const items = Array.from({ length: 40 }, (_, i) => pod(`p${i}`, 'n1'));
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 4);
  const fs = new MemoryFs({ '/big.json': text });
  const events: string[] = [];
  const readChunks = fs.readChunks.bind(fs);
  fs.readChunks = function* (path: string) {
    let n = 0;
    for (const chunk of readChunks(path)) {
      events.push(`chunk ${n++}`);
      yield chunk;
    }
  };
  fs.chunkChars = 256;
  const snap = loadSnapshot('/big.json', fs, {
    streamFilesAbove: 0,
    keepOf: (o, kind) => {
      events.push(`kept ${(o.metadata as KObject).name}`);
      return identityKeep(o, kind);
    },
  });
  assert.equal(snap.cluster.pods.size, 40);
  const lastChunk = events.map((e) => e.startsWith('chunk')).lastIndexOf(true);
  assert.ok(lastChunk > 20, 'the file came in many chunks');
  assert.ok(events.indexOf('kept p0') < events.length / 2, `p0 was handed over early: ${events.slice(0, 12).join(', ')}`);
  assert.ok(events.indexOf('kept p20') < lastChunk, 'p20 before the last chunk was read');
});
