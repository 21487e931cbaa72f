/**
 * The machine view: the selection's xstate machine (the selected decision's,
 * the machine that decided, else the selected object's own; the selection's
 * other machines are tabs above it) drawn as a
 * statechart from the graph the host read out of the machine's own
 * definition (so the picture cannot drift from the code). States are boxes,
 * a parallel state's regions stand side by side, a compound state's children
 * are stacked; transitions are arrows labelled with their event and guard.
 * The current state is highlighted and the last transition marked; clicking
 * a transition lists the decisions of the trace that took it.
 *
 * Everything is built with createElementNS and text nodes: no markup.
 */
import { el, replace } from '../dom';
import type { Host } from '../host';
import type { Store } from '../state';
import { offsetText } from '../time';
import type { MachineGraphState, MachineGraphTransition, SelectedMachine } from '../../protocol/webview';

const NS = 'http://www.w3.org/2000/svg';
const SVG_ATTRS = new Set([
  'class',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'width',
  'height',
  'rx',
  'd',
  'viewBox',
  'role',
  'aria-label',
  'data-state',
  'data-transition',
  'tabindex',
  'text-anchor',
  'dominant-baseline',
  'marker-end',
  'id',
  'refX',
  'refY',
  'markerWidth',
  'markerHeight',
  'orient',
  'points',
  'dy',
]);

function svg(tag: string, attrs: Record<string, string | number | undefined>, ...children: (Node | string | null)[]): SVGElement {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined) continue;
    if (!SVG_ATTRS.has(k)) throw new Error(`attribute ${k} is not allowed`);
    e.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

/** `unknown` is active in `unknown.queued`; parallel states list their regions' states comma-separated. */
export const isActive = (statePath: string, current: string): boolean =>
  statePath === '' || current.split(',').some((c) => c === statePath || c.startsWith(`${statePath}.`));

/** The declared transition a recorded one took: same event, from inside its source, into its target. */
export function matchesTransition(t: Pick<MachineGraphTransition, 'source' | 'target' | 'event'>, last: { from: string; to: string; event: string }): boolean {
  if (last.event !== t.event || !isActive(t.source, last.from)) return false;
  return t.target === '' ? last.from === last.to : isActive(t.target, last.to);
}

// -- layout: sizes in px, text measured by a fixed advance (the font is the editor's monospace)
const CHAR = 7.3;
export const LABEL_CHAR = 6.7;
const ATOM_H = 26;
const TITLE_H = 20;
const PAD = 8;
const GAP = 16;
/** how far apart the arrows of one column bulge into its lane */
const BULGE = 7;
/** a label line's height: the labels of the arrows into one state are stacked beside it */
const LINE = 12;
export const LABEL_LINE = LINE;

export interface Box {
  state: MachineGraphState;
  x: number;
  y: number;
  w: number;
  h: number;
  /** for a column of children: where the arrows' lane begins (right of the widest child) */
  laneX?: number;
  children: Box[];
}

/** How the chart is fitted to its column: labels wrapped at `wrap` characters, a parallel state's regions stacked. */
export interface Fit {
  wrap: number;
  stack: boolean;
}
/** the fits tried in turn, the first whose width the column holds drawn (the last one otherwise, scaled down) */
export const FITS: readonly Fit[] = [
  { wrap: Infinity, stack: false },
  { wrap: 18, stack: false },
  { wrap: 18, stack: true },
  { wrap: 12, stack: true },
];

