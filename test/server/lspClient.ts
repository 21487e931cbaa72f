/**
 * A client of the real language server for the server suites: out/server.js (built by
 * scripts/build.mjs, rebuilt when older than the sources it bundles) as a child process over
 * stdio, initialised in a fresh folder, with every diagnostics notification kept in order.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
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

/** One textDocument/publishDiagnostics notification. */
export interface Published<D> {
  uri: string;
  version?: number;
  diagnostics: D[];
}

export interface LspClient<D> {
  conn: MessageConnection;
  /** the workspace folder the server was initialised with (removed by close) */
  dir: string;
  capabilities: Record<string, unknown>;
  /** the server's process */
  pid: number;
  /** every diagnostics notification so far, oldest first */
  published: Published<D>[];
  /** the notifications for one document, oldest first */
  publishedFor(uri: string): Published<D>[];
  /** Resolves once `ready` holds, looked at now and after each diagnostics notification. */
  until(ready: () => boolean): Promise<void>;
  /** shutdown and exit, then the process killed if it is still there, and the folder removed */
  close(): Promise<void>;
}

/** Starts the server in a new folder holding `files` (name -> text), initialised for `kubernetesVersion`. */
export async function startLanguageServer<D>(prefix: string, files: Record<string, string>, kubernetesVersion = '1.31'): Promise<LspClient<D>> {
  const stale =
    !existsSync(serverJs) || ['src/server', 'src/engine', 'src/platform', 'src/protocol'].some((d) => newestSource(join(root, d)) > statSync(serverJs).mtimeMs);
  if (stale) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const child = spawn(process.execPath, [serverJs, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: Published<D>[] = [];
  const waiters: (() => void)[] = [];
  conn.onNotification('textDocument/publishDiagnostics', (p: Published<D>) => {
    published.push(p);
    for (const w of waiters.splice(0)) w();
  });
  conn.listen();
  const init = (await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToUri(dir),
    capabilities: {},
    initializationOptions: { kubernetesVersion },
  })) as { capabilities: Record<string, unknown> };
  await conn.sendNotification('initialized', {});
  return {
    conn,
    dir,
    capabilities: init.capabilities,
    pid: child.pid!,
    published,
    publishedFor: (uri) => published.filter((p) => p.uri === uri),
    until: (ready) =>
      new Promise<void>((res) => {
        const check = () => (ready() ? res() : waiters.push(check));
        check();
      }),
    async close() {
      try {
        await conn.sendRequest('shutdown');
        await conn.sendNotification('exit');
      } catch {
        /* the process may be gone */
      }
      conn.dispose();
      if (child.exitCode === null) child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
