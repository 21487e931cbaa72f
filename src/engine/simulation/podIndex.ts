/**
 * The pods-by-node index (cluster.podsByNode), as the informers' nodeName
 * indexer keeps it, and what the host keeps per pod key to announce a pod's
 * `before` (its informer's old object) and to list the pods a checkpoint saves.
 */
import type { PodBefore } from '../controllers/controller';
import type { PodCondition, PodRecord } from '../model/types';
import { frozenConditions, frozenPod, type KeptPod, podFrom, PodReady, samePod } from './checkpoint';

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

/** What the host keeps per pod key (see SimHost.podSlots). */
export class PodSlot {
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
  /** the snapshot's record under the key, once looked up (pristineKnown) */
  pristine: PodRecord | undefined = undefined;
  pristineKnown = false;
  /** the round of SimHost.dirtyPodList this slot was last listed in */
  dirtyRound = -1;
  /** the round in which the pod last changed otherwise than by a logged Ready write (DirtyPods.mark) */
  otherRound = -1;
  /**
   * A record nobody edits (a checkpoint's copy of the pod) that equals the pod but for its Ready
   * condition's status and lastTransitionTime: a checkpoint keeps a pod changed by Ready writes alone
   * as those two fields over it (PodReady). Undefined when none is known. A pod changed otherwise is
   * copied whole by the next checkpoint (DirtyPods' `otherRound`), and that copy is its base from then on.
   */
  base: PodRecord | undefined = undefined;
  /**
   * The snapshot's record (`pristine`) is such a base: the pod has changed by Ready writes alone since the
   * simulation's start (whose pods are copies of the snapshot's). A slot is made at a pod's first change
   * through the host, or when a restore or a hand-off puts the pod in (rebase): the slots outlive both.
   */
  basePristine = true;
  /** the pod's own Ready condition, as the last Ready write passed it (updatePod's `ready`) */
  ready: PodCondition | undefined = undefined;
  constructor(readonly key: string) {}

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
    if (v instanceof PodReady) {
      this.base = v.of;
      this.basePristine = v.of === undefined;
    } else {
      this.base = v;
      this.basePristine = false;
    }
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
    raw: pod.raw,
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
  readyOnly: boolean,
  pristinePods: ReadonlyMap<string, PodRecord>,
  made: { last?: object },
  check: boolean,
): KeptPod | null {
  const pod = slot.pod;
  if (pod === undefined) return null;
  const ready = slot.ready;
  // the snapshot's record is not looked up here (50,000 look-ups in a map of 150,000 pods after the Unknown pass)
  if (readyOnly && ready !== undefined && (slot.base !== undefined || slot.basePristine)) {
    const kept = new PodReady(slot.base, ready.status, ready.lastTransitionTime);
    if (check && !samePod(podFrom(kept, slot.key, pristinePods), pod))
      throw new Error(`checkpoint: Pod ${slot.key} changed beyond its Ready status and time without the host being told`);
    return kept;
  }
  if (slot.pristineKnown === false) {
    slot.pristine = pristinePods.get(slot.key);
    slot.pristineKnown = true;
  }
  const copy = frozenPod(pod, slot.pristine, slot.seen?.conditions, made);
  slot.base = copy;
  slot.basePristine = false;
  return copy;
}
