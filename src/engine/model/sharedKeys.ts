/** Whether the map's keys, in order, are `keyAt(0)` … `keyAt(n - 1)` (a restore takes over a live map then). */
export function sameKeysInOrder(map: ReadonlyMap<string, unknown>, n: number, keyAt: (i: number) => string): boolean {
  if (map.size !== n) return false;
  let i = 0;
  for (const k of map.keys()) if (keyAt(i++) !== k) return false;
  return true;
}

/**
 * A map's keys, in order, as an array that a checkpoint keeps: `prev` (the
 * last checkpoint's array) when it holds exactly those keys in that order, so
 * that consecutive checkpoints share one array, else a new one.
 */
export function keysSharedWith(prev: readonly string[], map: ReadonlyMap<string, unknown>): readonly string[] {
  return sameKeysInOrder(map, prev.length, (i) => prev[i]) ? prev : [...map.keys()];
}

/** A map as a checkpoint keeps it: its keys and its values, each in the map's order. */
export interface MapColumns<V> {
  readonly keys: readonly string[];
  readonly values: readonly V[];
}

/**
 * The map as columns (`value` of each entry), sharing with `prev`, the last checkpoint's: its keys'
 * array when the keys are the same in order (keysSharedWith), and the whole of `prev` when every
 * value is the very one it holds. A map of 5,000 nodes saved as entry pairs was 5,000 small arrays
 * per checkpoint, and most checkpoints found the same names and values. The values must never be
 * edited in place (each is replaced), so a shared column stays what was saved.
 */
export function columnsSharedWith<E, V>(prev: MapColumns<V> | undefined, map: ReadonlyMap<string, E>, value: (e: E) => V): MapColumns<V> {
  const keys = keysSharedWith(prev?.keys ?? [], map);
  if (prev !== undefined && keys === prev.keys) {
    let i = 0,
      same = true;
    for (const e of map.values()) {
      if (value(e) !== prev.values[i++]) {
        same = false;
        break;
      }
    }
    if (same) return prev;
  }
  const values = new Array<V>(map.size);
  let i = 0;
  for (const e of map.values()) values[i++] = value(e);
  return { keys, values };
}

/** The map the columns were saved from, in their order. */
export function mapOfColumns<V>(c: MapColumns<V>): Map<string, V> {
  const m = new Map<string, V>();
  for (let i = 0; i < c.keys.length; i++) m.set(c.keys[i], c.values[i]);
  return m;
}
