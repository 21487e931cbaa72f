import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSnapshot, loadSnapshotChunks } from '../../../src/engine/snapshot/load';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { lintFile } from '../../../src/engine/lint';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import type { Problem } from '../../../src/engine/problems';
import { stringify } from 'yaml';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFs } from '../../../src/platform/nodeFs';

const where = (ps: Problem[]) => ps.map((p) => `${p.position?.line ?? '-'}:${p.position?.column ?? '-'} ${p.severity} ${p.code}`);

/** A file read whole (the default under the threshold) and the same file streamed in chunks of `chunk` characters. */
function both(name: string, text: string, chunk = 7) {
  const fs = new MemoryFs({ [name]: text });
  fs.chunkChars = chunk;
  return { whole: loadSnapshot(name, fs), streamed: loadSnapshot(name, fs, { streamFilesAbove: 0 }) };
}

const node = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'topology.kubernetes.io/zone': 'a' } },
  status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  ...extra,
});
const pod = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', creationTimestamp: '2025-12-31T00:00:00Z' },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx', args: ['},{"apiVersion":', '\\"'] }] },
  status: { phase: 'Running' },
  ...extra,
});

const MIXED = [
  node('n1'),
  pod('p1'),
  pod('p2', { status: { phase: 'Sleeping' } }),
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data: { 'a.json': '{"items": [1, 2]}' } },
  node('n2', { spec: { taints: [{ key: 'k', effect: 'NoSleep' }] } }),
  pod('p1'),
  { metadata: { name: 'mystery' } },
  'a string',
  node('n3', { metadata: { name: 'n3', creationTimestamp: 'yesterday' } }),
];

test('a List read as a stream gives the objects, problems and positions it gives read whole, compact or indented, LF or CRLF', () => {
  for (const indent of [0, 4]) {
    for (const crlf of [false, true]) {
      let text = JSON.stringify({ apiVersion: 'v1', items: MIXED, kind: 'List', metadata: { resourceVersion: '' } }, null, indent);
      if (crlf) text = text.replace(/\n/g, '\r\n');
      const { whole, streamed } = both('/c.json', `\ufeff${text}\n`);
      const label = `indent ${indent}${crlf ? ', CRLF' : ''}`;
      assert.deepEqual(
        streamed.objects.map((o) => o.object),
        whole.objects.map((o) => o.object),
        label,
      );
      assert.deepEqual(where(streamed.problems), where(whole.problems), label);
      assert.deepEqual(
        streamed.problems.map((p) => p.message),
        whole.problems.map((p) => p.message),
        label,
      );
      assert.equal(streamed.partial, whole.partial);
      assert.deepEqual([...streamed.cluster.pods.keys()], ['default/p2', 'default/p1']);
    }
  }
});

test('a typed list whose kind comes after its items (as kubectl prints kind) still types its items without kind', () => {
  const text = JSON.stringify({ apiVersion: 'v1', items: [{ metadata: { name: 'n1' } }, { metadata: { name: 'n2' } }], kind: 'NodeList' }, null, 4);
  const { whole, streamed } = both('/nodes-list.json', text);
  assert.deepEqual([...streamed.cluster.nodes.keys()], ['n1', 'n2']);
  assert.deepEqual(where(streamed.problems), where(whole.problems));
});

test('a typed list whose first item has no kind keeps the file order of its items, as read whole', () => {
  const items = [{ metadata: { name: 'n1' } }, node('n2'), { metadata: { name: 'n3' } }, node('n4')];
  const text = JSON.stringify({ apiVersion: 'v1', items, kind: 'NodeList' }, null, 4);
  const { whole, streamed } = both('/nodes-list.json', text);
  assert.deepEqual([...whole.cluster.nodes.keys()], ['n1', 'n2', 'n3', 'n4']);
  assert.deepEqual([...streamed.cluster.nodes.keys()], [...whole.cluster.nodes.keys()]);
  assert.deepEqual(
    streamed.objects.map((o) => o.object),
    whole.objects.map((o) => o.object),
  );
  assert.deepEqual(where(streamed.problems), where(whole.problems));
});

/** An indented List of `n` pods (kubectl -o json) with item `bad` broken by a stray token. */
function brokenList(n: number, bad: number): string {
  const items = Array.from({ length: n }, (_, i) => pod(`p${i}`));
  const text = JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4);
  return text.replace(`"name": "p${bad}",`, `"name": "p${bad}" oops,`);
}

test('a syntax error deep in a streamed List is reported at its line and column, and every other item loads', () => {
  const text = brokenList(700, 613);
  const fs = new MemoryFs({ '/big.json': text });
  fs.chunkChars = 4096;
  const snap = loadSnapshot('/big.json', fs, { streamFilesAbove: 0 });
  const at = text.indexOf('oops');
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  assert.deepEqual(where(snap.problems.filter((p) => p.code === 'json-syntax')), [`${line}:${column} error json-syntax`]);
  assert.match(snap.problems[0].message, /this item of the list is left out/);
  assert.equal(snap.cluster.pods.size, 699);
  assert.ok(!snap.cluster.pods.has('default/p613') && snap.cluster.pods.has('default/p612') && snap.cluster.pods.has('default/p614'));
  assert.equal(snap.partial, true);
});

test('a file over the stream threshold is read as a stream, not refused for its size', () => {
  const text = JSON.stringify({ kind: 'List', items: [node('n1'), pod('p1')] });
  const fs = new MemoryFs().write('/huge.json', text, 2 * 1024 ** 3);
  const snap = loadSnapshot('/huge.json', fs);
  assert.deepEqual(snap.problems, []);
  assert.deepEqual([...snap.cluster.nodes.keys()], ['n1']);
  assert.equal(snap.cluster.pods.size, 1);
});

