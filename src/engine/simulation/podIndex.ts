/**
 * The pods-by-node index (cluster.podsByNode), as the informers' nodeName
 * indexer keeps it, and what the host keeps per pod key to announce a pod's
 * `before` (its informer's old object) and to list the pods a checkpoint saves.
 */
import type { PodBefore } from '../controllers/controller';
import { PodSlotBase } from '../controllers/podSlot';
import type { PodCondition, PodRecord } from '../model/types';
import { frozenConditions, frozenPod, type KeptPod, podFrom, PodReady, samePod } from './checkpoint';

/**
 * Where the pod index says each pod is (the node its key is under in `byNode`): a plain map where
 * an index is made apart (makeInSlices, the checks' replay), the host's slots (SimHost.currentIndex)
 * for the live one, so that the live run keeps no map of 150,000 keys beside the slots.
 */
export interface PodNodes {
  get(key: string): string | undefined;
  set(key: string, node: string): unknown;
  delete(key: string): unknown;
  entries(): Iterable<[string, string]>;
}

/** The pod index: the pod keys under each node, in order, and each key's node. */
export interface PodIndex {
  byNode: Map<string, Set<string>>;
  podNode: PodNodes;
}

/**
 * Indexes the pod under `nodeName` (none when empty) in `byNode` and `podNode`;
 * returns whether anything changed. Checkpoints replay these changes to get
 * the index, in the same order, back.
 */
export function indexPod(byNode: Map<string, Set<string>>, podNode: PodNodes, key: string, nodeName: string | undefined): boolean {
  return indexPodFrom(byNode, podNode, key, podNode.get(key), nodeName);
}

/** indexPod, with `old` the node the pod is indexed under now (podNode's entry, already looked up). */
export function indexPodFrom(byNode: Map<string, Set<string>>, podNode: PodNodes, key: string, old: string | undefined, nodeName: string | undefined): boolean {
  if (!moveInSets(byNode, key, old, nodeName)) return false;
  if (nodeName) podNode.set(key, nodeName);
  else if (old !== undefined) podNode.delete(key);
  return true;
}

/** indexPodFrom's part in `byNode` alone (the host writes the slot's node itself). */
export function moveInSets(byNode: Map<string, Set<string>>, key: string, old: string | undefined, nodeName: string | undefined): boolean {
  if (old === nodeName) return false;
  if (old !== undefined) {
    const s = byNode.get(old);
    s?.delete(key);
    if (s && s.size === 0) byNode.delete(old);
  }
  if (nodeName) {
    let s = byNode.get(nodeName);
    if (!s) byNode.set(nodeName, (s = new Set()));
    s.add(key);
  }
  return true;
}

/**
 * checks.podSlots: the index's pod nodes (the slots', for the live one) against a fresh computation from the
 * pods' nodeName and from a walk of the sets; `only`: the one pod just changed (its set alone is looked at).
 */
