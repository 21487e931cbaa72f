/**
 * The node list as the panel gets it (a RowWindow): the refs the node filter
 * keeps, in zone then natural name order, with the zones' runs (the list's
 * headings) and each row's shape (one line, or two with chips) for the rows
 * the panel does not hold; the items of the rows in view. The filter matches
 * what the list shows of a row (name, taints, Ready status, and the zone of its
 * heading: at 5,000 nodes named by address, the zone is what a user knows of
 * the outage's nodes), so it runs here, where every
 * item is: at 5,000 nodes a keystroke filters 5,000 strings in a millisecond.
 */
import type { Delta, NodeItem, NodePodCount, NodeRows, NodesMessage } from '../protocol/webview';
import { sortNaturally } from '../protocol/naturalOrder';
import { sameNode } from './viewModel';
import { RowWindow } from './rowWindow';

/** What the node filter matches: lower case, as the panel's input is lowered. */
export const nodeFilterText = (n: NodeItem): string => `${n.name} ${n.taints.join(' ')} ${n.ready} ${n.zone.slice('Zone/'.length)}`.toLowerCase();

const isTall = (n: NodeItem): boolean => n.taints.length > 0 || n.unschedulable;

/** whether the keys as JSON (each ref, its quotes and comma) take fewer than `n` characters: a few keys cross whole */
const fewerThan = (keys: readonly string[], n: number): boolean => {
  let size = 0;
  for (const k of keys) if ((size += k.length + 3) >= n) return false;
  return true;
};

const sameKeys = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((k, i) => k === b[i]);

export class NodeWindow {
  private readonly rows = new RowWindow<NodeItem>(sameNode);
  /** every node's ref in zone then natural name order: sorted again only when a node came, went or moved zone */
  private order: string[] = [];
  private orderZones = new Map<string, string>();
  private filter = '';
  private tall = '';
  /** the unfiltered order the panel holds (the last keys it was sent with no filter): later keys cross as a mask over it */
  private panelOrder: readonly string[] | undefined;
  /** every node's pod count as of the last update (a node with no pods has none) */
  private readonly counts = new Map<string, NodePodCount>();
  /** the counts the panel holds: those of its window's rows, as last sent */
  private heldCounts = new Map<string, NodePodCount>();

  /**
   * The update's part: the node rows (see `rows`) and the pod counts of the window's rows that changed. `counts`: every
   * node's counts that changed since the last update (all of them when full).
   */
  updateWithCounts(
    items: ReadonlyMap<string, NodeItem>,
    delta: Delta<NodeItem>,
    full: boolean,
    counts: Delta<NodePodCount>,
  ): { nodes: NodeRows; podCounts: Delta<NodePodCount> } {
    if (full) this.counts.clear();
    for (const ref of counts.remove) this.counts.delete(ref);
    for (const c of counts.upsert) this.counts.set(c.ref, c);
    const nodes = this.update(items, delta, full);
    return { nodes, podCounts: this.windowCounts(full) };
  }

  /** The counts of the window's rows the panel does not hold as they are; what it holds of rows that left is forgotten (as it forgets their items). */
  private windowCounts(restart: boolean): Delta<NodePodCount> {
    if (restart) this.heldCounts = new Map();
    const held = new Map<string, NodePodCount>();
    const upsert: NodePodCount[] = [];
    const remove: string[] = [];
    for (const ref of this.rows.held) {
      const now = this.counts.get(ref);
      const had = this.heldCounts.get(ref);
      if (now) {
        held.set(ref, now);
        if (!had || had.pods !== now.pods || had.evicting !== now.evicting) upsert.push(now);
      } else if (had) remove.push(ref);
    }
    this.heldCounts = held;
    return { upsert, remove };
  }

  /** The update's part: the keys when the list changed (nodes, zones, the filter's matches), the window's items that changed. */
  update(items: ReadonlyMap<string, NodeItem>, delta: Delta<NodeItem>, full: boolean): NodeRows {
    const changed = full || delta.upsert.length > 0 || delta.remove.length > 0;
    return this.wire(this.rowsOf(items, changed, full));
  }

