/**
 * A checkpoint's pods (checkpointStore.ts): the pods changed since the previous checkpoint, the
 * key log, the Ready writes and the pod map's key order.
 */
import type { KeptPod } from './checkpoint';
import type { ReadyLog } from './dirtyPods';
import { PodKeyOrder } from './podKeyOrder';

/**
 * The pods changed since the previous checkpoint, the keys added to and removed from the pod map
 * since then, in order (true: added), and the map's key order (150,000 keys at 5,000 nodes, made
 * from the previous checkpoint's and the key log only when read: PodKeyOrder).
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
   * The pod map's key order (never edited; made when first read: PodKeyOrder). A restore after pods came or went rebuilds the map in this order instead
   * of first replaying every key log from the snapshot's order (two passes over 150,000 keys).
   */
  readonly order: readonly string[];
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
    readonly keyOrder: PodKeyOrder,
    public readyLog: ReadyLog,
  ) {
    this.changed = changed;
    this.other = changed.other;
  }

  get order(): readonly string[] {
    return this.keyOrder.order;
  }

  /** The changed pods as two lists in the order first changed (handOff.ts reads them so, without making the map). */
  get changes(): { keys: readonly string[]; values: readonly (KeptPod | null)[] } {
    return this.changed ?? { keys: [...this.delta.keys()], values: [...this.delta.values()] };
  }

  get size(): number {
    return this.changed ? this.changed.keys.length : this.map!.size;
  }

  get delta(): Map<string, KeptPod | null> {
    if (this.map === undefined) {
      const m = new Map<string, KeptPod | null>();
      const { keys, values } = this.changed!;
      for (let i = 0; i < keys.length; i++) m.set(keys[i], values[i]);
      this.map = m;
      this.changed = undefined;
    }
    return this.map;
  }

  set delta(m: Map<string, KeptPod | null>) {
    this.map = m;
    this.changed = undefined;
  }
}

/** A checkpoint's pod key order as made when read (PodKeyOrder). */
export function keyOrderOf(pods: PodDelta): PodKeyOrder {
  return pods instanceof PodChanges ? pods.keyOrder : PodKeyOrder.of(pods.order);
}

/** How many pods a checkpoint's delta holds (without making the map of a PodChanges). */
export function podsIn(pods: PodDelta): number {
  return pods instanceof PodChanges ? pods.size : pods.delta.size;
}
