/**
 * The cluster: zones (state, size, not-ready, rate, next token, queue size with
 * the names on demand), nodes by zone in natural order coloured by Ready with
 * their taints, the pods of the selected node with their eviction countdowns,
 * and the ReplicaSets. The three long lists are virtual (only the rows in view
 * are in the DOM) and each part is redrawn only when the store says its data
 * changed: a quiet step at 5,000 nodes touches a handful of elements.
 */
import { el, replace, text } from '../dom';
import type { Host } from '../host';
import { formatMs, type Store } from '../state';
import { offsetText, sortNaturally } from '../time';
import { VirtualList } from '../virtualList';
import { WindowAsker } from '../rowWindow';
import type { NodeItem, PodItem, ReplicaSetItem, ZoneRow } from '../../protocol/webview';
import { zoneTitle } from '../../engine/model/zoneTitle';

/** a node row without taints; a node with taints or cordoned takes a second line for its chips (more when they wrap) */
export const ROW_HEIGHT = 24;
const CHIP_ROW_HEIGHT = 44;
const POD_ROW_HEIGHT = 40;
const RS_ROW_HEIGHT = 22;

/** a node row holds its ref and its index in the keys; its item is the store's, when the host sent it (the window) */
type Row = { kind: 'zone'; zone: string; count: number } | { kind: 'node'; ref: string; i: number };

/** `evicted in 45s, at +5m55s`: the facts a user needs, short enough not to be cut. */
export function countdown(pod: PodItem, now: string, start?: string): string {
  if (!pod.evictionAt) return '';
  const left = Date.parse(pod.evictionAt) - Date.parse(now);
  return left > 0 ? `evicted in ${formatMs(left)}, at ${offsetText(pod.evictionAt, start)}` : 'eviction due';
}

const WELL_KNOWN = 'node.kubernetes.io/';

/**
 * NoExecute first (it is what evicts), then the taints the controllers set (node.kubernetes.io/…),
 * then the rest, each group in its order. Every chip is whole (they wrap); this is the order they
 * are read in.
 */
export function orderTaints(taints: readonly string[]): string[] {
  const rank = (t: string) => (t.endsWith(':NoExecute') ? 0 : t.startsWith(WELL_KNOWN) ? 1 : 2);
  return [0, 1, 2].flatMap((r) => taints.filter((t) => rank(t) === r));
}

function taintChip(t: string): HTMLElement {
  // the well-known prefix is the same on every taint the controllers add: shown on hover, not in the row
  const short = t.startsWith(WELL_KNOWN) ? t.slice(WELL_KNOWN.length) : t;
  return el('span', { class: `chip taint${t.endsWith(':NoExecute') ? ' noexecute' : ''}`, title: t }, short);
}

/**
 * The queued names with their positions, one line each, as one text: 1,650 names at 5,000 nodes were 1,650 rows of
 * three elements to style and lay out (370 ms to open the queue), and are one text node, selectable and found by the
 * page's search as before. The positions are padded to the widest; a name too long for the column wraps under itself.
 */
export function queueText(names: readonly string[]): string {
  const width = names.length.toLocaleString('en').length + 1;
  return names.map((n, i) => `${`${(i + 1).toLocaleString('en')}.`.padStart(width)} ${n}`).join('\n');
}

function queueNames(names: readonly string[]): HTMLElement {
  const list = el('div', { class: 'queue-names', role: 'list', 'aria-label': `${names.length.toLocaleString('en')} queued nodes` }, queueText(names));
  list.style.setProperty('--n-width', `${names.length.toLocaleString('en').length + 2}ch`);
  return list;
}

/** A ReplicaSet row's counts as drawn: current/desired, ready. */
const rsCounts = (r: ReplicaSetItem): string => `${r.current}/${r.desired} ${r.ready} ready`;

function zoneStamp(z: ZoneRow, start: string | undefined): string {
  return `${z.zone}\u0000${z.state}\u0000${z.nodes}\u0000${z.notReady}\u0000${z.evictionRate}\u0000${z.nextTokenAt ?? ''}\u0000${z.queuedCount}\u0000${z.queued.length}\u0000${z.queued[0] ?? ''}\u0000${start ?? ''}`;
}

