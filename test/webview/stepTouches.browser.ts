/**
 * A step touches what it changed, and reads no layout while the page handles its update (issue 14 §5): at 5,000
 * nodes the page's part of the heavy steps was its own making again of every log entry in view, of every zone's card
 * and of the timeline's ticks and marks, and the layouts its lists forced by reading their scroll and size after the
 * panel wrote (6 to 10 per step). The real webview and the real host over a generated 600-node, three-zone outage,
 * watched by a MutationObserver and by counters on the DOM's layout reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { realPanelsOnServedPage, type RealPanel } from './harness/realPanel';
import { writeZoneOutage } from '../helpers/generatedOutage';
import type { UpdateMessage } from '../../src/protocol/webview';

const open = realPanelsOnServedPage();
const dir = mkdtempSync(join(tmpdir(), 'cs-step-touches-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Touched {
  /** layout reads (scroll, client and offset sizes, rects, computed style) while the page handled the update */
  layoutReads: string[];
  /** log entries added to and removed from the list's rows */
  entriesAdded: number;
  entriesRemoved: number;
  entriesBefore: number;
  entriesAfter: number;
  /** zone cards taken out, and the cards kept (the same elements) */
  zoneCardsRemoved: number;
  zoneCardsKept: number;
  zones: number;
  /** the timeline's ticks, event marks and pass marks taken out */
  timelineRemoved: number;
  timelineBefore: number;
}

/** Watches the page until `done` is called: what the next messages' handling read and changed. */
async function watch(p: RealPanel): Promise<() => Promise<Touched>> {
  await p.page.evaluate(() => {
    const w = window as unknown as { __touched: Touched; __inMessage: boolean; __patched?: boolean; __stop?: () => void };
    const t: Touched = {
      layoutReads: [],
      entriesAdded: 0,
      entriesRemoved: 0,
      entriesBefore: document.querySelectorAll('#decisions .rows > li').length,
      entriesAfter: 0,
      zoneCardsRemoved: 0,
      zoneCardsKept: 0,
      zones: 0,
      timelineRemoved: 0,
      timelineBefore: document.querySelectorAll('#axis > *, #marks > *, #events > *').length,
    };
    w.__touched = t;
    if (!w.__patched) {
      w.__patched = true;
      // the reads that make the browser lay out what the script wrote before it returns (a forced layout)
      const getters: [object, string[]][] = [
        [Element.prototype, ['scrollTop', 'scrollLeft', 'scrollHeight', 'scrollWidth', 'clientHeight', 'clientWidth', 'clientTop', 'clientLeft']],
        [HTMLElement.prototype, ['offsetHeight', 'offsetWidth', 'offsetTop', 'offsetLeft', 'innerText']],
      ];
      for (const [proto, names] of getters)
        for (const name of names) {
          const d = Object.getOwnPropertyDescriptor(proto, name)!;
          Object.defineProperty(proto, name, {
            ...d,
            get(this: Element) {
              if (w.__inMessage) w.__touched.layoutReads.push(`${name} of ${this.id || this.className || this.tagName}`);
              return d.get!.call(this);
            },
          });
        }
      for (const name of ['getBoundingClientRect', 'getClientRects'] as const) {
        const f = Element.prototype[name];
        (Element.prototype as unknown as Record<string, unknown>)[name] = function (this: Element) {
          if (w.__inMessage) w.__touched.layoutReads.push(`${name} of ${this.id || this.className || this.tagName}`);
          return (f as () => unknown).call(this);
        };
      }
      const style = window.getComputedStyle;
      window.getComputedStyle = (e, pseudo) => {
        if (w.__inMessage) w.__touched.layoutReads.push(`getComputedStyle of ${e.id || e.className || e.tagName}`);
        return style(e, pseudo);
      };
      // the page's listener reads the message's data first, and handles it in the same task: from that read until the
      // microtasks after it
      const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data')!;
      Object.defineProperty(MessageEvent.prototype, 'data', {
        ...data,
        get(this: MessageEvent) {
          if (!w.__inMessage) {
            w.__inMessage = true;
            queueMicrotask(() => (w.__inMessage = false));
          }
          return data.get!.call(this);
        },
      });
    }
    const zoneCards = Array.from(document.querySelectorAll('#zones > .zone-card'));
    const observers = [
      new MutationObserver((rs) => {
        for (const r of rs) {
          t.entriesAdded += r.addedNodes.length;
          t.entriesRemoved += r.removedNodes.length;
        }
      }),
      new MutationObserver((rs) => {
        for (const r of rs) t.zoneCardsRemoved += r.removedNodes.length;
      }),
      new MutationObserver((rs) => {
        for (const r of rs) t.timelineRemoved += r.removedNodes.length;
      }),
    ];
    observers[0].observe(document.querySelector('#decisions .rows')!, { childList: true });
    observers[1].observe(document.querySelector('#zones')!, { childList: true });
    for (const id of ['#axis', '#marks', '#events']) observers[2].observe(document.querySelector(id)!, { childList: true });
    w.__stop = () => {
      for (const o of observers) for (const r of o.takeRecords()) void r;
      for (const o of observers) o.disconnect();
      t.entriesAfter = document.querySelectorAll('#decisions .rows > li').length;
      const now = Array.from(document.querySelectorAll('#zones > .zone-card'));
      t.zones = now.length;
      t.zoneCardsKept = now.filter((c) => zoneCards.includes(c)).length;
    };
  });
  return async () => {
    await p.settled();
    // the frame after the update (the lists measure their new rows there) and the one after it
    await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    return p.page.evaluate(() => {
      const w = window as unknown as { __touched: Touched; __stop: () => void };
      w.__stop();
      return w.__touched;
    });
  };
}