  /** The panel's filter changed: the keys it keeps, and the window their first rows. */
  setFilter(text: string, items: ReadonlyMap<string, NodeItem>): NodesMessage {
    this.filter = text.toLowerCase();
    // the same keys (`u` keeps every node: True and Unknown hold one): the list and its window stay
    const now = this.rows.keys;
    const next = this.matching(items);
    if (sameKeys(next, now)) return { type: 'nodes', filter: this.filter, ...this.rows.window(this.rows.held, items), podCounts: this.windowCounts(false) };
    // a new list: its keys, the window their first rows (each sent whole)
    const rows = this.rowsOf(items, true, true);
    return { type: 'nodes', ...this.wire(rows), refs: rows.items.map((i) => i.ref), podCounts: this.windowCounts(true) };
  }

  /**
   * The rows as they cross: keys that are of the order the panel holds go as a mask over it (5,000 nodes: 5 KB, where
   * the refs are about 150 KB) unless they are fewer than that; keys with no filter become the panel's order.
   */
  private wire(rows: NodeRows): NodeRows {
    const keys = rows.keys;
    if (!keys) return rows;
    if (this.panelOrder === this.order && !fewerThan(keys, this.order.length)) {
      const kept = new Set(keys);
      const { keys: _keys, ...rest } = rows;
      return { ...rest, mask: this.order.map((ref) => (kept.has(ref) ? '1' : '0')).join('') };
    }
    if (!this.filter && keys === this.order) this.panelOrder = this.order;
    return rows;
  }

  private matching(items: ReadonlyMap<string, NodeItem>): string[] {
    this.sort(items);
    const f = this.filter;
    return f ? this.order.filter((ref) => nodeFilterText(items.get(ref) as NodeItem).includes(f)) : this.order;
  }

  /** A panel that (re)started has an empty filter: the next full update is of every node. */
  clearFilter(): void {
    this.filter = '';
    this.panelOrder = undefined;
  }

  /** The panel shows `refs` now: see RowWindow.window. */
  window(refs: readonly string[], items: ReadonlyMap<string, NodeItem>): NodesMessage {
    return { type: 'nodes', ...this.rows.window(refs, items), podCounts: this.windowCounts(false) };
  }

  private rowsOf(items: ReadonlyMap<string, NodeItem>, changed: boolean, restart: boolean): NodeRows {
    let keys: string[] | undefined;
    let tall: string | undefined;
    if (changed) {
      const next = this.matching(items);
      const now = this.rows.keys;
      if (restart || !sameKeys(next, now)) keys = next;
      const shape = (keys ?? now).map((ref) => (isTall(items.get(ref) as NodeItem) ? '1' : '0')).join('');
      if (keys || shape !== this.tall) tall = this.tall = shape;
    }
    const out = this.rows.update(items, keys, restart);
    return { ...(keys ? { keys, ...this.keysFacts(items, keys) } : {}), ...(tall !== undefined ? { tall } : {}), items: out };
  }

  private keysFacts(items: ReadonlyMap<string, NodeItem>, keys: readonly string[]): Pick<NodeRows, 'zones' | 'filter' | 'total' | 'tall'> {
    const zones: { zone: string; count: number }[] = [];
    for (const ref of keys) {
      const zone = (items.get(ref) as NodeItem).zone;
      const last = zones[zones.length - 1];
      if (last && last.zone === zone) last.count++;
      else zones.push({ zone, count: 1 });
    }
    return { zones, filter: this.filter, total: items.size, tall: this.tall };
  }

  private sort(items: ReadonlyMap<string, NodeItem>): void {
    const same = this.order.length === items.size && this.order.every((ref) => items.get(ref)?.zone === this.orderZones.get(ref));
    if (same) return;
    const sorted = sortNaturally(
      items.values(),
      (n) => `${n.zone}\u0000${n.name}`,
      (n) => n.ref,
    );
    this.order = sorted.map((n) => n.ref);
    this.orderZones = new Map(sorted.map((n) => [n.ref, n.zone]));
  }
}
