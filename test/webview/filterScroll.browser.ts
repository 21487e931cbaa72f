/**
 * A new node filter shows its first matches. The list kept its scroll offset across a filter: in the 5,000-node
 * walk the user had scrolled to the outage zone (or selected it), typed "us-east-1b", and saw rows from the middle of
 * the zone's 1,667 nodes with its heading and first nodes out of view above. A step that changes the filtered keys
 * (nodes going Unknown under "unknown") keeps the offset: the user did not ask for another list. The built webview
 * in chromium with the real host over a generated 600-node outage.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPanelsOnServedPage, type RealPanel } from './harness/realPanel';
import { writeZoneOutage } from '../helpers/generatedOutage';

const openPanel = realPanelsOnServedPage();

async function filterTo(a: RealPanel, text: string): Promise<void> {
  const before = a.received.filter((m) => m.type === 'nodeFilter').length;
  await a.page.locator('#node-filter input').fill(text);
  for (let i = 0; i < 200 && !a.received.slice(before).some((m) => m.type === 'nodeFilter' && m.text === text.toLowerCase()); i++)
    await new Promise((r) => setTimeout(r, 10));
  await a.settled();
  await a.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const list = (a: RealPanel) =>
  a.page.locator('#nodes').evaluate((e) => {
    const first = Array.from(e.querySelectorAll('.row'))
      .map((r) => ({ text: (r as HTMLElement).innerText.split('\n')[0], top: r.getBoundingClientRect().top }))
      .filter((r) => r.top >= e.getBoundingClientRect().top - 0.5)
      .sort((x, y) => x.top - y.top)[0];
    return { scrollTop: e.scrollTop, scrollable: e.scrollHeight > 3 * e.clientHeight, first: first?.text ?? '' };
  });

test('a new node filter shows its first matches from the top; a step under the same filter keeps the offset', async () => {
  const a = await openPanel(writeZoneOutage(mkdtempSync(join(tmpdir(), 'cs-filter-scroll-')), 1));
  await a.page.setViewportSize({ width: 1250, height: 800 });
  await a.settled();
  // scrolled to the end of the list, as to the second zone's nodes
  await a.page.locator('#nodes').evaluate((e) => (e.scrollTop = e.scrollHeight));
  await a.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.ok((await list(a)).scrollTop > 0, 'scrolled down');
  // a filter that keeps a list longer than the view: its first row is its first zone's heading
  await filterTo(a, '1');
  const filtered = await list(a);
  assert.ok(filtered.scrollable, 'the filtered list is longer than the view (else this proves nothing)');
  assert.equal(filtered.scrollTop, 0, 'the new list from its top');
  assert.match(filtered.first, /^Zone\//, 'its first heading in view');
  // scrolled again, a step under the same filter keeps the offset
  await a.page.locator('#nodes').evaluate((e) => (e.scrollTop = e.scrollHeight / 2));
  await a.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const at = (await list(a)).scrollTop;
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.page.locator('#pass', { hasText: /^0$/ }).waitFor();
  await a.settled();
  assert.equal((await list(a)).scrollTop, at, 'a step keeps where the user was');
  assert.deepEqual(a.errors, []);
  await a.close();
});
