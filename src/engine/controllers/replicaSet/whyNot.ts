/**
 * Why the ReplicaSet controller did not (yet) do something to a pod or a ReplicaSet. For a
 * ReplicaSet with fewer active pods than spec.replicas, "why are the missing pods not created"
 * is data (trace/whyNot.ts): the checks syncReplicaSet makes before manageReplicas creates them,
 * the expectations' one being the machine's own guard, asked of the ReplicaSet's machine.
 */
import type { ControllerHost } from '../controllerHost';
import type { Explanation } from '../../simulation/api';
import type { ObjectRef, ReplicaSetRecord } from '../../model/types';
import { podRef, replicaSetRef } from '../../model/types';
import { formatDuration, formatTime, type Micros } from '../../model/time';
import type { GuardResult } from '../../machines/guardTrace';
import { cutList, wholeLists, whyNotFrom, type WhyNot, type WhyNotCheck, type WhyNotWorld } from '../../trace/whyNot';
import { EXPECTATIONS_TIMEOUT, syncedAgainAt } from './machine';
import { keptOutcome, machineTable, type Entry } from './entry';
import { claimedInCluster, controllerOf, isPodActive, isPodReady, specReplicas } from './podUtil';
import type { ReplicaSetCheck } from './validate';
import type { ReplicaSetCore } from './core';
import { forecastScaleDown, podScaleDownWhyNot, replicaSetScaleDownWhyNot, scalesRead, surplusAhead } from './scaleDownWhyNot';
import type { RestoreFrom } from '../controller';
import type { Saved } from './checkpoint';
import { ownedAfterTakeOver } from './restoreIndexes';
import { nodeFailing } from './nodeFails';

const WHAT = 'the missing pods created (manageReplicas)';

export function replicaSetWhyNot(rsc: ReplicaSetCore, host: ControllerHost, object: ObjectRef, world?: WhyNotWorld): Explanation['whyNot'] {
  const out: Explanation['whyNot'] = [];
  const [kind, ns, name] = object.split('/');
  if (kind === 'Pod' && ns && name) {
    const stored = rsc.kept.get(`${ns}/${name}`);
    const k = stored && keptOutcome(stored, `${ns}/${name}`);
    if (k && host.cluster.pods.has(`${ns}/${name}`)) {
      out.push({
        what: `deleted by the scale-down of ${k.rs} (decision ${k.seq})`,
        check: {
          rule: `kept: ${k.outcome.versus} (the last pod deleted) ranked before it: ${k.outcome.text}`,
          values: { ranking: k.outcome.rule, deletedInstead: k.outcome.versus, ...k.outcome.values },
        },
      });
    }
    const pod = host.cluster.pods.get(`${ns}/${name}`);
    const owner = pod && isPodActive(pod) ? controllerOf(pod.meta) : undefined;
    const rs = owner && host.cluster.replicaSets.get(`${ns}/${owner.name}`);
    const f = rs && rs.meta.uid === owner!.uid ? forecastScaleDown(rsc, host, rs, world) : undefined;
    if (f && pod && !f.goneByTimeline.has(pod.meta.name)) out.push(podScaleDownWhyNot(f, pod));
    for (const p of rsc.podProblems.get(`${ns}/${name}`) ?? [])
      out.push({ what: 'adopted or counted by a ReplicaSet', check: { rule: p.message, values: { code: p.code } } });
    return out;
  }
  if (kind === 'ReplicaSet' && ns && name) {
    const rs = host.cluster.replicaSets.get(`${ns}/${name}`);
    if (!rs) return out;
    const check = rsc.check(rs);
    for (const p of check.problems) {
      if (p.severity === 'error') out.push({ what: 'pods created or deleted for this ReplicaSet', check: { rule: p.message, values: { code: p.code } } });
    }
    const entry = rsc.entries.get(`${ns}/${name}`);
    const created = podsCreatedWhyNot(rsc, host, rs, entry, world);
    if (created) out.push(created);
    const f = forecastScaleDown(rsc, host, rs, world);
    if (f) out.push(replicaSetScaleDownWhyNot(f));
    if (!entry) return out;
    const c = rsc.ctx(entry);
    if (rsc.expectationsPending(entry) && c.expectedAt !== null) {
      out.push({
        what: 'manageReplicas (creating or deleting pods)',
        check: {
          rule: 'expectations are not satisfied: creations/deletions this controller made are not yet observed',
          values: { outstandingAdds: c.add, outstandingDeletes: c.del },
        },
        wouldFireAt: formatTime(c.expectedAt + EXPECTATIONS_TIMEOUT + 1),
      });
    }
    if (entry.actor.state().includes('queue.backoff') && c.dueAt !== null) {
      out.push({
        what: 'the next sync',
        check: {
          rule: 'the last sync failed: the key is requeued with the workqueue backoff (5ms doubling per consecutive failure)',
          values: { failures: c.failures },
        },
        wouldFireAt: formatTime(syncedAgainAt(c.dueAt, c.resyncAt)),
      });
    }
    if (c.resyncAt !== null) {
      out.push({
        what: 'availableReplicas counted',
        check: {
          rule: 'pods count as available minReadySeconds after they became ready; the ReplicaSet is synced again then',
          values: { minReadySeconds: rs.minReadySeconds },
        },
        wouldFireAt: formatTime(c.resyncAt),
      });
    }
  }
  return out;
}

