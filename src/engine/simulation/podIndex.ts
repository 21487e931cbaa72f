/**
 * The pods-by-node index (cluster.podsByNode), as the informers' nodeName
 * indexer keeps it, and what the host keeps per pod key to announce a pod's
 * `before` (its informer's old object) and to list the pods a checkpoint saves.
 */
import type { PodBefore, PodSlot as ControllersPodSlot } from '../controllers/controller';
import type { PodCondition, PodRecord } from '../model/types';
import { frozenConditions } from './checkpoint';

/**
 * Indexes the pod under `nodeName` (none when empty) in `byNode` and `podNode`;
 * returns whether anything changed. Checkpoints replay these changes to get
 * the index, in the same order, back.
 */
export function indexPod(byNode: Map<string, Set<string>>, podNode: Map<string, string>, key: string, nodeName: string | undefined): boolean {
  return indexPodFrom(byNode, podNode, key, podNode.get(key), nodeName);
}

/** indexPod, with `old` the node the pod is indexed under now (podNode's entry, already looked up). */
export function indexPodFrom(
  byNode: Map<string, Set<string>>,
  podNode: Map<string, string>,
  key: string,
  old: string | undefined,
  nodeName: string | undefined,
): boolean {
  if (old === nodeName) return false;
  if (old !== undefined) {
    const s = byNode.get(old);
    s?.delete(key);
    if (s && s.size === 0) byNode.delete(old);
    podNode.delete(key);
  }
  if (nodeName) {
    let s = byNode.get(nodeName);
    if (!s) byNode.set(nodeName, (s = new Set()));
    s.add(key);
    podNode.set(key, nodeName);
  }
  return true;
}

/** What the host keeps per pod key (see SimHost.podSlots), and hands the controllers (controllers' PodSlot). */
export class PodSlot implements ControllersPodSlot {
  /** what was last announced for the pod: its next `before` (undefined: not since the last reindex, or deleted) */
  seen: PodBefore | undefined = undefined;
  /**
   * The pod map's record under the key (undefined: none): read from the map when the slot is made,
   * then kept by createPod and deletePod, since the map changes only through them (and a restore,
   * which makes every slot anew), and updatePod is given the record it edited
   * (controllers/controllerHost.ts). A checkpoint, MarkPodsNotReady's `podsOn` and the host read it
   * instead of looking the key up in the pod map; `SimulationOptions.checks.pods` and
   * `checks.podSlots` compare the two in tests.
   */
  pod: PodRecord | undefined;
  /** the node the pod is indexed under in podsByNode (the host's podNode entry), kept as that is */
  node: string | undefined;
  ownerSet: object | undefined = undefined;
  ownerIndex: object | undefined = undefined;
  /** the snapshot's record under the key, once looked up (pristineKnown) */
  pristine: PodRecord | undefined = undefined;
  pristineKnown = false;
  /** the round of SimHost.dirtyPodList this slot was last listed in */
  dirtyRound = -1;
  /** the generation `seen`, `pod` and `node` were written in (PodSlots.gen): a restore makes them stale at once */
  gen: number;
  constructor(
    readonly key: string,
    pod: PodRecord | undefined,
    node: string | undefined,
    gen: number,
  ) {
    this.pod = pod;
    this.node = node;
    this.gen = gen;
  }

  /** what a restore left under the key (the slot was made before it): nothing announced since */
  renew(pod: PodRecord | undefined, node: string | undefined, gen: number): void {
    this.seen = undefined;
    this.pod = pod;
    this.node = node;
    this.gen = gen;
  }
}

/**
 * The host's slots by pod key (SimHost.slots). At 5,000 nodes a look-up in a map of 150,000 keys
 * is a cache miss or more, and MarkPodsNotReady changes 50,000 pods at once: a pod's update looked
 * its key up in the pod map, the host's index and its slots, then in each controller's maps; with
 * the slot in hand (podsOn finds it by the index's key) none of those are looked up.
 * Made for every pod at the start and for every pod created; a slot whose pod is deleted goes at
 * the next checkpoint. A restore leaves the slots and makes them stale (`gen`): each is renewed from
 * the maps when next read, so a step back costs no pass over 150,000 slots.
 */
