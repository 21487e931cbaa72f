/**
 * The ReplicaSets as the panel gets them (a RowWindow): every ref in natural
 * order, sent again only when the set changed (the open, a ReplicaSet created
 * or deleted), and the items of the rows in view.
 */
import type { Delta, ReplicaSetItem, ReplicaSetRows, ReplicaSetsMessage } from '../protocol/webview';
import { sortNaturally } from '../protocol/naturalOrder';
import { sameReplicaSet } from './viewModel';
import { RowWindow } from './rowWindow';

export class ReplicaSetWindow {
  private readonly rows = new RowWindow<ReplicaSetItem>(sameReplicaSet);

  /** The update's part: the keys when the set changed, and the window's items that the panel does not hold as they are. */
  update(items: ReadonlyMap<string, ReplicaSetItem>, delta: Delta<ReplicaSetItem>, full: boolean): ReplicaSetRows {
    const r = this.rows;
    const keysChanged = full || items.size !== r.keys.length || delta.remove.some((k) => r.has(k)) || delta.upsert.some((i) => !r.has(i.ref));
    const keys = keysChanged ? sortRefs(items.keys()) : undefined;
    const changed = r.update(items, keys, full);
    return { ...(keys ? { keys } : {}), items: changed };
  }

  /** The panel shows `refs` now: see RowWindow.window. */
  window(refs: readonly string[], items: ReadonlyMap<string, ReplicaSetItem>): ReplicaSetsMessage {
    return { type: 'replicaSets', ...this.rows.window(refs, items) };
  }
}

/** Refs in the panel's order: natural (rs-9 before rs-10), each key made once. */
export function sortRefs(refs: Iterable<string>): string[] {
  return sortNaturally(
    refs,
    (ref) => ref,
    (ref) => ref,
  );
}
