/**
 * The cluster: zones (state, size, not-ready, rate, next token), nodes by zone
 * coloured by Ready with their taints in a virtualised list (5,000 nodes draw
 * only the rows in view), the pods of the selected node with their eviction
 * countdowns, and the ReplicaSets.
 */
import { el, replace } from '../dom';
import type { Host } from '../host';
import { formatMs, type Store } from '../state';
import type { NodeItem, PodItem } from '../../protocol/webview';

export const ROW_HEIGHT = 24;

type Row = { kind: 'zone'; zone: string; count: number } | { kind: 'node'; node: NodeItem };

export function countdown(pod: PodItem, now: string): string {
  if (!pod.evictionAt) return '';
  const left = Date.parse(pod.evictionAt) - Date.parse(now);
  return left > 0 ? `evicted in ${formatMs(left)} (at ${pod.evictionAt.slice(11, 23)})` : 'eviction due';
}

export class ClusterView {
  readonly root = el('section', { id: 'cluster', class: 'panel', 'aria-label': 'Cluster' });
  private readonly zones = el('table', { id: 'zones', class: 'grid' });
  private readonly filter = el('vscode-text-field', { id: 'node-filter', placeholder: 'filter nodes' });
  private readonly viewport = el('div', { id: 'nodes', class: 'viewport', role: 'list', tabindex: 0 });
  private readonly noMatch = el('p', { id: 'node-filter-empty', class: 'hint' });
  private readonly spacer = el('div', { class: 'spacer' });
  private readonly rowsBox = el('div', { class: 'rows' });
  private readonly pods = el('div', { id: 'pods' });
  private readonly replicaSets = el('table', { id: 'replicasets', class: 'grid' });
  private rows: Row[] = [];
  private builtFor = -1;
  private filterText = '';

  constructor(private readonly store: Store, private readonly host: Host) {
    this.viewport.append(this.spacer, this.rowsBox);
    this.viewport.addEventListener('scroll', () => this.drawRows());
    this.filter.addEventListener('input', () => {
      this.filterText = String((this.filter as unknown as { value: string }).value ?? '').toLowerCase();
      this.builtFor = -1;
      this.render();
    });
    this.root.append(
      el('h2', null, 'Zones'), this.zones,
      el('h2', null, 'Nodes'), this.filter, this.noMatch, this.viewport,
      el('h2', null, 'Pods of the selected node'), this.pods,
      el('h2', null, 'ReplicaSets'), this.replicaSets,
    );
  }

