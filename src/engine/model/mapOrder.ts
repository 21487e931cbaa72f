/**
 * A step back puts a cluster's map back in its key order at the checkpoint in place when it can
 * (checkpointStore.ts `inOrder`), instead of making a new map: the map is the same object with its
 * keys in another order. A view that lists a map's records in its order and tells a new map by its
 * identity (the extension's RecordsView) reads this count too: it changes when the order does.
 */
const reorders = new WeakMap<object, number>();

/** Counts a reorder of `map` in place. */
export function noteReordered(map: object): void {
  reorders.set(map, (reorders.get(map) ?? 0) + 1);
}

/** How many times `map` was put in another key order in place (0: never). */
export function reorderCount(map: object): number {
  return reorders.get(map) ?? 0;
}
