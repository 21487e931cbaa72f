/**
 * The ReplicaSet controller's informer handlers (replica_set.go addRS/updateRS/deleteRS,
 * addPod/updatePod/deletePod, getPodReplicaSets): they note what the informer saw in the
 * ReplicaSets' machines (expectations observed, keys queued); syncs run later (processNextWorkItem.ts).
 */
import type { ControllerHost } from '../controllerHost';
import type { PodBefore, PodsReadyBatch, WatchType } from '../controller';
import type { OwnerReference, PodRecord, ReplicaSetRecord } from '../../model/types';
import { MICROS_PER_SECOND } from '../../model/time';
import { controllerOf, isPodActive, isPodReady } from './podUtil';
import { byEntryKey, type Entry, type PodSet } from './entry';
import type { ReplicaSetCore } from './core';
import { isOwnEcho } from './statusEcho';

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
  // the echo of the controller's own status write, heard during the sync that wrote: owed, not added (statusEcho.ts)
  if (type === 'updated' && isOwnEcho(rsc, entry)) return;
  rsc.enqueue(entry, host.now);
}

export function handlePodEvent(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  type: WatchType,
  pod: PodRecord,
  before?: PodBefore,
  key = `${pod.meta.namespace}/${pod.meta.name}`,
  oldSet = rsc.ownerOfPod.get(key),
): void {
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
    if (wasActive && !isPodActive(pod) && !entry.removed.some((r) => r.key === key)) {
      rsc.markChanged(entry);
      entry.removed.push({ key, fact: 'phase' });
    }
    enqueueWhenAvailable(rsc, host, entry, rs, pod, before);
    return;
  }
  const labelsChanged = before ? JSON.stringify(before.labels) !== JSON.stringify(pod.meta.labels) : true;
  if (labelsChanged || oldOwner) enqueueMatching(rsc, host, pod);
}

/** updatePod's AddAfter for a pod that became ready: it becomes available minReadySeconds later. */
function enqueueWhenAvailable(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  entry: Entry,
  rs: ReplicaSetRecord | undefined,
  pod: PodRecord,
  before: PodBefore | undefined,
): void {
  // minReadySeconds first: most ReplicaSets have none, and then the conditions need not be read
  if (rs && rs.minReadySeconds > 0 && !(before ? before.conditions.some((c) => c.type === 'Ready' && c.status === 'True') : false) && isPodReady(pod)) {
    // "Add a second to avoid milliseconds skew in AddAfter"
    rsc.update(entry, { type: 'ENQUEUE_AFTER', at: host.now + rs.minReadySeconds * MICROS_PER_SECOND + MICROS_PER_SECOND });
  }
}

/**
 * A batch of Ready-only updates (SimController.onPodsReadyChanged), each as handlePodEvent has it,
 * in order. A controller's pod indexed under it already, not being deleted, in the phase it had, is
 * handled as upstream's updatePod handles it (its owner enqueued; the AddAfter if it became ready),
 * with the record and the running counts kept (index's same-owner case); its owner references are
 * those of its last event, checked then (checkPod). Any other pod takes handlePodEvent.
 *
 * The pod's set is found by its controller's uid (`byOwner`, one set per ReplicaSet: 14,120 at
 * 5,000 nodes) and is the pod's when it holds the pod (a key is in the set `ownerOfPod` gives it and
 * in no other: `index` takes it out of one before putting it in another), instead of by its key in
 * `ownerOfPod` (150,000 keys, a cache miss or more per pod). The sets are found in one loop first:
 * independent look-ups whose misses overlap.
 */
export function handlePodsReadyChanged(rsc: ReplicaSetCore, host: ControllerHost, batch: PodsReadyBatch): void {
  const { count, pods, keys, before } = batch;
  const refs = new Array<OwnerReference | undefined>(count);
  const sets = new Array<PodSet | undefined>(count);
  const held = new Array<PodRecord | undefined>(count);
  for (let i = 0; i < count; i++) {
    const ref = (refs[i] = controllerOf(pods[i].meta));
    const set = ref === undefined ? undefined : rsc.byOwner.get(ref.uid);
    const was = set?.get(keys[i]);
    if (was === undefined) continue;
    sets[i] = set;
    held[i] = was;
  }
  for (let i = 0; i < count; i++) {
    const pod = pods[i];
    const key = keys[i];
    const set = sets[i];
    if (set === undefined || pod.meta.deletionTimestamp !== undefined || before[i].phase !== pod.phase) {
      handlePodEvent(rsc, host, 'updated', pod, before[i], key);
      continue;
    }
    if (rsc.verify && (rsc.ownerOfPod.get(key) !== set || !rsc.checkedOwners.has(pod.meta.ownerReferences)))
      throw new Error(`replicaset: pod ${key}, found in the set of its owner ${set.owner}, is not indexed there or its owners are unchecked`);
    const was = held[i]!;
    rsc.tallyOf(set)?.replace(key, was, pod);
    if (was !== pod) set.set(key, pod);
    const entry = rsc.resolveControllerRef(host, pod.meta.namespace, refs[i]!, set);
    if (!entry) continue;
    rsc.enqueue(entry, host.now);
    enqueueWhenAvailable(rsc, host, entry, rsc.resolvedRs, pod, before[i]);
  }
}

/** deletePod: DeletionObserved for the pod's controller, and remember the pod as one to replace. */
export function observeDeletion(rsc: ReplicaSetCore, host: ControllerHost, pod: PodRecord, key: string, fact: string): void {
  const ref = controllerOf(pod.meta);
  if (!ref) return;
  const entry = rsc.resolveControllerRef(host, pod.meta.namespace, ref);
  if (!entry) return;
  rsc.observe(entry, { type: 'DELETION_OBSERVED', key });
  if (!rsc.deletingNow.has(key) && !entry.removed.some((r) => r.key === key)) {
    rsc.markChanged(entry);
    entry.removed.push({ key, fact });
  }
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
