/**
 * A panel made for a load under way says "Loading…" from its first paint. The load holds the extension host, so the
 * host's `loading` (which names the file) reaches a page that was not listening yet only after the load: at load 7-9
 * on two cores the 5,000-node open's page stayed empty for the whole load (the code-server walk waited 30 s for
 * "Loading scenario.yaml…"). The page's HTML carries a flag, no workspace data; the host's message names the file
 * when it comes, and the scenario's init ends the loading state.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serveWebview, type Served } from './harness/page';

let served: Served;
before(async () => {
  served = await serveWebview({ prelude: join(__dirname, 'harness', 'silentHost.ts') });
});
after(async () => {
  await served?.close();
});

const post = (m: unknown) => `window.postMessage(${JSON.stringify(m)}, '*')`;

const cases: { name: string; path: string; before: string | null; after: { message: unknown; text: string | null } }[] = [
  {
    name: 'made for a load: loading from the first paint, the file named once the host says it',
    path: '/loading.html',
    before: 'Loading the scenario…',
    after: { message: { type: 'loading', name: 'scenario.yaml' }, text: 'Loading scenario.yaml…' },
  },
  {
    name: 'made otherwise (a restored or re-opened panel): not loading until the host says so',
    path: '/',
    before: null,
    after: { message: { type: 'loading', name: 'other.yaml' }, text: 'Loading other.yaml…' },
  },
];

const shown = async (page: import('playwright-core').Page): Promise<string | null> =>
  page.locator('#loading').evaluate((e) => ((e as HTMLElement).hidden ? null : (e as HTMLElement).innerText));

for (const c of cases) {
  test(c.name, async () => {
    const page = await served.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${served.origin}${c.path}`);
    await page.locator('#app header.toolbar').waitFor();
    assert.equal(await shown(page), c.before);
    assert.equal(await page.evaluate(() => document.body.dataset.loading ?? null), c.before === null ? null : 'the scenario');
    await page.evaluate(post(c.after.message));
    await page.waitForFunction((t) => {
      const e = document.getElementById('loading') as HTMLElement;
      return (e.hidden ? null : e.innerText) === t;
    }, c.after.text);
    assert.deepEqual(await page.evaluate(() => window.posted), [{ type: 'ready' }]);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