export function checkPodNodes(index: PodIndex, pods: ReadonlyMap<string, PodRecord>, only?: string): void {
  const fresh = new Map<string, string>();
  if (only === undefined) {
    for (const [node, keys] of index.byNode) for (const key of keys) fresh.set(key, node);
    for (const [key, pod] of pods)
      if ((pod.nodeName || undefined) !== fresh.get(key))
        throw new Error(`podSlots: Pod ${key} is indexed under ${fresh.get(key)}, not its node ${pod.nodeName}`);
    const byKey = (a: [string, string], b: [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    if (JSON.stringify([...index.podNode.entries()].sort(byKey)) !== JSON.stringify([...fresh].sort(byKey)))
      throw new Error("podSlots: the pods' nodes the slots hold differ from the index's sets");
    return;
  }
  const node = index.podNode.get(only);
  const want = pods.get(only)?.nodeName || undefined;
  if (node !== want || (node !== undefined && index.byNode.get(node)?.has(only) !== true))
    throw new Error(`podSlots: Pod ${only}'s slot says node ${node}, the pod and the index say ${want}`);
}

/** The live index's pod nodes, read from and written to the host's slots (see PodNodes). */
export class SlotNodes implements PodNodes {
  constructor(
    private readonly slots: Map<string, PodSlot>,
    private readonly slotOf: (key: string) => PodSlot,
  ) {}
  get(key: string): string | undefined {
    return this.slots.get(key)?.node;
  }
  set(key: string, node: string): void {
    this.slotOf(key).node = node;
  }
  delete(key: string): void {
    const slot = this.slots.get(key);
    if (slot !== undefined) slot.node = undefined;
  }
  /**
   * The index as SimHost.reindex puts it in: `index`'s sets with its nodes written into the slots (the
   * live index's are there already), or both made from `pods`, with a slot for every pod, made in the
   * map's order (the pass that first changes a pod finds it).
   */
  putIn(index: PodIndex | undefined, pods: ReadonlyMap<string, PodRecord>): Map<string, Set<string>> {
    if (index !== undefined && index.podNode === this) return index.byNode;
    for (const slot of this.slots.values()) slot.node = undefined;
    if (index !== undefined) {
      for (const [key, node] of index.podNode.entries()) this.slotOf(key).node = node;
      return index.byNode;
    }
    const byNode = new Map<string, Set<string>>();
    for (const [key, pod] of pods) {
      const slot = this.slotOf(key);
      if (!pod.nodeName) continue;
      slot.node = pod.nodeName;
      let s = byNode.get(pod.nodeName);
      if (!s) byNode.set(pod.nodeName, (s = new Set()));
      s.add(key);
    }
    return byNode;
  }
  *entries(): Iterable<[string, string]> {
    for (const [key, slot] of this.slots) if (slot.node !== undefined) yield [key, slot.node];
  }
}

/** What the host keeps per pod key (see SimHost.podSlots): one for every pod, made at the start and at a pod's first change. */
export class PodSlot extends PodSlotBase {
  /** the node the pod is indexed under in podsByNode (the index's PodNodes, see SlotNodes) */
  node: string | undefined = undefined;
  /** what was last announced for the pod: its next `before` (undefined: deleted), while `seenAt` is the host's epoch */
  seen: PodBefore | undefined = undefined;
  seenAt = -1;
  /**
   * The record last passed to updatePod or createPod (undefined: deleted), while the slot is in
   * the dirty list: the pod map's record under the key, since the map changes only through
   * createPod and deletePod (and a restore, which empties the list), and updatePod is given the
   * record it edited (controllers/controllerHost.ts). A checkpoint reads it instead of looking the key up
   * in the pod map; `SimulationOptions.checks.pods` compares the two in tests.
   */
  pod: PodRecord | undefined = undefined;
  /** the snapshot's record under the key once looked up (null: none; undefined: not looked up yet) */
  pristine: PodRecord | null | undefined = undefined;
  /**
   * The round of SimHost.dirtyPods this slot was last listed in, times 2, plus 1 when the pod changed otherwise
   * than by a logged Ready write in that round (DirtyPods.mark): one field for both, on 150,000 slots
   */
  marked = -1;
  /**
   * A record nobody edits (a checkpoint's copy of the pod) that equals the pod but for its Ready
   * condition's status and lastTransitionTime: a checkpoint keeps a pod changed by Ready writes alone
   * as those two fields over it (PodReady). Undefined when none is known. A pod changed otherwise is
   * copied whole by the next checkpoint (DirtyPods' `marked`), and that copy is its base from then on.
   * Null: the snapshot's record (`pristine`) is such a base: the pod has changed by Ready writes alone
   * since the simulation's start (whose pods are copies of the snapshot's). A slot is made at the start,
   * at a new key's first change, or when a restore or a hand-off puts the pod in (rebase): the slots
   * outlive both. (One field for both: 150,000 slots, one per pod.)
   */
  base: PodRecord | null | undefined = null;
  /** the pod's own Ready condition, as the last Ready write passed it (updatePod's `ready`) */
  ready: PodCondition | undefined = undefined;

  /** What was last announced for the pod since the host's reindex `epoch` (before it: nothing, as after a restore). */
  announced(epoch: number): PodBefore | undefined {
    return this.seenAt === epoch ? this.seen : undefined;
  }

  announce(b: PodBefore | undefined, epoch: number): void {
    this.seen = b;
    this.seenAt = epoch;
  }

  /** The pod is now `v` as a restore or a hand-off put it in (a kept pod, or the snapshot's record): its base from now on. */
  rebase(v: KeptPod): void {
    this.base = v instanceof PodReady ? (v.of ?? null) : v;
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

/**
 * What a checkpoint keeps of the slot's pod (null: deleted): when it changed by Ready writes alone
 * since the last checkpoint (`readyOnly`) and its slot knows a base, those fields over the base
 * (PodReady), without reading the pod's other fields; else a copy (frozenPod), the pod's next base.
 * `check` (checks.pods): the PodReady made a pod is compared with the pod, and a difference throws.
 */
export function keptPod(
  slot: PodSlot,
  key: string,
  readyOnly: boolean,
  pristinePods: ReadonlyMap<string, PodRecord>,
  made: { last?: object },
  check: boolean,
): KeptPod | null {
  const pod = slot.pod;
  if (pod === undefined) return null;
  const ready = slot.ready;
  // the snapshot's record is not looked up here (50,000 look-ups in a map of 150,000 pods after the Unknown pass)
  if (readyOnly && ready !== undefined && slot.base !== undefined) {
    const kept = new PodReady(slot.base ?? undefined, ready.status, ready.lastTransitionTime);
    if (check && !samePod(podFrom(kept, key, pristinePods), pod))
      throw new Error(`checkpoint: Pod ${key} changed beyond its Ready status and time without the host being told`);
    return kept;
  }
  if (slot.pristine === undefined) slot.pristine = pristinePods.get(key) ?? null;
  const copy = frozenPod(pod, slot.pristine ?? undefined, slot.seen?.conditions, made);
  slot.base = copy;
  return copy;
}
