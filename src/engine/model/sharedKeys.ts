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
