import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webviewHtml } from '../../src/extension/webviewHtml';

const base = {
  cspSource: 'vscode-webview://x',
  nonce: 'abc123',
  scriptUri: 'vscode-webview://x/out/webview.js',
  styleUri: 'vscode-webview://x/media/webview.css',
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
