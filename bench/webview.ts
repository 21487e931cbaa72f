/**
 * The webview bench: the real webview bundle (out/webview.js) in Debian's
 * chromium through playwright-core, fed by the real extension Session over the
 * real engine on a generated scenario, timed from the user's input event to
 * the paint after the result (two requestAnimationFrame callbacks).
 *
 *   node --import tsx bench/webview.ts '{"scenario": "outage.yaml", "steps": 10, "runs": 3}'
 *
 * (run by `npm run bench -- --webview`). Prints one JSON line: per run, open to
 * first paint and `replay --steps 1` on the same file; quiet steps, outage
 * steps and filter keystrokes click-to-paint; and beside them the host's own
 * part of each step (Session step + update message + JSON), which is not the step time.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Page } from 'playwright-core';
import { openScenario } from '../src/extension/engine';
import { Session } from '../src/extension/session';
import { webviewHtml } from '../src/extension/webviewHtml';
import { parseWebviewMessage, type HostMessage } from '../src/protocol/webview';

const root = resolve(__dirname, '..');
const NONCE = 'benchN0nce0123456789abcdefABCDEF';
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const hr = (): number => Number(process.hrtime.bigint()) / 1e6;
const progress = (s: string): boolean => process.stderr.write(`${s}\n`);

interface Args {
  scenario: string;
  steps: number;
  runs: number;
  /** passes stepped (untimed) before the outage steps: the first NodeStatusUnknown is due after it */
  outageFrom?: number;
}

async function main(): Promise<void> {
  const a = JSON.parse(process.argv[2] ?? '{}') as Args;
  const work = mkdtempSync(join(tmpdir(), 'cs-webview-bench-'));
  await build({ entryPoints: [join(__dirname, 'webviewPrelude.ts')], outfile: join(work, 'prelude.js'), bundle: true, platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'warning' });
  const files: Record<string, [string, string]> = {
    '/webview.js': [join(root, 'out/webview.js'), 'text/javascript'],
    '/webview.css': [join(root, 'media/webview.css'), 'text/css'],
    '/prelude.js': [join(work, 'prelude.js'), 'text/javascript'],
  };
  let origin = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split(/[?#]/)[0];
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(webviewHtml({ cspSource: origin, nonce: NONCE, scriptUri: `${origin}/webview.js`, styleUri: `${origin}/webview.css`, preludeUri: `${origin}/prelude.js` }));
      return;
    }
    const f = files[path];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f[1] });
    res.end(readFileSync(f[0]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

  const runs: Record<string, unknown>[] = [];
  try {
    for (let run = 0; run < a.runs; run++) {
      // the reference for open: the command line's first step on the same file, as users run it
      let t0 = hr();
      const cli = spawnSync(process.execPath, [join(root, 'bin/controller-stepper.js'), 'replay', a.scenario, '--steps', '1', '--output', 'trace', '--format', 'json'], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 20 });
      const replayMs = hr() - t0;
      if (cli.status !== 0) throw new Error(`replay --steps 1 failed: ${cli.stderr}`);
      progress(`run ${run + 1}: replay --steps 1 took ${(replayMs / 1000).toFixed(2)} s`);
      runs.push({ replayMs, ...(await oneRun(browser, origin, a)) });
    }
  } finally {
    await browser.close();
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify({ ok: true, runs })}\n`);
}

async function oneRun(browser: import('playwright-core').Browser, origin: string, a: Args): Promise<Record<string, unknown>> {
  const page: Page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(600_000);
  let queue = Promise.resolve();
  const hostMs: number[] = [];
  const bytes: number[] = [];
  let session: Session | undefined;
  // VS Code's postMessage serialises the message; so does this, and the page parses it
  const post = (m: HostMessage) => {
    const text = JSON.stringify(m);
    if (m.type === 'update') bytes.push(text.length);
    queue = queue.then(() => page.evaluate((t) => window.postMessage(JSON.parse(t), '*'), text)).catch(() => undefined);
  };
  await page.exposeFunction('__toHost', (text: string) => {
    const m = parseWebviewMessage(JSON.parse(text));
    if (!m || !session) return;
    const t0 = hr();
    session.handle(m, { play() {}, pause() {} });
    if (m.type === 'action') hostMs.push(hr() - t0);
  });

  // open: load the scenario, make the session, load the panel, which says ready and is sent everything
  const t0 = Date.now();
  const opened = openScenario(a.scenario, '');
  session = new Session({ make: opened.make, options: opened.options, settings: { collapseNoise: true, playSpeed: 2 }, post });
  const loadedMs = Date.now() - t0;
  await page.goto(`${origin}/`);
  const paintedAt = await page.evaluate(() => (window as unknown as { __nextUpdatePaint(): Promise<number> }).__nextUpdatePaint());
  const openMs = paintedAt - t0;
  const openBytes = bytes[0];
  progress(`  open to first paint ${(openMs / 1000).toFixed(2)} s (loading ${(loadedMs / 1000).toFixed(2)} s)`);

  const step = () => page.evaluate(() => {
    const p = (window as unknown as { __armClick(): Promise<number> }).__armClick();
    (document.querySelector('vscode-button[data-action="step"]') as HTMLElement).click();
    return p;
  });
  const quiet: number[] = [];
  for (let i = 0; i < a.steps; i++) quiet.push(await step());
  progress(`  quiet steps ${quiet.map((x) => x.toFixed(0)).join(', ')} ms`);
  const quietHost = hostMs.splice(0);
  const quietBytes = bytes.splice(0).slice(1);
  // on to the outage: its kubelets stop at 60 s, the nodes go Unknown one grace period later
  const from = a.outageFrom ?? 20;
  while ((session.sim.pass ?? -1) < from - 1) await step();
  hostMs.splice(0);
  bytes.splice(0);
  const outage: number[] = [];
  for (let i = 0; i < a.steps; i++) outage.push(await step());
  progress(`  outage steps ${outage.map((x) => x.toFixed(0)).join(', ')} ms`);
  const outageHost = hostMs.splice(0);
  const outageBytes = bytes.splice(0);

  // keystrokes in the node filter: narrowing, then widening again
  await page.locator('#node-filter input').focus();
  const keys: number[] = [];
  for (const k of ['u', 'n', 'k', 'n', 'Backspace', 'Backspace', 'Backspace', 'Backspace']) {
    const p = page.evaluate(() => (window as unknown as { __armKey(): Promise<number> }).__armKey());
    await page.waitForTimeout(0);
    await page.keyboard.press(k);
    keys.push(await p);
  }
  progress(`  filter keystrokes ${keys.map((x) => x.toFixed(0)).join(', ')} ms`);
  const domRows = await page.evaluate(() => document.querySelectorAll('.viewport .row').length);
  const domElements = await page.evaluate(() => document.getElementsByTagName('*').length);
  await page.close();
  return {
    loadedMs, openMs, openBytes, pass: session.sim.pass,
    quiet, quietHost, quietBytes, outage, outageHost, outageBytes, keys, domRows, domElements,
  };
}

main().catch((e) => {
  process.stdout.write(`${JSON.stringify({ ok: false, error: (e as Error).stack ?? String(e) })}\n`);
  process.exitCode = 1;
});
