/**
 * The ReplicaSets' names are whole. At the 5,000-node outage in a 1280×800 code-server window the list showed
 * "analytics/api-backend-2-d2…" and "analytics/api-backen…": the name is what tells the rows apart (one Deployment's
 * ReplicaSets differ only in their hash), and it was cut to keep the counts on its line. The built webview in chromium,
 * fed the host's messages for 14,120 ReplicaSets named as the generated cluster names them.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { FIRST_REPLICASET_ROWS, type HostMessage, type NodeItem, type ReplicaSetItem, type UpdateMessage } from '../../src/protocol/webview';
import { applyTheme, serveWebview, type Served } from './harness/page';
import { allNodeRows } from './harness/nodeRows';

let served: Served;
before(async () => {
  served = await serveWebview();
});
after(async () => {
  await served?.close();
});

const SCREENSHOTS = process.env.SCREENSHOTS || join(resolve(__dirname, '../..'), 'out', 'screenshots');
const HASH = 'abcdefghjk';
/** names as the generated cluster has them: namespace/app-tier-n-hash, some long */
const rsRef = (i: number): string =>
  i % 5 === 0
    ? `ReplicaSet/batch-analytics-nightly/reserved-for-the-batch-analytics-team-nightly-${i}-${HASH}`
    : `ReplicaSet/analytics/api-backend-${i}-${HASH.slice(0, 10 - String(i).length)}${i}`;

function update(): UpdateMessage {
  const nodes: NodeItem[] = Array.from({ length: 20 }, (_, i) => ({
    ref: `Node/ip-10-0-0-${i}.ec2.internal`,
    name: `ip-10-0-0-${i}.ec2.internal`,
    zone: 'Zone/us-east-1/us-east-1a',
    ready: 'True',
    taints: [],
    unschedulable: false,
  }));
  const keys = Array.from({ length: 14_120 }, (_, i) => rsRef(i));
  const items: ReplicaSetItem[] = keys.slice(0, FIRST_REPLICASET_ROWS).map((ref, i) => ({ ref, desired: 100, current: 100, ready: i % 7 }));
  return {
    type: 'update',
    full: true,
    time: '2026-01-01T00:05:00.000Z',
    pass: 60,
    lastPass: 60,
    zones: [{ zone: 'Zone/us-east-1/us-east-1a', state: 'Normal', nodes: 20, notReady: 0, evictionRate: 0.1, queuedCount: 0, queued: [] }],
    nodes: allNodeRows(nodes),
    podCounts: { upsert: nodes.map((n) => ({ ref: n.ref, pods: 30, evicting: 0 })), remove: [] },
    replicaSets: { keys, items },
    decisions: [],
    passMarks: [],
  };
}

async function open(theme: 'light' | 'dark'): Promise<Page> {
  const page = await served.browser.newPage({ viewport: { width: 1250, height: 800 } });
  page.setDefaultTimeout(10_000);
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.goto(`${served.origin}/index.html#plain`);
  await page.locator('#scenario-name', { hasText: 'one-node-stops' }).waitFor();
  await applyTheme(page, theme);
  return page;
}

async function send(page: Page, ...ms: HostMessage[]): Promise<void> {
  await page.evaluate((list) => {
    for (const m of list) window.postMessage(m, '*');
  }, ms);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

for (const theme of ['light', 'dark'] as const)
  test(`${theme}: every ReplicaSet's name and counts are whole, at two column widths, and the rows do not overlap`, async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const page = await open(theme);
    await send(page, update());
    // 1250: the panel in a 1600×1000 window; 930: in a 1280×800 window with the explorer open
    for (const width of [1250, 930]) {
      await page.setViewportSize({ width, height: 800 });
      await send(page);
      await page.locator('#replicasets .rs:not(.pending)').first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `replicaset-names-${width}-${theme}.png`) });
      const rows = await page.locator('#replicasets .row.rs:not(.pending)').evaluateAll((rs) => {
        const list = document.getElementById('replicasets')!.getBoundingClientRect();
        const cut = (e: HTMLElement) => e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis';
        return rs
          .map((r) => {
            const parts = [r.querySelector('.name'), r.querySelector('.nums')] as HTMLElement[];
            const b = r.getBoundingClientRect();
            const inside = (e: HTMLElement) => {
              const x = e.getBoundingClientRect();
              return x.left >= b.left - 0.5 && x.right <= b.right + 0.5 && x.bottom <= b.bottom + 0.5 && b.right <= list.right + 0.5;
            };
            return {
              ref: r.getAttribute('data-ref')!,
              text: parts[0].innerText.replace(/\n/g, ''),
              nums: parts[1].innerText,
              cut: parts.some(cut),
              inside: parts.every(inside),
              top: b.top,
              bottom: b.bottom,
            };
          })
          .sort((a, b) => a.top - b.top);
      });
      assert.ok(rows.length >= 3, `${width}: ${rows.length} rows drawn`);
      assert.ok(
        rows.some((r) => r.ref.includes('nightly')),
        `${width}: a long name among them`,
      );
      for (const r of rows) {
        assert.equal(r.text, r.ref.slice('ReplicaSet/'.length), `${width}: ${r.ref}'s name shows whole`);
        assert.match(r.nums, /^100\/100 \d ready$/, `${width}: ${r.ref}'s counts`);
        assert.equal(r.cut, false, `${width}: ${r.ref}'s name and counts are not cut`);
        assert.equal(r.inside, true, `${width}: ${r.ref}'s name and counts are inside its row, and the row inside the list`);
      }
      for (let i = 1; i < rows.length; i++) assert.ok(rows[i].top >= rows[i - 1].bottom - 0.5, `${width}: ${rows[i].ref} starts after ${rows[i - 1].ref} ends`);
      assert.ok(await page.locator('#replicasets').evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${width}: nothing to scroll sideways`);
    }
    await page.close();
  });