/** `text` cut into lines of at most `wrap` characters, at word boundaries (camelCase, `_`) where it can be. */
export function wrapLabel(text: string, wrap: number): string[] {
  if (text.length <= wrap) return [text];
  const words = text.split(/(?<=[a-z0-9\]])(?=[A-Z[])|(?<=_)/);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + w.length > wrap) {
      lines.push(line);
      line = '';
    }
    line += w;
    while (line.length > wrap) {
      lines.push(line.slice(0, wrap));
      line = line.slice(wrap);
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The label of an arrow: the event, then the guard (the guard's lines start with `[`, or are its continuation). */
const labelLines = (t: MachineGraphTransition, wrap = Infinity): string[] => [
  ...wrapLabel(t.event, wrap),
  ...(t.guard ? wrapLabel(`[${t.guard}]`, wrap).map((l, i) => (i ? `\u00a0${l}` : l)) : []),
];
const labelOf = (t: MachineGraphTransition): string => (t.guard ? `${t.event} [${t.guard}]` : t.event);
const parentOf = (path: string): string => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');

/** The column whose lane an arrow runs in: its target's parent (a self-loop: its source's parent). */
export const laneOf = (t: Pick<MachineGraphTransition, 'source' | 'target'>, columns?: ReadonlySet<string>): string =>
  isOwnLoop(t, columns) ? t.source : parentOf(t.target === '' ? t.source : t.target);

/**
 * A transition declared on a compound state that leaves it where it is (an action only, like the ReplicaSet queue's
 * ENQUEUE_AFTER): drawn as a loop at the state's own title, in its own lane, and not in its parent's lane, which would
 * add a lane as wide as the label beside the whole chart for it.
 */
const isOwnLoop = (t: Pick<MachineGraphTransition, 'source' | 'target'>, columns?: ReadonlySet<string>): boolean =>
  t.source !== '' && (t.target === '' || t.target === t.source) && !!columns?.has(t.source);

/** The compound states drawn as a column of their children (a parallel state's regions only when stacked). */
function columnsOf(root: MachineGraphState, fit: Fit): Set<string> {
  const out = new Set<string>();
  const walk = (s: MachineGraphState) => {
    if (s.children.length && (s.type !== 'parallel' || fit.stack)) out.add(s.path);
    s.children.forEach(walk);
  };
  walk(root);
  return out;
}

/** the title band of a column whose own loops' labels (`lines` of them) stand beside its name */
const titleHeight = (lines: number): number => (lines ? Math.max(TITLE_H, 14 + (lines - 1) * LINE + 6) : TITLE_H);

/**
 * Lays out the states: a parallel state's regions side by side; a compound state's children in a column,
 * with a lane on their right for the arrows between them and their labels.
 */
export function layout(root: MachineGraphState, transitions: readonly MachineGraphTransition[], fit: Fit = FITS[0]): Box {
  const columns = columnsOf(root, fit);
  const laneWidth = (s: MachineGraphState): number => {
    const mine = transitions.filter((t) => laneOf(t, columns) === s.path);
    if (!mine.length) return 0;
    const label = Math.max(...mine.flatMap((t) => labelLines(t, fit.wrap).map((l) => l.length * LABEL_CHAR)));
    return 14 + BULGE * 8 + label + PAD;
  };
  // the label lines beside each state: its incoming arrows' labels
  const incoming = new Map<string, number>();
  const ownLoopLines = new Map<string, number>();
  for (const t of transitions) {
    if (isOwnLoop(t, columns)) {
      ownLoopLines.set(t.source, (ownLoopLines.get(t.source) ?? 0) + labelLines(t, fit.wrap).length);
      continue;
    }
    const at = t.target === '' ? t.source : t.target;
    incoming.set(at, (incoming.get(at) ?? 0) + labelLines(t, fit.wrap).length);
  }
  const measure = (s: MachineGraphState): Box => {
    const title = s.path === '' ? 0 : titleHeight(ownLoopLines.get(s.path) ?? 0);
    if (!s.children.length) return { state: s, x: 0, y: 0, w: Math.max(70, s.key.length * CHAR + 2 * PAD), h: ATOM_H, children: [] };
    const kids = s.children.map(measure);
    if (s.type === 'parallel' && !fit.stack) {
      let x = PAD;
      for (const k of kids) {
        place(k, x, title + PAD);
        x += k.w + GAP;
      }
      return { state: s, x: 0, y: 0, w: x - GAP + PAD, h: title + PAD + Math.max(...kids.map((k) => k.h)) + PAD, children: kids };
    }
    let y = title + PAD;
    const inner = Math.max(...kids.map((k) => k.w));
    for (const k of kids) {
      // room for the labels stacked beside it
      const labels = (incoming.get(k.state.path) ?? 0) * LINE;
      const extra = Math.max(0, labels - k.h) / 2;
      place(k, PAD, y + extra);
      y += k.h + 2 * extra + GAP;
    }
    return {
      state: s,
      x: 0,
      y: 0,
      w: Math.max(PAD + inner + laneWidth(s) + PAD, s.key.length * CHAR + 2 * PAD),
      h: y - GAP + PAD,
      laneX: PAD + inner,
      children: kids,
    };
  };
  const place = (b: Box, x: number, y: number): void => {
    const dx = x - b.x;
    const dy = y - b.y;
    const move = (c: Box) => {
      c.x += dx;
      c.y += dy;
      if (c.laneX !== undefined) c.laneX += dx;
      c.children.forEach(move);
    };
    move(b);
  };
  return measure(root);
}

function find(b: Box, path: string): Box | undefined {
  if (b.state.path === path) return b;
  for (const c of b.children) {
    const f = find(c, path);
    if (f) return f;
  }
  return undefined;
}

/** An arrow's path and where its label goes: out of the source's right edge, through the column's lane, into the target's. */
export function route(
  root: Box,
  t: MachineGraphTransition,
  k: number,
  line: number,
  columns?: ReadonlySet<string>,
): { d: string; labelX: number; labelY: number } | undefined {
  const from = find(root, t.source);
  const to = t.target === '' ? from : find(root, t.target);
  const column = find(root, laneOf(t, columns));
  if (!from || !to) return undefined;
  const lane = column?.laneX ?? Math.max(from.x + from.w, to.x + to.w);
  const cx = lane + 12 + BULGE * (k % 8);
  if (isOwnLoop(t, columns)) {
    // a loop out of the lane at the title's height and back; `line`: the label's centre, in lines below the title's baseline
    const y = from.y + 8;
    return { d: `M ${lane} ${y} C ${cx} ${y - 6}, ${cx} ${y + 12}, ${lane} ${y + 6}`, labelX: lane + 14 + BULGE * 8, labelY: from.y + 14 + line * LINE };
  }
  // the column itself as source (a transition declared on a compound state): from its title
  const x1 = from === column ? lane : from.x + from.w;
  const y1 = from === column || from.children.length ? from.y + 10 : from.y + from.h / 2 - (to === from ? 5 : 0);
  const x2 = to.x + to.w;
  const y2 = to.y + to.h / 2 + (to === from ? 5 : 0);
  // the label beside the target, right of every arrow of the lane; `line`: its centre, in lines from the target's middle
  // (the middle itself, not where a self-loop's arrow ends: its 5 px would put its label across its neighbours')
  return { d: `M ${x1} ${y1} C ${cx} ${y1}, ${cx} ${y2}, ${x2} ${y2}`, labelX: lane + 14 + BULGE * 8, labelY: to.y + to.h / 2 + 4 + line * LINE };
}

export interface PlacedTransition {
  t: MachineGraphTransition;
  d: string;
  labelX: number;
  /** the first line's baseline; the others follow LINE apart */
  labelY: number;
  lines: string[];
}

/**
 * Every transition's arrow and label: the labels of the arrows into one state stacked beside it in declaration order,
 * the stack centred on the state's middle (the layout made room for it above and below).
 */
export function placeTransitions(root: Box, ts: readonly MachineGraphTransition[], fit: Fit): PlacedTransition[] {
  const columns = columnsOf(root.state, fit);
  // a column's own loops are stacked down from its title, apart from the arrows into it from outside
  const into = (t: MachineGraphTransition) => (isOwnLoop(t, columns) ? `\u0000${t.source}` : t.target === '' ? t.source : t.target);
  const linesInto = new Map<string, number>();
  for (const t of ts) linesInto.set(into(t), (linesInto.get(into(t)) ?? 0) + labelLines(t, fit.wrap).length);
  const lanes = new Map<string, number>();
  const used = new Map<string, number>();
  const out: PlacedTransition[] = [];
  for (const t of ts) {
    const lane = laneOf(t, columns);
    const k = lanes.get(lane) ?? 0;
    lanes.set(lane, k + 1);
    const lines = labelLines(t, fit.wrap);
    const n = lines.length;
    const before = used.get(into(t)) ?? 0;
    used.set(into(t), before + n);
    const centre = isOwnLoop(t, columns) ? before + (n - 1) / 2 : before + (n - 1) / 2 - ((linesInto.get(into(t)) ?? n) - 1) / 2;
    const r = route(root, t, k, centre, columns);
    if (r) out.push({ t, d: r.d, labelX: r.labelX, labelY: r.labelY - ((n - 1) * LINE) / 2, lines });
  }
  return out;
}

/** SVG margins around the root box */
const CHART_MARGIN = 20;

/** The first of FITS whose chart the column holds whole (no label cut, no scrolling sideways); the narrowest otherwise. */
export function fitted(root: MachineGraphState, transitions: readonly MachineGraphTransition[], width: number): { root: Box; fit: Fit } {
  let best: { root: Box; fit: Fit } | undefined;
  for (const fit of FITS) {
    const box = layout(root, transitions, fit);
    if (!best || box.w < best.root.w) best = { root: box, fit };
    if (!width || box.w + CHART_MARGIN <= width) return { root: box, fit };
  }
  return best as { root: Box; fit: Fit };
}

export class MachinePanel {
  readonly root = el('section', { id: 'machine', class: 'panel', 'aria-label': 'Machine' });
  private readonly body = el('div', { id: 'machine-body' });
  /** drawn only while the tab is shown */
  visible = false;
  /** the transition whose decisions are listed (machine id + transition id) */
  private picked?: { machine: string; transition: number };
  /** the machine the user chose among the selection's (`for`: the selection it was chosen for) */
  private chosen?: { id: string; for: string };

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.root.append(this.body);
  }

  render(): void {
    if (!this.visible) return;
    const s = this.store;
    const all = s.machine ? [s.machine, ...(s.otherMachines ?? [])] : [];
    // a choice holds while the selection is the one it was made for and still has that machine
    const selection = `${s.selection.object ?? ''}#${s.selection.seq ?? ''}`;
    if (this.chosen && this.chosen.for !== selection) this.chosen = undefined;
    const m = all.find((x) => x.id === this.chosen?.id) ?? s.machine;
    if (!m) {
      replace(
        this.body,
        el(
          'p',
          { class: 'hint', id: 'machine-none' },
          s.selection.object ? `${s.selection.object} has no machine at this point.` : 'Select a node, zone, ReplicaSet or decision to see its machine.',
        ),
      );
      return;
    }
    // the selection is recomputed at every position: its machine is the live one
    const current = m.state;
    const last = m.lastTransition;
    if (this.picked && this.picked.machine !== m.id) this.picked = undefined;
    replace(
      this.body,
      all.length > 1 ? this.choices(all, m.id, selection) : null,
      el('p', { id: 'machine-current' }, `${m.id}: `, el('span', { class: 'state' }, current)),
      last
        ? el('p', { id: 'machine-last' }, 'last transition: ', `${last.from} → ${last.to} on ${last.event}`)
        : el('p', { id: 'machine-last', class: 'hint' }, 'No transition yet.'),
      this.chart(m, current, last),
      this.takenList(m),
    );
  }

  /** The selection's machines, one tab each: the drawn one selected. */
  private choices(all: readonly SelectedMachine[], shown: string, selection: string): HTMLElement {
    return el(
      'div',
      { id: 'machine-choices', role: 'tablist', 'aria-label': 'Machines of the selection' },
      ...all.map((x) => {
        const b = el('button', { class: 'machine-choice', type: 'button', role: 'tab', 'data-ref': x.id, 'aria-selected': String(x.id === shown) }, x.id);
        b.addEventListener('click', () => {
          this.chosen = { id: x.id, for: selection };
          this.render();
        });
        return b;
      }),
    );
  }

  private chart(m: SelectedMachine, current: string, last: { from: string; to: string; event: string } | undefined): SVGElement {
    const ts = m.graph.transitions;
    const { root, fit } = fitted(m.graph.root, ts, this.body.clientWidth || this.root.clientWidth);
    const states = svg('g', { class: 'states' });
    const draw = (b: Box): void => {
      if (b.state.path !== '') {
        const active = isActive(b.state.path, current);
        const atomicCurrent = current.split(',').includes(b.state.path);
        const cls = `state-box ${b.state.type}${active ? ' active' : ''}${atomicCurrent ? ' current' : ''}`;
        states.appendChild(
          svg(
            'g',
            { class: cls, 'data-state': b.state.path },
            svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: 5 }),
            svg('text', { class: 'state-name', x: b.x + PAD, y: b.y + (b.children.length ? 14 : b.h / 2 + 4) }, b.state.key),
          ),
        );
      }
      b.children.forEach(draw);
    };
    draw(root);
    const arrows = svg('g', { class: 'arrows' });
    for (const { t, d, labelX, labelY, lines } of placeTransitions(root, ts, fit)) {
      const isLast = !!last && matchesTransition(t, last);
      const eventLines = wrapLabel(t.event, fit.wrap).length;
      const label = svg('text', { class: 'label', x: labelX, y: labelY }, lines[0]);
      lines.slice(1).forEach((l, i) => label.appendChild(svg('tspan', { class: i + 1 >= eventLines ? 'guard' : undefined, x: labelX, dy: LINE }, l)));
      const g = svg(
        'g',
        {
          class: `transition${isLast ? ' last' : ''}${t.takenCount ? ' taken' : ''}`,
          'data-transition': t.id,
          role: 'button',
          tabindex: 0,
          'aria-label': `${labelOf(t)}: ${t.source || 'machine'} → ${t.target || 'itself'}`,
        },
        svg('path', { d, 'marker-end': 'url(#arrow)' }),
        label,
        svg(
          'title',
          {},
          `${labelOf(t)}\n${t.source || m.id} → ${t.target || '(stays)'}${t.description ? `\n${t.description}` : ''}\ntaken ${t.takenCount} time${t.takenCount === 1 ? '' : 's'}`,
        ),
      );
      const pick = () => {
        this.picked = { machine: m.id, transition: t.id };
        this.render();
      };
      g.addEventListener('click', pick);
      g.addEventListener('keydown', (e) => {
        if ((e as KeyboardEvent).key === 'Enter' || (e as KeyboardEvent).key === ' ') pick();
      });
      arrows.appendChild(g);
    }
    const width = root.w + CHART_MARGIN;
    const height = root.h + 10;
    return svg(
      'svg',
      { class: 'statechart', role: 'img', 'aria-label': `statechart of ${m.id}`, width, height, viewBox: `-4 -4 ${width} ${height}` },
      svg(
        'defs',
        {},
        svg(
          'marker',
          { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
          svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }),
        ),
      ),
      states,
      arrows,
    );
  }

  private takenList(m: SelectedMachine): HTMLElement {
    const t = this.picked ? m.graph.transitions[this.picked.transition] : undefined;
    if (!t) return el('p', { id: 'machine-taken', class: 'hint' }, 'Click a transition to list the decisions that took it.');
    const head = `${labelOf(t)}: ${t.source || m.id} → ${t.target || '(stays)'}, taken ${t.takenCount} time${t.takenCount === 1 ? '' : 's'}${t.takenCount > t.taken.length ? ` (the first ${t.taken.length} listed)` : ''}`;
    return el(
      'div',
      { id: 'machine-taken' },
      el('h3', null, head),
      t.description ? el('p', { class: 'description' }, t.description) : null,
      t.taken.length
        ? el(
            'ol',
            { class: 'taken' },
            ...t.taken.map((d) => {
              const b = el(
                'button',
                { class: 'link cause', type: 'button', 'data-seq': d.seq },
                `#${d.seq} ${offsetText(d.time, this.store.init?.startTime)} ${d.action} ${d.object}`,
              );
              b.title = d.time;
              b.addEventListener('click', () => this.host.post({ type: 'selectDecision', seq: d.seq }));
              return el('li', null, b, ` ${d.from} → ${d.to}`);
            }),
          )
        : el('p', { class: 'hint' }, 'No decision in the trace took it yet.'),
    );
  }
}
