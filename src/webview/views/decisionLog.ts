/**
 * The decisions of the current pass, filterable by controller, action and
 * object, searchable; MonitorPass ticks are collapsed into one line unless the
 * user opens them (a user must not scroll past 5 s ticks).
 *
 * The entries are a virtual list: a busy pass lists 200 (or, shown all, 16,000),
 * and making, styling and laying out all of them was most of the page's part of
 * the step (about 1,100 elements restyled, 1,800 laid out).
 */
import { el, replace, setText } from '../dom';
import { VirtualList } from '../virtualList';
import type { Host } from '../host';
import type { Store } from '../state';
import { offsetsInText, offsetText } from '../time';
import { timedText } from './timedText';
import type { Decision } from '../../engine/trace/decision';
import { MAX_DETAILS, type DecisionLine } from '../../protocol/lists';

/** Kept in step with NOISE_ACTIONS of src/engine/trace/decision.ts (the webview does not bundle the engine). */
export const NOISE = new Set(['MonitorPass']);

export interface LogFilter {
  controller: string;
  action: string;
  object: string;
  search: string;
}

/** The search reads the line and the checks' rules of the decisions held whole (`details`: the log asks for the lines'). */
export function filterDecisions<D extends DecisionLine>(ds: readonly D[], f: LogFilter, details: ReadonlyMap<number, Decision>): D[] {
  const q = f.search.toLowerCase();
  const o = f.object.toLowerCase();
  const rules = (seq: number) => (details.get(seq)?.because ?? []).map((b) => b.rule).join(' ');
  return ds.filter(
    (d) =>
      (!f.controller || d.controller === f.controller) &&
      (!f.action || d.action === f.action) &&
      (!o || d.object.toLowerCase().includes(o)) &&
      (!q || `${d.action} ${d.object} ${d.summary} ${rules(d.seq)}`.toLowerCase().includes(q)),
  );
}

/** An entry of the list: a decision, or the line that heads what happened after the pass. */
interface LogItem {
  key: string;
  d?: DecisionLine;
  open?: boolean;
  whole?: Decision;
}

const BETWEEN = 'between';
/** one line of the log (the editor font's line, 2 px padding each way, the border): the estimate until a row is measured */
const LINE_PX = 22;

