/**
 * Serves the built webview (out/webview.js, media/css/*.css) with the fake
 * host's prelude (fakeHost.ts) on a local port and opens pages in Debian's
 * chromium through playwright-core: the setup of the browser suites.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { STYLE_SHEETS, webviewHtml } from '../../../src/extension/webviewHtml';
import { chromiumMissing, chromiumPath } from './chromium';

const ROOT = resolve(__dirname, '../../..');
const NONCE = 'n0nceForTheHarness0123456789abcd';

export interface Served {
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

export interface ServeOptions {
  /**
   * The script run before the page: true (the default) the fake host (fakeHost.ts), false none (the
   * page talks to whatever the caller wires to it: the real Session, in the same process), or the
   * path of another entry to bundle (the bench's clocks, bench/webviewPrelude.ts).
   */
  prelude?: boolean | string;
  /** the repository (the bench runs this file bundled in a temp folder, where __dirname is not in it) */
  root?: string;
  /** another build of the page's script */
  webviewJs?: string;
}

/** How long a launch may take before it is taken as failed. */
const LAUNCH_TIMEOUT_MS = 60_000;

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    timeout: LAUNCH_TIMEOUT_MS,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * One chromium for every file of the browser phase's process (scripts/test-phase-1-browser.mjs), and each prelude
 * bundled once: a launch and a bundle per file were ~1.5 s of each of its 23 files. A file's pages still each have a
 * context of their own, and a file's close() closes the contexts its pages were opened in (not another file's), as closing its own chromium did.
 */
let shared: { browser?: Promise<Browser>; bundles: Map<string, Promise<string>> } | undefined;

/** Shares one chromium among the files served until the returned function (an after() hook) closes it and shares again what was shared before. */
export function shareChromium(): () => Promise<void> {
  const outer = shared;
  const mine: NonNullable<typeof shared> = (shared = { bundles: new Map() });
  return async () => {
    shared = outer;
    await (await mine.browser?.catch(() => undefined))?.close();
  };
}

function bundle(entry: string): Promise<string> {
  const make = async () => {
    const out = await build({ entryPoints: [entry], write: false, bundle: true, platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'warning' });
    return out.outputFiles[0].text;
  };
  if (!shared) return make();
  const known = shared.bundles.get(entry) ?? make();
  shared.bundles.set(entry, known);
  return known;
}

