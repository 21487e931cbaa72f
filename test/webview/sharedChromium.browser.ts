/**
 * The browser phase runs its files in one process with one chromium (scripts/test-phase-1-browser.mjs,
 * harness/page.ts shareChromium): each file's serve must still give its pages contexts of their own and
 * leave none behind at its close (closing its own chromium did that).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveWebview, shareChromium } from './harness/page';

test('files served while one chromium is shared get it, and each file’s close leaves no page of its behind', async () => {
  const stop = shareChromium();
  try {
    const a = await serveWebview({ prelude: false });
    const pageA = await a.browser.newPage();
    await pageA.goto(`${a.origin}/index.html`);
    const b = await serveWebview({ prelude: false });
    assert.equal(b.browser, a.browser, 'the second file is served by the same chromium');
    assert.notEqual(b.origin, a.origin, 'each file has its own server');
    await a.close();
    assert.equal(a.browser.isConnected(), true, 'a file’s close leaves the shared chromium running');
    assert.deepEqual(a.browser.contexts(), [], 'and closes the contexts the file left');
    const pageB = await b.browser.newPage();
    await pageB.goto(`${b.origin}/index.html`);
    assert.notEqual(pageB.context(), pageA.context(), 'a page has a context of its own');
    await b.close();
  } finally {
    await stop();
  }
});
