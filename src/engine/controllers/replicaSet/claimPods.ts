/**
 * replica_set.go claimPods (controller_ref_manager.go ClaimPods): which pods the ReplicaSet
 * owns, adopting matching orphans and releasing pods that no longer match, read from the
 * running counts (tally.ts) when no PATCH is needed, else from a walk of the index.
 */
import type { ControllerHost } from '../controllerHost';
import type { ObjectRef, OwnerReference, PodRecord, ReplicaSetRecord } from '../../model/types';
import { podRef } from '../../model/types';
import { formatTime } from '../../model/time';
import { formatSelector } from '../../model/labels';
import { controllerOf, isPodActive, isTerminating, podKey } from './podUtil';
import { StatusCounter } from './status';
import { PodTally } from './tally';
import { controllerRefTo } from './podTemplate';
import type { ReplicaSetCheck } from './validate';
import { byPodName, MAX_LISTED, type Claimed, type Entry } from './entry';
import type { ReplicaSetCore } from './core';
import { becauseWithGuards } from '../../machines/guardChecks';
import { askClaimPods } from './claimPodsMachine';

/**
 * ClaimPods (controller_ref_manager.go ClaimObject for each pod): ours and
 * matching -> claimed; ours and no longer matching -> released (unless the
 * ReplicaSet is being deleted); an orphan that matches and is not being
 * deleted -> adopted (unless the ReplicaSet is being deleted); owned by
 * someone else -> ignored. Adoption and release are PATCHes of the pod.
 * `entry`: the ReplicaSet's (its uid is rs's).
 */
export function claimPods(rsc: ReplicaSetCore, host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck, ref: ObjectRef, entry: Entry): Claimed {
  const deleting = rs.meta.deletionTimestamp !== undefined;
  const uid = rs.meta.uid;
  // Without a PATCH to make, what is claimed is what the running counts hold (tally.ts)
  const tally = rsc.tallyFor(host, rs, check, entry);
  if (tally && (deleting || tally.unmatched === 0) && !orphansToWalk(rsc, rs, check, deleting)) {
    const counted = fromTally(rsc, host, rs, tally);
    if (rsc.verify) verifyTally(rsc, host, rs, check, counted);
    return counted;
  }
  const walked = walkClaims(rsc, host, rs, check);
  if (!walked.patches) return { count: walked.mine.length, pods: walked.mine, terminating: walked.terminating, counted: walked.counted };
  const pods = [...rsc.podsIn(host, rsc.byOwner.get(uid)), ...rsc.podsIn(host, rsc.orphans.get(rs.meta.namespace))].filter(isPodActive);
  pods.sort(byPodName);
  // the machine answers before the PATCHes, with what ClaimObject would do to each pod
  let orphansToAdopt = 0;
  let podsToRelease = 0;
  for (const pod of pods) {
    const owner = controllerOf(pod.meta);
    const matches = check.selector.matches(pod.meta.labels);
    if (owner) {
      if (owner.uid === rs.meta.uid && !matches && !deleting) podsToRelease++;
    } else if (!deleting && matches && pod.meta.deletionTimestamp === undefined) orphansToAdopt++;
  }
  const machine = askClaimPods(entry.key, { type: 'CLAIM_PODS', orphansToAdopt, podsToRelease });
  const claimed: PodRecord[] = [];
  const adopted: string[] = [];
  const released: string[] = [];
  let error: string | undefined;
  for (const pod of pods) {
    const owner = controllerOf(pod.meta);
    const matches = check.selector.matches(pod.meta.labels);
    if (owner) {
      if (owner.uid !== rs.meta.uid) continue;
      if (matches) {
        claimed.push(pod);
        continue;
      }
      if (deleting) continue;
      if (!host.apiCall('replicaset', 'patch', 'pods', podRef(pod.meta.namespace, pod.meta.name), machine)) {
        error ??= `patch pods ${pod.meta.namespace}/${pod.meta.name} (release) failed`;
        continue;
      }
      pod.meta.ownerReferences = pod.meta.ownerReferences.filter((r) => r.uid !== rs.meta.uid);
      setRawOwners(rsc, pod);
      released.push(pod.meta.name);
      host.updatePod(pod);
      continue;
    }
    if (deleting || !matches || pod.meta.deletionTimestamp !== undefined) continue;
    if (!host.apiCall('replicaset', 'patch', 'pods', podRef(pod.meta.namespace, pod.meta.name), machine)) {
      error ??= `patch pods ${pod.meta.namespace}/${pod.meta.name} (adopt) failed`;
      continue;
    }
    const cref = controllerRefTo(rs) as unknown as OwnerReference;
    pod.meta.ownerReferences = [...pod.meta.ownerReferences, cref];
    setRawOwners(rsc, pod);
    adopted.push(pod.meta.name);
    claimed.push(pod);
    host.updatePod(pod);
  }
  const selectorText = formatSelector(rs.selector);
  if (adopted.length) {
    host.decide({
      controller: 'replicaset',
      action: 'PodsAdopted',
      object: ref,
      summary: `Adopted ${adopted.length} orphan pod(s) matching ${selectorText}`,
      because: becauseWithGuards(
        [
          {
            rule: 'an orphan pod (no controller ownerReference) that matches the selector and is not being deleted is adopted',
            values: { selector: selectorText, pods: adopted.slice(0, MAX_LISTED) },
          },
        ],
        machine,
      ),
      machine,
      source: 'replicaset: claimPods -> PodControllerRefManager.ClaimPods/AdoptPod (pkg/controller/controller_ref_manager.go)',
      details: { pods: adopted },
    });
  }
  if (released.length) {
    host.decide({
      controller: 'replicaset',
      action: 'PodsReleased',
      object: ref,
      summary: `Released ${released.length} pod(s) that no longer match ${selectorText}`,
      because: becauseWithGuards(
        [
          {
            rule: 'a pod this ReplicaSet controls whose labels no longer match the selector is released (its ownerReference removed)',
            values: { selector: selectorText, pods: released.slice(0, MAX_LISTED) },
          },
        ],
        machine,
      ),
      machine,
      source: 'replicaset: claimPods -> PodControllerRefManager.ClaimPods/ReleasePod (pkg/controller/controller_ref_manager.go)',
      details: { pods: released },
    });
  }
  return error === undefined ? { count: claimed.length, pods: claimed } : { count: claimed.length, pods: claimed, error };
}

