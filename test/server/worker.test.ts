/**
 * The language server as the extension ships it (out/server.js, the bundle
 * the VSIX carries) with its real worker thread: a scenario naming a
 * generated snapshot over the 4 MiB line (real objects, so the worker's parse
 * takes a while) gets its snapshot-dependent diagnostic (unknown-node) from
 * the background lint; the code lens, hover and completion asked right after
 * the document opens are answered before it, so they did not wait for the
 * snapshot; and the snapshot's node names, which only the worker's parse
 * knows, reach completion afterwards.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { generateClusterStream, listChunks } from '../../src/engine/generate/index';
import { DEFAULT_DEFER_BYTES } from '../../src/server/service/analyze';
import { pathToUri } from '../../src/server/service/text';

const root = resolve(__dirname, '../..');
const serverJs = join(root, 'out/server.js');

function newestSource(dir: string): number {
  let t = 0;
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newestSource(p) : s.mtimeMs);
  }
  return t;
}

let child: ChildProcess;
let conn: MessageConnection;
let dir: string;
/** what arrived from the server, in order */
const arrivals: string[] = [];
const diagnostics = new Map<string, { code: string; message: string }[]>();
const waiters: (() => void)[] = [];

before(async () => {
  const stale =
    !existsSync(serverJs) || ['src/server', 'src/engine', 'src/platform', 'src/protocol'].some((d) => newestSource(join(root, d)) > statSync(serverJs).mtimeMs);
  if (stale) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  dir = mkdtempSync(join(tmpdir(), 'cs-lsp-worker-'));
  const stream = generateClusterStream({ nodes: 500, podsPerNode: 3, zones: 2, detail: 'lean', seed: 'worker' });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  assert.ok(text.length > DEFAULT_DEFER_BYTES, `the snapshot is ${text.length} bytes: over the line, so linted in the worker`);
  writeFileSync(join(dir, 'cluster.json'), text);
  child = spawn(process.execPath, [serverJs, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: { code: string; message: string }[] }) => {
    diagnostics.set(p.uri, p.diagnostics);
    arrivals.push(`diagnostics ${p.diagnostics.map((d) => d.code).join(',')}`);
    for (const w of waiters.splice(0)) w();
  });
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToUri(dir),
    capabilities: {},
    initializationOptions: { kubernetesVersion: '1.31' },
  });
  await conn.sendNotification('initialized', {});
});

after(async () => {
  try {
    await conn.sendRequest('shutdown');
    await conn.sendNotification('exit');
  } catch {
    /* the process may be gone */
  }
  conn?.dispose();
  if (child && child.exitCode === null) child.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const SCENARIO = `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
kubernetesVersion: "1.31"
startTime: "2026-01-01T00:00:00Z"
snapshot: ./cluster.json
events:
  - at: 10s
    kubelet: stop
    nodes: [no-such-node]
`;

type CompletionItem = { label: string };
const labels = (r: unknown): string[] => ((Array.isArray(r) ? r : ((r as { items?: CompletionItem[] })?.items ?? [])) as CompletionItem[]).map((i) => i.label);

test('the worker thread lints against the big snapshot; lens, hover and completion answer before it, and its names reach completion', async () => {
  const path = join(dir, 'scenario.yaml');
  writeFileSync(path, SCENARIO);
  const uri = pathToUri(path);
  const unknownNode = new Promise<void>((res) => {
    const check = () => ((diagnostics.get(uri) ?? []).some((d) => d.code === 'unknown-node') ? res() : waiters.push(check));
    check();
  });
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: SCENARIO } });
  const quick = await Promise.all([
    conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }).then((r) => {
      arrivals.push('codeLens');
      return r as { command?: { title: string } }[];
    }),
    conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 3 } }).then((r) => {
      arrivals.push('hover');
      return r as { contents: unknown } | null;
    }),
    conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 6, character: 4 } }).then((r) => {
      arrivals.push('completion');
      return labels(r);
    }),
  ]);
  await unknownNode;
  const [lenses, hover, keys] = quick;
  assert.deepEqual(
    lenses.map((l) => l.command?.title),
    ['Step through'],
  );
  assert.match(JSON.stringify(hover?.contents), /kubernetesVersion|version/i);
  assert.ok(keys.includes('kubelet') || keys.includes('at'), `the event's keys: ${keys.slice(0, 10).join(', ')}`);
  const firstUnknown = arrivals.findIndex((a) => a.startsWith('diagnostics') && a.includes('unknown-node'));
  for (const q of ['codeLens', 'hover', 'completion'])
    assert.ok(arrivals.indexOf(q) < firstUnknown, `${q} came before the snapshot's diagnostics: ${arrivals.join(' | ')}`);
  const message = diagnostics.get(uri)!.find((d) => d.code === 'unknown-node')!.message;
  assert.match(message, /no-such-node/);
  // the node names come from the worker's parse (the main thread never reads the snapshot)
  const edited = SCENARIO.replace('[no-such-node]', '[ip-10-0-0-1');
  await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
  const names = labels(
    await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 8, character: edited.split('\n')[8].length } }),
  );
  assert.ok(
    names.some((n) => n.startsWith('ip-10-0-0-1')),
    `the snapshot's nodes offered: ${names.slice(0, 5).join(', ')}`,
  );
});