export class PodSlots {
  private map = new Map<string, PodSlot>();
  /** the generation of the slots' host fields: a slot of another one is stale (PodSlot.gen) */
  gen = 0;
  /** checking mode (SimulationOptions.checks.podSlots): every slot read is the maps' (pod, index) */
  check = false;

  /** the slot of the key (made, or renewed, from the maps: `pods`, the pod map; `podNode`, the index's nodes) */
  of(key: string, pods: ReadonlyMap<string, PodRecord>, podNode: ReadonlyMap<string, string>): PodSlot {
    let slot = this.map.get(key);
    if (slot === undefined) {
      slot = new PodSlot(key, pods.get(key), podNode.get(key), this.gen);
      this.map.set(key, slot);
    } else if (slot.gen !== this.gen) slot.renew(pods.get(key), podNode.get(key), this.gen);
    if (this.check) this.verify(slot, pods, podNode);
    return slot;
  }

  /** `of`, but no slot is made for a key without a pod (undefined then); a slot kept for a deleted pod is given (its `pod` undefined) */
  existing(key: string, pods: ReadonlyMap<string, PodRecord>, podNode: ReadonlyMap<string, string>): PodSlot | undefined {
    let slot = this.map.get(key);
    if (slot === undefined) {
      const pod = pods.get(key);
      if (pod === undefined) return undefined;
      slot = new PodSlot(key, pod, podNode.get(key), this.gen);
      this.map.set(key, slot);
    } else if (slot.gen !== this.gen) slot.renew(pods.get(key), podNode.get(key), this.gen);
    if (this.check) this.verify(slot, pods, podNode);
    return slot;
  }

  /** the slot of a pod the index is being made from (the start), indexed under its nodeName */
  put(key: string, pod: PodRecord): void {
    const slot = this.map.get(key);
    if (slot === undefined) this.map.set(key, new PodSlot(key, pod, pod.nodeName || undefined, this.gen));
    else slot.renew(pod, pod.nodeName || undefined, this.gen);
  }

  /** a deleted pod's slot, out of the dirty list: one is made again if the key is created again */
  drop(slot: PodSlot): void {
    if (this.map.get(slot.key) === slot) this.map.delete(slot.key);
  }

  /** the slot is the one under its key, of this generation, with the pod map's record (`pod`, when given) and the index's node */
  verify(slot: PodSlot, pods: ReadonlyMap<string, PodRecord>, podNode: ReadonlyMap<string, string>, pod?: PodRecord): void {
    const key = slot.key;
    if (pod !== undefined && slot.pod !== pod) throw new Error(`pod slots: Pod ${key}'s update was given another record than the pod map's`);
    if (this.map.get(key) !== slot) throw new Error(`pod slots: the slot given for Pod ${key} is not the one under its key`);
    if (slot.gen !== this.gen) throw new Error(`pod slots: the slot of Pod ${key} is stale`);
    if (slot.pod !== pods.get(key)) throw new Error(`pod slots: the slot of Pod ${key} holds another record than the pod map`);
    if (slot.node !== podNode.get(key)) throw new Error(`pod slots: the slot of Pod ${key} says node ${slot.node}, the index ${podNode.get(key)}`);
  }
}

/**
 * The pod as an informer's old object shows it. Tolerations and labels are
 * replaced, never changed in place, so they are shared; the Ready condition
 * is edited in place (MarkPodsNotReady), so the list is one nobody edits,
 * with a copy of Ready unless `prev`'s equals it (see frozenConditions).
 */
export function podBeforeOf(pod: PodRecord, prev?: readonly PodCondition[], made: { last?: object } = {}): PodBefore {
  const b: PodBefore = {
    nodeName: pod.nodeName,
    tolerations: pod.tolerations,
    phase: pod.phase,
    conditions: frozenConditions(pod.conditions, prev, made),
    labels: pod.meta.labels,
  };
  if (pod.meta.deletionTimestamp !== undefined) b.deletionTimestamp = pod.meta.deletionTimestamp;
  return b;
}
