/**
 * The live pod map's key order after a restore. A fresh run's map iterates its pods in the order they
 * were created, and the controllers' decisions follow that order (the binder's queue, a ReplicaSet's
 * pods, a checkpoint's order), so a restore must leave the order a fresh run has at the checkpoint.
 * A native Map cannot put a key back at its place: the pods a step back during the evictions puts
 * back (deleted since the checkpoint) come last, and making the order good moves every key after the
 * first of them, about 150,000 at 5,000 nodes, on the click. The live map (PodMap) owes that order
 * instead and makes it good the first time something iterates it or a pod is created (every creation
 * goes through SimHost.createPod); get, has and delete, all a step back's views and the next pass
 * mostly use, do not need it.
 */

/**
 * A map that may owe a key order: `owe(order)` says the keys are to iterate as in `order` (the keys
 * it holds listed there, in that order; a key deleted since is skipped), made good on the first
 * iteration (keys, values, entries, forEach, for-of, spread) or `settle()`. Keys are not to be added
 * while the order is owed without `settle()` first (a key added would come last).
 */
export class PodMap<T> extends Map<string, T> {
  private owed: readonly string[] | undefined;
  /** where the moves of `settleSome` go on in `owed` (undefined: the keys in place not yet read) */
  private next: number | undefined;

  /** The keys are to iterate as in `order` (an array never edited: a checkpoint's order). */
  owe(order: readonly string[]): void {
    this.owed = order;
    this.next = undefined;
  }

  /** The order owed, if any (keys deleted since among them). */
  get owedOrder(): readonly string[] | undefined {
    return this.owed;
  }

  /** Whether an order is owed (not yet made good). */
  get owing(): boolean {
    return this.owed !== undefined;
  }

  /** Makes the owed order good, in place (see inOrder). */
  settle(): void {
    this.settleSome(Number.POSITIVE_INFINITY);
  }

  /**
   * Makes the owed order good a part at a time: up to `max` more keys of it moved to the end, in its order; true while
   * some are left (the order still owed). The keys before the first one out of place stay where they are, and each key
   * moved goes after those moved before it, so the moves of several calls end in the order a single one makes: at 5,000
   * nodes, after a step back, all of them at once held the event loop about 45 ms (the panel's idle slice, a click behind it).
   */
  settleSome(max: number): boolean {
    const order = this.owed;
    if (order === undefined) return false;
    const n = order.length;
    let p = this.next;
    if (p === undefined) {
      p = 0;
      for (const key of super.keys()) {
        while (p < n && key !== order[p] && !super.has(order[p])) p++;
        if (p === n || key !== order[p]) break;
        p++;
      }
    }
    const end = Math.min(n, p + max);
    for (let i = p; i < end; i++) {
      const key = order[i];
      if (!super.has(key)) continue;
      const v = super.get(key) as T;
      super.delete(key);
      super.set(key, v);
    }
    if (end < n) {
      this.next = end;
      return true;
    }
    this.owed = this.next = undefined;
    return false;
  }

  override clear(): void {
    this.owed = this.next = undefined;
    super.clear();
  }

  override keys(): MapIterator<string> {
    this.settle();
    return super.keys();
  }

  override values(): MapIterator<T> {
    this.settle();
    return super.values();
  }

  override entries(): MapIterator<[string, T]> {
    this.settle();
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[string, T]> {
    this.settle();
    return super[Symbol.iterator]();
  }

  override forEach(f: (value: T, key: string, map: Map<string, T>) => void, thisArg?: unknown): void {
    this.settle();
    super.forEach(f, thisArg);
  }
}

/**
 * A map's keys in their order, and maybe keys it no longer holds among them (a PodMap's owed order
 * as it is): for a reader that looks each key up in keys of its own, which are in the map (no
 * generator and no look-up in the map per key, over 150,000 keys).
 */
export function keysInOrderWithGone(map: ReadonlyMap<string, unknown>): Iterable<string> {
  return (map instanceof PodMap ? map.owedOrder : undefined) ?? map.keys();
}

/** Makes a PodMap's owed order good (before a key is added); nothing for a plain map. */
export function settleOrder(map: ReadonlyMap<string, unknown>): void {
  if (map instanceof PodMap) map.settle();
}

/** Keys of an owed order moved between two looks at the slice's clock (about 2 ms at 5,000 nodes). */
export const ORDER_CHUNK = 8192;

/** settleOrder a part at a time while `more()` says so; true while some is left. */
export function settleOrderSlice(map: ReadonlyMap<string, unknown>, more: () => boolean): boolean {
  if (!(map instanceof PodMap)) return false;
  while (map.settleSome(ORDER_CHUNK)) if (!more()) return true;
  return false;
}

/**
 * The map in `order` (its keys' order at a checkpoint), the same map. A rewind leaves the keys it
 * put back last and the others in their order then, so the keys before the first one out of place
 * stay where they are and only the rest are taken out and put back in order: a pod deleted since the
 * checkpoint and put back (an eviction, at a step back during an outage) made a new map of all
 * 150,000 pods at 5,000 nodes, and a new map grows through every size on the way (re-inserting in
 * place measured 0.5-0.7 of that for the whole map). A new map only when the keys are not the order's.
 */
export function inOrder<T>(map: Map<string, T>, order: readonly string[] | Set<string>): Map<string, T> {
  const keys = order instanceof Set ? [...order] : order;
  const n = keys.length;
  if (map.size === n) {
    let p = 0;
    for (const key of map.keys()) {
      if (key !== keys[p]) break;
      p++;
    }
    if (p === n) return map;
    let moved = 0;
    for (let i = p; i < n; i++) {
      const key = keys[i];
      const v = map.get(key);
      if (v === undefined) continue;
      map.delete(key);
      map.set(key, v);
      moved++;
    }
    // every key after p was there: the map holds exactly the order's keys, now in that order
    if (moved === n - p) return map;
  }
  const out = new Map<string, T>();
  for (const key of keys) {
    const v = map.get(key);
    if (v) out.set(key, v);
  }
  return out;
}
