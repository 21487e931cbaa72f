/**
 * The one construction path of each hot record kind: the loader (convert.ts), the copies a
 * simulation starts from and restores (simulation/checkpoint.ts) and the records the run writes
 * (the kubelets' posts, the controller's Unknown conditions, the ReplicaSet controller's pods) all
 * build them here, with the same fields in the same order and every optional field present
 * (undefined when absent).
 *
 * Why: the code that reads conditions, pods and metadata thousands of times an hour is compiled
 * for the makes of record it has met, and a record's make is how it was built. A spread copy
 * (`{ ...c }`) is of another make than the literal it copies, and a field added later (a
 * condition's reason, a pod's statusReason) makes yet another; each new make arriving in the run
 * had that code thrown away and compiled again (the runtime's side: bench/README.md, "one
 * construction path per record").
 */
import type {
  ConditionStatus,
  KObject,
  LabelSelector,
  LeaseRecord,
  NodeCondition,
  NodeRecord,
  ObjectMeta,
  OwnerReference,
  PodCondition,
  PodPhase,
  PodRecord,
  ReplicaSetRecord,
  ReplicaSetStatus,
  Taint,
  TaintEffect,
  Toleration,
} from './types';
import type { Micros } from './time';

export function nodeCondition(
  type: string,
  status: ConditionStatus,
  lastHeartbeatTime: Micros,
  lastTransitionTime: Micros,
  reason: string | undefined,
  message: string | undefined,
): NodeCondition {
  return { type, status, lastHeartbeatTime, lastTransitionTime, reason, message };
}

export function copyNodeCondition(c: NodeCondition): NodeCondition {
  return nodeCondition(c.type, c.status, c.lastHeartbeatTime, c.lastTransitionTime, c.reason, c.message);
}

export function podCondition(
  type: string,
  status: ConditionStatus,
  lastTransitionTime: Micros,
  reason: string | undefined,
  message: string | undefined,
): PodCondition {
  return { type, status, lastTransitionTime, reason, message };
}

export function copyPodCondition(c: PodCondition): PodCondition {
  return podCondition(c.type, c.status, c.lastTransitionTime, c.reason, c.message);
}

export function objectMeta(
  name: string,
  namespace: string | undefined,
  uid: string,
  labels: Record<string, string>,
  annotations: Record<string, string>,
  ownerReferences: OwnerReference[],
  creationTimestamp: Micros,
  deletionTimestamp: Micros | undefined,
  generation: number | undefined,
): ObjectMeta {
  return { name, namespace, uid, labels, annotations, ownerReferences, creationTimestamp, deletionTimestamp, generation };
}

/** A copy of metadata; labels and annotations are shared (nothing edits them in place). */
export function copyMeta<M extends ObjectMeta>(m: M, ownerReferences: OwnerReference[] = m.ownerReferences): M {
  return objectMeta(m.name, m.namespace, m.uid, m.labels, m.annotations, ownerReferences, m.creationTimestamp, m.deletionTimestamp, m.generation) as M;
}

/** metav1.OwnerReference in the Go struct's field order (what kubectl prints), whatever order an export has. */
export function ownerReference(
  apiVersion: string,
  kind: string,
  name: string,
  uid: string,
  controller: boolean | undefined,
  blockOwnerDeletion: boolean | undefined,
): OwnerReference {
  return { apiVersion, kind, name, uid, controller, blockOwnerDeletion };
}

export function podRecord(
  meta: PodRecord['meta'],
  nodeName: string | undefined,
  tolerations: Toleration[],
  phase: PodPhase,
  conditions: PodCondition[],
  restartCount: number,
  statusReason: string | undefined,
  statusMessage: string | undefined,
  raw: KObject,
): PodRecord {
  return { kind: 'Pod', meta, nodeName, tolerations, phase, conditions, restartCount, statusReason, statusMessage, raw };
}

/** A copy of a pod with its own metadata and conditions list (what is shared: see simulation/checkpoint.ts clonePod). */
export function copyPod(p: PodRecord, meta: PodRecord['meta'], conditions: PodCondition[]): PodRecord {
  return podRecord(meta, p.nodeName, p.tolerations, p.phase, conditions, p.restartCount, p.statusReason, p.statusMessage, p.raw);
}

