/**
 * A list worked through a piece at a time across the panel's idle slices (RecordsView's open pods, KeptView's owed
 * ReplicaSets), so that one slice never holds the extension host for the whole list.
 */

/** The list and how much of it is done. */
export interface PieceList<T> {
  readonly keys: readonly T[];
  done: number;
}

/** Visits the list's next pieces of `perPiece` while `more()` says so (at least one); true while some are left. */
export function visitPieces<T>(list: PieceList<T>, perPiece: number, more: () => boolean, visit: (piece: T[]) => void): boolean {
  do {
    const piece = list.keys.slice(list.done, list.done + perPiece);
    list.done += piece.length;
    visit(piece);
  } while (list.done < list.keys.length && more());
  return list.done < list.keys.length;
}
