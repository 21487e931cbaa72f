/**
 * An outcome's chip in a narrow Why column ("PodDeletedByTaintEviction") broke mid-word ("PodDeletedByTai" /
 * "ntEviction"): it breaks only between the words of its CamelCase name now. The real host over
 * one-node-stops, a pod of node-a1 at +1m05s, the Why column made narrower until the chip wraps.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';

const file = join(resolve(__dirname, '../..'), 'examples', 'one-node-stops.yaml');
const openPanel = realPanelsOnServedPage();

test('the why-not outcome chip wraps between the words of its name in a narrow Why column, never inside one', async () => {
  const a = await openPanel(file);
  await a.runUntil('1m05s');
  await a.at('00:01:05');
  a.session?.selectObject('Pod/default/web-7d9f-6wlhb');
  const chip = a.page.locator('#why-not > li[data-status="PodDeletedByTaintEviction"] > .why-not-head > .outcome.chip');
  await chip.waitFor();
  await a.settled();
  const wrapped: number[] = [];
  for (const width of [240, 200, 160, 120]) {
    // the column as narrow as a code-server panel beside an open editor makes it
    await a.page.evaluate((w) => {
      (document.querySelector('#why') as HTMLElement).style.width = `${w}px`;
      (document.querySelector('#why') as HTMLElement).style.maxWidth = `${w}px`;
    }, width);
    const lines = await chip.evaluate((c) =>
      Array.from(c.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => {
          const r = document.createRange();
          r.selectNodeContents(n);
          return { text: n.textContent ?? '', tops: [...new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top)))] };
        }),
    );
    assert.deepEqual(
      lines.map((l) => l.text),
      ['Pod', 'Deleted', 'By', 'Taint', 'Eviction'],
      `${width}px: the chip's words, with a break opportunity between them`,
    );
    for (const l of lines) assert.equal(l.tops.length, 1, `${width}px: "${l.text}" is on one line, not broken inside`);
    const rows = new Set(lines.flatMap((l) => l.tops)).size;
    if (rows > 1) wrapped.push(width);
  }
  assert.ok(wrapped.length > 0, 'at some width the chip wraps (else the test shows nothing)');
  assert.equal(await chip.innerText(), 'PodDeletedByTaintEviction', 'read (and copied) as one word');
  assert.deepEqual(a.errors, []);
  await a.close();
});
