/**
 * The decision log is a virtual list: only the entries in view are in the DOM. A test that reads the whole log
 * reads it as a user would, by scrolling it from top to bottom, and gets every entry once, in the list's order.
 */
import type { Page } from 'playwright-core';

export interface LogRow {
  /** the row's key: a decision's seq, or `between` */
  ref: string;
  /** aria-posinset: the row's place in the whole list, from 1 */
  pos: number;
  /** aria-setsize */
  size: number;
  text: string;
  className: string;
}

/** Every entry of the log (`#decisions`), read by scrolling it through; the scroll is put back after. */
export async function logRows(page: Page): Promise<LogRow[]> {
  // a string, not a function: the test runner's transform would put helpers (`__name`) into a serialised function
  return page.evaluate(`(async () => {
    const v = document.querySelector('#decisions');
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
    const kept = v.scrollTop;
    const rows = new Map();
    const read = () => {
      for (const e of v.querySelectorAll('[data-ref]'))
        rows.set(e.dataset.ref, {
          ref: e.dataset.ref,
          pos: Number(e.getAttribute('aria-posinset')),
          size: Number(e.getAttribute('aria-setsize')),
          text: e.innerText,
          className: e.className,
        });
    };
    v.scrollTop = 0;
    v.dispatchEvent(new Event('scroll'));
    await frame();
    read();
    // a screen at a time, less a row, until the bottom
    for (let guard = 0; guard < 10000 && v.scrollTop + v.clientHeight < v.scrollHeight - 1; guard++) {
      const before = v.scrollTop;
      v.scrollTop = before + Math.max(20, v.clientHeight - 30);
      v.dispatchEvent(new Event('scroll'));
      await frame();
      read();
      if (v.scrollTop === before) break;
    }
    v.scrollTop = kept;
    v.dispatchEvent(new Event('scroll'));
    await frame();
    return [...rows.values()].sort((a, b) => a.pos - b.pos);
  })()`) as Promise<LogRow[]>;
}

/** The log's text, entry by entry (one line each, as `innerText` of the whole list gave it when every entry was drawn). */
export async function logText(page: Page): Promise<string> {
  return (await logRows(page)).map((r) => r.text).join('\n');
}