/**
 * Whether the controller, restored from `saved` with `from` onto the records `host` holds, may answer about `object`
 * (SimController whyNotAfterRestore), read without the restore: a pod's answer is its kept outcome, its problems (both in
 * `saved` as they are restored) and the scale-down ahead of its ReplicaSet, which is none while the index would hold no
 * more of its pods than it wants and no timeline scale goes below them (forecastScaleDown's first look). The index after
 * the restore is the one that ran until then with the pods the restore put back moved (restoreIndexes.ts). A ReplicaSet,
 * or a restore without that controller, may be answered about.
 */
export function replicaSetMayAnswer(object: ObjectRef, host: ControllerHost, saved: Saved, from: RestoreFrom | undefined, world?: WhyNotWorld): boolean {
  const [kind, ns, name] = object.split('/');
  const previous = from?.previous.name === 'replicaset' ? (from.previous as unknown as ReplicaSetCore) : undefined;
  if (kind !== 'Pod' || !ns || !name || previous === undefined || !(saved.checked instanceof WeakSet) || !saved.podProblems) return true;
  const key = `${ns}/${name}`;
  if (saved.podProblems.some(([k]) => k === key) || saved.kept.some(([k]) => k === key)) return true;
  const pod = host.cluster.pods.get(key);
  const owner = pod && isPodActive(pod) ? controllerOf(pod.meta) : undefined;
  const rs = owner && host.cluster.replicaSets.get(`${ns}/${owner.name}`);
  if (!rs || rs.meta.uid !== owner!.uid) return false;
  return surplusAhead(rs, ownedAfterTakeOver(previous, host, from!, rs.meta.uid), scalesRead(`${ns}/${owner!.name}`, world).up);
}

/**
 * Why syncReplicaSet has not created the pods a ReplicaSet lacks, or undefined when it lacks none
 * (or its sync would first adopt or release pods, which changes the count).
 */
