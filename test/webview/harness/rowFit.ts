/**
 * The built page fed made-up host messages, and what its list rows show: the suites that check names and facts are
 * whole (fits, readable, replicaSetNames) each opened the page, posted, and measured rows with the same code.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { HostMessage } from '../../../src/protocol/webview';
import { applyTheme, THEMES, type Served } from './page';

/** The plain page (no host prelude) at a size, in a theme when given, after its first paint. */
export async function openPlain(served: Served, width: number, height: number, theme?: keyof typeof THEMES): Promise<Page> {
  const page = await served.browser.newPage({ viewport: { width, height } });
  page.setDefaultTimeout(10_000);
  // tsx names the helpers inside evaluate callbacks with esbuild's __name, which the page does not have
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.goto(`${served.origin}/index.html#plain`);
  await page.locator('#scenario-name', { hasText: 'one-node-stops' }).waitFor();
  if (theme) await applyTheme(page, theme);
  return page;
}

/** Posts the messages as the host would, then waits for two frames: what they change is painted. */
export async function sendAndPaint(page: Page, ...ms: HostMessage[]): Promise<void> {
  await page.evaluate((list) => {
    for (const m of list) window.postMessage(m, '*');
  }, ms);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export interface MeasuredRow {
  ref: string;
  /** the name part's text, its line breaks taken out (a wrapped name reads whole) */
  text: string;
  /** the name part, or any of the other parts, is cut (overflowing its box, or drawn with an ellipsis) */
  cut: boolean;
  /** every part is inside its row, and the row inside the list */
  inside: boolean;
  top: number;
  bottom: number;
  /** the text of the first other part, when asked for */
  other?: string;
}

/**
 * The drawn rows of `rowSelector` in the list `#listId`, top to bottom: each row's `name` part, and `others` (selectors
 * of the other parts that must be whole too: all matches of each are measured).
 */
export function measureRows(page: Page, listId: string, rowSelector: string, name: string, others: readonly string[] = []): Promise<MeasuredRow[]> {
  return page.locator(`#${listId} ${rowSelector}`).evaluateAll(
    (rs, [listId, name, others]) => {
      const list = document.getElementById(listId as string)!.getBoundingClientRect();
      const cut = (e: HTMLElement) => e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis';
      return rs
        .map((r) => {
          const n = r.querySelector(name as string) as HTMLElement;
          const rest = (others as string[]).flatMap((s) => Array.from(r.querySelectorAll(s)) as HTMLElement[]);
          const b = r.getBoundingClientRect();
          const inside = (e: HTMLElement) => {
            const x = e.getBoundingClientRect();
            return x.left >= b.left - 0.5 && x.right <= b.right + 0.5 && x.bottom <= b.bottom + 0.5 && b.right <= list.right + 0.5;
          };
          return {
            ref: r.getAttribute('data-ref')!,
            text: n.innerText.replace(/\n/g, ''),
            cut: cut(n) || rest.some(cut),
            inside: inside(n) && rest.every(inside),
            top: b.top,
            bottom: b.bottom,
            ...(rest.length ? { other: rest[0].innerText } : {}),
          };
        })
        .sort((a, b) => a.top - b.top);
    },
    [listId, name, others] as const,
  );
}

/**
 * Every measured row shows its object's name whole (the ref after `kind/`), nothing cut, inside its row and list, the
 * rows one after another, and the list has nothing to scroll sideways.
 */
export async function assertRowsWhole(page: Page, listId: string, rows: readonly MeasuredRow[], kind: string, label: string): Promise<void> {
  for (const r of rows) {
    assert.equal(r.text, r.ref.slice(`${kind}/`.length), `${label}: ${r.ref}'s name shows whole`);
    assert.equal(r.cut, false, `${label}: ${r.ref}'s name and facts are not cut`);
    assert.equal(r.inside, true, `${label}: ${r.ref}'s name and facts are inside its row, and the row inside the list`);
  }
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i].top >= rows[i - 1].bottom - 0.5, `${label}: ${rows[i].ref} starts after ${rows[i - 1].ref} ends`);
  assert.ok(await page.locator(`#${listId}`).evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${label}: nothing to scroll sideways`);
}