/**
 * The panel at the Unknown pass, the first of two busy passes in a row (the zone's nodes go Unknown, then their pods'
 * evictions are queued): each shows a log cut to its first entries, more than the list has in view.
 */
async function atUnknownPass(p: RealPanel): Promise<number> {
  const s = p.session!;
  const cut = (pass: number) => {
    s.goToPass(pass);
    return !!p.sent.filter((m): m is UpdateMessage => m.type === 'update').at(-1)?.cut;
  };
  // pass 0 (every node registers) is busy too
  for (let pass = 1; pass < 60; pass++)
    if (cut(pass) && cut(pass + 1)) {
      s.goToPass(pass);
      await p.settled();
      return pass;
    }
  throw new Error('no two passes in a row of the outage hold more than LOG_ROWS decisions');
}

const step = (p: RealPanel) => p.page.locator('vscode-button[data-action="step"]').click();
const stepBack = (p: RealPanel) => p.page.locator('vscode-button[data-action="stepBack"]').click();

/** Every entry drawn says the decision of its seq in the last update: a row rewritten in place is that row's. */
async function entriesAreTheirDecisions(p: RealPanel, what: string): Promise<number> {
  const u = p.sent.filter((m): m is UpdateMessage => m.type === 'update').at(-1)!;
  const bySeq = new Map([...u.decisions, ...(u.afterPass ?? [])].map((d) => [String(d.seq), d]));
  const rows = await p.page.$$eval('#decisions .rows > li.decision', (lis) =>
    lis.map((li) => ({
      ref: (li as HTMLElement).dataset.ref,
      seq: (li as HTMLElement).dataset.seq,
      action: li.querySelector('.action')?.textContent,
      object: li.querySelector('.object')?.textContent,
      title: li.getAttribute('title'),
      cls: li.className,
    })),
  );
  assert.ok(rows.length > 5, `${what}: entries drawn (${rows.length})`);
  for (const r of rows) {
    const d = bySeq.get(r.seq!);
    assert.ok(d, `${what}: the entry ${r.seq} is a decision of the pass`);
    assert.equal(r.ref, r.seq, `${what}: the row's key is its seq`);
    assert.equal(r.action, d.action, `${what}: entry ${r.seq}'s action`);
    assert.equal(r.object, d.object, `${what}: entry ${r.seq}'s object`);
    assert.ok(r.title?.includes(` ${d.action} ${d.object}: `), `${what}: entry ${r.seq}'s hover text (${r.title})`);
    assert.ok(r.cls.split(' ').includes(`controller-${d.controller}`) && r.cls.split(' ').includes('row'), `${what}: entry ${r.seq}'s classes (${r.cls})`);
  }
  return rows.length;
}

/** `entries`: both passes list more entries than the log has in view (the last pass's lists four) */
const cases: { name: string; act(p: RealPanel): Promise<unknown>; entries: boolean }[] = [
  { name: 'the step from the Unknown pass to the next', act: step, entries: true },
  { name: 'the step back onto the Unknown pass', act: stepBack, entries: true },
  {
    name: 'two steps, the second onto a pass not simulated before (the end of the timeline moves)',
    act: async (p) => {
      await step(p);
      await p.settled();
      await step(p);
    },
    entries: false,
  },
];

test('a step reads no layout while its update is handled, and makes again only the log entries, zone cards and timeline marks that changed', async () => {
  const file = writeZoneOutage(dir, 5, { zones: 3 });
  const p = await open(file);
  await atUnknownPass(p);
  await entriesAreTheirDecisions(p, 'the Unknown pass');
  for (const c of cases) {
    const passBefore = await p.page.evaluate(() => document.body.dataset.pass);
    const done = await watch(p);
    const before = p.received.length;
    await c.act(p);
    const t = await done();
    assert.ok(p.received.length > before, `${c.name}: the page asked the host (else nothing was tested)`);
    assert.notEqual(await p.page.evaluate(() => document.body.dataset.pass), passBefore, `${c.name}: the pass changed`);
    assert.deepEqual(t.layoutReads, [], `${c.name}: no layout read while the update was handled`);
    if (c.entries) {
      // each entry that stays in view is the element of one that left (the list as long, or nearly)
      const reused = Math.min(t.entriesBefore, t.entriesAfter);
      assert.ok(reused > 5, `${c.name}: entries in view before and after (${t.entriesBefore}, ${t.entriesAfter})`);
      assert.ok(t.entriesRemoved <= t.entriesBefore - reused, `${c.name}: entries taken out (${JSON.stringify(t)})`);
      assert.ok(t.entriesAdded <= t.entriesAfter - reused, `${c.name}: entries made (${JSON.stringify(t)})`);
      await entriesAreTheirDecisions(p, c.name);
    }
    // one zone is out: the others' cards are the same elements
    assert.equal(t.zones, 3, `${c.name}: three zones`);
    assert.ok(t.zoneCardsKept >= 2 && t.zoneCardsRemoved <= 1, `${c.name}: zone cards kept (${JSON.stringify(t)})`);
    // the track's end moved by a pass: its ticks and marks are moved, not made again (a tick may become the last one)
    assert.ok(t.timelineBefore > 5, `${c.name}: the timeline has ticks and marks (${t.timelineBefore})`);
    assert.ok(t.timelineRemoved <= 2, `${c.name}: timeline elements taken out (${JSON.stringify(t)})`);
  }
  assert.deepEqual(p.errors, []);
  await p.close();
});
