/**
 * The pods-by-node index (cluster.podsByNode), as the informers' nodeName
 * indexer keeps it, and what the host keeps per pod key to announce a pod's
 * `before` (its informer's old object) and to list the pods a checkpoint saves.
 */
import type { PodBefore } from '../controllers/controller';
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

/** What the host keeps per pod key (see SimHost.podSlots). */
export class PodSlot {
  /** what was last announced for the pod: its next `before` (undefined: not since the last reindex, or deleted) */
  seen: PodBefore | undefined = undefined;
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
  constructor(readonly key: string) {}
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
