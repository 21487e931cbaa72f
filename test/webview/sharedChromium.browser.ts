/**
 * The browser phase runs its files in one process with one chromium (scripts/test-phase-1-browser.mjs,
 * harness/page.ts shareChromium): each file's serve must still give its pages contexts of their own, and its
 * close must close those and no other file's; a chromium that has gone is launched again for the next file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveWebview, shareChromium } from './harness/page';

test('files served while one chromium is shared get it, and each file’s close leaves no page of its behind and no other’s closed', async () => {
  const stop = shareChromium();
  try {
    const a = await serveWebview({ prelude: false });
    const pageA = await a.browser.newPage();
    await pageA.goto(`${a.origin}/index.html`);
    const b = await serveWebview({ prelude: false });
    assert.notEqual(b.origin, a.origin, 'each file has its own server');
    const pageB = await b.browser.newPage();
    await pageB.goto(`${b.origin}/index.html`);
    assert.equal(a.browser.contexts().length, 2, 'the second file is served by the same chromium');
    assert.notEqual(pageB.context(), pageA.context(), 'a page has a context of its own');
    await a.close();
    assert.equal(pageA.isClosed(), true, 'a file’s close closes its pages');
    assert.equal(pageB.isClosed(), false, 'and not another file’s, still open');
    assert.equal(await pageB.evaluate(() => 1 + 1), 2);
    assert.equal(b.browser.isConnected(), true, 'it leaves the shared chromium running');
    await b.close();
    assert.deepEqual(b.browser.contexts(), [], 'the last close leaves no context');
    // a chromium that has gone (a crash) is not kept for the next file
    await b.browser.close();
    const c = await serveWebview({ prelude: false });
    assert.equal(c.browser.isConnected(), true, 'the next file gets a chromium launched again');
    const pageC = await c.browser.newPage();
    await pageC.goto(`${c.origin}/index.html`);
    await c.close();
  } finally {
    await stop();
  }
});