/**
 * The candidates: the active pods of the namespace that could be ours (owned by us, or orphans).
 * Their order matters only to the PATCHes (adoption, release: which call fails first, the order
 * of the lists); what is claimed without one is a set. So the candidates are listed and sorted
 * by name only when some pod is to be adopted or released (`patches`).
 * The same walk counts terminatingPods' pods (the pods it reads are the ones walked here) and
 * calculateStatus's counts of the claimed pods.
 */
export function walkClaims(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  rs: ReplicaSetRecord,
  check: ReplicaSetCheck,
): { mine: PodRecord[]; patches: boolean; terminating: number; counted: StatusCounter } {
  const deleting = rs.meta.deletionTimestamp !== undefined;
  const uid = rs.meta.uid;
  const selector = check.selector;
  const mine: PodRecord[] = [];
  let patches = false;
  let terminating = 0;
  const counted = new StatusCounter(rs, host.now);
  // terminating pods are counted among the owned ones only (FilterClaimedPods)
  const visit = (pod: PodRecord, owned: boolean): void => {
    if (!isPodActive(pod)) {
      if (owned && isTerminating(pod) && selector.matches(pod.meta.labels)) terminating++;
      return;
    }
    const owner = controllerOf(pod.meta);
    if (!owner) patches ||= !deleting && selector.matches(pod.meta.labels);
    else if (owner.uid !== uid) return;
    else if (selector.matches(pod.meta.labels)) {
      mine.push(pod);
      counted.add(pod);
    } else patches ||= !deleting;
  };
  for (const pod of rsc.podsIn(host, rsc.byOwner.get(uid))) visit(pod, true);
  for (const pod of rsc.podsIn(host, rsc.orphans.get(rs.meta.namespace))) visit(pod, false);
  return { mine, patches, terminating, counted };
}

