import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { STYLE_SHEETS, webviewHtml } from '../../src/extension/webviewHtml';

const base = {
  cspSource: 'vscode-webview://x',
  nonce: 'abc123',
  scriptUri: 'vscode-webview://x/out/webview.js',
  styleUris: STYLE_SHEETS.map((name) => `vscode-webview://x/media/css/${name}`),
};

test('the page allows nothing by default and scripts only with the nonce', () => {
  const html = webviewHtml(base);
  const csp = /content="([^"]*)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /^default-src 'none'; /);
  assert.match(csp, /script-src 'nonce-abc123'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.deepEqual(
    [...html.matchAll(/<script ([^>]*)>/g)].map((m) => m[1]),
    ['nonce="abc123" src="vscode-webview://x/out/webview.js"'],
  );
});

test('a value that could break out of an attribute is refused', () => {
  assert.throws(() => webviewHtml({ ...base, scriptUri: 'x"><script>alert(1)</script>' }));
});

test('a CSP source listing several sources is kept whole, one that could add a directive is refused', () => {
  const html = webviewHtml({ ...base, cspSource: "'self' https://*.vscode-cdn.net" });
  assert.match(html, /style-src 'self' https:\/\/\*\.vscode-cdn\.net 'nonce-abc123'/);
  assert.throws(() => webviewHtml({ ...base, cspSource: "'self'; script-src *" }));
});

test('a page made for a load under way carries a flag on its body and nothing else of the load', () => {
  const plain = webviewHtml(base);
  const loading = webviewHtml({ ...base, loading: true });
  assert.match(plain, /<body>\n/);
  assert.equal(loading, plain.replace('<body>', '<body data-loading="">'));
});

test('every style sheet in media/css is linked, in STYLE_SHEETS order, and only those', () => {
  const onDisk = readdirSync(join(__dirname, '../../media/css')).filter((f) => f.endsWith('.css'));
  assert.deepEqual([...onDisk].sort(), [...STYLE_SHEETS].sort());
  const links = [...webviewHtml(base).matchAll(/<link rel="stylesheet" href="([^"]*)">/g)].map((m) => m[1]);
  assert.deepEqual(
    links,
    STYLE_SHEETS.map((name) => `vscode-webview://x/media/css/${name}`),
  );
});

test('a style sheet address that could break out of its attribute is refused', () => {
  assert.throws(() => webviewHtml({ ...base, styleUris: ['vscode-webview://x/a.css"><script>alert(1)</script>'] }));
});