function podsCreatedWhyNot(rsc: ReplicaSetCore, host: ControllerHost, rs: ReplicaSetRecord, entry: Entry | undefined, world?: WhyNotWorld): WhyNot | undefined {
  const check = rsc.check(rs);
  const replicas = specReplicas(rs);
  const ref = replicaSetRef(rs.meta.namespace, rs.meta.name);
  const claim = clusterClaim(host, rs, check, world);
  if (claim.adoptable) return undefined;
  if (claim.active >= replicas && !claim.notReady.length && !claim.onFailingNodes.length) return scaledUpByTimeline(rsc, rs, entry, check, claim, world);
  const path: WhyNotCheck[] = [];
  const error = check.problems.find((p) => p.severity === 'error');
  path.push({
    guard: 'manageable',
    upstream: 'syncReplicaSet (a valid selector that matches the template, spec.replicas >= 0)',
    holds: check.manageable,
    rule: 'the ReplicaSet can be managed',
    ...(error ? { unmet: error.message, values: { code: error.code } } : {}),
  });
  if (!check.manageable) return whyNotFrom(WHAT, 'ReplicaSetPodsCreated', ref, path, { never: true });
  // a ReplicaSet being deleted replaces nothing: syncReplicaSet skips manageReplicas
  if (claim.active >= replicas) return rs.meta.deletionTimestamp === undefined ? notReadyStillActive(ref, path, claim, replicas, world) : undefined;
  path.push({
    guard: 'fewerPodsThanReplicas',
    upstream: 'manageReplicas (diff < 0)',
    holds: true,
    rule: 'fewer active pods than spec.replicas',
    values: { activePods: claim.active, replicas },
  });
  const deleting = rs.meta.deletionTimestamp !== undefined;
  path.push({
    guard: 'notBeingDeleted',
    upstream: 'syncReplicaSet (rs.DeletionTimestamp == nil)',
    holds: !deleting,
    rule: 'the ReplicaSet is not being deleted',
  });
  if (deleting) return whyNotFrom(WHAT, 'ReplicaSetPodsCreated', ref, path, { never: true });
  if (!entry) {
    path.push({
      guard: 'synced',
      upstream: 'processNextWorkItem',
      holds: false,
      rule: 'the controller has seen the ReplicaSet',
      unmet: 'the controller has not seen the ReplicaSet yet',
    });
    return whyNotFrom(WHAT, 'ReplicaSetPodsCreated', ref, path);
  }
  const c = rsc.ctx(entry);
  if (rsc.expectationsPending(entry)) {
    // the machine's own guard, as the next sync asks it (SATISFIED_EXPECTATIONS at now); the step is not kept
    const trace: GuardResult[] = [];
    machineTable().step(entry.actor.snapshot(), { type: 'SATISFIED_EXPECTATIONS', now: host.now }, trace);
    const expired = trace.find((g) => g.guard === 'expectationsExpired')?.value === true;
    path.push({
      guard: 'expectationsExpired',
      upstream: 'SatisfiedExpectations / isExpired (controller_utils.go)',
      holds: expired,
      rule: `the expectations are fulfilled or older than ${formatDuration(EXPECTATIONS_TIMEOUT)}`,
      unmet: `creations/deletions this controller made are not yet observed, and the expectations are not older than ${formatDuration(EXPECTATIONS_TIMEOUT)}`,
      values: { outstandingAdds: c.add, outstandingDeletes: c.del, expectationsSetAt: c.expectedAt === null ? null : formatTime(c.expectedAt) },
    });
    if (!expired)
      return whyNotFrom(
        WHAT,
        'ReplicaSetPodsCreated',
        ref,
        path,
        c.expectedAt !== null ? { wouldFireAt: formatTime(c.expectedAt + EXPECTATIONS_TIMEOUT + 1) } : {},
      );
  }
  if (entry.actor.state().includes('queue.backoff') && c.dueAt !== null) {
    const retryAt = syncedAgainAt(c.dueAt, c.resyncAt);
    // a sync fails only on an injected API fault here: without the faults it would not have
    path.push({
      guard: 'notInBackoff',
      upstream: 'processNextWorkItem (AddRateLimited: 5ms doubling per consecutive failure)',
      holds: false,
      rule: 'the last sync succeeded',
      unmet: 'the last sync failed: the key is retried after the workqueue backoff',
      values: { failures: c.failures, retryAt: formatTime(retryAt) },
    });
    return whyNotFrom(WHAT, 'ReplicaSetPodsCreated', ref, path, {
      conditional: { if: "the retried sync's API calls succeed", at: formatTime(retryAt) },
      counterfactual: { kind: 'dropFaults', description: 'the scenario without its fail: events' },
    });
  }
  path.push({
    guard: 'synced',
    upstream: 'processNextWorkItem',
    holds: false,
    rule: 'the ReplicaSet was synced since it lost pods',
    unmet: "the ReplicaSet's key waits to be processed",
    ...(c.dueAt !== null ? { values: { dueAt: formatTime(c.dueAt) } } : {}),
  });
  return whyNotFrom(WHAT, 'ReplicaSetPodsCreated', ref, path, c.dueAt !== null ? { wouldFireAt: formatTime(c.dueAt) } : {});
}

