/**
 * A restore's rewind of the live maps to a checkpoint (CheckpointStore.restoreInPieces): only the
 * records changed since it are put back, from the latest checkpoint's delta that holds them or the
 * snapshot's records; and the pod index the same way.
 */
import type { PodRecord } from '../model/types';
import { inOrder } from '../model/podOrder';
import type { DeltaLists } from './checkpointDeltas';

/** What the rewind reads of a checkpoint (checkpointStore.ts's Checkpoint): its pod index's delta. */
interface WithIndex {
  byNode: { delta: Map<string, readonly string[] | null> };
}

/**
 * The live map put back to what it was at the last of `chain`: every key changed since then (in a
 * `dropped` checkpoint's delta or `dirty` now) gets a copy of its latest delta in `chain`, else of
 * the base record, or goes when it did not exist then; the map is rebuilt in that checkpoint's key
 * order only when the order differs. Records changed since the checkpoint are always in one of those
 * (every change of a record goes through the host, which marks it dirty), so the others are as they were.
 * `replaced`, when given, gets each key put back with the live record it replaced (undefined: none).
 */
export function rewind<C, T, S = T>(
  map: Map<string, T>,
  base: Map<string, T>,
  chain: C[],
  dropped: C[],
  /** a checkpoint's delta: its map, or its lists while the map is not made (entriesOf) */
  deltaOf: (c: C) => Map<string, S | null> | DeltaLists<S>,
  dirty: Iterable<string>,
  clone: (v: T | S, key: string) => T,
  /** the keys' order at the checkpoint; undefined: the live map's order is that order */
  order: readonly string[] | Set<string> | undefined,
  replaced?: Map<string, T | undefined>,
  /** gets the keys put back (the others keep their live records); empty when given */
  putBack?: Set<string>,
  /** the keys of a dropped checkpoint's delta (default: its map's), read without making the map */
  keysOf: (c: C) => Iterable<string> = (c) => {
    const d = deltaOf(c);
    return d instanceof Map ? d.keys() : d.keys;
  },
  /** writes a record into the live one under its key, when it can (true): such a key is not in `replaced` */
  writeInto?: (live: T, v: T | S, key: string) => boolean,
): Map<string, T> {
  // the set put back is the one collected (a copy of 50,000 keys after a heavy pass, before)
  const changed = putBack ?? new Set<string>();
  for (const key of dirty) changed.add(key);
  for (const c of dropped) for (const key of keysOf(c)) changed.add(key);
  const put = (key: string, v: T | S | null | undefined): void => {
    const was = map.get(key);
    if (v && was !== undefined && writeInto !== undefined && writeInto(was, v, key)) return;
    if (replaced !== undefined) replaced.set(key, was);
    if (v) map.set(key, clone(v, key));
    else map.delete(key);
  };
  // Each key's latest delta in the chain, newest checkpoint first, each looked up from the smaller
  // side: a key changed since the checkpoint but never before it (most of them) was looked up in
  // every checkpoint's delta, 48 look-ups for each of 50,000 pods after a heavy pass. The keys
  // found are taken out of `left`, a copy made only when a delta in the chain has any (a jump back
  // to the start finds none: it puts back every key from the base).
  let left = changed;
  for (let i = chain.length - 1; i >= 0 && left.size > 0; i--) {
    const d = deltaOf(chain[i]);
    if (!(d instanceof Map)) {
      if (d.keys.length === 0) continue;
      if (left === putBack) left = new Set(left);
      left = fromLists(d, left, put);
      continue;
    }
    if (d.size === 0) continue;
    if (left === putBack) left = new Set(left);
    if (d.size < left.size) {
      for (const [key, v] of d) if (left.delete(key)) put(key, v);
    } else
      for (const key of left)
        if (d.has(key)) {
          put(key, d.get(key));
          left.delete(key);
        }
  }
  for (const key of left) put(key, base.get(key) ?? null);
  return order === undefined ? map : inOrder(map, order);
}

/**
 * The keys of `left` that lists hold put back from them, in the order a map of them would have given (theirs when they
 * are the fewer, else left's), without making that map: one look-up in `left` per entry. Returns what is left.
 */
function fromLists<S>(d: DeltaLists<S>, left: Set<string>, put: (key: string, v: S | null) => void): Set<string> {
  const { keys, values } = d;
  if (keys.length < left.size) {
    for (let i = 0; i < keys.length; i++) if (left.delete(keys[i])) put(keys[i], values[i]);
    return left;
  }
  const found = new Map<string, S | null>();
  for (let i = 0; i < keys.length; i++) if (left.has(keys[i])) found.set(keys[i], values[i]);
  if (found.size === 0) return left;
  for (const key of left)
    if (found.has(key)) {
      put(key, found.get(key) as S | null);
      left.delete(key);
    }
  return left;
}

/** Whether the rewind put a key into the map that it did not hold (undefined in `replaced`), which comes last in it. */
export function someInserted<T>(replaced: ReadonlyMap<string, T | undefined>, map: ReadonlyMap<string, T>): boolean {
  for (const [key, was] of replaced) if (was === undefined && map.has(key)) return true;
  return false;
}

/**
 * The pod index at the last of `chain`, from the live one: the sets of `setsBack` (changed since)
 * are put back from the latest checkpoint that kept them, the others are the live sets,
 * unchanged since; the pods of `podsMoved` are indexed under their node in `pods` (the pod map
 * put back to the checkpoint: a pod is indexed under its nodeName, see SimHost.updatePod).
 */
export function indexAt(
  live: { byNode: Map<string, Set<string>>; podNode: Map<string, string> },
  pods: ReadonlyMap<string, PodRecord>,
  chain: WithIndex[],
  setsBack: ReadonlySet<string>,
  podsMoved: ReadonlySet<string>,
  order: readonly string[],
): { byNode: Map<string, Set<string>>; podNode: Map<string, string> } {
  const byNode = rewind(
    live.byNode,
    new Map(),
    chain,
    [],
    (c) => c.byNode.delta,
    setsBack,
    (keys) => new Set(keys),
    order,
  );
  const podNode = live.podNode;
  for (const key of podsMoved) {
    const node = pods.get(key)?.nodeName;
    if (node) podNode.set(key, node);
    else podNode.delete(key);
  }
  return { byNode, podNode };
}