/**
 * A copy of a node's conditions list, each condition copied. slice() keeps the list as the
 * loader made it (by push: no holes; exact length here); `map` makes a list with holes, another
 * kind of list for every loop over a node's conditions.
 */
export function copyNodeConditions(list: readonly NodeCondition[]): NodeCondition[] {
  const out = list.slice();
  for (let i = 0; i < out.length; i++) out[i] = copyNodeCondition(out[i]);
  return out;
}

export function nodeRecord(meta: ObjectMeta, conditions: NodeCondition[], taints: Taint[], unschedulable: boolean, raw: KObject): NodeRecord {
  return { kind: 'Node', meta, conditions, taints, unschedulable, raw };
}

export function leaseRecord(
  meta: LeaseRecord['meta'],
  holderIdentity: string | undefined,
  leaseDurationSeconds: number | undefined,
  renewTime: Micros | undefined,
  raw: KObject,
): LeaseRecord {
  return { kind: 'Lease', meta, holderIdentity, leaseDurationSeconds, renewTime, raw };
}

export function copyLease(l: LeaseRecord): LeaseRecord {
  return leaseRecord(l.meta, l.holderIdentity, l.leaseDurationSeconds, l.renewTime, l.raw);
}

/** key, effect, value, timeAdded: the loader's order, so a taint's JSON reads as before */
export function taint(key: string, effect: TaintEffect, value: string | undefined, timeAdded: Micros | undefined): Taint {
  return { key, effect, value, timeAdded };
}

export function copyTaint(t: Taint): Taint {
  return taint(t.key, t.effect, t.value, t.timeAdded);
}

/** A copy of a taint list, each taint copied (slice: see copyNodeConditions). */
export function copyTaints(list: readonly Taint[]): Taint[] {
  const out = list.slice();
  for (let i = 0; i < out.length; i++) out[i] = copyTaint(out[i]);
  return out;
}

export function replicaSetStatus(
  replicas: number,
  fullyLabeledReplicas: number,
  readyReplicas: number,
  availableReplicas: number,
  observedGeneration: number,
  conditions: ReplicaSetStatus['conditions'],
  terminatingReplicas: number | undefined,
): ReplicaSetStatus {
  return { replicas, fullyLabeledReplicas, readyReplicas, availableReplicas, observedGeneration, conditions, terminatingReplicas };
}

/**
 * A copy of a ReplicaSet's conditions, each copied with its own key order: the trace prints them
 * as JSON, and the controller's ReplicaFailure has upstream's order, not the loader's (rare: not
 * worth one class).
 */
export function copyReplicaSetConditions(list: ReplicaSetStatus['conditions']): ReplicaSetStatus['conditions'] {
  const out = list.slice();
  for (let i = 0; i < out.length; i++) out[i] = { ...out[i] };
  return out;
}

/** A copy of a status, its conditions copied. */
export function copyReplicaSetStatus(s: ReplicaSetStatus): ReplicaSetStatus {
  const conditions = copyReplicaSetConditions(s.conditions);
  return replicaSetStatus(s.replicas, s.fullyLabeledReplicas, s.readyReplicas, s.availableReplicas, s.observedGeneration, conditions, s.terminatingReplicas);
}

/** The loader's key order (kind, meta, minReadySeconds, template, status, raw, replicas, selector), so the state's JSON reads as before. */
export function replicaSetRecord(
  meta: ReplicaSetRecord['meta'],
  minReadySeconds: number,
  template: KObject,
  status: ReplicaSetStatus,
  raw: KObject,
  replicas: number | undefined,
  selector: LabelSelector | undefined,
): ReplicaSetRecord {
  return { kind: 'ReplicaSet', meta, minReadySeconds, template, status, raw, replicas, selector };
}

export function copyReplicaSet(r: ReplicaSetRecord, meta: ReplicaSetRecord['meta'], status: ReplicaSetStatus): ReplicaSetRecord {
  return replicaSetRecord(meta, r.minReadySeconds, r.template, status, r.raw, r.replicas, r.selector);
}
