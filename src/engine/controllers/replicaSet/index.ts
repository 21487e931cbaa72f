/**
 * The ReplicaSet controller (controller `replicaset`).
 *
 * API (for the simulation loop):
 *   createReplicaSetController(options?) -> ReplicaSetController (a SimController)
 *     start(host)                 informers' initial list: one machine per ReplicaSet, every key queued now
 *     onReplicaSetEvent(host, type, rs)   addRS/updateRS (queue the key) / deleteRS (DeleteExpectations);
 *                                 a `scale` event: update rs.replicas (and metadata.generation), then announce 'updated'
 *     onPodEvent(host, type, pod, before) addPod (CreationObserved) / updatePod / deletePod (DeletionObserved);
 *                                 a pod whose deletionTimestamp is set counts as deleted
 *     nextWake() / wake(host)     runs syncReplicaSet for every key due (and expiries, minReadySeconds resyncs, backoff)
 *     machines()                  MachineView `replicaset/NS/NAME` (parallel regions expectations / queue)
 *     whyNot(host, ref)           Pod: which ranking rule kept it in the last scale-down; ReplicaSet:
 *                                 expectations pending (and when they expire), backoff, rejected spec, and
 *                                 why the pods it lacks are not created (outcome ReplicaSetPodsCreated, whyNot.ts)
 *     problems()                  bad input: no/empty/invalid selector, selector not matching the template,
 *                                 negative replicas (these ReplicaSets are not managed), missing replicas (= 1),
 *                                 pods with two controllers, ownerReferences to ReplicaSets that do not exist
 *     save() / restore(saved, host)
 *
 * What the host must do: announce every pod and ReplicaSet change through the
 * on*Event calls (including the controller's own createPod/deletePod/updatePod,
 * synchronously or later); fail API calls through `apiCall` for `fail:` events.
 * Facts read with `recall`: Pod/NS/N `deleted` and `phase` (why a replacement
 * is created), ReplicaSet/NS/N `scaled` / `applied` / `created` (newer than the
 * controller's last PodsCreated/PodsDeleted). Facts written: Pod `created`
 * (PodsCreated), Pod `deleted` (PodsDeleted).
 *
 * Options: `seed` (pod names), `readsEveryPod` (hosts whose pod events may lag), `verifyTallies` (tests).
 *
 * Settings read: burstReplicas (caps one sync's creations/deletions), the feature gates
 * PodDeletionCost, LogarithmicScaleDown, DeploymentReplicaSetTerminatingReplicas (with the
 * version's defaults). concurrentReplicaSetSyncs changes nothing here: keys due at one instant
 * are synced one after the other, in (due time, namespace/name) order, so the run is deterministic.
 * The doubled-up ranking (ActivePodsWithRanks, 1.17+) is keyed on the version here
 * (RANKS_DOUBLED_UP_SINCE_MINOR) because VersionBehaviour has no field for it yet.
 *
 * Decisions: PodsCreated / PodsDeleted (one per sync, pods in details.pods),
 * ExpectationsPending, ReplicaSetStatusUpdated, PodsAdopted / PodsReleased,
 * and the host's ApiCallFailed for injected faults.
 */
import { ReplicaSetController, type ReplicaSetControllerOptions } from './controller';

export { ReplicaSetController, type ReplicaSetControllerOptions, SLOW_START_INITIAL_BATCH_SIZE, RANKS_DOUBLED_UP_SINCE_MINOR } from './controller';
export { replicaSetMachine, EXPECTATIONS_TIMEOUT, backoffDelay } from './machine';
export { getPodsToDelete, rankPods, decidingRule, rulesFor, logarithmicRank, type RankingSettings, type RankingRuleId } from './ranking';
export { calculateStatus, isPodAvailable } from './status';
export { checkReplicaSet, checkPodOwners } from './validate';
export { podFromTemplate } from './podTemplate';

export function createReplicaSetController(options: ReplicaSetControllerOptions = {}): ReplicaSetController {
  return new ReplicaSetController(options);
}
