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
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { generateClusterStream, listChunks } from '../../src/engine/generate/index';
import { DEFAULT_DEFER_BYTES } from '../../src/server/service/analyze';
import { LINT_NICE, lowerLintPriority } from '../../src/server/lintWorker';
import { pathToUri } from '../../src/server/service/text';
import { startLanguageServer, type LspClient } from './lspClient';

let client: LspClient<{ code: string; message: string }>;

before(async () => {
  const stream = generateClusterStream({ nodes: 500, podsPerNode: 3, zones: 2, detail: 'lean', seed: 'worker' });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  assert.ok(text.length > DEFAULT_DEFER_BYTES, `the snapshot is ${text.length} bytes: over the line, so linted in the worker`);
  client = await startLanguageServer('cs-lsp-worker-', { 'cluster.json': text });
});

after(() => client?.close());

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
  const { conn } = client;
  const path = join(client.dir, 'scenario.yaml');
  writeFileSync(path, SCENARIO);
  const uri = pathToUri(path);
  const latest = () => client.publishedFor(uri).at(-1)?.diagnostics ?? [];
  const unknownNode = client.until(() => latest().some((d) => d.code === 'unknown-node'));
  /** how many diagnostics notifications had come when each answer came */
  const answeredAfter: Record<string, number> = {};
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: SCENARIO } });
  const quick = await Promise.all([
    conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }).then((r) => {
      answeredAfter.codeLens = client.published.length;
      return r as { command?: { title: string } }[];
    }),
    conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 3 } }).then((r) => {
      answeredAfter.hover = client.published.length;
      return r as { contents: unknown } | null;
    }),
    conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 6, character: 4 } }).then((r) => {
      answeredAfter.completion = client.published.length;
      return labels(r);
    }),
  ]);
  await unknownNode;
  if (process.platform === 'linux') {
    // the lint's thread gives way to the extension host (its parse beside a panel's load of the same file); the
    // server's own thread, which answers the lens, hover and completion, does not
    const nice = niceByThread(client.pid);
    // the server starts at the test's own nice value (0 in CI; a run under `nice` passes its value on)
    assert.equal(nice.get(client.pid), getPriority(), 'the main thread keeps its priority');
    assert.ok([...nice.values()].includes(LINT_NICE), `a thread at nice ${LINT_NICE}: ${JSON.stringify([...nice])}`);
  }
  const [lenses, hover, keys] = quick;
  assert.deepEqual(
    lenses.map((l) => l.command?.title),
    ['Step through'],
  );
  assert.match(JSON.stringify(hover?.contents), /kubernetesVersion|version/i);
  assert.ok(keys.includes('kubelet') || keys.includes('at'), `the event's keys: ${keys.slice(0, 10).join(', ')}`);
  const firstUnknown = client.published.findIndex((p) => p.uri === uri && p.diagnostics.some((d) => d.code === 'unknown-node'));
  for (const q of ['codeLens', 'hover', 'completion'])
    assert.ok(
      answeredAfter[q] <= firstUnknown,
      `${q} came before the snapshot's diagnostics: after ${answeredAfter[q]} notifications, the snapshot's was #${firstUnknown}`,
    );
  const message = latest().find((d) => d.code === 'unknown-node')!.message;
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

/** Each thread's nice value (Linux: /proc/PID/task/TID/stat, the 19th field; the name in parentheses may hold spaces). */
function niceByThread(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[19 - 3]));
  }
  return out;
}

const priorityCases: { platform: NodeJS.Platform; fails?: boolean; lowered: boolean; calls: number }[] = [
  { platform: 'linux', lowered: true, calls: 1 },
  // elsewhere the nice value is the process's: the server's own thread would give way too
  { platform: 'darwin', lowered: false, calls: 0 },
  { platform: 'win32', lowered: false, calls: 0 },
  // a sandbox that refuses: the lint runs as before
  { platform: 'linux', fails: true, lowered: false, calls: 1 },
];
for (const c of priorityCases)
  test(`the lint's thread priority on ${c.platform}${c.fails ? ' where it is refused' : ''}: ${c.lowered ? 'lowered' : 'left'}`, () => {
    const calls: [number, number][] = [];
    const lowered = lowerLintPriority(c.platform, (pid, nice) => {
      calls.push([pid, nice]);
      if (c.fails) throw new Error('EACCES');
    });
    assert.equal(lowered, c.lowered);
    assert.deepEqual(calls, c.calls ? [[0, LINT_NICE]] : []);
  });