/**
 * A ReplicaSet that lacks no pod now, whose next scale in the timeline raises spec.replicas above its
 * active pods, or whose next `delete` of one of its active pods leaves it one short: the sync at that
 * instant creates them (manageReplicas), if nothing else comes first and nothing holds the sync back
 * (its expectations satisfied, no backoff).
 */
function scaledUpByTimeline(
  rsc: ReplicaSetCore,
  rs: ReplicaSetRecord,
  entry: Entry | undefined,
  check: ReplicaSetCheck,
  claim: Claim,
  world: WhyNotWorld | undefined,
): WhyNot | undefined {
  const key = `${rs.meta.namespace}/${rs.meta.name}`;
  const up = world?.scalesTo?.(key);
  const scale = up && up.replicas > claim.active ? up : undefined;
  const del = world?.deletesOf?.(key);
  const deleted = del && claim.active - 1 < specReplicas(rs) && (!scale || del.at < scale.at) ? del : undefined;
  if ((!scale && !deleted) || !check.manageable || rs.meta.deletionTimestamp !== undefined || !entry) return undefined;
  if (rsc.expectationsPending(entry) || entry.actor.state().includes('queue.backoff')) return undefined;
  const ref = replicaSetRef(rs.meta.namespace, rs.meta.name);
  const path: WhyNotCheck[] = [
    {
      guard: 'fewerPodsThanReplicas',
      upstream: 'manageReplicas (diff < 0)',
      holds: false,
      rule: 'fewer active pods than spec.replicas',
      unmet: deleted
        ? 'as many active pods as spec.replicas: nothing to create until one of them goes'
        : 'as many active pods as spec.replicas: nothing to create until spec.replicas rises',
      values: {
        activePods: claim.active,
        replicas: specReplicas(rs),
        ...(deleted ? { timelineDeletes: deleted.pod, timelineDeletesAt: formatTime(deleted.at) } : {}),
        ...(scale && !deleted ? { timelineScalesTo: scale.replicas, timelineScalesAt: formatTime(scale.at) } : {}),
      },
    },
  ];
  const conditional = deleted
    ? { if: `the timeline deletes ${deleted.pod} at ${formatTime(deleted.at)}`, at: formatTime(deleted.at) }
    : { if: `the timeline scales ${ref} to ${scale!.replicas} at ${formatTime(scale!.at)}`, at: formatTime(scale!.at) };
  return whyNotFrom(WHAT, 'ReplicaSetPodsCreated', ref, path, { conditional });
}

/**
 * Pods that are not ready (their node went Unknown and MarkPodsNotReady set Ready=False, or their
 * kubelet says so) still count: FilterActivePods keeps every pod that is not Succeeded or Failed
 * and has no deletionTimestamp, in 1.12 as in the newest release, so manageReplicas sees no
 * shortfall. A replacement comes only when enough of them are deleted (by the taint eviction
 * controller, or 1.12's pod eviction path): the simulation chains to those pods' own why-nots
 * (`waitsForDeletion`) for the time.
 */
