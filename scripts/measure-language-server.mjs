#!/usr/bin/env node
// Resident memory of the language server (out/server.js, with its lint worker thread) while a scenario
// naming a big snapshot is open: not part of `npm test` (it needs a generated snapshot).
//   node scripts/measure-language-server.mjs DIR/scenario.yaml      (SERVER_JS=another build's out/server.js)
// Prints the time to the code lens, to the background diagnostics, and the server process's VmRSS and
// VmHWM (its peak) from /proc, then again after 10 s idle.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';

const scenario = resolve(process.argv[2] ?? '');
const root = new URL('..', import.meta.url).pathname;
const child = spawn(process.execPath, [process.env.SERVER_JS || resolve(root, 'out/server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const mem = () => {
  const s = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
  return `RSS ${(kb('VmRSS') / 1024).toFixed(0)} MiB, peak ${(kb('VmHWM') / 1024).toFixed(0)} MiB`;
};
const uri = pathToFileURL(scenario).href;
const t0 = performance.now();
// a document naming a big snapshot gets its diagnostics once, from the background lint (server.ts validate)
const done = new Promise((res) =>
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    if (p.uri !== uri || p.version !== 1) return;
    console.log(`diagnostics (${p.diagnostics.length}) after ${(performance.now() - t0).toFixed(0)} ms; ${mem()}`);
    res();
  }),
);
conn.listen();
await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dirname(scenario)).href, capabilities: {}, initializationOptions: {} });
await conn.sendNotification('initialized', {});
console.log(`started; ${mem()}`);
const text = readFileSync(scenario, 'utf8');
await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
const lenses = await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
console.log(`code lens (${lenses.length}) after ${(performance.now() - t0).toFixed(0)} ms`);
await Promise.race([done, new Promise((r) => setTimeout(r, 600_000))]);
// an edit: linted against the kept snapshot
const t1 = performance.now();
const edited = new Promise((res) => conn.onNotification('textDocument/publishDiagnostics', (p) => p.uri === uri && p.version === 2 && res()));
await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: `${text}# edit\n` }] });
await Promise.race([edited, new Promise((r) => setTimeout(r, 120_000))]);
console.log(`an edit's diagnostics after ${(performance.now() - t1).toFixed(0)} ms; ${mem()}`);
await new Promise((r) => setTimeout(r, 10_000));
console.log(`10 s later: ${mem()}`);
child.kill();
process.exit(0);
