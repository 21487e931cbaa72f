/**
 * What a checkpoint keeps of the cluster's maps: the records changed since the previous checkpoint
 * (a delta per map) and the map's key order; for pods also the key and Ready logs. The deltas are
 * kept as lists in the order first changed, and the map a restore or thinning reads is made from
 * them when first read: most checkpoints are never read.
 */
import { keysSharedWith } from '../model/sharedKeys';
import type { KeptPod } from './checkpoint';
import type { ReadyLog } from './dirtyPods';

/** The records of one map changed since the previous checkpoint (null: deleted), and the map's key order. */
export interface MapDelta<T> {
  delta: Map<string, T | null>;
  /** shared between checkpoints: never edited */
  order: readonly string[];
}

/**
 * The pods changed since the previous checkpoint, the keys added to and removed from the pod map
 * since then, in order (true: added), and the map's key order (an array of 150,000 keys at 5,000
 * nodes, 1.2 MB, shared with the previous checkpoint unless pods came or went in between).
 */
export interface PodDelta {
  /** built from `changed` when first read (a restore, thinning): see PodChanges; a pod changed by Ready writes alone is kept as those (PodReady) */
  delta: Map<string, KeptPod | null>;
  /** in pairs: key, added (see SimHost.podKeyLog) */
  keyLog: (string | boolean)[];
  /**
   * The keys of `delta` changed otherwise than by a write in `readyLog`, and, in the last checkpoint
   * a restore went back to, the pods that restore put back from their records (see restore)
   */
  other: string[];
  /** MarkPodsNotReady's Ready writes since the previous checkpoint, which a restore to before it undoes */
  readyLog: ReadyLog;
  /**
   * The pod map's key order: the previous checkpoint's array when no key was added or removed
   * since (never edited). A restore after pods came or went rebuilds the map in this order instead
   * of first replaying every key log from the snapshot's order (two passes over 150,000 keys).
   */
  order: readonly string[];
}

/**
 * The records of one map changed since the previous checkpoint, as two lists in the order first
 * changed (each key once), and the map restores, thinning and hand-offs read, made from them when
 * first read (as PodChanges for pods). Every checkpoint of the outage hour at 5,000 nodes holds
 * 3,300-5,000 nodes (heartbeat times) and as many Leases (renewals): a map of each was 5,000 inserts
 * and its growth per checkpoint, which most checkpoints never read.
 */
export class Changes<S> implements MapDelta<S> {
  private keys: string[] | undefined = [];
  private values: (S | null)[] | undefined = [];
  private map: Map<string, S | null> | undefined;
  constructor(readonly order: readonly string[]) {}

  /** a key not added before (the callers take each from a set, or skip the ones added) */
  add(key: string, v: S | null): void {
    this.keys!.push(key);
    this.values!.push(v);
  }

  /** the keys, without making the map */
  changedKeys(): Iterable<string> {
    return this.keys ?? this.map!.keys();
  }

  /** the lists while the map is not made, else the map (see entriesOf) */
  entries(): DeltaLists<S> | Map<string, S | null> {
    return this.map ?? { keys: this.keys!, values: this.values! };
  }

  get delta(): Map<string, S | null> {
    if (this.map === undefined) {
      this.map = mapOfLists(this.keys!, this.values!);
      this.keys = this.values = undefined;
    }
    return this.map;
  }

  set delta(m: Map<string, S | null>) {
    this.map = m;
    this.keys = this.values = undefined;
  }
}

/**
 * The changed records (copies) of a map and its key order; clears the dirty set unless told not to.
 * The order is `prevOrder` (the previous checkpoint's) when the keys are the same, in the same
 * order: one array for consecutive checkpoints instead of a copy of 14,120 ReplicaSet keys each.
 */
