/**
 * The ReplicaSet controller's informer handlers (replica_set.go addRS/updateRS/deleteRS,
 * addPod/updatePod/deletePod, getPodReplicaSets): they note what the informer saw in the
 * ReplicaSets' machines (expectations observed, keys queued); syncs run later (processNextWorkItem.ts).
 */
import type { ControllerHost } from '../controllerHost';
import type { PodBefore, WatchType } from '../controller';
import type { PodRecord, ReplicaSetRecord } from '../../model/types';
import { MICROS_PER_SECOND } from '../../model/time';
import { controllerOf, isPodActive, isPodReady } from './podUtil';
import { byEntryKey } from './entry';
import type { ReplicaSetCore } from './core';

export function handleReplicaSetEvent(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  type: WatchType,
  rs: ReplicaSetRecord,
  key = `${rs.meta.namespace}/${rs.meta.name}`,
): void {
  let entry = rsc.entries.get(key);
  if (type === 'deleted') {
    // deleteRS: DeleteExpectations; the queued sync finds it gone
    if (entry) {
      rsc.update(entry, { type: 'DELETE_EXPECTATIONS' });
      rsc.dropEntry(entry);
    }
    if (rsc.checks.delete(key)) {
      rsc.checksChanged++;
      rsc.savedChecks = undefined;
    }
    return;
  }
  if (entry && entry.uid !== rs.meta.uid) {
    // a different object under the same name: the old one's memory goes with it
    rsc.dropEntry(entry);
    entry = undefined;
  }
  if (!entry) entry = rsc.newEntry(key, rs);
  rsc.check(rs, entry);
  rsc.enqueue(entry, host.now);
}

export function handlePodEvent(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  type: WatchType,
  pod: PodRecord,
  before?: PodBefore,
  key = `${pod.meta.namespace}/${pod.meta.name}`,
): void {
  const oldSet = rsc.ownerOfPod.get(key);
  const oldOwner = oldSet?.owner;
  if (type === 'deleted') {
    rsc.index(key, undefined, oldSet);
    if (rsc.podProblems.delete(key)) rsc.savedPodProblems = undefined;
    rsc.kept.delete(key);
    observeDeletion(rsc, host, pod, key, 'deleted');
    return;
  }
  rsc.index(key, pod, oldSet);
  rsc.checkPod(host, pod);
  const ref = controllerOf(pod.meta);
  if (pod.meta.deletionTimestamp !== undefined) {
    // a pod being deleted counts as deleted (updatePod -> deletePod)
    if (type === 'added' || before?.deletionTimestamp === undefined) observeDeletion(rsc, host, pod, key, 'deleted');
    return;
  }
  if (type === 'added') {
    if (ref) {
      const entry = rsc.resolveControllerRef(host, pod.meta.namespace, ref);
      if (!entry) return;
      // addPod: CreationObserved, then enqueue
      rsc.observe(entry, { type: 'CREATION_OBSERVED', count: 1 });
      rsc.enqueue(entry, host.now);
      return;
    }
    enqueueMatching(rsc, host, pod);
    return;
  }
  // updated
  if (oldOwner && (!ref || ref.uid !== oldOwner)) {
    const oldEntry = rsc.entryByUid(oldOwner);
    if (oldEntry) rsc.enqueue(oldEntry, host.now);
  }
  if (ref) {
    // the pod's set is still oldSet when its owner is the same (index keeps it there)
    const entry = rsc.resolveControllerRef(host, pod.meta.namespace, ref, oldSet);
    if (!entry) return;
    // host.cluster.replicaSets.get(entry.key), read by resolveControllerRef just now (nothing below changes the map)
    const rs = rsc.resolvedRs;
    rsc.enqueue(entry, host.now);
    const wasActive = before ? before.phase !== 'Succeeded' && before.phase !== 'Failed' : true;
    if (wasActive && !isPodActive(pod) && !entry.removed.some((r) => r.key === key)) entry.removed.push({ key, fact: 'phase' });
    // minReadySeconds first: most ReplicaSets have none, and then the conditions need not be read
    if (rs && rs.minReadySeconds > 0 && !(before ? before.conditions.some((c) => c.type === 'Ready' && c.status === 'True') : false) && isPodReady(pod)) {
      // "Add a second to avoid milliseconds skew in AddAfter"
      rsc.update(entry, { type: 'ENQUEUE_AFTER', at: host.now + rs.minReadySeconds * MICROS_PER_SECOND + MICROS_PER_SECOND });
    }
    return;
  }
  const labelsChanged = before ? JSON.stringify(before.labels) !== JSON.stringify(pod.meta.labels) : true;
  if (labelsChanged || oldOwner) enqueueMatching(rsc, host, pod);
}

/**
 * Reads what the events of these pods will look up first (their index sets, the records held, the
 * entries), in one loop: the look-ups are independent, so their cache misses overlap where the
 * handler, one pod at a time, waits for each. Changes nothing.
 */
export function touchPods(rsc: ReplicaSetCore, keys: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < keys.length; i++) {
    const set = rsc.ownerOfPod.get(keys[i]);
    if (set === undefined) continue;
    if (set.get(keys[i]) !== undefined) n++;
    if (set.entry !== undefined && set.entry.live) n++;
  }
  return n;
}

/** deletePod: DeletionObserved for the pod's controller, and remember the pod as one to replace. */
export function observeDeletion(rsc: ReplicaSetCore, host: ControllerHost, pod: PodRecord, key: string, fact: string): void {
  const ref = controllerOf(pod.meta);
  if (!ref) return;
  const entry = rsc.resolveControllerRef(host, pod.meta.namespace, ref);
  if (!entry) return;
  rsc.observe(entry, { type: 'DELETION_OBSERVED', key });
  if (!rsc.deletingNow.has(key) && !entry.removed.some((r) => r.key === key)) entry.removed.push({ key, fact });
  rsc.enqueue(entry, host.now);
}

/** getPodReplicaSets: the ReplicaSets of the namespace whose selector matches an orphan. */
export function enqueueMatching(rsc: ReplicaSetCore, host: ControllerHost, pod: PodRecord): void {
  for (const entry of [...(rsc.byNamespace.get(pod.meta.namespace) ?? [])].sort(byEntryKey)) {
    const rs = host.cluster.replicaSets.get(entry.key);
    if (!rs) continue;
    if (rsc.check(rs, entry).selector.matches(pod.meta.labels)) rsc.enqueue(entry, host.now);
  }
}
