/**
 * Issue 14, section 3 (readable): a cause link that wraps onto a second line
 * must still start its list item. A button is an inline block, whose baseline
 * is its last line's: aligned on the baseline, the item's number sat beside
 * the link's second line and read as the number of the line below. The real
 * host over one-node-stops, node-a1's Why at +1m05s in a narrow column.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';

const file = join(resolve(__dirname, '../..'), 'examples', 'one-node-stops.yaml');
const openPanel = realPanelsOnServedPage();

test('the number of a Why list item is beside the first line of its wrapped cause link', async () => {
  const a = await openPanel(file);
  await a.page.setViewportSize({ width: 1000, height: 900 });
  await a.runUntil('1m05s');
  await a.at('00:01:05');
  a.session?.selectObject('Node/node-a1');
  await a.page.locator('#why-object', { hasText: 'node-a1' }).waitFor();
  await a.settled();
  // where the first line box of each item is: an empty inline put before the link sits on its baseline, as the marker does
  const items = await a.page.evaluate(() =>
    Array.from(document.querySelectorAll('#why-happened > li')).map((li) => {
      const link = li.querySelector('button.link') as HTMLElement;
      const probe = document.createElement('span');
      probe.textContent = '\u200b';
      li.insertBefore(probe, li.firstChild);
      const p = probe.getBoundingClientRect();
      const l = link.getBoundingClientRect();
      const lineHeight = parseFloat(getComputedStyle(link).lineHeight) || p.height;
      probe.remove();
      return { text: link.textContent ?? '', lines: Math.round(l.height / lineHeight), probeTop: p.top, linkTop: l.top, lineHeight };
    }),
  );
  const wrapped = items.filter((i) => i.lines > 1);
  assert.ok(wrapped.length > 0, `no cause link wraps at this width: ${JSON.stringify(items)}`);
  for (const i of items)
    assert.ok(
      Math.abs(i.probeTop - i.linkTop) < i.lineHeight / 2,
      `${i.text}: the item's first line is ${i.probeTop - i.linkTop} px below the link's top (${i.lines} lines)`,
    );
  assert.deepEqual(a.errors, []);
  await a.close();
});
