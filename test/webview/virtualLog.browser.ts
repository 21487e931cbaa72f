/**
 * The decision log is a virtual list (issue 14 §5: "Every long list is virtualised"): at the pass in which a
 * zone's 300 nodes go Unknown it lists 200 entries, and making, styling and laying out all of them was most of
 * the page's part of that step. The real webview and the real host over a generated 600-node outage.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPanelsOnServedPage, type RealPanel } from './harness/realPanel';
import { logRows } from './harness/logRows';
import { writeZoneOutage } from '../helpers/generatedOutage';
import { LOG_ROWS, type UpdateMessage } from '../../src/protocol/webview';

const open = realPanelsOnServedPage();
const dir = mkdtempSync(join(tmpdir(), 'cs-virtual-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** more than a screen of entries, far fewer than a busy pass's 200 */
const MAX_DRAWN = 60;

const lastUpdate = (p: RealPanel) => p.sent.filter((m): m is UpdateMessage => m.type === 'update').at(-1)!;
const frames = (p: RealPanel) => p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const drawn = (p: RealPanel) => p.page.locator('#decisions li.decision').count();
const scrollLog = async (p: RealPanel, to: 'top' | 'bottom') => {
  await p.page.locator('#decisions').evaluate((e, t) => (e.scrollTop = t === 'top' ? 0 : e.scrollHeight), to);
  await frames(p);
};
/** the entry's box, relative to the log's viewport */
const place = (p: RealPanel, seq: number) =>
  p.page.evaluate((s) => {
    const v = document.querySelector('#decisions')!.getBoundingClientRect();
    const r = document.querySelector(`#decisions li.decision[data-seq="${s}"]`)?.getBoundingClientRect();
    return r && { top: r.top - v.top, bottom: r.bottom - v.top, height: r.height, view: v.height };
  }, seq);

/** The panel at the outage's heaviest pass: the first whose update cut the log to LOG_ROWS. */
async function atUnknownPass(p: RealPanel): Promise<number> {
  const s = p.session!;
  for (let pass = 0; pass < 60; pass++) {
    s.goToPass(pass);
    if (lastUpdate(p).cut) {
      await p.settled();
      return pass;
    }
  }
  throw new Error('no pass of the outage holds more than LOG_ROWS decisions');
}

const cases: { name: string; check(p: RealPanel, pass: number): Promise<void> }[] = [
  {
    name: 'the log holds only the entries in view, each saying its place in the whole list',
    async check(p) {
      const n = await drawn(p);
      assert.ok(n > 5 && n <= MAX_DRAWN, `${n} entries in the DOM`);
      const first = p.page.locator('#decisions li.decision').first();
      assert.equal(await first.getAttribute('aria-posinset'), '1');
      assert.ok(Number(await first.getAttribute('aria-setsize')) >= LOG_ROWS - 1);
    },
  },
  {
    name: 'scrolled to the bottom, the log shows the last entries and no longer holds the first',
    async check(p) {
      const listed = lastUpdate(p).decisions;
      await scrollLog(p, 'bottom');
      assert.ok(await place(p, listed.at(-1)!.seq), 'the last entry is drawn');
      assert.equal(await place(p, listed[0].seq), undefined, 'the first is not');
      assert.ok((await drawn(p)) <= MAX_DRAWN);
      await scrollLog(p, 'top');
      assert.ok(await place(p, listed[0].seq), 'scrolled back, the first is drawn again');
    },
  },
  {
    name: 'read through by scrolling, the log lists every entry of the update once, in order',
    async check(p) {
      const rows = await logRows(p.page);
      const listed = lastUpdate(p).decisions.filter((d) => d.action !== 'MonitorPass');
      assert.deepEqual(
        rows.map((r) => r.ref),
        listed.map((d) => String(d.seq)),
      );
      assert.deepEqual(
        rows.map((r) => r.pos),
        rows.map((_, i) => i + 1),
      );
    },
  },
  {
    name: 'an opened entry keeps its height when scrolled away and back',
    async check(p) {
      const seq = lastUpdate(p).decisions.find((d, i) => i < 5 && d.checks > 0)!.seq;
      await p.page.locator(`#decisions li.decision[data-seq="${seq}"]`).click();
      await p.page.locator(`#decisions li.decision.expanded[data-seq="${seq}"] .because li`).first().waitFor();
      await frames(p);
      const opened = (await place(p, seq))!;
      const next = (await p.page.locator(`#decisions li.decision[data-seq="${seq}"] + li`).getAttribute('data-seq'))!;
      const below = (await place(p, Number(next)))!;
      assert.ok(opened.height > 40, `opened: ${opened.height}px`);
      assert.ok(below.top >= opened.bottom - 1, 'the entry after it is below it, not under it');
      await scrollLog(p, 'bottom');
      assert.equal(await place(p, seq), undefined, 'scrolled away');
      await scrollLog(p, 'top');
      const back = (await place(p, seq))!;
      assert.equal(back.height, opened.height);
      assert.equal((await place(p, Number(next)))!.top, below.top);
    },
  },
  {
    name: 'the arrow keys move along the entries, and past the last one in view the log scrolls to the next',
    async check(p) {
      await scrollLog(p, 'top');
      const first = p.page.locator('#decisions li.decision').first();
      await first.focus();
      const presses = Math.min(LOG_ROWS - 10, 80);
      for (let i = 0; i < presses; i++) await p.page.keyboard.press('ArrowDown');
      const focused = await p.page.evaluate(() => document.activeElement?.getAttribute('aria-posinset'));
      assert.equal(focused, String(1 + presses));
      const seq = Number(await p.page.evaluate(() => (document.activeElement as HTMLElement).dataset.seq));
      const at = (await place(p, seq))!;
      assert.ok(at.top >= 0 && at.bottom <= at.view + 1, 'the focused entry is in view');
      await p.page.keyboard.press('ArrowUp');
      assert.equal(await p.page.evaluate(() => document.activeElement?.getAttribute('aria-posinset')), String(presses));
    },
  },
  {
    name: 'Previous decision onto the last entry of the pass scrolls it into view, highlighted',
    async check(p, pass) {
      await scrollLog(p, 'top');
      p.session!.goToPass(pass + 1);
      await p.settled();
      await p.page.locator('vscode-button[data-action="previousDecision"]').click();
      await p.page.locator(`body[data-pass="${pass}"]`).waitFor();
      await p.settled();
      const u = lastUpdate(p);
      const seq = (u.focusSeq ?? u.selection?.seq)!;
      assert.equal(seq, u.decisions.at(-1)!.seq, 'the last entry is selected');
      await p.page.locator(`#decisions li.decision.selected[data-seq="${seq}"]`).waitFor();
      const at = (await place(p, seq))!;
      assert.ok(at.top >= 0 && at.bottom <= at.view + 1, `the selected entry is in view (${JSON.stringify(at)})`);
    },
  },
];

test('at the Unknown pass the decision log is virtual: the rows in view, scrolled, opened, walked by keys and revealed', async () => {
  const file = writeZoneOutage(dir);
  const p = await open(file);
  const pass = await atUnknownPass(p);
  for (const c of cases) await test(c.name, () => c.check(p, pass));
  assert.deepEqual(p.errors, []);
  await p.close();
});