export class ClusterView {
  readonly root = el('section', { id: 'cluster', class: 'panel', 'aria-label': 'Cluster' });
  private readonly zones = el('div', { id: 'zones', class: 'zones' });
  private readonly filter = el('vscode-text-field', { id: 'node-filter', placeholder: 'filter nodes' });
  private readonly filterHint = el('p', { id: 'node-filter-hint', class: 'hint' });
  /** why there is no zone card: the controller finds the zones at its first monitor pass (or does not run) */
  private readonly zonesHint = el('p', { id: 'zones-hint', class: 'hint' });
  private readonly nodeList: VirtualList<Row>;
  private readonly podCaption = el('p', { id: 'pods-caption', class: 'caption' });
  private readonly podList: VirtualList<PodItem>;
  private readonly pods = el('div', { id: 'pods' });
  private readonly rsList: VirtualList<string>;
  private readonly rsCaption = el('p', { class: 'caption', id: 'replicasets-caption' });
  private readonly rsFilter = el('vscode-text-field', { id: 'rs-filter', placeholder: 'filter ReplicaSets' });
  private readonly rsFilterHint = el('p', { id: 'rs-filter-hint', class: 'hint' });
  private rows: Row[] = [];
  /** each row's ref ('' for a zone heading), for the window asked for */
  private rowRefs: string[] = [];
  private rowsFor = -1;
  /** the filter the rows were laid out for: another filter's new list shows from its top */
  private rowsFilter = '';
  private nodesFor = -1;
  private readonly nodeAsk: WindowAsker;
  private zoneStamps: string[] = [];
  private readonly openQueues = new Set<string>();
  /** a queue just opened: the zones (which give up room first, so may scroll) are scrolled to it once its names come */
  private scrollToQueue: string | undefined;
  private podsFor = '';
  /** the ReplicaSets' refs shown (all, or those the filter matches), in the list's order */
  private rsRows: string[] = [];
  private rsFor = -1;
  private rsKeysFor = -1;
  private rsFilterText = '';
  private rsRowsFilter = '';
  private readonly rsAsk: WindowAsker;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    const pick = (ref: string) => this.host.post({ type: 'selectObject', object: ref });
    const item = (r: Row) => (r.kind === 'node' ? this.store.nodes.get(r.ref) : undefined);
    this.nodeList = new VirtualList<Row>({
      id: 'nodes',
      label: 'Nodes',
      pick,
      key: (r) => (r.kind === 'zone' ? r.zone : r.ref),
      // a row not held yet is as high as the last measured row of its shape, which the host sends
      height: (r) => (r.kind === 'node' && this.tall(r) ? CHIP_ROW_HEIGHT : ROW_HEIGHT),
      group: (r) => (r.kind === 'zone' ? 'zone' : this.tall(r) ? 'chips' : 'line'),
      // the name and the chips wrap to keep every fact whole: the row is as high as they are at the list's width. The name
      // is monospace and breaks at any character, so names of one length wrap alike beside the same count
      measureKey: (r) => {
        const n = item(r);
        return n ? `${n.name.length}\u0000${this.podSummary(n)}\u0000${n.unschedulable}\u0000${n.taints.join('\u0000')}` : undefined;
      },
      stamp: (r) => {
        if (r.kind === 'zone') return r.count;
        const n = item(r);
        return n ? `${this.podSummary(n)}\u0000${n.ready}\u0000${n.taints.join(' ')}\u0000${n.unschedulable}` : undefined;
      },
      draw: (r) => (r.kind === 'zone' ? el('div', { class: 'zone-row' }, `${zoneTitle(r.zone)} (${r.count})`) : this.drawNode(r.ref, item(r))),
      shown: (first, end) => this.nodeAsk.shown(this.rowRefs, first, end),
    });
    this.nodeAsk = new WindowAsker(
      (ref) => this.store.nodes.has(ref),
      (refs) => this.host.post({ type: 'nodeWindow', refs }),
    );
    this.rsAsk = new WindowAsker(
      (ref) => this.store.replicaSets.has(ref),
      (refs) => this.host.post({ type: 'replicaSetWindow', refs }),
    );
    this.podList = new VirtualList<PodItem>({
      id: 'pod-list',
      label: 'Pods of the selected node',
      pick,
      key: (p) => p.ref,
      height: () => POD_ROW_HEIGHT,
      // the name and the facts wrap to stay whole: the row is as high as they are at the list's width (the name is
      // monospace, so one length wraps alike; the facts are measured by their text)
      measureKey: (p) => `${p.ref.length}\u0000${p.phase}\u0000${p.ready}\u0000${countdown(p, this.store.time, this.store.init?.startTime)}`,
      stamp: (p) => `${p.phase}\u0000${p.ready}\u0000${countdown(p, this.store.time, this.store.init?.startTime)}`,
      draw: (p) => this.drawPod(p),
    });
    this.rsList = new VirtualList<string>({
      id: 'replicasets',
      label: 'ReplicaSets',
      pick,
      key: (ref) => ref,
      height: () => RS_ROW_HEIGHT,
      // the name wraps to stay whole (one Deployment's ReplicaSets differ only in their hash): the row is as high as it
      // is at the list's width. Name and counts are monospace, so rows of the same lengths wrap alike
      measureKey: (ref) => {
        const r = this.store.replicaSets.get(ref);
        return r ? `${ref.length}\u0000${rsCounts(r).length}` : undefined;
      },
      stamp: (ref) => this.store.replicaSets.get(ref),
      draw: (ref) => this.drawReplicaSet(ref, this.store.replicaSets.get(ref)),
      shown: (first, end) => this.rsAsk.shown(this.rsRows, first, end),
    });
    this.pods.append(el('div', { class: 'section-head' }, el('h2', null, 'Pods'), this.podCaption), this.podList.viewport);
    // the host filters (it holds every node's taints and Ready status) and answers with the keys it keeps
    this.filter.addEventListener('input', () => {
      this.host.post({ type: 'nodeFilter', text: String((this.filter as unknown as { value: string }).value ?? '').toLowerCase() });
    });
    this.rsFilter.addEventListener('input', () => {
      this.rsFilterText = String((this.rsFilter as unknown as { value: string }).value ?? '').toLowerCase();
      this.renderReplicaSets();
    });
    this.zones.addEventListener('click', (ev) => {
      const target = ev.target as HTMLElement;
      const toggle = target.closest('button.queued') as HTMLElement | null;
      const card = target.closest('.zone-card') as HTMLElement | null;
      if (!card) return;
      const zone = card.dataset.ref as string;
      if (toggle) {
        const open = !this.openQueues.has(zone);
        if (open) this.openQueues.add(zone);
        else this.openQueues.delete(zone);
        // the names come from the host, with every update while the queue is open
        this.host.post({ type: 'zoneQueue', zone, open });
        this.zoneStamps = [];
        this.scrollToQueue = open ? zone : undefined;
        this.renderZones();
        return;
      }
      if (!target.closest('.queue-names')) this.host.post({ type: 'selectObject', object: zone });
    });
    this.root.append(
      el('h2', null, 'Zones'),
      this.zonesHint,
      this.zones,
      el('div', { class: 'section-head' }, el('h2', null, 'Nodes'), this.filter),
      this.filterHint,
      this.nodeList.viewport,
      this.pods,
      // the filter beside the heading, as the nodes': the caption on one line under it (a third field in the head wrapped
      // to four lines in a narrow column, taken from the node list)
      el('div', { class: 'section-head' }, el('h2', null, 'ReplicaSets'), this.rsFilter),
      this.rsCaption,
      this.rsFilterHint,
      this.rsList.viewport,
    );
  }

  render(): void {
    this.renderZones();
    this.renderNodes();
    this.renderPods();
    this.renderReplicaSets();
  }

  /** Zones as cards whose facts wrap instead of being cut; a queue is a count, its names on demand. */
  private renderZones(): void {
    const s = this.store;
    text(
      this.zonesHint,
      s.zones.length || !s.init
        ? ''
        : s.pass === null
          ? 'The node lifecycle controller finds the zones at its first monitor pass: Step to see them.'
          : 'No zones: the node lifecycle controller does not run in this scenario (controllers), or the cluster has no nodes.',
    );
    const start = s.init?.startTime;
    const stamps = s.zones.map((z) => zoneStamp(z, start) + (this.openQueues.has(z.zone) ? '\u0000open' : ''));
    if (stamps.length === this.zoneStamps.length && stamps.every((x, i) => x === this.zoneStamps[i])) {
      this.markSelectedZone();
      return;
    }
    // only the cards whose facts changed are made again: during an outage one zone's card changes at a step, not three
    const was = new Map(this.zoneStamps.map((stamp, i) => [stamp, this.zones.children[i] as HTMLElement | undefined]));
    this.zoneStamps = stamps;
    const fact = (label: string, value: string | number, cls = '', title?: string) =>
      el('span', { class: `fact ${cls}`.trim(), title }, el('span', { class: 'k' }, label), ' ', el('span', { class: 'v' }, value));
    const card = (z: ZoneRow) => {
      const open = this.openQueues.has(z.zone);
      const queue = z.queuedCount
        ? el(
            'button',
            {
              class: 'link queued',
              type: 'button',
              'aria-expanded': open ? 'true' : 'false',
              title: open ? 'hide the queued nodes' : 'show the queued nodes',
            },
            `queued ${z.queuedCount.toLocaleString('en')} ${open ? '▾' : '▸'}`,
          )
        : fact('queued', 0, 'queued');
      const names =
        !open || !z.queuedCount ? null : z.queued.length ? queueNames(z.queued) : el('p', { class: 'queue-names hint' }, 'loading the queued nodes…');
      return el(
        'div',
        { class: `zone-card zone zone-${z.state}`, 'data-ref': z.zone, role: 'button', tabindex: 0 },
        el('div', { class: 'zone-head' }, el('span', { class: 'zone-name' }, zoneTitle(z.zone)), ' ', el('span', { class: 'state' }, z.state)),
        el(
          'div',
          { class: 'facts-wrap' },
          fact('nodes', z.nodes),
          fact('not ready', z.notReady),
          fact('rate', `${z.evictionRate} nodes/s`, 'rate'),
          z.nextTokenAt ? fact('next token', offsetText(z.nextTokenAt, start), 'next-token', z.nextTokenAt) : fact('next token', '—', 'next-token'),
          queue,
        ),
        names,
      );
    };
    const cards = s.zones.map((z, i) => {
      const kept = was.get(stamps[i]);
      return kept && kept.parentNode === this.zones ? kept : card(z);
    });
    const olds = Array.from(this.zones.children);
    // the same zones in the same order: each changed card replaced where it is; else all of them
    if (cards.length === olds.length && cards.every((c, i) => c === olds[i] || c.parentNode !== this.zones))
      cards.forEach((c, i) => c !== olds[i] && olds[i].replaceWith(c));
    else replace(this.zones, ...cards);
    const opened = this.scrollToQueue && this.zones.querySelector(`.zone-card[data-ref="${CSS.escape(this.scrollToQueue)}"]`);
    const toggle = opened && opened.querySelector('button.queued');
    if (toggle) this.zones.scrollTop += toggle.getBoundingClientRect().top - this.zones.getBoundingClientRect().top;
    if (opened && opened.querySelector('.queue-names:not(.hint)')) this.scrollToQueue = undefined;
    this.markSelectedZone();
  }

  private markSelectedZone(): void {
    const sel = this.store.selection.object;
    for (const c of Array.from(this.zones.children)) (c as HTMLElement).classList.toggle('selected', (c as HTMLElement).dataset.ref === sel);
  }

  /** The rows are laid out again when the keys came (a node came or went, a filter, an outage's taints), else redrawn. */
  private renderNodes(): void {
    const s = this.store;
    if (this.rowsFor !== s.nodeKeysVersion) {
      this.rowsFor = s.nodeKeysVersion;
      this.nodesFor = s.nodesVersion;
      this.nodeAsk.forget();
      this.rows = [];
      this.rowRefs = [];
      let i = 0;
      for (const z of s.nodeZones) {
        this.rows.push({ kind: 'zone', zone: z.zone, count: z.count });
        this.rowRefs.push('');
        for (const end = i + z.count; i < end; i++) {
          this.rows.push({ kind: 'node', ref: s.nodeKeys[i], i });
          this.rowRefs.push(s.nodeKeys[i]);
        }
      }
      const f = s.nodeFilter;
      text(this.filterHint, f && !s.nodeKeys.length && s.nodeTotal ? `No node matches “${f}” (name, zone, taint or Ready status).` : '');
      // the offset of the list scrolled before the filter is nowhere in the new one: at 5,000 nodes it showed rows from
      // the middle of the zone typed, its heading and first nodes above. A step under the same filter keeps it
      if (f !== this.rowsFilter) this.nodeList.toTop();
      this.rowsFilter = f;
      this.nodeList.setItems(this.rows);
    } else if (this.nodesFor !== s.nodesVersion) {
      this.nodesFor = s.nodesVersion;
      this.nodeList.draw();
    } else {
      this.nodeList.draw();
    }
    this.nodeList.select(s.selection.object);
  }

  /** a node row with chips (taints, cordoned): by its item when held, else by the shape the host sent */
  private tall(r: { ref: string; i: number }): boolean {
    const n = this.store.nodes.get(r.ref);
    return n ? n.taints.length > 0 || n.unschedulable : this.store.nodeTall[r.i] === '1';
  }

  private podSummary(n: NodeItem): string {
    const c = this.store.podCounts.get(n.ref);
    const evicting = c?.evicting ?? 0;
    const pods = c?.pods ?? 0;
    return `${pods} pod${pods === 1 ? '' : 's'}${evicting ? `, ${evicting} to evict` : ''}`;
  }

  private drawNode(ref: string, n: NodeItem | undefined): HTMLElement {
    // its item is on its way (asked for when the row came into view): the name, and nothing that could be of an older position
    if (!n)
      return el(
        'div',
        { class: 'node pending', title: ref },
        el('div', { class: 'line head' }, el('span', { class: 'count' }, '…'), el('span', { class: 'name' }, ref.replace(/^Node\//, ''))),
      );
    const chips = [...(n.unschedulable ? [el('span', { class: 'chip' }, 'unschedulable')] : []), ...orderTaints(n.taints).map(taintChip)];
    return el(
      'div',
      { class: `node ready-${n.ready}${chips.length ? ' two-line' : ''}`, title: `Ready: ${n.ready}` },
      el(
        'div',
        { class: 'line head' },
        // first, as it floats right of the name's first line; the name wraps under it when the column is narrow
        el('span', { class: 'count' }, this.podSummary(n)),
        el('span', { class: 'dot', 'aria-label': `Ready ${n.ready}` }),
        el('span', { class: 'name', title: n.name }, n.name),
      ),
      chips.length ? el('div', { class: 'line chips' }, ...chips) : null,
    );
  }

  private drawPod(p: PodItem): HTMLElement {
    const start = this.store.init?.startTime;
    const c = countdown(p, this.store.time, start);
    return el(
      'div',
      { class: 'pod' },
      el('div', { class: 'line' }, el('span', { class: 'name', title: p.ref }, p.ref.replace(/^Pod\//, ''))),
      el(
        'div',
        { class: 'line facts-line' },
        el('span', { class: 'phase' }, p.phase),
        el('span', { class: 'ready' }, p.ready ? 'ready' : 'not ready'),
        c ? el('span', { class: 'countdown', title: p.evictionAt }, c) : null,
      ),
    );
  }

  private drawReplicaSet(ref: string, r: ReplicaSetItem | undefined): HTMLElement {
    // its item is on its way (asked for when the row came into view): the name, and no number that could be an old one
    if (!r)
      return el(
        'div',
        { class: 'rs pending', title: ref },
        el('span', { class: 'name' }, ref.replace(/^ReplicaSet\//, '')),
        el('span', { class: 'nums' }, '…'),
      );
    return el(
      'div',
      { class: 'rs', title: `${r.ref}: desired ${r.desired}, current ${r.current}, ready ${r.ready}` },
      el('span', { class: 'name' }, r.ref.replace(/^ReplicaSet\//, '')),
      el('span', { class: 'nums' }, `${r.current}/${r.desired}`, el('span', { class: 'ready' }, ` ${r.ready} ready`)),
    );
  }

  /** The pods of the selected node (or of the selected pod's node): rebuilt when the pods or the selection changed. */
  private renderPods(): void {
    const s = this.store;
    const sel = s.selection.object;
    // the host sends the pods of the selected node, or of the selected pod's node, with every selection
    const nodeName = s.nodePods?.node;
    const key = `${nodeName ?? '\u0000none'}\u0000${s.podsVersion}\u0000${s.time}\u0000${s.init?.startTime ?? ''}`;
    if (key !== this.podsFor) {
      this.podsFor = key;
      if (nodeName === undefined) {
        text(this.podCaption, 'Select a node to see its pods.');
        this.podCaption.className = 'hint';
        this.pods.classList.add('none');
        this.podList.setItems([]);
      } else {
        const pods = sortNaturally([...(s.nodePods?.pods ?? [])], (p) => p.ref);
        this.podCaption.className = 'caption';
        this.pods.classList.remove('none');
        text(this.podCaption, `${pods.length.toLocaleString('en')} on ${nodeName || '(pending)'}`);
        this.podList.setItems(pods);
      }
    }
    this.podList.select(sel);
  }

  /**
   * 14,121 ReplicaSets: their refs come in order (again only when one appeared or went) and the items of the rows in
   * view, which the list asks for when it shows others; a changed item redraws its row alone.
   */
  private renderReplicaSets(): void {
    const s = this.store;
    if (this.rsKeysFor !== s.replicaSetKeysVersion || this.rsRowsFilter !== this.rsFilterText) {
      this.rsKeysFor = s.replicaSetKeysVersion;
      this.rsFor = s.replicaSetsVersion;
      this.rsRowsFilter = this.rsFilterText;
      // the keys changed: a window asked for before may name rows that went
      this.rsAsk.forget();
      const f = this.rsFilterText;
      const keys = s.replicaSetKeys;
      this.rsRows = f ? keys.filter((k) => k.slice(11).toLowerCase().includes(f)) : keys;
      const all = keys.length.toLocaleString('en');
      text(this.rsCaption, `${f ? `${this.rsRows.length.toLocaleString('en')} of ` : ''}${all} · current/desired, ready`);
      text(this.rsFilterHint, f && !this.rsRows.length && keys.length ? `No ReplicaSet matches “${f}” (namespace/name).` : '');
      this.rsList.setItems(this.rsRows);
      this.rsList.viewport.classList.toggle('empty', this.rsRows.length === 0);
    } else if (this.rsFor !== s.replicaSetsVersion) {
      this.rsFor = s.replicaSetsVersion;
      this.rsList.draw();
    }
    this.rsList.select(s.selection.object);
  }

  /** An answer to a window came: once the last one has, every row may be asked for again. */
  answered(list: 'nodes' | 'replicaSets'): void {
    (list === 'nodes' ? this.nodeAsk : this.rsAsk).answered();
  }

  /** Forgets the node filter, open queues and every drawn row (another scenario was opened). */
  reset(): void {
    (this.filter as unknown as { value: string }).value = '';
    this.openQueues.clear();
    this.scrollToQueue = undefined;
    // unlike any list of stamps, the empty one included: the old scenario's cards go at the next render
    this.zoneStamps = ['\u0000reset'];
    this.rowsFor = -1;
    this.rowsFilter = '';
    this.nodesFor = -1;
    this.nodeAsk.forget(true);
    this.podsFor = '';
    (this.rsFilter as unknown as { value: string }).value = '';
    this.rsFilterText = '';
    this.rsRowsFilter = '';
    this.rsFor = -1;
    this.rsKeysFor = -1;
    this.rsAsk.forget(true);
  }

  /** Scrolls a node into view (selection from the tree view). */
  reveal(ref: string): void {
    if (!this.nodeList.reveal(ref)) this.rsList.reveal(ref);
  }
}
