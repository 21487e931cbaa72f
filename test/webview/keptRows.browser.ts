/**
 * The page does not make again what a message did not change (issue 14 §5): at the pass in which a zone's nodes go
 * Unknown the decision log holds 200 entries, and every message after the step's update (a node selected, the node
 * list scrolled and its window answered) used to make all of them again, to be styled and laid out again. The real
 * webview and the real host over a generated 600-node outage; the page's DOM is watched by a MutationObserver.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { realPanelsOnServedPage, type RealPanel } from './harness/realPanel';
import { writeZoneOutage } from '../helpers/generatedOutage';
import { LOG_ROWS, type UpdateMessage } from '../../src/protocol/webview';

const open = realPanelsOnServedPage();
const dir = mkdtempSync(join(tmpdir(), 'cs-kept-rows-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** the parts watched: elements added or removed under each since `watch` */
const PARTS = { log: '#decisions', nodes: '#nodes .rows', zones: '#zones', replicaSets: '#replicasets .rows' };
type Counts = Record<keyof typeof PARTS, number>;

async function watch(p: RealPanel): Promise<() => Promise<Counts>> {
  await p.page.evaluate((parts) => {
    const counts: Record<string, number> = {};
    const w = window as unknown as { __made: Record<string, number>; __observers?: MutationObserver[] };
    for (const o of w.__observers ?? []) o.disconnect();
    w.__observers = Object.entries(parts).map(([name, selector]) => {
      counts[name] = 0;
      const o = new MutationObserver((records) => {
        for (const r of records) counts[name] += r.addedNodes.length + r.removedNodes.length;
      });
      o.observe(document.querySelector(selector)!, { childList: true, subtree: true });
      return o;
    });
    w.__made = counts;
  }, PARTS);
  return async () => {
    await p.settled();
    return p.page.evaluate(() => ({ ...(window as unknown as { __made: Counts }).__made }));
  };
}

/** The panel at the outage's heaviest pass: the first whose update cut the log to LOG_ROWS. */
async function atUnknownPass(p: RealPanel): Promise<number> {
  const s = p.session!;
  for (let pass = 0; pass < 60; pass++) {
    s.goToPass(pass);
    const u = p.sent.filter((m): m is UpdateMessage => m.type === 'update').at(-1);
    if (u?.cut) {
      await p.settled();
      return pass;
    }
  }
  throw new Error('no pass of the outage holds more than LOG_ROWS decisions');
}

const cases: { name: string; act(p: RealPanel): Promise<void>; made: Partial<Counts> }[] = [
  {
    name: 'a node selected: the log and the zones are kept',
    act: (p) => p.page.locator('#nodes .row[data-ref^="Node/"]').first().click(),
    made: { log: 0, zones: 0, replicaSets: 0 },
  },
  {
    name: 'the node list scrolled (its window asked for and answered): the log and the zones are kept',
    act: async (p) => {
      await p.page.locator('#nodes').evaluate((e) => (e.scrollTop = e.scrollHeight / 2));
      await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    },
    made: { log: 0, zones: 0, replicaSets: 0 },
  },
  {
    name: 'a step: the log is made anew (the watch sees what is made)',
    act: (p) => p.page.locator('vscode-button[data-action="step"]').click(),
    made: {},
  },
];

test('at the Unknown pass, a message that does not change a part leaves its elements as they were', async () => {
  const file = writeZoneOutage(dir, 5);
  const p = await open(file);
  await atUnknownPass(p);
  // the routine tick is collapsed into a line of its own; the log is virtual: its rows say the length of the whole list
  assert.ok(Number(await p.page.locator('#decisions li.decision').first().getAttribute('aria-setsize')) >= LOG_ROWS - 1);
  for (const c of cases) {
    const made = await watch(p);
    const before = p.received.length;
    await c.act(p);
    const counts = await made();
    assert.ok(p.received.length > before, `${c.name}: the page asked the host (else nothing was tested)`);
    for (const [part, n] of Object.entries(c.made)) assert.equal(counts[part as keyof Counts], n, `${c.name}: ${part} (${JSON.stringify(counts)})`);
    if (c.name.startsWith('a step')) assert.ok(counts.log > 0, `the step made the log anew (${JSON.stringify(counts)})`);
  }
  assert.deepEqual(p.errors, []);
  await p.close();
});