test('a size limit the caller sets still refuses a file, streamed or not', () => {
  const fs = new MemoryFs().write('/huge.json', '{"items":[]}', 2 * 1024 ** 3);
  const snap = loadSnapshot('/huge.json', fs, { maxFileBytes: 1024 ** 3 });
  assert.deepEqual(where(snap.problems), ['1:1 error file-too-large']);
});

test('multi-document YAML read as a stream gives the objects, problems and positions it gives read whole', () => {
  const docs = MIXED.filter((o) => typeof o === 'object').map((o) => stringify(o));
  // a block scalar whose lines look like markers but are indented, and a bad document in the middle
  docs.splice(2, 0, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s, namespace: d}\ndata:\n  x: |\n    ---\n    --- a\n');
  docs.splice(5, 0, 'apiVersion: v1\nkind: Node\nmetadata: name: broken\n');
  for (const crlf of [false, true]) {
    let text = `---\n${docs.join('---\n')}`;
    if (crlf) text = text.replace(/\n/g, '\r\n');
    const { whole, streamed } = both('/c.yaml', text, 5);
    assert.deepEqual(
      streamed.objects.map((o) => o.object),
      whole.objects.map((o) => o.object),
    );
    assert.deepEqual(where(streamed.problems), where(whole.problems));
    assert.ok(streamed.problems.some((p) => p.code === 'yaml-syntax'));
    assert.deepEqual([...streamed.cluster.nodes.keys()], ['n1', 'n2', 'n3']);
  }
});

test('chunks of UTF-8 bytes load as their text does', () => {
  // names are DNS-1123 (the API refuses others); free text such as an annotation carries the multi-byte characters
  const note = { metadata: { name: 'noeud-u', labels: { 'topology.kubernetes.io/zone': 'a' }, annotations: { 'example.com/note': 'nœud-ü ✓ 节点' } } };
  const text = `\ufeff${JSON.stringify({ kind: 'List', items: [node('noeud-u', note), pod('p1', { spec: { nodeName: 'noeud-u', containers: [] } })] }, null, 2)}`;
  const bytes = new TextEncoder().encode(text);
  const chunks = Array.from({ length: Math.ceil(bytes.length / 3) }, (_, i) => bytes.subarray(i * 3, i * 3 + 3));
  const snap = loadSnapshotChunks('/c.json', chunks);
  assert.deepEqual(
    snap.problems.filter((p) => p.severity !== 'info'),
    [],
  );
  assert.deepEqual([...snap.cluster.nodes.keys()], ['noeud-u']);
  assert.equal(snap.cluster.nodes.get('noeud-u')!.meta.annotations['example.com/note'], 'nœud-ü ✓ 节点');
  assert.deepEqual([...snap.cluster.pods.keys()], ['default/p1']);
});

test('a streamed file that is not Kubernetes, or is binary, says so', () => {
  assert.deepEqual(
    where(loadSnapshotChunks('/x.json', ['{"a": 1}']).problems).map((p) => p.replace(/^\S+ /, '')),
    ['warning unknown-kind'],
  );
  assert.deepEqual(where(loadSnapshotChunks('/x.json', [new Uint8Array([0, 1, 2])]).problems), ['1:1 error binary-file']);
  assert.deepEqual(where(loadSnapshotChunks('/x.json', ['  ']).problems), ['1:1 info empty-file']);
});

test("the command line's and the extension's file system (nodeFs) streams a file from disk with the same result as reading it whole", () => {
  const dir = mkdtempSync(join(tmpdir(), 'stream-load-'));
  try {
    const file = join(dir, 'cluster.json');
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', items: MIXED, kind: 'List' }, null, 4));
    const streamed = loadSnapshot(file, nodeFs(), { streamFilesAbove: 0 });
    const whole = loadSnapshot(file, nodeFs());
    assert.deepEqual(
      streamed.objects.map((o) => o.object),
      whole.objects.map((o) => o.object),
    );
    assert.deepEqual(where(streamed.problems), where(whole.problems));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a plain snapshot too big to read whole opens as a scenario (the command line's and the extension's path), and a scenario can name one", () => {
  const text = JSON.stringify({ kind: 'List', items: [node('n1'), pod('p1')] }, null, 4);
  const fs = new MemoryFs().write('/big/cluster.json', text, 2 * 1024 ** 3);
  fs.write('/big/scenario.yaml', 'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nsnapshot: ./cluster.json\n');
  for (const path of ['/big/cluster.json', '/big/scenario.yaml']) {
    const scenario = loadScenario(path, fs);
    assert.deepEqual(
      scenario.problems.filter((p) => p.severity === 'error'),
      [],
      path,
    );
    assert.deepEqual([...scenario.snapshot.cluster.nodes.keys()], ['n1'], path);
  }
});

test('validate (lintFile) checks a snapshot too big to read whole through the stream', () => {
  const text = JSON.stringify({ kind: 'List', items: [node('n1'), pod('p1', { status: { phase: 'Sleeping' } })] }, null, 4);
  const memory = new MemoryFs().write('/cluster.json', text, 2 * 1024 ** 3);
  // as node's fs: a file this big cannot be read as one string
  const fs = {
    stat: (p: string) => memory.stat(p),
    list: (d: string) => memory.list(d),
    readChunks: (p: string) => memory.readChunks(p),
    readText: (): string => {
      throw new RangeError('Invalid string length');
    },
  };
  const problems = lintFile('/cluster.json', fs);
  assert.deepEqual(
    problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.position?.line}`),
    [`bad-pod-phase ${text.split('\n').findIndex((l) => l.includes('Sleeping')) + 1}`],
  );
});
