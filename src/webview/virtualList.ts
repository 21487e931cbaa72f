/**
 * A list that keeps in the DOM only the rows in view (plus a margin), for the
 * lists that reach Kubernetes' limits: 5,000 nodes, 150,000 pods, 14,121
 * ReplicaSets. Rows may differ in height (a node with taints takes two lines);
 * their tops are a prefix sum, found by binary search while scrolling. A row
 * whose text wraps (a user's long taint, kept whole) is as high as it is drawn
 * at the list's width: measured once per `measureKey` and width, since all the
 * nodes an outage tainted wrap alike.
 *
 * A row already drawn is kept as it is while its `stamp` is the same object or
 * value: a step that changed three rows touches three rows, and style and
 * layout are recomputed for those alone.
 */
import { el } from './dom';

export interface VirtualListOptions<T> {
  id: string;
  /** `data-ref` of the row; also what selection and reveal use */
  key(item: T): string;
  /** the row's height in px (until measured, for a row with a measureKey) */
  height(item: T): number;
  /**
   * For a row whose height depends on the width (wrapping text): what its height follows, such as its
   * chips' text. Its height is read from the first such row drawn, and the list laid out again when
   * the estimate was wrong; undefined: the row is `height` high.
   */
  measureKey?(item: T): string | undefined;
  /**
   * Rows of one group are alike in height (one line, or two with chips): a row with no measured height (its data not
   * here yet, or its measureKey not drawn yet) is as high as the last row of its group measured, else `height`.
   */
  group?(item: T): string;
  draw(item: T): HTMLElement;
  /**
   * Makes a row that leaves the view show `item` instead, in place (`rowClass` is the list's classes for the row, to be
   * kept in its class attribute); false when it cannot (another shape). A busy pass's entries then change the texts of
   * the rows in view: no element made, styled and laid out anew, none taken out.
   */
  redraw?(e: HTMLElement, item: T, rowClass: string): boolean;
  /** a row is redrawn only when this changes (=== comparison) */
  stamp(item: T): unknown;
  /** a click on a row */
  pick?(key: string): void;
  /** after each draw: the rows drawn, `first` to before `end` (those in view and the margin) */
  shown?(first: number, end: number): void;
  /** rows carry `aria-posinset`/`aria-setsize`: a screen reader hears "12 of 200" though only the rows in view exist */
  positions?: boolean;
  label: string;
}

interface Drawn {
  e: HTMLElement;
  stamp: unknown;
  top: number;
  /** the index and list length its aria attributes say (with `positions`) */
  pos: number;
  size: number;
}

/** when the viewport has not been laid out yet (hidden, or before the first paint) */
const FALLBACK_HEIGHT = 400;
const MARGIN_PX = 120;

export class VirtualList<T> {
  readonly viewport: HTMLElement;
  private readonly spacer = el('div', { class: 'spacer' });
  private readonly box = el('div', { class: 'rows' });
  private items: readonly T[] = [];
  /** tops[i] is the top of row i; tops[n] the total height */
  private tops = new Float64Array(1);
  private readonly drawn = new Map<string, Drawn>();
  private selected: string | undefined;
  /**
   * The viewport's scroll and size, as its scroll events and the ResizeObserver last said: read in `draw`, after the
   * panel wrote the zones and the other lists, they forced a layout per list per update (4-6 on every step).
   */
  private top = 0;
  private height = 0;
  private width = 0;
  /** the ResizeObserver has reported the viewport's size; until then it is read, once */
  private sized = false;
  private read = false;
  /** rows drawn whose height is not known yet, measured by `rowSizes` after the frame's layout (no forced layout) */
  private readonly pending = new Map<Element, [string, number, T]>();
  private readonly rowSizes: ResizeObserver | undefined;
  /** inside `rowSizes`' callback, or revealing a row: rows drawn now are measured at once */
  private measureNow = false;
  /** measured heights by measureKey, at `measuredWidth` */
  private readonly measured = new Map<string, number>();
  /** the last measured height of each group, at `measuredWidth` */
  private readonly groupHeights = new Map<string, number>();
  private measuredWidth = -1;

