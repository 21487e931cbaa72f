/**
 * The ReplicaSets as the panel gets them, the way it gets pods: the order of
 * every ref (again only when the set changed) and the items of the rows it
 * shows, its window, kept up to date on every update. The host keeps what the
 * panel holds (`held`: the window's items as last sent), so an update sends
 * the window's items that changed and nothing of the other 14,000 rows.
 *
 * Both sides change the window only at messages they see in the same order:
 * a full update (the first FIRST_REPLICASET_ROWS), the answer to a window
 * request (its refs), a ref that left the set (dropped). So the panel's items
 * are always those of the host's last message, never of an older position.
 */
import { FIRST_REPLICASET_ROWS, type Delta, type ReplicaSetItem, type ReplicaSetRows, type ReplicaSetsMessage } from '../protocol/webview';
import { naturalKey } from '../protocol/naturalOrder';
import { sameReplicaSet } from './viewModel';

export class ReplicaSetWindow {
  /** every ref in natural order, as last sent */
  private keys: string[] = [];
  private keySet = new Set<string>();
  /** the window: what the panel holds of each of its rows (undefined: nothing yet) */
  private held = new Map<string, ReplicaSetItem | undefined>();

  /** The update's part: the keys when the set changed, and the window's items that the panel does not hold as they are. */
  update(items: ReadonlyMap<string, ReplicaSetItem>, delta: Delta<ReplicaSetItem>, full: boolean): ReplicaSetRows {
    const keysChanged =
      full || items.size !== this.keySet.size || delta.remove.some((r) => this.keySet.has(r)) || delta.upsert.some((i) => !this.keySet.has(i.ref));
    if (keysChanged) {
      this.keys = sortRefs(items.keys());
      this.keySet = new Set(this.keys);
    }
    if (full) this.held = new Map(this.keys.slice(0, FIRST_REPLICASET_ROWS).map((ref) => [ref, undefined]));
    const changed: ReplicaSetItem[] = [];
    for (const [ref, had] of this.held) {
      const now = items.get(ref);
      if (!now) this.held.delete(ref);
      else if (!had || (had !== now && !sameReplicaSet(had, now))) {
        this.held.set(ref, now);
        changed.push(now);
      }
    }
    return { ...(keysChanged ? { keys: this.keys } : {}), items: changed };
  }

  /**
   * The panel shows `refs` now: the answer carries the items of those it does not hold. `items` are the view of the last
   * update, not the live records, so that a request that crosses a long run gets the position the panel shows.
   */
  window(refs: readonly string[], items: ReadonlyMap<string, ReplicaSetItem>): ReplicaSetsMessage {
    const held = new Map<string, ReplicaSetItem | undefined>();
    const out: ReplicaSetItem[] = [];
    for (const ref of refs) {
      if (held.has(ref) || !this.keySet.has(ref)) continue;
      const now = items.get(ref);
      if (!now) continue;
      const had = this.held.get(ref);
      if (!had || (had !== now && !sameReplicaSet(had, now))) out.push(now);
      held.set(ref, now);
    }
    this.held = held;
    return { type: 'replicaSets', refs: [...held.keys()], items: out };
  }
}

/** Refs in the panel's order: natural (rs-9 before rs-10), each key made once. */
export function sortRefs(refs: Iterable<string>): string[] {
  const keyed = Array.from(refs, (ref) => ({ ref, k: naturalKey(ref) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  return keyed.map((x) => x.ref);
}
