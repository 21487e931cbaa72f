/**
 * The node list as the panel gets it (a RowWindow): the refs the node filter
 * keeps, in zone then natural name order, with the zones' runs (the list's
 * headings) and each row's shape (one line, or two with chips) for the rows
 * the panel does not hold; the items of the rows in view. The filter matches
 * what a row shows (name, taints, Ready status), so it runs here, where every
 * item is: at 5,000 nodes a keystroke filters 5,000 strings in a millisecond.
 */
import type { Delta, NodeItem, NodeRows, NodesMessage } from '../protocol/webview';
import { sortNaturally } from '../protocol/naturalOrder';
import { sameNode } from './viewModel';
import { RowWindow } from './rowWindow';

/** What the node filter matches: lower case, as the panel's input is lowered. */
export const nodeFilterText = (n: NodeItem): string => `${n.name} ${n.taints.join(' ')} ${n.ready}`.toLowerCase();

const isTall = (n: NodeItem): boolean => n.taints.length > 0 || n.unschedulable;

const sameKeys = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((k, i) => k === b[i]);

export class NodeWindow {
  private readonly rows = new RowWindow<NodeItem>(sameNode);
  /** every node's ref in zone then natural name order: sorted again only when a node came, went or moved zone */
  private order: string[] = [];
  private orderZones = new Map<string, string>();
  private filter = '';
  private tall = '';

  /** The update's part: the keys when the list changed (nodes, zones, the filter's matches), the window's items that changed. */
  update(items: ReadonlyMap<string, NodeItem>, delta: Delta<NodeItem>, full: boolean): NodeRows {
    const changed = full || delta.upsert.length > 0 || delta.remove.length > 0;
    return this.rowsOf(items, changed, full);
  }

  /** The panel's filter changed: the keys it keeps, and the window their first rows. */
  setFilter(text: string, items: ReadonlyMap<string, NodeItem>): NodesMessage {
    this.filter = text.toLowerCase();
    // the same keys (`u` keeps every node: True and Unknown hold one): the list and its window stay
    const now = this.rows.keys;
    const next = this.matching(items);
    if (sameKeys(next, now)) return { type: 'nodes', filter: this.filter, ...this.rows.window(this.rows.held, items) };
    // a new list: its keys, the window their first rows (each sent whole)
    const rows = this.rowsOf(items, true, true);
    return { type: 'nodes', ...rows, refs: rows.items.map((i) => i.ref) };
  }

  private matching(items: ReadonlyMap<string, NodeItem>): string[] {
    this.sort(items);
    const f = this.filter;
    return f ? this.order.filter((ref) => nodeFilterText(items.get(ref) as NodeItem).includes(f)) : this.order;
  }

  /** A panel that (re)started has an empty filter: the next full update is of every node. */
  clearFilter(): void {
    this.filter = '';
  }

  /** The panel shows `refs` now: see RowWindow.window. */
  window(refs: readonly string[], items: ReadonlyMap<string, NodeItem>): NodesMessage {
    return { type: 'nodes', ...this.rows.window(refs, items) };
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
