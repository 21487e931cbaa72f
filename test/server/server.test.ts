/**
 * The real language server over its real protocol: out/server.js (built by
 * scripts/build.mjs from src/server/server.ts, rebuilt by lspClient.ts when older than
 * the sources) as a child process, spoken to over stdio with vscode-jsonrpc.
 * Diagnostics with exact ranges for each rule, hover, completion, code lens,
 * code actions, definition; and the command line's lintDocument gives the
 * same problems the server publishes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { lintDocument } from '../../src/engine/lint';
import { nodeFs } from '../../src/platform/nodeFs';
import { pathToUri, TextLines } from '../../src/server/service/text';
import { CLUSTER_YAML, caret, marked, scenario } from '../engine/lint/helpers';
import { startLanguageServer, type LspClient } from './lspClient';

interface Diag {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  code: string;
  severity: number;
  message: string;
  data?: unknown;
}

let client: LspClient<Diag>;
let conn: MessageConnection;
let dir: string;
const published = (uri: string) => client.publishedFor(uri);

before(async () => {
  client = await startLanguageServer<Diag>('cs-lsp-', { 'cluster.yaml': CLUSTER_YAML });
  ({ conn, dir } = client);
  assert.ok(client.capabilities.hoverProvider);
  assert.ok(client.capabilities.codeLensProvider);
});

after(() => client?.close());

/** Opens (or changes) a document and waits for the diagnostics of that version. */
let versions = 0;
async function open(name: string, text: string): Promise<{ uri: string; diagnostics: Diag[] }> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const uri = pathToUri(path);
  const version = ++versions;
  const done = client.until(() => published(uri).some((p) => p.version === version));
  if (published(uri).length) await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  else await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
  await done;
  return { uri, diagnostics: published(uri).find((p) => p.version === version)!.diagnostics };
}

const rangeText = (text: string, d: Diag): string => {
  const l = new TextLines(text);
  return text.slice(l.offsetAt(d.range.start), l.offsetAt(d.range.end));
};

const rules: { name: string; doc: string; code: string; severity: number }[] = [
  { name: 'schema: unknown field', doc: scenario('1.31', '«kubelett»: {}\n'), code: 'unknown-field', severity: 1 },
  {
    name: 'schema: bad duration',
    doc: scenario('1.31', 'events:\n  - at: «10q»\n    kubelet: stop\n    nodes: [node-a1]\n'),
    code: 'bad-duration',
    severity: 1,
  },
  {
    name: 'references: unknown node',
    doc: scenario('1.31', 'events:\n  - at: 10s\n    kubelet: stop\n    nodes: [«node-z9»]\n'),
    code: 'unknown-node',
    severity: 1,
  },
  {
    name: 'settings: removed flag',
    doc: scenario('1.27', 'controllerManager:\n  flags:\n    - «--pod-eviction-timeout=2m»\n'),
    code: 'not-in-version',
    severity: 1,
  },
  {
    name: 'timing: few heartbeats',
    doc: scenario('1.12', 'controllerManager:\n  nodeMonitorGracePeriod: «25s»\n'),
    code: 'grace-period-few-heartbeats',
    severity: 2,
  },
  {
    name: 'timing: under the HTTP/2 45s',
    doc: scenario('1.31', 'controllerManager:\n  nodeMonitorGracePeriod: «41s»\n'),
    code: 'grace-period-under-http2-timeout',
    severity: 2,
  },
  { name: 'leases: a 1.31 scenario without Leases', doc: scenario('1.31', '').replace('snapshot:', '«snapshot»:'), code: 'no-leases', severity: 2 },
];

for (const r of rules) {
  test(`the server publishes ${r.name} with its exact range`, async () => {
    const { text, ranges } = marked(r.doc);
    const { diagnostics } = await open('scenario.yaml', text);
    const d = diagnostics.find((x) => x.code === r.code);
    assert.ok(d, JSON.stringify(diagnostics.map((x) => x.code)));
    assert.equal(d.severity, r.severity);
    const l = new TextLines(text);
    assert.deepEqual(d.range, l.range(ranges[0][0], ranges[0][1]), `got ${JSON.stringify(rangeText(text, d))}`);
  });
}

test("the server publishes exactly what lintDocument (the command line's validate) reports", async () => {
  const text = scenario(
    '1.27',
    'controllerManager:\n  nodeMonitorGracePeriod: 30s\n  flags: ["--pod-eviction-timeout=2m", "--nod-eviction-rate=0.2"]\nevents:\n  - at: 10x\n    kubelet: stop\n    nodes: [node-a3]\n',
  );
  const { uri, diagnostics } = await open('same.yaml', text);
  const problems = lintDocument(uri, text, undefined, nodeFs());
  assert.ok(problems.length >= 5);
  const l = new TextLines(text);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.message, l.offsetAt(d.range.start), l.offsetAt(d.range.end)]),
    problems.map((p) => [p.code, p.message, p.position!.offset, p.position!.endOffset ?? p.position!.offset]),
  );
});

