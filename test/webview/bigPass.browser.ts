/**
 * A pass too big to send whole, in Debian's chromium with the real host:
 * where 300 nodes go Unknown at once, the decision log lists the first
 * LOG_ROWS with the count of all, "show all" brings the rest, and a filter
 * searches every decision of the pass, not only those listed.
 */
import { writeZoneOutage } from '../helpers/generatedOutage';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveWebview, type Served } from './harness/page';
import { RealPanel } from './harness/realPanel';
import { logRows } from './harness/logRows';
import { openScenario } from '../../src/extension/openScenario';
import { isNoise } from '../../src/extension/session';
import { LOG_ROWS } from '../../src/protocol/webview';

let served: Served;
const dir = mkdtempSync(join(tmpdir(), 'cs-bigpass-browser-'));

before(async () => {
  served = await serveWebview({ prelude: false });
});
after(async () => {
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a pass of more than LOG_ROWS decisions lists the first ones and the count of all; show all and a filter bring the rest', async () => {
  const file = writeZoneOutage(dir);
  const p = await RealPanel.open(served.browser, served.origin, () => openScenario(file, ''));
  try {
    const s = p.session!;
    let total = 0;
    for (let i = 0; i < 60 && total <= LOG_ROWS; i++) {
      s.step();
      const shown = s.shownDecisions();
      total = shown.inPass.length + shown.afterPass.length;
    }
    assert.ok(total > LOG_ROWS, `a pass with ${total} decisions`);
    await p.settled();
    // the counts leave out the routine ticks, as the log does
    const real = [...s.shownDecisions().inPass, ...s.shownDecisions().afterPass].filter((d) => !isNoise(d)).length;
    // the log is virtual: read through by scrolling it
    const rows = async () => (await logRows(p.page)).filter((r) => r.ref !== 'between').length;
    assert.ok((await rows()) <= LOG_ROWS + 1, `${await rows()} rows listed`);
    const more = p.page.locator('#log-show-all');
    assert.match(await more.innerText(), new RegExp(`of ${real.toLocaleString('en')} decisions are listed`));
    assert.match(await p.text('#log-caption'), new RegExp(`^${real.toLocaleString('en')} decisions in pass`));
    // the last decision of the pass is not listed yet: a filter on its object finds it
    const last = s.shownDecisions().inPass.at(-1)!;
    await p.page.locator('#filter-object').evaluate((e, v) => {
      (e as unknown as { value: string }).value = v;
      e.dispatchEvent(new Event('input'));
    }, last.object);
    await p.page.locator(`#decisions li.decision[data-seq="${last.seq}"]`).waitFor();
    await p.page.locator('#filter-object').evaluate((e) => {
      (e as unknown as { value: string }).value = '';
      e.dispatchEvent(new Event('input'));
    });
    assert.equal(await more.count(), 0, 'everything is listed now');
    assert.equal(await rows(), real, 'every decision but the collapsed ticks');
    assert.deepEqual(p.errors, []);
  } finally {
    await p.close();
  }
});

test('a second scenario drops the first one\u2019s zone cards, an open queue included, even before it has zones of its own', async () => {
  const file = writeZoneOutage(dir);
  const p = await RealPanel.open(served.browser, served.origin, () => openScenario(file, ''));
  try {
    p.session!.runUntil('2m10s');
    await p.settled();
    await p.page.locator('#zones button.queued').first().click();
    await p.page.locator('#zones .queue-names:not(.hint)').waitFor();
    const other = resolve(__dirname, '../../examples/one-node-stops.yaml');
    await p.openAnother(other, () => openScenario(other, ''));
    assert.equal(p.session!.zoneRows().length, 0, 'the new scenario has no zone before its first pass');
    assert.equal(await p.text('#zones'), '', 'and the panel shows none of the old ones');
    p.session!.step();
    await p.settled();
    assert.match(await p.text('#zones'), /nodes 6\b/, 'its own zones come with its first pass');
    assert.doesNotMatch(await p.text('#zones'), /ec2\.internal/);
  } finally {
    await p.close();
  }
});