export function takeDelta<T, S = T>(
  map: Map<string, T>,
  dirty: Set<string>,
  clone: (v: T, key: string) => S,
  prevOrder: readonly string[] | undefined,
  clear = true,
): Changes<S> {
  const out = new Changes<S>(keysSharedWith(prevOrder ?? [], map));
  for (const key of dirty) {
    const v = map.get(key);
    out.add(key, v === undefined ? null : clone(v, key));
  }
  if (clear) dirty.clear();
  return out;
}

/**
 * A checkpoint's pods: the changed ones as the host listed them (each key once, in the order first
 * changed), and the map a restore or thinning reads built from them only when first read. Most
 * checkpoints are never read, and the one after MarkPodsNotReady holds 50,000 pods at 5,000 nodes:
 * a map of them was 50,000 inserts (and its growth) per checkpoint for nothing.
 */
export class PodChanges implements PodDelta {
  private changed: { keys: readonly string[]; values: readonly (KeptPod | null)[] } | undefined;
  private map: Map<string, KeptPod | null> | undefined;
  other: string[];
  constructor(
    changed: { keys: readonly string[]; values: readonly (KeptPod | null)[]; other: string[] },
    public keyLog: (string | boolean)[],
    readonly order: readonly string[],
    public readyLog: ReadyLog,
  ) {
    this.changed = changed;
    this.other = changed.other;
  }

  /** The changed pods as two lists in the order first changed (handOff.ts reads them so, without making the map). */
  get changes(): { keys: readonly string[]; values: readonly (KeptPod | null)[] } {
    return this.changed ?? { keys: [...this.delta.keys()], values: [...this.delta.values()] };
  }

  get size(): number {
    return this.changed ? this.changed.keys.length : this.map!.size;
  }

  /** the lists while the map is not made, else the map (see entriesOf) */
  entries(): DeltaLists<KeptPod> | Map<string, KeptPod | null> {
    return this.map ?? this.changed!;
  }

  get delta(): Map<string, KeptPod | null> {
    if (this.map === undefined) {
      this.map = mapOfLists(this.changed!.keys, this.changed!.values);
      this.changed = undefined;
    }
    return this.map;
  }

  set delta(m: Map<string, KeptPod | null>) {
    this.map = m;
    this.changed = undefined;
  }
}

/** How many pods a checkpoint's delta holds (without making the map of a PodChanges). */
export function podsIn(pods: PodDelta): number {
  return pods instanceof PodChanges ? pods.size : pods.delta.size;
}

/** A delta in an object of its own (a spread would leave a Changes' map behind: it is made when read). */
export function ownDelta<S>(d: MapDelta<S>): MapDelta<S> {
  return { delta: d.delta, order: d.order };
}

/** A delta's records as two lists, each key once (null: deleted). */
export interface DeltaLists<S> {
  readonly keys: readonly string[];
  readonly values: readonly (S | null)[];
}

/**
 * A delta as a restore reads it: its lists while its map is not made, else the map. A restore looks up the few keys
 * changed since in the checkpoints before them, and the map of the Unknown pass's 50,000 pods (or a pass's 5,000 nodes)
 * made for that was most of a one-pass step back after it (rewind.ts reads the lists once instead).
 */
export function entriesOf<S>(d: MapDelta<S>): DeltaLists<S> | Map<string, S | null> {
  return d instanceof Changes || d instanceof PodChanges ? d.entries() : d.delta;
}

/** The keys of a delta, without making the map of a Changes. */
export function keysOf<S>(d: MapDelta<S>): Iterable<string> {
  return d instanceof Changes ? d.changedKeys() : d.delta.keys();
}

function mapOfLists<V>(keys: readonly string[], values: readonly V[]): Map<string, V> {
  const m = new Map<string, V>();
  for (let i = 0; i < keys.length; i++) m.set(keys[i], values[i]);
  return m;
}

/** Two consecutive deltas as one (the later one wins). */
export function mergeDelta<T>(earlier: Map<string, T | null>, later: Map<string, T | null>): Map<string, T | null> {
  const out = new Map(earlier);
  for (const [k, v] of later) out.set(k, v);
  return out;
}
