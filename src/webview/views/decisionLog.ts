/**
 * The decisions of the current pass, filterable by controller, action and
 * object, searchable; MonitorPass ticks are collapsed into one line unless the
 * user opens them (a user must not scroll past 5 s ticks).
 */
import { el, replace } from '../dom';
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

export class DecisionLog {
  readonly root = el('section', { id: 'log', class: 'panel', 'aria-label': 'Decisions' });
  private readonly controller = el('select', { id: 'filter-controller', 'aria-label': 'controller' });
  private readonly action = el('select', { id: 'filter-action', 'aria-label': 'action' });
  private readonly object = el('vscode-text-field', { id: 'filter-object', placeholder: 'object' });
  private readonly search = el('vscode-text-field', { id: 'filter-search', placeholder: 'search' });
  private readonly list = el('ol', { id: 'decisions', class: 'decisions' });
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
    // one listener for every entry: 200 entries a step, each with its own two, were made and dropped on every step
    const entry = (ev: Event) => (ev.target as HTMLElement).closest?.('li.decision') as HTMLElement | null;
    this.list.addEventListener('click', (ev) => {
      const li = entry(ev);
      if (li) this.toggle(Number(li.dataset.seq));
    });
    this.list.addEventListener('keydown', (ev) => {
      const li = entry(ev);
      if (li && (ev as KeyboardEvent).key === 'Enter' && ev.target === li) this.toggle(Number(li.dataset.seq));
    });
    this.root.append(
      el('h2', null, 'Decisions of this pass'),
      el('div', { class: 'row filters' }, this.controller, this.action, this.object, this.search),
      this.caption,
      this.list,
    );
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
  }

  /**
   * One line: time, action and the whole object name, then the summary, cut at the line's end (the full
   * text on hover). A click selects the decision and opens the row: the summary whole and the checks.
   */
  private row(d: DecisionLine): HTMLElement {
    const open = this.expanded.has(d.seq);
    const at = offsetText(d.time, this.store.init?.startTime);
    const start = this.store.init?.startTime;
    // the checks and the machine transition of an entry held whole (opened, selected); an opened one asks for them
    const whole = this.store.details.get(d.seq);
    if (open && !whole) this.askDetails([d]);
    const because = whole?.because ?? [];
    const full = `${at} (${d.time}) ${d.action} ${d.object}: ${offsetsInText(d.summary, start)}${because.length ? `\n${because.map((b) => `• ${b.rule}`).join('\n')}` : ''}`;
    const li = el(
      'li',
      {
        class: `decision controller-${d.controller}${this.store.selection.seq === d.seq ? ' selected' : ''}${open ? ' expanded' : ''}`,
        'data-seq': d.seq,
        tabindex: 0,
        title: full,
        'aria-expanded': String(open),
      },
      // an offset, as scenarios are written: the clock time took a third of the middle column and cut the object
      el('span', { class: 'time', title: d.time }, at),
      el('span', { class: 'action' }, d.action),
      el('span', { class: 'object' }, d.object),
      // the summary's own width says whether a readable part of it fits the line (webview.css: the stub)
      el('span', { class: 'summary' }, el('span', { class: 'summary-text' }, ...timedText(d.summary, start))),
      open && d.checks && !whole ? el('p', { class: 'because pending hint' }, `${d.checks} checks…`) : null,
      open && because.length ? el('ul', { class: 'because' }, ...because.map((b) => el('li', null, b.rule))) : null,
      open && whole?.machine
        ? el('p', { class: 'transition' }, `${whole.machine.id}: ${whole.machine.from} → ${whole.machine.to} (${whole.machine.event})`)
        : null,
    );
    return li;
  }

  /** A click (or Enter) on an entry selects its decision and opens or closes it. */
  private toggle(seq: number): void {
    if (!this.expanded.delete(seq)) this.expanded.add(seq);
    this.expandedVersion++;
    this.host.post({ type: 'selectDecision', seq });
    this.render();
  }

  /**
   * The rows are made again only when what they show changed (a step's decisions, the filter, an opened row, the
   * details that came, the selection): every other message (a node window's answer, a selection of a node) left the
   * 200 rows of a busy pass as they were, and they were made, styled and laid out again.
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
    const rows: HTMLElement[] = [];
    for (const d of shown) if (!(collapse && NOISE.has(d.action))) rows.push(this.row(d));
    if (collapse && noise.length) {
      const li = el(
        'li',
        { class: 'noise', id: 'noise-toggle', tabindex: 0 },
        `${noise.length} routine ${noise.length === 1 ? 'tick' : 'ticks'} (${[...new Set(noise.map((d) => d.action))].join(', ')}) hidden — show`,
      );
      li.addEventListener('click', () => {
        this.showNoise = true;
        this.render();
      });
      rows.push(li);
    } else if (!collapse && noise.length && s.settings.collapseNoise) {
      const li = el('li', { class: 'noise', id: 'noise-toggle', tabindex: 0 }, 'hide routine ticks');
      li.addEventListener('click', () => {
        this.showNoise = false;
        this.render();
      });
      rows.push(li);
    }
    if (after.length) {
      // Next decision or Run until stopped between two passes: what happened since the pass, up to now
      rows.push(
        el(
          'li',
          { class: 'between', id: 'between-passes' },
          `after pass ${s.pass ?? '—'}, until `,
          el('span', { class: 'time', title: s.time }, offsetText(s.time, s.init?.startTime)),
          ` (before pass ${(s.pass ?? -1) + 1})`,
        ),
      );
      for (const d of after) if (!(collapse && NOISE.has(d.action))) rows.push(this.row(d));
    }
    if (s.cut) {
      const total = s.cut.inPass + s.cut.afterPass;
      const more = el(
        'li',
        { class: 'more', id: 'log-show-all', tabindex: 0, role: 'button' },
        `the first ${real(s.decisions) + real(s.afterPass)} of ${total.toLocaleString('en')} decisions are listed — show all`,
      );
      more.addEventListener('click', () => this.askAll());
      more.addEventListener('keydown', (e) => {
        if ((e as KeyboardEvent).key === 'Enter') this.askAll();
      });
      rows.push(more);
    }
    const filtered = shown.length !== s.decisions.length || after.length !== s.afterPass.length;
    if (filtered && !shown.length && !after.length && all.length)
      rows.push(el('li', { class: 'hint', id: 'log-no-match' }, 'No decision here matches the filter.'));
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
    replace(this.list, ...rows);
    const sel = this.list.querySelector('li.selected');
    if (sel && 'scrollIntoView' in sel) (sel as HTMLElement).scrollIntoView({ block: 'nearest' });
  }
}

/** `1 decision`, `1,650 decisions` */
const count = (n: number): string => `${n.toLocaleString('en')} decision${n === 1 ? '' : 's'}`;
