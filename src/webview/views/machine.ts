/**
 * The machine view: the selected object's xstate machine drawn as a
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
import type { MachineGraphState, MachineGraphTransition, SelectedMachine } from '../../protocol/webview';

const NS = 'http://www.w3.org/2000/svg';
const SVG_ATTRS = new Set(['class', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'width', 'height', 'rx', 'd', 'viewBox', 'role', 'aria-label', 'data-state', 'data-transition', 'tabindex', 'text-anchor', 'dominant-baseline', 'marker-end', 'id', 'refX', 'refY', 'markerWidth', 'markerHeight', 'orient', 'points']);

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
const CHAR = 7;
const ATOM_H = 26;
const TITLE_H = 20;
const PAD = 8;
const GAP = 14;

export interface Box {
  state: MachineGraphState;
  x: number;
  y: number;
  w: number;
  h: number;
  children: Box[];
}

const labelOf = (t: MachineGraphTransition): string => `${t.event}${t.guard ? ` [${t.guard}]` : ''}`;

/**
 * Lays out the states: a parallel state's regions side by side, a compound state's children in a column
 * with room on their right for the arrows and their labels.
 */
export function layout(root: MachineGraphState, transitions: readonly MachineGraphTransition[]): Box {
  const lane = (s: MachineGraphState): number => {
    // the widest label of the transitions declared in or into this column
    const inside = transitions.filter((t) => s.children.some((c) => isActive(c.path, t.target) || isActive(c.path, t.source)) || t.source === s.path);
    return inside.length ? 40 + Math.max(...inside.map((t) => labelOf(t).length * CHAR)) : 0;
  };
  const measure = (s: MachineGraphState): Box => {
    const title = s.path === '' ? 0 : TITLE_H;
    if (!s.children.length) return { state: s, x: 0, y: 0, w: Math.max(70, s.key.length * CHAR + 2 * PAD), h: ATOM_H, children: [] };
    const kids = s.children.map(measure);
    if (s.type === 'parallel') {
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
      place(k, PAD, y);
      y += k.h + GAP;
    }
    return { state: s, x: 0, y: 0, w: Math.max(PAD + inner + lane(s) + PAD, s.key.length * CHAR + 2 * PAD), h: y - GAP + PAD, children: kids };
  };
  const place = (b: Box, x: number, y: number): void => {
    const dx = x - b.x;
    const dy = y - b.y;
    const move = (c: Box) => {
      c.x += dx;
      c.y += dy;
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

export class MachinePanel {
  readonly root = el('section', { id: 'machine', class: 'panel', 'aria-label': 'Machine' });
  private readonly body = el('div', { id: 'machine-body' });
  /** drawn only while the tab is shown */
  visible = false;
  /** the transition whose decisions are listed (machine id + transition id) */
  private picked?: { machine: string; transition: number };

  constructor(private readonly store: Store, private readonly host: Host) {
    this.root.append(this.body);
  }

  render(): void {
    if (!this.visible) return;
    const s = this.store;
    const m = s.machine;
    if (!m) {
      replace(this.body, el('p', { class: 'hint', id: 'machine-none' }, s.selection.object ? `${s.selection.object} has no machine at this point.` : 'Select a node, zone, ReplicaSet or decision to see its machine.'));
      return;
    }
    const live = s.machines.get(m.id);
    const current = live?.state ?? m.state;
    const last = live?.lastTransition ?? m.lastTransition;
    if (this.picked && this.picked.machine !== m.id) this.picked = undefined;
    replace(this.body,
      el('p', { id: 'machine-current' }, `${m.id}: `, el('span', { class: 'state' }, current)),
      last ? el('p', { id: 'machine-last' }, 'last transition: ', `${last.from} → ${last.to} on ${last.event}`) : el('p', { id: 'machine-last', class: 'hint' }, 'No transition yet.'),
      this.chart(m, current, last),
      this.takenList(m));
  }

  private chart(m: SelectedMachine, current: string, last: { from: string; to: string; event: string } | undefined): SVGElement {
    const ts = m.graph.transitions;
    const root = layout(m.graph.root, ts);
    const states = svg('g', { class: 'states' });
    const draw = (b: Box): void => {
      if (b.state.path !== '') {
        const active = isActive(b.state.path, current);
        const atomicCurrent = current.split(',').includes(b.state.path);
        const cls = `state-box ${b.state.type}${active ? ' active' : ''}${atomicCurrent ? ' current' : ''}`;
        states.appendChild(svg('g', { class: cls, 'data-state': b.state.path },
          svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: 5 }),
          svg('text', { class: 'state-name', x: b.x + PAD, y: b.y + (b.children.length ? 14 : b.h / 2 + 4) }, b.state.key)));
      }
      b.children.forEach(draw);
    };
    draw(root);
    const arrows = svg('g', { class: 'arrows' });
    const lanes = new Map<string, number>();
    for (const t of ts) {
      const from = find(root, t.source);
      const to = t.target === '' ? from : find(root, t.target);
      if (!from || !to) continue;
      const isLast = !!last && matchesTransition(t, last);
      // an arrow leaves the source's right edge (a container: its title) and bulges right, one lane per arrow of a column
      const column = (to.state.path.includes('.') ? to.state.path.slice(0, to.state.path.lastIndexOf('.')) : '') || t.source;
      const k = lanes.get(column) ?? 0;
      lanes.set(column, k + 1);
      const x1 = from.x + from.w;
      const y1 = from.children.length ? from.y + 10 : from.y + from.h / 2;
      const x2 = to.x + to.w;
      const y2 = to.y + to.h / 2 + (to === from ? 6 : 0);
      const bulge = 18 + 9 * (k % 8);
      const cx = Math.max(x1, x2) + bulge;
      const d = to === from
        ? `M ${x1} ${y1 - 6} C ${cx} ${y1 - 16}, ${cx} ${y2 + 10}, ${x2} ${y2}`
        : `M ${x1} ${y1} C ${cx} ${y1}, ${cx} ${y2}, ${x2} ${y2}`;
      const ly = (y1 + y2) / 2 + 4;
      const g = svg('g', { class: `transition${isLast ? ' last' : ''}${t.takenCount ? ' taken' : ''}`, 'data-transition': t.id, role: 'button', tabindex: 0, 'aria-label': `${labelOf(t)}: ${t.source || 'machine'} → ${t.target || 'itself'}` },
        svg('path', { d, 'marker-end': 'url(#arrow)' }),
        svg('text', { class: 'label', x: cx - 14, y: ly }, labelOf(t)),
        svg('title', {}, `${labelOf(t)}\n${t.source || m.id} → ${t.target || '(stays)'}${t.description ? `\n${t.description}` : ''}\ntaken ${t.takenCount} time${t.takenCount === 1 ? '' : 's'}`));
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
    const width = root.w + 20;
    const height = root.h + 10;
    return svg('svg', { class: 'statechart', role: 'img', 'aria-label': `statechart of ${m.id}`, width, height, viewBox: `-4 -4 ${width} ${height}` },
      svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }))),
      states, arrows);
  }

  private takenList(m: SelectedMachine): HTMLElement {
    const t = this.picked ? m.graph.transitions[this.picked.transition] : undefined;
    if (!t) return el('p', { id: 'machine-taken', class: 'hint' }, 'Click a transition to list the decisions that took it.');
    const head = `${labelOf(t)}: ${t.source || m.id} → ${t.target || '(stays)'}, taken ${t.takenCount} time${t.takenCount === 1 ? '' : 's'}${t.takenCount > t.taken.length ? ` (the first ${t.taken.length} listed)` : ''}`;
    return el('div', { id: 'machine-taken' },
      el('h3', null, head),
      t.description ? el('p', { class: 'description' }, t.description) : null,
      t.taken.length
        ? el('ol', { class: 'taken' }, ...t.taken.map((d) => {
            const b = el('button', { class: 'link cause', type: 'button', 'data-seq': d.seq }, `#${d.seq} ${d.time.slice(11, 23)} ${d.action} ${d.object}`);
            b.addEventListener('click', () => this.host.post({ type: 'selectDecision', seq: d.seq }));
            return el('li', null, b, ` ${d.from} → ${d.to}`);
          }))
        : el('p', { class: 'hint' }, 'No decision in the trace took it yet.'));
  }
}
