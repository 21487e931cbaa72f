/**
 * A long list as the panel gets it, the way it gets pods: the order of every
 * key (again only when it changed) and the items of the rows it shows, its
 * window, kept up to date on every update. The host keeps what the panel
 * holds (`held`: the window's items as last sent), so an update sends the
 * window's items that changed and nothing of the other rows.
 *
 * Both sides change the window only at messages they see in the same order:
 * a full update or new keys from a request (the first FIRST_ROWS), the answer
 * to a window request (its refs), a key that left the list (dropped). So the
 * panel's items are always those of the host's last message, never of an
 * older position. The ReplicaSets (replicaSetWindow.ts) and the nodes
 * (nodeWindow.ts) are two of these; what differs is how their keys are made.
 */
import { FIRST_ROWS } from '../protocol/lists';

export class RowWindow<T extends { ref: string }> {
  /** every key in the list's order, as last sent */
  private keyList: string[] = [];
  private keySet = new Set<string>();
  /** the window: what the panel holds of each of its rows (undefined: nothing yet) */
  private heldItems = new Map<string, T | undefined>();

  constructor(private readonly same: (a: T, b: T) => boolean) {}

  get keys(): readonly string[] {
    return this.keyList;
  }

  /** the window's rows, as the panel holds them */
  get held(): string[] {
    return [...this.heldItems.keys()];
  }

  has(key: string): boolean {
    return this.keySet.has(key);
  }

  /**
   * The update's items: those of the window the panel does not hold as they are. `keys`: the list's keys changed
   * to these (sent with the update); `restart`: the window is their first FIRST_ROWS again (a full update, a filter).
   */
  update(items: ReadonlyMap<string, T>, keys: string[] | undefined, restart: boolean): T[] {
    if (keys) {
      this.keyList = keys;
      this.keySet = new Set(keys);
    }
    if (restart) this.heldItems = new Map(this.keyList.slice(0, FIRST_ROWS).map((ref) => [ref, undefined]));
    const changed: T[] = [];
    for (const [ref, had] of this.heldItems) {
      const now = items.get(ref);
      if (!now || !this.keySet.has(ref)) this.heldItems.delete(ref);
      else if (!had || (had !== now && !this.same(had, now))) {
        this.heldItems.set(ref, now);
        changed.push(now);
      }
    }
    return changed;
  }

  /**
   * The panel shows `refs` now: the answer carries the items of those it does not hold. `items` are the view of the last
   * update, not the live records, so that a request that crosses a long run gets the position the panel shows.
   */
  window(refs: readonly string[], items: ReadonlyMap<string, T>): { refs: string[]; items: T[] } {
    const held = new Map<string, T | undefined>();
    const out: T[] = [];
    for (const ref of refs) {
      if (held.has(ref) || !this.keySet.has(ref)) continue;
      const now = items.get(ref);
      if (!now) continue;
      const had = this.heldItems.get(ref);
      if (!had || (had !== now && !this.same(had, now))) out.push(now);
      held.set(ref, now);
    }
    this.heldItems = held;
    return { refs: [...held.keys()], items: out };
  }
}