function notReadyStillActive(ref: ObjectRef, path: WhyNotCheck[], claim: Claim, replicas: number, world: WhyNotWorld | undefined): WhyNot {
  const deletions = claim.active - replicas + 1;
  const notReadyPods = claim.notReady.map((p) => ({
    pod: p.ref.slice(4),
    node: p.node ?? null,
    notReadySince: p.since === undefined ? null : formatTime(p.since),
  }));
  const onFailingNodes = claim.onFailingNodes.map((p) => ({ pod: p.ref.slice(4), node: p.node ?? null, because: p.why }));
  const n = claim.notReady.length;
  const m = claim.onFailingNodes.length;
  const which = [
    ...(n ? [`${n} ${n === 1 ? 'is' : 'are'} not ready`] : []),
    ...(m
      ? [
          `${m} ${m === 1 ? 'is' : 'are'} ready on a node that is failing (its kubelet stopped or to be stopped by the timeline, Ready not True or a NoExecute taint)`,
        ]
      : []),
  ].join(' and ');
  path.push({
    guard: 'fewerPodsThanReplicas',
    upstream: 'manageReplicas (diff < 0) over FilterActivePods / IsPodActive (controller_utils.go)',
    holds: false,
    rule: 'fewer active pods than spec.replicas',
    unmet: `of the ${claim.active} active pods ${which}, but a pod counts as active until it is Succeeded, Failed or deleted (IsPodActive does not look at readiness): no replacement until ${deletions === 1 ? 'one of them is' : `${deletions} of them are`} deleted`,
    values: {
      activePods: claim.active,
      replicas,
      notReady: n,
      notReadyPods: cutList(notReadyPods),
      ...(m ? { onFailingNodes: cutList(onFailingNodes) } : {}),
    },
  });
  const pods = [...claim.notReady, ...claim.onFailingNodes].map((p) => p.ref).sort();
  // a pod of it the timeline deletes is one of the deletions too, at that event (a delete at a kubelet stop's instant)
  const own = new Set(claim.refs);
  const timeline: { pod: ObjectRef; at: Micros }[] = [];
  for (const e of world?.eventsUntil?.(Number.MAX_SAFE_INTEGER) ?? [])
    if (e.kind === 'pod' && e.what === 'delete' && own.has(e.pod!) && !timeline.some((t) => t.pod === e.pod)) timeline.push({ pod: e.pod!, at: e.at });
  return whyNotFrom('replacement pods created (manageReplicas)', 'ReplicaSetPodsCreated', ref, path, {
    waitsForDeletion: { pods, count: deletions, ...(timeline.length ? { timeline } : {}) },
    ...wholeLists({ notReadyPods, onFailingNodes }),
  });
}

interface Claim {
  active: number;
  adoptable: boolean;
  /** the active pods it controls whose Ready condition is not True, by name */
  notReady: { ref: ObjectRef; node?: string; since?: Micros }[];
  /** the ready ones on a node that is failing (they go when it is tainted or its pods evicted), and why it is */
  onFailingNodes: { ref: ObjectRef; node?: string; why: string }[];
  /** every active pod it controls */
  refs: ObjectRef[];
}

/**
 * Why a ready pod's node is failing, or undefined while it is healthy: a pod there is deleted
 * later if nothing else changes (its taint eviction, or 1.12's pod eviction), one on a healthy
 * node only if something does.
 */
function failing(host: ControllerHost, world: WhyNotWorld | undefined, nodeName: string | undefined): string | undefined {
  if (!nodeName) return undefined;
  const node = host.cluster.nodes.get(nodeName);
  // a pod bound to a node the cluster lacks (an export that left it out) is deleted by nothing the simulation runs
  // (kube-controller-manager's PodGC is not modelled): it holds no replacement back that a deletion would release
  if (!node) return undefined;
  // read ahead: the pod's deletion is then named under the timeline's stop (its node's taint or eviction)
  return nodeFailing(node, world, true);
}

/** claimedInCluster's pods, with those not ready and those on failing nodes picked out. */
function clusterClaim(host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck, world?: WhyNotWorld): Claim {
  const { pods, adoptable } = claimedInCluster(host.cluster.pods.values(), rs, (l) => check.selector.matches(l));
  const notReady: Claim['notReady'] = [];
  const onFailingNodes: Claim['onFailingNodes'] = [];
  for (const pod of pods) {
    const readyCondition = pod.conditions.find((c) => c.type === 'Ready');
    if (!isPodReady(pod)) {
      // a pod still starting (not bound, or no Ready reported yet) is no failure that holds a replacement back: a
      // new ReplicaSet's pods would otherwise hide what does hold it (its expectations)
      if (pod.nodeName && readyCondition)
        notReady.push({ ref: podRef(pod.meta.namespace, pod.meta.name), node: pod.nodeName, since: readyCondition.lastTransitionTime });
    } else {
      const why = failing(host, world, pod.nodeName);
      if (why) onFailingNodes.push({ ref: podRef(pod.meta.namespace, pod.meta.name), ...(pod.nodeName ? { node: pod.nodeName } : {}), why });
    }
  }
  const byRef = (a: { ref: ObjectRef }, b: { ref: ObjectRef }) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0);
  notReady.sort(byRef);
  onFailingNodes.sort(byRef);
  return { active: pods.length, adoptable, notReady, onFailingNodes, refs: pods.map((p) => podRef(p.meta.namespace, p.meta.name)) };
}
