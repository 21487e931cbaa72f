/**
 * The pod index on a restore (checkpoint.ts), taken over from the controller that ran until then
 * instead of made again from every pod: that controller's index is the live cluster's, and the
 * restore put back only some pods (RestoreFrom.pods), so only those are indexed again. Making it
 * again cost 150,000 inserts at 5,000 nodes, most of a step back.
 *
 * The result holds what `rebuildIndexes` makes from the restored cluster: each pod in its owner's
 * set, holding the cluster's record, and no running counts (tallies are made again at the next
 * sync, as after a rebuild). A set that got a pod put back is ordered again in the cluster's key
 * order, as a rebuild orders every set (a pod put back at its old place in the cluster's map would
 * otherwise come last in its set). The other sets keep the live order: the cluster's, since a pod
 * joins its set when it joins the cluster and both lose it together, except in a set a pod was
 * adopted into or released to, which lists it last, as the fresh run does and a rebuild did not.
 * Left over: sets emptied by the restore, which no read tells from missing ones.
 */
import type { ControllerHost } from '../controllerHost';
import type { RestoreFrom } from '../controller';
import type { ReplicaSetCore } from './core';
import type { PodSet } from './entry';
import { keysInOrderWithGone } from '../../model/podOrder';
import { indexOwnerOf } from './podUtil';

export function takeOverIndexes(rsc: ReplicaSetCore, previous: ReplicaSetCore, host: ControllerHost, from: RestoreFrom): PodSet[] {
  // The sets are the same objects (one is never replaced or dropped but with the whole map), so the entries taken over
  // keep the set podsOf found for them, and each set the entry pointed at (checkpoint.ts takeOverEntries mends those
  // the restore changed); every tally is void (see talliesMade), without a visit to each of the 14,120 sets.
  rsc.indexesMade = previous.indexesMade;
  rsc.talliesMade = previous.talliesMade + 1;
  rsc.podClasses.clear();
  rsc.ownerOfPod = previous.ownerOfPod;
  rsc.byOwner = previous.byOwner;
  rsc.orphans = previous.orphans;
  // the previous controller is dropped after the restore; it must not go on editing these maps
  previous.ownerOfPod = new Map();
  previous.byOwner = new Map();
  previous.orphans = new Map();
  const pods = host.cluster.pods;
  const reorder = new Set<PodSet>();
  // sets made here: no entry is taken over yet to point them at (`byUid` is empty until then)
  const made: PodSet[] = [];
  for (const key of from.pods.keys()) {
    const was = rsc.ownerOfPod.get(key);
    rsc.index(key, pods.get(key), was);
    const set = rsc.ownerOfPod.get(key);
    if (set !== undefined && set.entry === undefined && set.owner !== '') made.push(set);
    // a pod that joined a set comes last in it; one kept in its set (its record replaced) keeps its
    // place, which is the cluster's unless the pod was created again since the checkpoint
    if (set !== undefined && (set !== was || from.podsMovedInOrder.has(key))) reorder.add(set);
  }
  if (reorder.size > 0) {
    // their pods in the cluster's order: a pass over the cluster's keys that looks each up in the
    // (few) keys of these sets, and stops when it has found them all
    const keys = new Map<string, PodSet>();
    for (const set of reorder) for (const key of set.keys()) keys.set(key, set);
    const orders = new Map<PodSet, string[]>();
    for (const set of reorder) orders.set(set, []);
    let left = keys.size;
    // (the order a restore left owed, without making it good: podOrder.ts; a key gone since is in no set)
    for (const key of keysInOrderWithGone(pods)) {
      const set = keys.get(key);
      if (set === undefined) continue;
      orders.get(set)!.push(key);
      if (--left === 0) break;
    }
    for (const [set, order] of orders) {
      const records = order.map((key) => set.get(key)!);
      set.clear();
      for (let i = 0; i < order.length; i++) set.set(order[i], records[i]);
    }
  }
  if (rsc.options.checkRestoredIndexes) checkAgainstRebuild(rsc, host, reorder);
  return made;
}

/** The same pods in the same sets as a rebuild, with the cluster's records; the sets ordered again in its order. */
function checkAgainstRebuild(rsc: ReplicaSetCore, host: ControllerHost, reordered: ReadonlySet<PodSet>): void {
  const taken = { ownerOfPod: rsc.ownerOfPod, byOwner: rsc.byOwner, orphans: rsc.orphans, indexesMade: rsc.indexesMade };
  rsc.rebuildIndexes(host);
  const made = { ownerOfPod: rsc.ownerOfPod, byOwner: rsc.byOwner, orphans: rsc.orphans };
  // the index taken over is kept, and what the entries found in it (podsOf) with it
  Object.assign(rsc, taken);
  // sets not ordered again keep the live run's order, which a pod adopted or released since its set
  // was made leaves unlike the cluster's (a fresh run's order, not a rebuild's): compared as sets
  const text = (m: Map<string, PodSet>, part: 'byOwner' | 'orphans') =>
    JSON.stringify(
      [...m]
        .filter(([, set]) => set.size > 0)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, set]) => [k, reordered.has(taken[part].get(k)!) ? [...set.keys()] : [...set.keys()].sort()]),
    );
  for (const part of ['byOwner', 'orphans'] as const)
    if (text(taken[part], part) !== text(made[part], part))
      throw new Error(`replicaset: the pod index taken over on a restore differs from a rebuilt one (${part})`);
  for (const [key, pod] of host.cluster.pods) {
    const set = taken.ownerOfPod.get(key);
    if (set === undefined || set.get(key) !== pod || set.owner !== made.ownerOfPod.get(key)!.owner)
      throw new Error(`replicaset: pod ${key} is not indexed on a restore as a rebuild indexes it`);
  }
  if (taken.ownerOfPod.size !== host.cluster.pods.size) throw new Error('replicaset: the pod index taken over on a restore holds pods the cluster does not');
}

/**
 * How many pods the index takeOverIndexes would make holds under an owner, counted without making it (a why asked
 * while the restore is owed): the previous controller's set, with each pod the restore puts back moved in or out
 * by the owner it has after the restore, as takeOverIndexes's `index` moves it.
 */
export function ownedAfterTakeOver(previous: ReplicaSetCore, host: ControllerHost, from: RestoreFrom, uid: string): number {
  let owned = previous.byOwner.get(uid)?.size ?? 0;
  for (const key of from.pods.keys()) {
    const was = previous.ownerOfPod.get(key)?.owner === uid;
    const now = indexOwnerOf(host.cluster.pods.get(key)) === uid;
    if (was !== now) owned += now ? 1 : -1;
  }
  return owned;
}