  constructor(private readonly o: VirtualListOptions<T>) {
    this.viewport = el('div', { id: o.id, class: 'viewport', role: 'list', tabindex: 0, 'aria-label': o.label });
    this.viewport.append(this.spacer, this.box);
    this.viewport.addEventListener('scroll', () => {
      this.top = this.viewport.scrollTop;
      this.draw();
    });
    this.viewport.addEventListener('click', (ev) => {
      const row = (ev.target as HTMLElement | null)?.closest?.('[data-ref]') as HTMLElement | null;
      if (row && this.box.contains(row) && o.pick) o.pick(row.dataset.ref as string);
    });
    // the lists share their column's height: one that grows (a pane resized, the pods shown) draws the rows it now shows;
    // at another width the wrapped rows are measured again
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver((entries) => {
        const box = entries[entries.length - 1].contentRect;
        const grew = box.height > this.height;
        // hidden, the list keeps the height it had (drawn for it meanwhile); its width 0 says it cannot be measured
        if (box.height) this.height = box.height;
        this.width = Math.round(box.width);
        this.sized = true;
        // a list hidden and shown again (the pods') scrolled back to its top without a scroll event
        const top = this.viewport.scrollTop;
        const scrolled = top !== this.top;
        this.top = top;
        if (!this.items.length) return;
        if (this.measured.size && this.width !== this.measuredWidth) {
          // the selected row, when it showed, shows whole again at its new height
          const shown = this.selected !== undefined && this.drawn.has(this.selected) ? this.selected : undefined;
          this.measured.clear();
          this.groupHeights.clear();
          this.setItems(this.items);
          if (shown !== undefined) this.reveal(shown);
        } else if (grew || scrolled) this.draw();
      }).observe(this.viewport);
      this.rowSizes = new ResizeObserver((entries) => this.sizes(entries));
    }
  }

  get length(): number {
    return this.items.length;
  }

  /** Replaces the list (its order included) and draws what is in view. */
  setItems(items: readonly T[]): void {
    this.items = items;
    const tops = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) tops[i + 1] = tops[i] + this.heightOf(items[i]);
    this.tops = tops;
    this.spacer.style.height = `${tops[items.length]}px`;
    this.draw();
  }

  /** Scrolls to the list's top; the next draw (setItems) draws from there. */
  toTop(): void {
    this.viewport.scrollTop = 0;
    this.top = 0;
  }

  /** Marks one row selected (only the rows whose state flips are touched). */
  select(key: string | undefined): void {
    if (key === this.selected) return;
    if (this.selected !== undefined) this.drawn.get(this.selected)?.e.classList.remove('selected');
    this.selected = key;
    if (key !== undefined) this.drawn.get(key)?.e.classList.add('selected');
  }

  private heightOf(item: T): number {
    if (!this.measured.size) return this.o.height(item);
    const mk = this.o.measureKey?.(item);
    return (mk !== undefined && this.measured.get(mk)) || (this.o.group && this.groupHeights.get(this.o.group(item))) || this.o.height(item);
  }

  /** the viewport's height, as the ResizeObserver said (read once before it first did) */
  private viewportHeight(): number {
    if (!this.sized && !this.read) {
      this.read = true;
      this.height = this.viewport.clientHeight;
      this.width = this.viewport.clientWidth;
    }
    return this.height || FALLBACK_HEIGHT;
  }

  /** the scroll offset, as the browser clamps it when the list got shorter (its scroll event comes after this draw) */
  private scrolled(height: number, top = this.top): number {
    return Math.max(0, Math.min(top, this.tops[this.items.length] - height));
  }

  /** Draws the rows in view, keeping every row whose stamp is unchanged. */
  draw(): void {
    /** rows in view whose height is not known yet at this width, with the height they were given */
    const toMeasure: [string, HTMLElement, number, T][] = [];
    /** a row drawn at another height than its key's measured one (its data came since the list was laid out) */
    let misplaced = false;
    const n = this.items.length;
    const height = this.viewportHeight();
    const top = this.scrolled(height);
    const first = Math.max(0, this.indexAt(top - MARGIN_PX));
    const lastTop = top + height + MARGIN_PX;
    let end = first;
    while (end < n && this.tops[end] < lastTop) end++;
    const keep = new Set<string>();
    for (let i = first; i < end; i++) keep.add(this.o.key(this.items[i]));
    /** the rows that leave the view, by element: one in the right place may be redrawn for a row that comes */
    const leaving = new Map<Element, string>();
    if (this.o.redraw) {
      const focused = document.activeElement;
      for (const [key, d] of this.drawn) if (!keep.has(key) && !d.e.contains(focused)) leaving.set(d.e, key);
    }
    /** the last row placed: a new row goes after it, so the DOM (Tab, a screen reader) keeps the list's order */
    let prev: HTMLElement | undefined;
    for (let i = first; i < end; i++) {
      const item = this.items[i];
      const key = this.o.key(item);
      const stamp = this.o.stamp(item);
      let d = this.drawn.get(key);
      if (!d || d.stamp !== stamp) {
        const rowClass = key === this.selected ? 'row selected' : 'row';
        const next = (d ? d.e : prev ? prev.nextElementSibling : this.box.firstElementChild) as HTMLElement | null;
        const old = d ? key : next && leaving.get(next);
        if (old !== undefined && old !== null && this.o.redraw?.(next!, item, rowClass)) {
          // the same element, now this row's
          if (!d) {
            leaving.delete(next!);
            const was = this.drawn.get(old)!;
            this.drawn.delete(old);
            this.forget(next!);
            next!.dataset.ref = key;
            d = { ...was, stamp };
            this.drawn.set(key, d);
          } else d.stamp = stamp;
        } else {
          const e = this.o.draw(item);
          e.dataset.ref = key;
          e.classList.add('row');
          e.setAttribute('role', 'listitem');
          if (key === this.selected) e.classList.add('selected');
          if (d) {
            this.forget(d.e);
            d.e.replaceWith(e);
          } else if (prev) prev.after(e);
          else this.box.prepend(e);
          d = { e, stamp, top: -1, pos: -1, size: -1 };
          this.drawn.set(key, d);
        }
      }
      prev = d.e;
      if (this.o.positions && (d.pos !== i || d.size !== n)) {
        d.pos = i;
        d.size = n;
        d.e.setAttribute('aria-posinset', String(i + 1));
        d.e.setAttribute('aria-setsize', String(n));
      }
      if (d.top !== this.tops[i]) {
        d.top = this.tops[i];
        d.e.style.transform = `translateY(${d.top}px)`;
      }
      // a row drawn while the list was hidden is measured once it shows
      const mk = this.o.measureKey?.(item);
      if (mk !== undefined) {
        const h = this.measured.get(mk);
        if (h === undefined) toMeasure.push([mk, d.e, this.tops[i + 1] - this.tops[i], item]);
        else if (h !== this.tops[i + 1] - this.tops[i]) misplaced = true;
      }
    }
    for (const [key, d] of this.drawn) {
      if (keep.has(key)) continue;
      this.forget(d.e);
      d.e.remove();
      this.drawn.delete(key);
    }
    if (toMeasure.length) {
      // laid out again, the list was drawn again and said what it shows
      if (this.measureNow || !this.rowSizes) {
        if (this.measure(toMeasure)) return;
      } else
        for (const [mk, e, given, item] of toMeasure) {
          if (this.pending.has(e)) this.rowSizes.unobserve(e);
          this.pending.set(e, [mk, given, item]);
          this.rowSizes.observe(e);
        }
    }
    if (misplaced) return this.setItems(this.items);
    this.o.shown?.(first, end);
  }

  /** A row element leaves the list (or is drawn anew): it is measured no more. */
  private forget(e: HTMLElement): void {
    if (this.pending.delete(e)) this.rowSizes?.unobserve(e);
  }

  /**
   * The heights of the rows drawn since the last frame, as its layout made them (the ResizeObserver's first report of
   * each): when one differs from the height it was given, the list is laid out again before the paint.
   */
  private sizes(entries: ResizeObserverEntry[]): void {
    const rows: [string, HTMLElement, number, T][] = [];
    for (const entry of entries) {
      const e = entry.target as HTMLElement;
      const p = this.pending.get(e);
      if (!p) continue;
      this.forget(e);
      const h = Math.round(entry.borderBoxSize?.[0]?.blockSize ?? e.offsetHeight);
      rows.push([p[0], e, p[1], p[2]]);
      this.heights.set(e, h);
    }
    if (!rows.length) return;
    this.measureNow = true;
    try {
      this.measure(rows);
    } finally {
      this.measureNow = false;
      this.heights.clear();
    }
  }

  /** heights given by the ResizeObserver for `measure`, instead of reading them */
  private readonly heights = new Map<Element, number>();

  /**
   * Reads the heights of rows just drawn (one layout for all of them, or none in the ResizeObserver's callback) and,
   * when one differs from the height it was given, lays the list out again (true). Each key is measured once per width,
   * so this ends.
   */
  private measure(rows: [string, HTMLElement, number, T][]): boolean {
    const width = this.sized ? this.width : this.viewport.clientWidth;
    // not laid out (hidden): measured when shown
    if (!width) return false;
    if (width !== this.measuredWidth) {
      this.measured.clear();
      this.groupHeights.clear();
      this.measuredWidth = width;
    }
    let wrong = false;
    for (const [mk, e, given, item] of rows) {
      const h = this.heights.get(e) ?? e.offsetHeight;
      if (!h) continue;
      this.measured.set(mk, h);
      if (this.o.group) this.groupHeights.set(this.o.group(item), h);
      if (h !== given) wrong = true;
    }
    if (wrong) this.setItems(this.items);
    return wrong;
  }

  /** The row drawn for this key (in view or in the margin), if any. */
  element(key: string): HTMLElement | undefined {
    return this.drawn.get(key)?.e;
  }

  /** The key `delta` rows from this one's, if the list has such a row. */
  neighbour(key: string, delta: number): string | undefined {
    const i = this.items.findIndex((t) => this.o.key(t) === key);
    const j = i + delta;
    return i < 0 || j < 0 || j >= this.items.length ? undefined : this.o.key(this.items[j]);
  }

  /** Scrolls the row with this key into view, when it is in the list. */
  reveal(key: string): boolean {
    const i = this.items.findIndex((t) => this.o.key(t) === key);
    if (i < 0) return false;
    // measured at once: the row may be taller than its estimate, and shows whole
    const was = this.measureNow;
    this.measureNow = true;
    try {
      this.scrollToRow(i);
      this.draw();
      // drawn, the row may have been measured taller than its estimate: in view whole again
      if (this.scrollToRow(i)) this.draw();
    } finally {
      this.measureNow = was;
    }
    return true;
  }

  /** Scrolls so that row i shows whole, with up to two rows' height above it; false when it already showed. */
  private scrollToRow(i: number): boolean {
    const top = this.tops[i];
    const rowHeight = this.tops[i + 1] - top;
    const h = this.viewportHeight();
    const at = this.scrolled(h);
    if (top >= at && top + rowHeight <= at + h) return false;
    const to = Math.max(0, top - Math.max(0, Math.min(2 * rowHeight, h - rowHeight)));
    this.viewport.scrollTop = to;
    this.top = this.scrolled(h, to);
    return true;
  }

  /** The index of the row that covers `y` (0 above the list). */
  private indexAt(y: number): number {
    let lo = 0,
      hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.tops[mid + 1] <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