export class DecisionLog {
  readonly root = el('section', { id: 'log', class: 'panel', 'aria-label': 'Decisions' });
  private readonly controller = el('select', { id: 'filter-controller', 'aria-label': 'controller' });
  private readonly action = el('select', { id: 'filter-action', 'aria-label': 'action' });
  private readonly object = el('vscode-text-field', { id: 'filter-object', placeholder: 'object' });
  private readonly search = el('vscode-text-field', { id: 'filter-search', placeholder: 'search' });
  private readonly list: VirtualList<LogItem>;
  /** under the caption, always in view (not at the end of 200 entries): the hidden ticks, "show all", no match */
  private readonly foot = el('div', { class: 'log-foot' });
  private readonly caption = el('p', { class: 'caption', id: 'log-caption' });
  private showNoise = false;
  /** rows opened by a click: the others are one line each */
  private readonly expanded = new Set<number>();
  /** bumped when a row is opened or closed */
  private expandedVersion = 0;
  /** what the rows were last made of (see `render`): the same, and the rows are kept */
  private madeOf: readonly unknown[] = [];
  /** the option lists last put in the two selects */
  private readonly optionsShown = new Map<HTMLSelectElement, string>();
  private filter: LogFilter = { controller: '', action: '', object: '', search: '' };
  /** the selection and the decisions it was last scrolled to: it is scrolled to again only when one of them changes */
  private revealed: [number | undefined, unknown] = [undefined, undefined];

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    const read = (e: HTMLElement) => String((e as unknown as { value: string }).value ?? '');
    const update = () => {
      this.filter = { controller: this.controller.value, action: this.action.value, object: read(this.object), search: read(this.search) };
      // a filter over the first LOG_ROWS alone would hide matches: the rest are asked for once
      if (this.store.cut) this.askAll();
      // the search reads the checks too: those of the lines listed come whole
      if (this.filter.search) this.askDetails([...this.store.decisions, ...this.store.afterPass]);
      this.render();
    };
    for (const e of [this.controller, this.action]) e.addEventListener('change', update);
    for (const e of [this.object, this.search]) e.addEventListener('input', update);
    this.list = new VirtualList<LogItem>({
      id: 'decisions',
      label: 'Decisions of this pass',
      positions: true,
      key: (it) => it.key,
      height: (it) => (it.open ? 3 * LINE_PX : LINE_PX),
      // an entry's height follows its text at the column's width (an object too long for the line wraps; an opened one
      // holds its checks): each is measured when first drawn, and keeps that height when scrolled away and back
      measureKey: (it) =>
        it.d
          ? `${it.open ? `o${it.d.seq}\u0000${it.whole ? 1 : 0}` : `c${it.d.time}\u0000${this.store.init?.startTime}\u0000${it.d.action}\u0000${it.d.object}`}`
          : it.key,
      group: (it) => (it.open ? `o${it.key}` : it.key === BETWEEN ? BETWEEN : 'line'),
      stamp: (it) =>
        it.d
          ? `${this.store.init?.startTime}\u0000${it.d.controller}\u0000${it.d.action}\u0000${it.d.object}\u0000${it.d.time}\u0000${it.d.summary}\u0000${it.d.checks}\u0000${it.open ? 1 : 0}${it.whole ? 1 : 0}`
          : `${this.store.pass}\u0000${this.store.time}\u0000${this.store.init?.startTime}`,
      draw: (it) => (it.d ? this.row(it.d, !!it.open, it.whole) : this.between()),
      redraw: (e, it, rowClass) => !!it.d && !it.open && this.rewrite(e, it.d, rowClass),
      pick: (key) => {
        if (key !== BETWEEN) this.toggle(Number(key));
      },
    });
    this.list.viewport.classList.add('decisions');
    this.list.viewport.addEventListener('keydown', (ev) => {
      const e = ev as KeyboardEvent;
      const li = (e.target as HTMLElement).closest?.('[data-ref]') as HTMLElement | null;
      if (!li) return;
      const key = li.dataset.ref as string;
      if (e.key === 'Enter' && e.target === li && key !== BETWEEN) this.toggle(Number(key));
      else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        // the next entry may not be drawn yet: scrolled to, it is, and takes the focus
        e.preventDefault();
        const next = this.list.neighbour(key, e.key === 'ArrowDown' ? 1 : -1);
        if (next === undefined) return;
        this.list.reveal(next);
        this.list.element(next)?.focus({ preventScroll: true });
      }
    });
    this.root.append(
      el('h2', null, 'Decisions of this pass'),
      el('div', { class: 'row filters' }, this.controller, this.action, this.object, this.search),
      this.caption,
      this.foot,
      this.list.viewport,
    );
  }

  private at(d: DecisionLine): string {
    return offsetText(d.time, this.store.init?.startTime);
  }

  private options(select: HTMLSelectElement, label: string, values: string[]): void {
    const current = select.value;
    const all = [...new Set([...values, ...(current ? [current] : [])])].sort();
    const shown = all.join('\u0000');
    if (this.optionsShown.get(select) === shown) return;
    this.optionsShown.set(select, shown);
    replace(select, el('option', { value: '' }, `all ${label}`), ...all.map((v) => el('option', { value: v }, v)));
    select.value = current;
  }

  /** the position (store version) whose every decision was asked for */
  private askedAt = -1;

  private askAll(): void {
    if (this.askedAt === this.store.version) return;
    this.askedAt = this.store.version;
    this.host.post({ type: 'allDecisions' });
  }

  /** seqs whose details were asked for and have not come (asked once) */
  private readonly asking = new Set<number>();

  /** Asks for the details of these lines that are not held (at most MAX_DETAILS: the first ones). */
  private askDetails(lines: readonly DecisionLine[]): void {
    const seqs = lines
      .filter((d) => d.checks > 0 && !this.store.details.has(d.seq) && !this.asking.has(d.seq))
      .slice(0, MAX_DETAILS)
      .map((d) => d.seq);
    if (!seqs.length) return;
    for (const seq of seqs) this.asking.add(seq);
    this.host.post({ type: 'decisionDetails', seqs });
  }

  /** Forgets the filters (another scenario was opened). */
  reset(): void {
    this.filter = { controller: '', action: '', object: '', search: '' };
    this.controller.value = '';
    this.action.value = '';
    for (const f of [this.object, this.search]) (f as unknown as { value: string }).value = '';
    this.showNoise = false;
    this.expanded.clear();
    this.expandedVersion++;
    this.asking.clear();
    // seqs start again at 0 in another scenario: no row of the old one may be kept as one of the new one's
    this.list.setItems([]);
    this.revealed = [undefined, undefined];
  }

  /**
   * One line: time, action and the whole object name, then the summary, cut at the line's end (the full
   * text on hover). A click selects the decision and opens the row: the summary whole and the checks.
   */
  private row(d: DecisionLine, open: boolean, whole: Decision | undefined): HTMLElement {
    const at = this.at(d);
    const start = this.store.init?.startTime;
    // the checks and the machine transition of an entry held whole (opened, selected); an opened one asks for them
    if (open && !whole) this.askDetails([d]);
    const because = whole?.because ?? [];
    const full = `${at} (${d.time}) ${d.action} ${d.object}: ${offsetsInText(d.summary, start)}${because.length ? `\n${because.map((b) => `• ${b.rule}`).join('\n')}` : ''}`;
    return el(
      'li',
      {
        class: `decision controller-${d.controller}${open ? ' expanded' : ''}`,
        'data-seq': d.seq,
        tabindex: 0,
        title: full,
        'aria-expanded': String(open),
      },
      // an offset, as scenarios are written: the clock time took a third of the middle column and cut the object
      el('span', { class: 'time', title: d.time }, at),
      el('span', { class: 'action' }, d.action),
      el('span', { class: 'object' }, d.object),
      // the summary's own width says whether a readable part of it fits the line (media/css/log.css: the stub)
      el('span', { class: 'summary' }, el('span', { class: 'summary-text' }, ...timedText(d.summary, start))),
      open && d.checks && !whole ? el('p', { class: 'because pending hint' }, `${d.checks} checks…`) : null,
      open && because.length ? el('ul', { class: 'because' }, ...because.map((b) => el('li', null, b.rule))) : null,
      open && whole?.machine
        ? el('p', { class: 'transition' }, `${whole.machine.id}: ${whole.machine.from} → ${whole.machine.to} (${whole.machine.event})`)
        : null,
    );
  }

  /**
   * A closed entry leaving the view shows another closed one: its texts and attributes rewritten, its four spans kept
   * (a busy pass's entries were made, styled and laid out anew, and the old ones taken out, at every step).
   */
  private rewrite(e: HTMLElement, d: DecisionLine, rowClass: string): boolean {
    if (e.tagName !== 'LI' || !e.classList.contains('decision') || e.classList.contains('expanded') || e.childElementCount !== 4) return false;
    const [time, action, object, summary] = Array.from(e.children) as HTMLElement[];
    const summaryText = summary.firstElementChild as HTMLElement | null;
    if (!summaryText) return false;
    const at = this.at(d);
    const start = this.store.init?.startTime;
    const className = `decision controller-${d.controller} ${rowClass}`;
    if (e.className !== className) e.className = className;
    e.dataset.seq = String(d.seq);
    e.title = `${at} (${d.time}) ${d.action} ${d.object}: ${offsetsInText(d.summary, start)}`;
    setText(time, at);
    time.title = d.time;
    setText(action, d.action);
    setText(object, d.object);
    const parts = timedText(d.summary, start);
    if (parts.length === 1 && typeof parts[0] === 'string') setText(summaryText, parts[0]);
    else replace(summaryText, ...parts);
    return true;
  }

  /** Next decision or Run until stopped between two passes: what happened since the pass, up to now */
  private between(): HTMLElement {
    const s = this.store;
    return el(
      'li',
      { class: 'between', id: 'between-passes' },
      `after pass ${s.pass ?? '—'}, until `,
      el('span', { class: 'time', title: s.time }, offsetText(s.time, s.init?.startTime)),
      ` (before pass ${(s.pass ?? -1) + 1})`,
    );
  }

  /** A click (or Enter) on an entry selects its decision and opens or closes it. */
  private toggle(seq: number): void {
    if (!this.expanded.delete(seq)) this.expanded.add(seq);
    this.expandedVersion++;
    this.host.post({ type: 'selectDecision', seq });
    this.render();
  }

  /**
   * The list is given its entries again only when what they show changed (a step's decisions, the filter, an opened
   * row, the details that came, the selection); the virtual list then makes only the rows in view whose text changed.
   */
  render(): void {
    const s = this.store;
    for (const seq of this.asking) if (s.details.has(seq)) this.asking.delete(seq);
    const madeOf = [
      s.decisions,
      s.afterPass,
      s.cut,
      s.pass,
      s.time,
      s.init?.startTime,
      s.settings.collapseNoise,
      s.selection.seq,
      s.detailsVersion,
      this.filter,
      this.showNoise,
      this.expandedVersion,
    ];
    if (madeOf.length === this.madeOf.length && madeOf.every((x, i) => x === this.madeOf[i])) return;
    this.madeOf = madeOf;
    const all = [...s.decisions, ...s.afterPass];
    this.options(
      this.controller,
      'controllers',
      all.map((d) => d.controller),
    );
    this.options(
      this.action,
      'actions',
      all.map((d) => d.action),
    );
    const collapse = s.settings.collapseNoise && !this.showNoise;
    const shown = filterDecisions(s.decisions, this.filter, s.details);
    const after = filterDecisions(s.afterPass, this.filter, s.details);
    const noise = shown.filter((d) => NOISE.has(d.action));
    const real = (ds: readonly DecisionLine[]) => ds.filter((d) => !NOISE.has(d.action)).length;
    const items: LogItem[] = [];
    const item = (d: DecisionLine): LogItem => {
      const open = this.expanded.has(d.seq);
      return { key: String(d.seq), d, open, whole: open ? s.details.get(d.seq) : undefined };
    };
    for (const d of shown) if (!(collapse && NOISE.has(d.action))) items.push(item(d));
    const foot: HTMLElement[] = [];
    if (collapse && noise.length) {
      const line = el(
        'div',
        { class: 'noise', id: 'noise-toggle', tabindex: 0, role: 'button' },
        `${noise.length} routine ${noise.length === 1 ? 'tick' : 'ticks'} (${[...new Set(noise.map((d) => d.action))].join(', ')}) hidden — show`,
      );
      onActivate(line, () => {
        this.showNoise = true;
        this.render();
      });
      foot.push(line);
    } else if (!collapse && noise.length && s.settings.collapseNoise) {
      const line = el('div', { class: 'noise', id: 'noise-toggle', tabindex: 0, role: 'button' }, 'hide routine ticks');
      onActivate(line, () => {
        this.showNoise = false;
        this.render();
      });
      foot.push(line);
    }
    if (after.length) {
      items.push({ key: BETWEEN });
      for (const d of after) if (!(collapse && NOISE.has(d.action))) items.push(item(d));
    }
    if (s.cut) {
      const total = s.cut.inPass + s.cut.afterPass;
      const more = el(
        'div',
        { class: 'more', id: 'log-show-all', tabindex: 0, role: 'button' },
        `the first ${real(s.decisions) + real(s.afterPass)} of ${total.toLocaleString('en')} decisions are listed — show all`,
      );
      onActivate(more, () => this.askAll());
      foot.push(more);
    }
    const filtered = shown.length !== s.decisions.length || after.length !== s.afterPass.length;
    if (filtered && !shown.length && !after.length && all.length)
      foot.push(el('p', { class: 'hint', id: 'log-no-match' }, 'No decision here matches the filter.'));
    // cut: the counts of the whole pass, from the host
    const inPass = s.cut && !filtered ? s.cut.inPass : real(shown);
    const afterCount = s.cut && !filtered ? s.cut.afterPass : real(after);
    const afterText = s.afterPass.length ? `, ${afterCount} after it` : '';
    replace(
      this.caption,
      s.pass === null
        ? `Before the first monitor pass${s.afterPass.length ? `: ${count(afterCount)}` : '.'}`
        : `${count(inPass)} in pass ${s.pass}${afterText}${filtered ? ` (of ${real(s.decisions) + real(s.afterPass)}${s.cut ? ' listed' : ''}, filtered)` : ''}`,
    );
    replace(this.foot, ...foot);
    this.foot.hidden = !foot.length;
    const selected = s.selection.seq === undefined ? undefined : String(s.selection.seq);
    this.list.select(selected);
    this.list.setItems(items);
    // the selected entry (Next decision's) is scrolled to when it or the pass changed, not on every detail that came
    if (selected !== undefined && (this.revealed[0] !== s.selection.seq || this.revealed[1] !== s.decisions)) this.list.reveal(selected);
    this.revealed = [s.selection.seq, s.decisions];
  }
}

/** A line that acts as a button: a click or Enter. */
function onActivate(e: HTMLElement, f: () => void): void {
  e.addEventListener('click', f);
  e.addEventListener('keydown', (ev) => {
    if ((ev as KeyboardEvent).key === 'Enter') f();
  });
}

/** `1 decision`, `1,650 decisions` */
const count = (n: number): string => `${n.toLocaleString('en')} decision${n === 1 ? '' : 's'}`;
