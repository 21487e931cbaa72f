/**
 * The background lint parses a big snapshot once per change of its files,
 * not once per edit of the scenario (KeptSnapshot, which the server's worker
 * thread runs), holds one snapshot at a time, and gives its names to the
 * quick answers: completion offers them without reading the snapshot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintDocumentWithContext } from '../../src/engine/lint';
import { MemoryFs } from '../../src/engine/snapshot/source';
import { KeptSnapshot } from '../../src/server/snapshotCache';
import { BackgroundDiagnostics, createLanguageService, type BackgroundLintJob } from '../../src/server/service';
import { TextLines } from '../../src/server/service/text';
import { CLUSTER, CLUSTER_YAML, DIR, SCENARIO, caret, scenario } from '../engine/lint/helpers';
import { generateClusterStream, listChunks } from '../../src/engine/generate/index';
import type { LoadedSnapshot } from '../../src/engine/snapshot/types';

const URI = `file://${SCENARIO}`;
const OTHER = `${DIR}/other.yaml`;
const OTHER_YAML = CLUSTER_YAML.replace(/node-a1/g, 'node-z1');

function countingFs() {
  const fs = new MemoryFs({ [CLUSTER]: CLUSTER_YAML, [OTHER]: OTHER_YAML });
  const reads = new Map<string, number>();
  const readText = fs.readText.bind(fs);
  fs.readText = (path: string) => {
    reads.set(path, (reads.get(path) ?? 0) + 1);
    return readText(path);
  };
  return { fs, reads };
}

const job = (text: string): BackgroundLintJob => ({ uri: URI, text });
const codes = (ps: { code: string; message: string }[]) => ps.map((p) => `${p.code}: ${p.message}`).sort();

test('edits of the scenario over an unchanged snapshot are linted against the one parse, with the answers of a fresh lint', () => {
  const { fs, reads } = countingFs();
  const kept = new KeptSnapshot(fs);
  const edits = [
    '',
    'events:\n  - at: 30s\n    kubelet: stop\n    node: node-a1\n',
    'events:\n  - at: 30s\n    kubelet: stop\n    node: node-a9\n',
    'events:\n  - at: 30s\n    kubelet: stop\n    node: node-a2\n',
  ];
  const answers = edits.map((body) => kept.lint(job(scenario('1.31', body)), 'stamp-1'));
  assert.equal(kept.parses, 1, 'parsed once');
  assert.equal(reads.get(CLUSTER), 1, 'read once');
  for (const [i, body] of edits.entries()) {
    const text = scenario('1.31', body);
    const fresh = lintDocumentWithContext(URI, text, 'scenario', new MemoryFs({ [CLUSTER]: CLUSTER_YAML })).problems;
    assert.deepEqual(codes(answers[i].problems), codes(fresh), `edit ${i}`);
  }
  assert.ok(
    answers[2].problems.some((p) => p.code === 'unknown-node'),
    'node-a9 is not in the snapshot',
  );
  assert.deepEqual(answers[0].names?.nodes, ['node-a1', 'node-a2'], 'the names come with the parse');
  assert.ok(answers[0].names?.pods.includes('default/web-1'));
  assert.equal(answers[1].names, undefined, 'and only then');
});

test('a snapshot whose stamp changed is parsed again; naming another snapshot drops the one held', () => {
  const { fs, reads } = countingFs();
  const kept = new KeptSnapshot(fs);
  kept.lint(job(scenario('1.31', '')), 'stamp-1');
  kept.lint(job(scenario('1.31', '')), 'stamp-2');
  assert.equal(kept.parses, 2);
  const other = scenario('1.31', '').replace('./cluster.yaml', './other.yaml');
  assert.deepEqual(kept.lint(job(other), 'stamp-2').names?.nodes, ['node-a2', 'node-z1']);
  kept.lint(job(scenario('1.31', '')), 'stamp-2');
  assert.equal(reads.get(CLUSTER), 3, 'cluster.yaml was dropped when other.yaml was named, and read again');
});

test('completion offers the names of a big snapshot once the background run gave them, without reading it', () => {
  const { fs, reads } = countingFs();
  const service = createLanguageService({ fs, deferBytes: 100 });
  const { text, offset } = caret(scenario('1.31', 'events:\n  - at: 30s\n    kubelet: stop\n    node: node-|\n'));
  const pos = new TextLines(text).positionAt(offset);
  assert.deepEqual(
    service.completion(URI, text, pos).map((c) => c.label),
    [],
    'nothing before the background run',
  );
  service.setNames(service.deferred(URI, text), { nodes: ['node-a1', 'node-a2'], pods: ['default/web-1'], replicaSets: ['default/web'] });
  assert.deepEqual(
    service.completion(URI, text, pos).map((c) => c.label),
    ['node-a1', 'node-a2'],
  );
  const other = caret(scenario('1.31', 'events:\n  - at: 30s\n    delete: |\n'));
  assert.deepEqual(
    service.completion(URI, other.text, new TextLines(other.text).positionAt(other.offset)).map((c) => c.label),
    ['Pod/default/web-1', 'Node/node-a1', 'Node/node-a2', 'ReplicaSet/default/web'],
  );
  assert.equal(reads.get(CLUSTER) ?? 0, 0, 'the snapshot was not read');
});

test('the background run hands the names it was given to the service, with the files they are of', async () => {
  const got: [readonly string[], string[]][] = [];
  const bg = new BackgroundDiagnostics({
    lint: async () => ({ problems: [], names: { nodes: ['n1'], pods: [], replicaSets: [] } }),
    names: (files, names) => got.push([files, names.nodes]),
    stamp: () => 's',
    done: () => {},
  });
  bg.request(job('v1'), [CLUSTER]);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(got, [[[CLUSTER], ['n1']]]);
  assert.equal(bg.documents, 1);
  bg.forget(URI);
  assert.equal(bg.documents, 0, 'nothing needs the worker any more');
});

test('a kept full-detail snapshot, read whole or streamed, holds only what the lint reads, and lints each edit as a fresh parse does', () => {
  const stream = generateClusterStream({ nodes: 12, podsPerNode: 3, zones: 2, detail: 'full', seed: 'kept-compact' });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  const big = `${DIR}/full.json`;
  for (const streamAbove of [undefined, 0]) {
    const fs = new MemoryFs({ [big]: text });
    fs.chunkChars = 4096;
    const kept = new KeptSnapshot(fs, streamAbove);
    lintsAsFresh(kept, text, streamAbove === 0 ? 'streamed' : 'whole');
  }
});

function lintsAsFresh(kept: KeptSnapshot, text: string, how: string): void {
  const big = `${DIR}/full.json`;
  const nodes = (JSON.parse(text) as { items: { kind: string; metadata: { name: string } }[] }).items
    .filter((o) => o.kind === 'Node')
    .map((o) => o.metadata.name);
  assert.ok(nodes.length >= 2, 'the generated nodes');
  const edits = [
    '',
    `events:\n  - at: 30s\n    kubelet: stop\n    node: ${nodes[0]}\n`,
    'events:\n  - at: 30s\n    kubelet: stop\n    node: no-such-node\n',
    'events:\n  - at: 30s\n    kubelet: stop\n    zone: no-such-zone\n',
    `events:\n  - at: 30s\n    taint:\n      node: ${nodes[1]}\n      key: example.com/x\n      effect: NoExecute\n`,
  ];
  for (const [i, body] of edits.entries()) {
    const doc = scenario('1.31', body).replace('./cluster.yaml', './full.json');
    const got = kept.lint(job(doc), 'stamp-1');
    const fresh = lintDocumentWithContext(URI, doc, 'scenario', new MemoryFs({ [big]: text })).problems;
    assert.deepEqual(codes(got.problems), codes(fresh), `${how}, edit ${i}`);
  }
  assert.equal(kept.parses, 1);
  // what is held: no managedFields, specs or statuses (a node keeps its nodeInfo: the kubelet version; a pod its node's name)
  const held = JSON.stringify(
    [...(kept as unknown as { snapshots: Map<string, LoadedSnapshot> }).snapshots.values()].map((s) => [
      [...s.cluster.nodes.values(), ...s.cluster.pods.values(), ...s.cluster.replicaSets.values()].map((r) => r.raw),
      s.objects.map((o) => o.object),
    ]),
  );
  assert.ok(text.includes('managedFields'), 'the export has the bulk');
  for (const bulk of ['managedFields', '"containers"', '"conditions"', '"volumes"']) assert.ok(!held.includes(bulk), `${bulk} is not held`);
  assert.deepEqual(held.match(/"spec":\{(?!"nodeName":"[^"]*"\})/g), null, 'a spec holds a node name at most');
  assert.ok(held.includes('kubeletVersion'), 'the kubelet version is');
}