test('a quick fix from the server edits the document as the lint rule says', async () => {
  const text = scenario('1.27', 'controllerManager:\n  flags:\n    - --pod-eviction-timeout=2m\n    - --node-eviction-rate=0.2\n');
  const { uri, diagnostics } = await open('fix.yaml', text);
  const d = diagnostics.find((x) => x.code === 'not-in-version')!;
  const actions = (await conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) as {
    title: string;
    edit: { changes: Record<string, { range: Diag['range']; newText: string }[]> };
  }[];
  assert.equal(actions.length, 1);
  assert.match(actions[0].title, /^Remove --pod-eviction-timeout/);
  const e = actions[0].edit.changes[uri][0];
  const l = new TextLines(text);
  const fixed = text.slice(0, l.offsetAt(e.range.start)) + e.newText + text.slice(l.offsetAt(e.range.end));
  assert.equal(fixed, scenario('1.27', 'controllerManager:\n  flags:\n    - --node-eviction-rate=0.2\n'));
});

test('hover over the protocol shows the setting with its default for the version', async () => {
  const { text, offset } = caret(scenario('1.32', 'controllerManager:\n  nodeMonitorGrace|Period: 50s\n'));
  const { uri } = await open('hover.yaml', text);
  const h = (await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: new TextLines(text).positionAt(offset) })) as {
    contents: { kind: string; value: string };
  };
  assert.equal(h.contents.kind, 'markdown');
  assert.match(h.contents.value, /Default in 1\.32: `50s`/);
});

test("completion over the protocol offers the snapshot's nodes", async () => {
  const { text, offset } = caret(scenario('1.31', 'events:\n  - at: 10s\n    kubelet: stop\n    nodes: [|'));
  const { uri } = await open('complete.yaml', text);
  const items = (await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: new TextLines(text).positionAt(offset) })) as {
    label: string;
  }[];
  assert.deepEqual(
    items.map((i) => i.label),
    ['node-a1', 'node-a2'],
  );
});

test('the code lens over the protocol runs controllerStepper.openScenario with the file', async () => {
  const { uri } = await open('lens.yaml', scenario('1.31', ''));
  const lenses = (await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as {
    command: { title: string; command: string; arguments: string[] };
  }[];
  assert.deepEqual(
    lenses.map((l) => l.command),
    [{ title: 'Step through', command: 'controllerStepper.openScenario', arguments: [uri] }],
  );
});

test('definition over the protocol goes to the Node in cluster.yaml', async () => {
  const { text, offset } = caret(scenario('1.31', 'events:\n  - at: 10s\n    node: node-|a2\n    condition: {type: Ready, status: "False"}\n'));
  const { uri } = await open('def.yaml', text);
  const locs = (await conn.sendRequest('textDocument/definition', { textDocument: { uri }, position: new TextLines(text).positionAt(offset) })) as {
    uri: string;
    range: Diag['range'];
  }[];
  assert.equal(locs.length, 1);
  assert.equal(locs[0].uri, pathToUri(join(dir, 'cluster.yaml')));
  assert.match(CLUSTER_YAML.split('\n')[locs[0].range.start.line + 3], /name: node-a2/);
});

test('when the snapshot changes on disk, the open scenario is checked again', async () => {
  const text = scenario('1.12', 'events:\n  - at: 10s\n    kubelet: stop\n    nodes: [node-b1]\n');
  const { uri, diagnostics } = await open('watched.yaml', text);
  assert.ok(diagnostics.some((d) => d.code === 'unknown-node'));
  const clusterPath = join(dir, 'cluster.yaml');
  writeFileSync(clusterPath, CLUSTER_YAML.replace(/node-a2/g, 'node-b1'));
  const before = published(uri).length;
  const again = client.until(() => published(uri).length > before);
  await conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToUri(clusterPath), type: 2 }] });
  await again;
  const latest = published(uri).at(-1)!.diagnostics;
  assert.ok(!latest.some((d) => d.code === 'unknown-node'), JSON.stringify(latest.map((d) => d.message)));
  writeFileSync(clusterPath, CLUSTER_YAML);
});

test('a YAML file that is none of ours gets no diagnostics', async () => {
  const { diagnostics } = await open('workflow.yaml', 'name: CI\non: {push: {}}\njobs: {}\n');
  assert.deepEqual(diagnostics, []);
});

test('with a snapshot over 4 MiB the code lens comes back at once, and the unknown-node diagnostic follows from the background lint', async () => {
  // a 5 MiB comment makes the snapshot "big" without making it slow to parse
  writeFileSync(join(dir, 'big.yaml'), `# ${'x'.repeat(5 * 1024 * 1024)}\n${CLUSTER_YAML}`);
  const text = scenario('1.31', 'events:\n  - at: 10s\n    kubelet: stop\n    nodes: [node-z9]\n').replace('./cluster.yaml', './big.yaml');
  const path = join(dir, 'big-scenario.yaml');
  writeFileSync(path, text);
  const uri = pathToUri(path);
  const version = ++versions;
  const published_ = client
    .until(() => published(uri).some((x) => x.version === version))
    .then(() => published(uri).find((x) => x.version === version)!.diagnostics);
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
  const lenses = (await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as { command?: { title: string } }[];
  assert.deepEqual(
    lenses.map((l) => l.command?.title),
    ['Step through'],
  );
  const diagnostics = await published_;
  assert.ok(
    diagnostics.some((d) => d.code === 'unknown-node'),
    JSON.stringify(diagnostics.map((d) => d.code)),
  );
});
