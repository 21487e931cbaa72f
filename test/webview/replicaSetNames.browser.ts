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
import { FIRST_REPLICASET_ROWS, type NodeItem, type ReplicaSetItem, type UpdateMessage } from '../../src/protocol/webview';
import { serveWebview, type Served } from './harness/page';
import { assertRowsWhole, measureRows, openPlain, sendAndPaint } from './harness/rowFit';
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

for (const theme of ['light', 'dark'] as const)
  test(`${theme}: every ReplicaSet's name and counts are whole, at two column widths, and the rows do not overlap`, async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const page = await openPlain(served, 1250, 800, theme);
    await sendAndPaint(page, update());
    // 1250: the panel in a 1600×1000 window; 930: in a 1280×800 window with the explorer open
    for (const width of [1250, 930]) {
      await page.setViewportSize({ width, height: 800 });
      await sendAndPaint(page);
      await page.locator('#replicasets .rs:not(.pending)').first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `replicaset-names-${width}-${theme}.png`) });
      const rows = await measureRows(page, 'replicasets', '.row.rs:not(.pending)', '.name', ['.nums']);
      assert.ok(rows.length >= 3, `${width}: ${rows.length} rows drawn`);
      assert.ok(
        rows.some((r) => r.ref.includes('nightly')),
        `${width}: a long name among them`,
      );
      for (const r of rows) assert.match(r.other ?? '', /^100\/100 \d ready$/, `${width}: ${r.ref}'s counts`);
      await assertRowsWhole(page, 'replicasets', rows, 'ReplicaSet', String(width));
    }
    await page.close();
  });