/**
 * Whether an orphan of the namespace makes the claim need the full walk:
 * one to adopt, or one whose controller is this ReplicaSet (the index then
 * lags the pod, and the walk decides as it always did).
 */
export function orphansToWalk(rsc: ReplicaSetCore, rs: ReplicaSetRecord, check: ReplicaSetCheck, deleting: boolean): boolean {
  const orphans = rsc.orphans.get(rs.meta.namespace);
  if (!orphans || orphans.size === 0) return false;
  for (const pod of orphans.values()) {
    if (!isPodActive(pod)) continue;
    const owner = controllerOf(pod.meta);
    if (owner ? owner.uid === rs.meta.uid : !deleting && check.selector.matches(pod.meta.labels)) return true;
  }
  return false;
}

export function fromTally(rsc: ReplicaSetCore, host: ControllerHost, rs: ReplicaSetRecord, tally: PodTally): Claimed {
  const counted = new StatusCounter(rs, host.now);
  let pods: PodRecord[] | undefined;
  if (rs.minReadySeconds === 0) {
    // IsPodAvailable: with minReadySeconds 0 every ready pod is available
    counted.fullyLabeled = tally.labelled;
    counted.ready = counted.available = tally.ready;
  } else {
    // availability depends on now: the claimed pods are counted
    pods = rsc.claimedList(rs.meta.uid, tally);
    for (const p of pods) counted.add(p);
  }
  return { count: tally.claimed, pods, terminating: tally.terminating, counted, tally };
}

/** after creations: the counts kept (or the list made) are what counting the claim-time list gives now */
export function verifyCounted(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  rs: ReplicaSetRecord,
  listed: PodRecord[],
  list: PodRecord[] | undefined,
  counted: StatusCounter | undefined,
): void {
  const recount = new StatusCounter(rs, host.now);
  for (const p of listed) recount.add(p);
  const want = [listed.map(podKey), recount.fullyLabeled, recount.ready, recount.available];
  let have: unknown[];
  if (counted) have = [listed.map(podKey), counted.fullyLabeled, counted.ready, counted.available];
  else {
    const c = new StatusCounter(rs, host.now);
    for (const p of list!) c.add(p);
    have = [list!.map(podKey), c.fullyLabeled, c.ready, c.available];
  }
  if (JSON.stringify(want) !== JSON.stringify(have)) {
    throw new Error(
      `replicaset ${rs.meta.namespace}/${rs.meta.name} at ${formatTime(host.now)}: after creating pods ${JSON.stringify(have)}, counting the claimed pods ${JSON.stringify(want)}`,
    );
  }
}

export function verifyTally(rsc: ReplicaSetCore, host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck, got: Claimed): void {
  const w = walkClaims(rsc, host, rs, check);
  const want = {
    patches: w.patches,
    pods: w.mine.map(podKey),
    terminating: w.terminating,
    full: w.counted.fullyLabeled,
    ready: w.counted.ready,
    available: w.counted.available,
  };
  const list = got.pods ?? rsc.claimedList(rs.meta.uid, got.tally!);
  const have = {
    patches: false,
    pods: list.map(podKey),
    terminating: got.terminating,
    full: got.counted!.fullyLabeled,
    ready: got.counted!.ready,
    available: got.counted!.available,
  };
  if (list.length !== got.count || JSON.stringify(want) !== JSON.stringify(have)) {
    throw new Error(
      `replicaset ${rs.meta.namespace}/${rs.meta.name} at ${formatTime(host.now)}: running counts ${JSON.stringify(have)} (${got.count} claimed), every pod read ${JSON.stringify(want)}`,
    );
  }
}

export function setRawOwners(rsc: ReplicaSetCore, pod: PodRecord): void {
  const md = pod.raw.metadata && typeof pod.raw.metadata === 'object' ? (pod.raw.metadata as Record<string, unknown>) : {};
  pod.raw = { ...pod.raw, metadata: { ...md, ownerReferences: pod.meta.ownerReferences.map((r) => ({ ...r })) } };
}
