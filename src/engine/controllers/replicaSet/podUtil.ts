/**
 * Small pod and owner helpers with Kubernetes' names, shared by the
 * ReplicaSet controller and the simplified binder:
 * podutil.IsPodReady, podReadyTime, maxContainerRestarts, controller.IsPodActive,
 * metav1.GetControllerOf, helper.GetDeletionCostFromPodAnnotations.
 */
import type { KObject, OwnerReference, PodRecord, ReplicaSetRecord } from '../../model/types';
import { ZERO_TIME, type Micros } from '../../model/time';

/** core.PodDeletionCost */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: PodRecord): boolean {
  for (const c of pod.conditions) if (c.type === 'Ready') return c.status === 'True';
  return false;
}

/** podReadyTime: the Ready condition's lastTransitionTime when ready, else the zero time. */
export function podReadyTime(pod: PodRecord): Micros {
  for (const c of pod.conditions) if (c.type === 'Ready' && c.status === 'True') return c.lastTransitionTime;
  return ZERO_TIME;
}

/**
 * maxContainerRestarts: the largest restartCount among status.containerStatuses
 * (read from the object; PodRecord.restartCount is their sum, which is what
 * is left when the object has no container statuses).
 */
export function maxContainerRestarts(pod: PodRecord): number {
  const status = pod.raw.status as KObject | undefined;
  const cs = status && typeof status === 'object' ? (status as { containerStatuses?: unknown }).containerStatuses : undefined;
  if (!Array.isArray(cs)) return pod.restartCount;
  let max = 0;
  for (const c of cs) {
    const n = c && typeof c === 'object' ? (c as { restartCount?: unknown }).restartCount : undefined;
    if (typeof n === 'number' && Number.isFinite(n) && n > max) max = n;
  }
  return max;
}

/** controller.IsPodActive: not Succeeded, not Failed, no deletionTimestamp. */
export function isPodActive(pod: PodRecord): boolean {
  return pod.phase !== 'Succeeded' && pod.phase !== 'Failed' && pod.meta.deletionTimestamp === undefined;
}

/** FilterTerminatingPods: deletionTimestamp set, not terminal */
export function isTerminating(p: PodRecord): boolean {
  return p.meta.deletionTimestamp !== undefined && p.phase !== 'Succeeded' && p.phase !== 'Failed';
}

/** metav1.GetControllerOf: the first ownerReference with controller: true. */
export function controllerOf(meta: { ownerReferences: OwnerReference[] }): OwnerReference | undefined {
  for (const r of meta.ownerReferences) if (r.controller === true) return r;
  return undefined;
}

/** The set the pod index keeps a pod in: its controller's uid, '' for an orphan, undefined for no pod. */
export function indexOwnerOf(pod: { meta: { ownerReferences: OwnerReference[] } } | undefined): string | undefined {
  return pod ? (controllerOf(pod.meta)?.uid ?? '') : undefined;
}

/** How many ownerReferences claim to be the controller (the API allows one). */
export function controllerCount(meta: { ownerReferences: OwnerReference[] }): number {
  let n = 0;
  for (const r of meta.ownerReferences) if (r.controller === true) n++;
  return n;
}

/** The replica count the controller works with: spec.replicas, defaulted to 1 by the API when missing. */
export function specReplicas(rs: ReplicaSetRecord): number {
  return rs.replicas === undefined ? 1 : rs.replicas;
}

/**
 * GetDeletionCostFromPodAnnotations: 0 when the annotation is missing or
 * invalid (a leading '+' or leading zeros are invalid; the value must fit in
 * int32); the ranking ignores the error and uses 0.
 */
export function podDeletionCost(pod: PodRecord): { cost: number; invalid?: string } {
  const value = pod.meta.annotations[POD_DELETION_COST_ANNOTATION];
  if (value === undefined) return { cost: 0 };
  const validFirst = value.length > 0 && (value[0] === '-' || value === '0' || (value[0]! >= '1' && value[0]! <= '9'));
  if (!validFirst || !/^-?[0-9]+$/.test(value)) return { cost: 0, invalid: value };
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < -2147483648 || n > 2147483647) return { cost: 0, invalid: value };
  return { cost: n === 0 ? 0 : n };
}

/** `ns/name` */
export const podKey = (pod: PodRecord): string => `${pod.meta.namespace}/${pod.meta.name}`;

/**
 * What claimPods would find among `all` (the cluster's pods as they are, not the controller's index, which lags pod events
 * the host has not delivered yet): the active pods the ReplicaSet controls that match its selector, and whether an orphan
 * it would adopt exists. One look at every pod: asked for one ReplicaSet at a time.
 */
export function claimedInCluster(
  all: Iterable<PodRecord>,
  rs: ReplicaSetRecord,
  matches: (labels: Record<string, string>) => boolean,
): { pods: PodRecord[]; adoptable: boolean } {
  const pods: PodRecord[] = [];
  let adoptable = false;
  for (const pod of all) {
    if (pod.meta.namespace !== rs.meta.namespace || !isPodActive(pod) || !matches(pod.meta.labels)) continue;
    const owner = controllerOf(pod.meta);
    if (!owner) adoptable ||= pod.meta.deletionTimestamp === undefined;
    else if (owner.uid === rs.meta.uid) pods.push(pod);
  }
  return { pods, adoptable };
}