  render(): void {
    const s = this.store;
    replace(
      this.zones,
      el('tr', null, ...['zone', 'state', 'nodes', 'not ready', 'rate (nodes/s)', 'next token', 'queued'].map((h) => el('th', null, h))),
      ...s.zones.map((z) =>
        el('tr', { class: `zone zone-${z.state}`, 'data-ref': z.zone },
          el('td', null, z.zone), el('td', { class: 'state' }, z.state), el('td', null, z.nodes), el('td', null, z.notReady),
          el('td', null, z.evictionRate), el('td', null, z.nextTokenAt ?? ''), el('td', null, z.queued.join(', ')))),
    );
    this.zones.querySelectorAll('tr.zone').forEach((tr) => tr.addEventListener('click', () => this.host.post({ type: 'selectObject', object: (tr as HTMLElement).dataset.ref as string })));
    // the rows change with the nodes only; the pod counts are read from the store's index as rows are drawn
    if (this.builtFor !== s.nodesVersion) this.rebuild();
    this.drawRows();
    this.renderPods();
    replace(
      this.replicaSets,
      el('tr', null, ...['ReplicaSet', 'desired', 'current', 'ready'].map((h) => el('th', null, h))),
      ...[...s.replicaSets.values()].sort((a, b) => a.ref.localeCompare(b.ref)).map((r) => {
        const tr = el('tr', { class: `rs${s.selection.object === r.ref ? ' selected' : ''}`, 'data-ref': r.ref },
          el('td', null, r.ref.replace(/^ReplicaSet\//, '')), el('td', null, r.desired), el('td', null, r.current), el('td', null, r.ready));
        tr.addEventListener('click', () => this.host.post({ type: 'selectObject', object: r.ref }));
        return tr;
      }),
    );
  }

  private rebuild(): void {
    const s = this.store;
    this.builtFor = s.nodesVersion;
    const byZone = new Map<string, NodeItem[]>();
    for (const n of s.nodes.values()) {
      if (this.filterText && !`${n.name} ${n.taints.join(' ')} ${n.ready}`.toLowerCase().includes(this.filterText)) continue;
      const list = byZone.get(n.zone);
      if (list) list.push(n);
      else byZone.set(n.zone, [n]);
    }
    this.rows = [];
    for (const zone of [...byZone.keys()].sort()) {
      const nodes = (byZone.get(zone) as NodeItem[]).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      this.rows.push({ kind: 'zone', zone, count: nodes.length });
      for (const node of nodes) this.rows.push({ kind: 'node', node });
    }
    this.spacer.style.height = `${this.rows.length * ROW_HEIGHT}px`;
    this.noMatch.hidden = !(this.filterText && !this.rows.length && s.nodes.size);
    this.noMatch.textContent = this.noMatch.hidden ? '' : `No node matches "${this.filterText}".`;
  }

  /** Draws only the rows in view (plus a margin). */
  private drawRows(): void {
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - 5);
    const last = Math.min(this.rows.length, Math.ceil((top + height) / ROW_HEIGHT) + 5);
    const selected = this.store.selection.object;
    const out: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const row = this.rows[i];
      let e: HTMLElement;
      if (row.kind === 'zone') {
        e = el('div', { class: 'row zone-row', role: 'listitem', 'data-ref': row.zone }, `${row.zone} (${row.count})`);
      } else {
        const n = row.node;
        const pods = this.store.podsByNode.get(n.name);
        let soonest = 0;
        if (pods) for (const p of pods.values()) if (p.evictionAt) soonest++;
        e = el('div', { class: `row node ready-${n.ready}${selected === n.ref ? ' selected' : ''}`, role: 'listitem', 'data-ref': n.ref, title: `Ready: ${n.ready}` },
          el('span', { class: 'dot', 'aria-label': `Ready ${n.ready}` }),
          el('span', { class: 'name' }, n.name),
          n.unschedulable ? el('span', { class: 'chip' }, 'unschedulable') : null,
          ...n.taints.map((t) => el('span', { class: `chip taint${t.endsWith(':NoExecute') ? ' noexecute' : ''}` }, t)),
          el('span', { class: 'count' }, `${pods?.size ?? 0} pods${soonest ? `, ${soonest} to evict` : ''}`));
      }
      e.style.top = `${i * ROW_HEIGHT}px`;
      e.addEventListener('click', () => this.host.post({ type: 'selectObject', object: e.dataset.ref as string }));
      out.push(e);
    }
    replace(this.rowsBox, ...out);
  }

  /** Forgets the node filter (another scenario was opened). */
  reset(): void {
    (this.filter as unknown as { value: string }).value = '';
    this.filterText = '';
    this.builtFor = -1;
  }

  /** Scrolls a node into view (selection from the tree view). */
  reveal(ref: string): void {
    const i = this.rows.findIndex((r) => r.kind === 'node' && r.node.ref === ref);
    if (i < 0) return;
    const top = i * ROW_HEIGHT;
    if (top < this.viewport.scrollTop || top > this.viewport.scrollTop + this.viewport.clientHeight - ROW_HEIGHT) this.viewport.scrollTop = Math.max(0, top - 2 * ROW_HEIGHT);
  }

  private renderPods(): void {
    const s = this.store;
    const sel = s.selection.object;
    let nodeName: string | undefined;
    if (sel?.startsWith('Node/')) nodeName = sel.slice(5);
    else if (sel?.startsWith('Pod/')) nodeName = s.pods.get(sel)?.node;
    if (nodeName === undefined) {
      replace(this.pods, el('p', { class: 'hint' }, 'Select a node to see its pods.'));
      return;
    }
    const pods = [...(s.podsByNode.get(nodeName)?.values() ?? [])].sort((a, b) => a.ref.localeCompare(b.ref));
    const table = el('table', { class: 'grid' },
      el('tr', null, ...['pod', 'phase', 'ready', 'eviction'].map((h) => el('th', null, h))),
      ...pods.map((p) => {
        const tr = el('tr', { class: `pod${sel === p.ref ? ' selected' : ''}`, 'data-ref': p.ref },
          el('td', null, p.ref.replace(/^Pod\//, '')), el('td', null, p.phase), el('td', null, p.ready ? 'yes' : 'no'),
          el('td', { class: 'countdown' }, countdown(p, s.time)));
        tr.addEventListener('click', () => this.host.post({ type: 'selectObject', object: p.ref }));
        return tr;
      }));
    replace(this.pods, el('p', { class: 'caption' }, `on ${nodeName}: ${pods.length}`), table);
  }
}
