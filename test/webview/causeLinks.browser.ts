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

test("a taint in a Why summary wraps: at code-server's narrow width the node's Why has nothing to scroll sideways", async () => {
  // a 1280×800 code-server window with the explorer open gives the panel about 930 px, the Why column under 300:
  // "Added taint node.kubernetes.io/unreachable:NoSchedule" has no break opportunity and showed "…unreachable:No"
  const a = await openPanel(file);
  await a.page.setViewportSize({ width: 930, height: 720 });
  await a.runUntil('1m05s');
  await a.at('00:01:05');
  a.session?.selectObject('Node/node-a1');
  await a.page.locator('#why-object', { hasText: 'node-a1' }).waitFor();
  await a.settled();
  const taint = a.page.locator('#why-happened > li', { hasText: 'Added taint node.kubernetes.io/unreachable:NoSchedule' });
  assert.equal(await taint.count(), 1, 'the TaintAdded is in What happened');
  const wide = await a.page.evaluate(() =>
    ['#why', '#why-body', '#why-happened']
      .map((s) => document.querySelector(s) as HTMLElement)
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.id}: ${e.scrollWidth} > ${e.clientWidth}`),
  );
  assert.deepEqual(wide, [], 'nothing in the Why to scroll sideways');
  const box = await taint.evaluate((li) => {
    const r = li.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(li);
    const t = range.getBoundingClientRect();
    const why = (document.querySelector('#why') as HTMLElement).getBoundingClientRect();
    return { textRight: Math.max(r.right, t.right), whyRight: why.right };
  });
  assert.ok(box.textRight <= box.whyRight + 1, `the summary ends inside the column: ${JSON.stringify(box)}`);
  assert.deepEqual(a.errors, []);
  await a.close();
});
