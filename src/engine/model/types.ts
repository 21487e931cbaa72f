/**
 * The Kubernetes objects the engine reads, as typed records. Each record keeps
 * the object it came from (`raw`) so that nothing the user exported is lost:
 * exporting the state writes the fields the controllers own back over a copy
 * of `raw` (see model/export.ts).
 */
import type { Micros } from './time';

/** An object exactly as parsed from JSON/YAML. */
export type KObject = { [key: string]: unknown };

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  /** ZERO_TIME when missing or null, as in Go. */
  lastHeartbeatTime: Micros;
  lastTransitionTime: Micros;
}

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: Micros;
}

export interface Toleration {
  key?: string;
  /** 'Exists' or 'Equal'; missing means Equal, as in the API. */
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: TaintEffect;
  /** seconds; undefined means tolerate forever */
  tolerationSeconds?: number;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  ownerReferences: OwnerReference[];
  /** ZERO_TIME when missing. */
  creationTimestamp: Micros;
  deletionTimestamp?: Micros;
  generation?: number;
}

export interface NodeRecord {
  kind: 'Node';
  meta: ObjectMeta;
  conditions: NodeCondition[];
  taints: Taint[];
  unschedulable: boolean;
  raw: KObject;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastTransitionTime: Micros;
}

export interface PodRecord {
  kind: 'Pod';
  meta: ObjectMeta & { namespace: string };
  nodeName?: string;
  tolerations: Toleration[];
  phase: PodPhase;
  conditions: PodCondition[];
  /** Sum of the containers' restartCount (the ReplicaSet ranking reads it). */
  restartCount: number;
  /**
   * status.reason and status.message as a controller wrote them (the pod-eviction path's
   * SetPodTerminationReason: NodeLost); undefined while `raw`'s are current.
   */
  statusReason?: string;
  statusMessage?: string;
  raw: KObject;
}

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  observedGeneration: number;
  conditions: { type: string; status: ConditionStatus; reason?: string; message?: string; lastTransitionTime: Micros }[];
  /** pods being deleted (deletionTimestamp set, not terminal); written from 1.33 when DeploymentReplicaSetTerminatingReplicas is on (beta, on in 1.35) */
  terminatingReplicas?: number;
}

export interface ReplicaSetRecord {
  kind: 'ReplicaSet';
  meta: ObjectMeta & { namespace: string };
  /** undefined when the object has none: the API defaults it to 1. */
  replicas?: number;
  selector?: LabelSelector;
  minReadySeconds: number;
  /** spec.template as exported (metadata + spec of the pods to create). */
  template: KObject;
  status: ReplicaSetStatus;
  raw: KObject;
}

export interface DaemonSetRecord {
  kind: 'DaemonSet';
  meta: ObjectMeta & { namespace: string };
  raw: KObject;
}

export interface LeaseRecord {
  kind: 'Lease';
  meta: ObjectMeta & { namespace: string };
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  renewTime?: Micros;
  raw: KObject;
}

export type ObjectRecord = NodeRecord | PodRecord | ReplicaSetRecord | DaemonSetRecord | LeaseRecord;

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/**
 * The namespace an object reference `Kind/name` means (scenario events, the world): none for a
 * Node, kube-node-lease for a Lease (a node's, the only Leases the engine reads), default otherwise.
 */
export function defaultNamespaceOf(kind: string): string | undefined {
  return kind === 'Node' ? undefined : kind === 'Lease' ? NODE_LEASE_NAMESPACE : 'default';
}

/** `Node/NAME`, `Pod/NS/NAME`, `ReplicaSet/NS/NAME`, `Zone/KEY`: how the trace names objects. */
export type ObjectRef = string;

export const nodeRef = (name: string): ObjectRef => `Node/${name}`;
export const podRef = (namespace: string, name: string): ObjectRef => `Pod/${namespace}/${name}`;
export const replicaSetRef = (namespace: string, name: string): ObjectRef => `ReplicaSet/${namespace}/${name}`;
export const zoneRef = (zoneKey: string): ObjectRef => `Zone/${zoneKey}`;

/** `namespace/name`, the key of namespaced objects in the cluster maps. */
export const nsKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/** The kinds the engine models; every other kind is kept and reported as ignored. */
export const ENGINE_KINDS = ['Node', 'Pod', 'ReplicaSet', 'DaemonSet', 'Lease'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];