/** Serves the page, with the prelude that ServeOptions.prelude names. */
export async function serveWebview(o: ServeOptions = {}): Promise<Served> {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  const root = o.root ?? ROOT;
  const preludeEntry = o.prelude === false ? undefined : typeof o.prelude === 'string' ? o.prelude : join(root, 'test/webview/harness/fakeHost.ts');
  const prelude = preludeEntry !== undefined;
  if (!existsSync(join(root, 'out/webview.js'))) throw new Error('out/webview.js is missing: run node scripts/build.mjs first');
  const harnessJs = preludeEntry ? await bundle(preludeEntry) : '';
  const files: Record<string, [string, string]> = {
    // WEBVIEW_JS / WEBVIEW_CSS (a media/css folder): another build of the page (to see a test fail on an older one)
    '/out/webview.js': [o.webviewJs || process.env.WEBVIEW_JS || join(root, 'out/webview.js'), 'text/javascript'],
    ...Object.fromEntries(STYLE_SHEETS.map((name) => [`/media/css/${name}`, [join(process.env.WEBVIEW_CSS || join(root, 'media/css'), name), 'text/css']])),
  };
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split(/[?#]/)[0];
    // /loading.html: the page as the extension makes it for a load under way (webviewHtml's `loading`)
    if (path === '/' || path === '/index.html' || path === '/loading.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        webviewHtml({
          cspSource: origin,
          nonce: NONCE,
          scriptUri: `${origin}/out/webview.js`,
          styleUris: STYLE_SHEETS.map((name) => `${origin}/media/css/${name}`),
          ...(prelude ? { preludeUri: `${origin}/harness.js` } : {}),
          ...(path === '/loading.html' ? { loading: true } : {}),
        }),
      );
      return;
    }
    if (prelude && path === '/harness.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(harnessJs);
      return;
    }
    const f = files[path];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': f[1] });
    res.end(readFileSync(f[0]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const own = !shared;
  const browser = await (shared ? sharedBrowser(shared) : launch()).catch((e: Error) => {
    // the server would keep the process alive: the caller gets the failure, not a hang
    server.close();
    throw new Error(`chromium at ${chromiumPath()} did not start: ${e.message.split('\n')[0]}`);
  });
  if (own)
    return {
      origin,
      browser,
      async close() {
        await browser.close();
        await new Promise((r) => server.close(r));
      },
    };
  // a shared chromium: this file's close closes the contexts its pages were opened in, not another file's
  const contexts = new Set<BrowserContext>();
  const tracked = new Proxy(browser, {
    get(target, key) {
      if (key === 'newContext')
        return async (...args: Parameters<Browser['newContext']>) => {
          const c = await target.newContext(...args);
          contexts.add(c);
          return c;
        };
      if (key === 'newPage')
        return async (...args: Parameters<Browser['newPage']>) => {
          const page = await target.newPage(...args);
          contexts.add(page.context());
          return page;
        };
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return {
    origin,
    browser: tracked,
    async close() {
      for (const c of contexts) await c.close();
      contexts.clear();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The shared chromium, launched again when the last launch failed or it has gone: a crash failed every later file. */
async function sharedBrowser(s: NonNullable<typeof shared>): Promise<Browser> {
  const b = await s.browser?.catch(() => undefined);
  if (b?.isConnected()) return b;
  return await (s.browser = launch());
}

/** A few of VS Code's theme variables, as its Light Modern and Dark Modern themes set them on the webview. */
export const THEMES = {
  light: {
    '--vscode-foreground': '#3b3b3b',
    '--vscode-editor-background': '#ffffff',
    '--vscode-descriptionForeground': '#3b3b3b',
    '--vscode-panel-border': '#e5e5e5',
    '--vscode-badge-background': '#cccccc',
    '--vscode-list-activeSelectionBackground': '#e8e8e8',
    '--vscode-list-activeSelectionForeground': '#000000',
    '--vscode-focusBorder': '#005fb8',
    '--vscode-editorError-foreground': '#f85149',
    '--vscode-editorWarning-foreground': '#bf8803',
    '--vscode-textLink-foreground': '#005fb8',
    '--vscode-sideBarSectionHeader-background': '#f8f8f8',
    '--vscode-font-family': 'sans-serif',
    '--vscode-font-size': '13px',
    '--vscode-editor-font-family': 'monospace',
  },
  dark: {
    '--vscode-foreground': '#cccccc',
    '--vscode-editor-background': '#1f1f1f',
    '--vscode-descriptionForeground': '#9d9d9d',
    '--vscode-panel-border': '#2b2b2b',
    '--vscode-badge-background': '#616161',
    '--vscode-list-activeSelectionBackground': '#04395e',
    '--vscode-list-activeSelectionForeground': '#ffffff',
    '--vscode-focusBorder': '#0078d4',
    '--vscode-editorError-foreground': '#f85149',
    '--vscode-editorWarning-foreground': '#cca700',
    '--vscode-textLink-foreground': '#4daafc',
    '--vscode-sideBarSectionHeader-background': '#181818',
    '--vscode-font-family': 'sans-serif',
    '--vscode-font-size': '13px',
    '--vscode-editor-font-family': 'monospace',
  },
} as const;

/** Sets a theme's variables as VS Code does: on the document element's style (CSSOM, allowed by the CSP). */
export async function applyTheme(page: Page, theme: keyof typeof THEMES): Promise<void> {
  await page.evaluate(
    ([vars, name]) => {
      for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      document.body.classList.remove('vscode-light', 'vscode-dark');
      document.body.classList.add(`vscode-${name}`);
    },
    [THEMES[theme], theme] as const,
  );
}

/**
 * Does `act` (a click that asks the page's host for something) and waits until the host's answer of `type` has
 * been delivered, so that what the test posts next comes after it and is not overwritten by it.
 */
export async function afterHostAnswer(page: Page, type: string, act: () => Promise<void>): Promise<void> {
  const before = await page.evaluate((t) => window.harness.sent.filter((m) => m.type === t).length, type);
  await act();
  // posted on the page's window: message events are delivered in the order they were posted
  await page.waitForFunction(([t, n]) => window.harness.sent.filter((m) => m.type === t)[n]?.posted === true, [type, before] as const);
}
