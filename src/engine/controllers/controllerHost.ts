/**
 * What the simulation gives each controller: the clock, the world, the
 * settings, and the one way to record a decision. Controllers never read a
 * real clock and never mutate the world except through these calls, so that
 * every change is in the trace and other controllers hear of it (as they
 * would through informers).
 */
import type { ClusterState } from '../model/cluster';
import type { ConditionStatus, ObjectRef, PodCondition, PodRecord, NodeRecord, ReplicaSetRecord, Taint } from '../model/types';
import type { Micros } from '../model/time';
import type { ControllerConfig, KubeletConfig } from '../config/types';
import type { VersionBehaviour } from '../versions/types';
import type { ControllerName, DecisionInput, MachineTransition } from '../trace/decision';
import type { Explanation } from '../trace/explainLater';

/** updatePodsReady's writes: the first `count` entries of each list (see ControllerHost.updatePodsReady) */
export interface PodsReadyWrites {
  node: string;
  count: number;
  pods: PodRecord[];
  keys: string[];
  ready: PodCondition[];
  statusWas: ConditionStatus[];
  timeWas: Micros[];
}

export type ApiVerb = 'create' | 'delete' | 'update' | 'patch';
export type ApiResource = 'pods' | 'nodes' | 'replicasets';

export interface ControllerHost {
  /** the simulated now */
  readonly now: Micros;
  /** the monitor pass number in progress or last run (null before the first) */
  readonly pass: number | null;
  readonly cluster: ClusterState;
  readonly config: ControllerConfig;
  readonly kubelet: KubeletConfig;
  readonly behaviour: VersionBehaviour;
  /** the start of the simulation and of the current controller-manager (after restarts) */
  readonly startTime: Micros;
  readonly controllerStartTime: Micros;

  /** Records a decision and returns its seq. */
  decide(d: DecisionInput): number;
  /**
   * `decide`, with `because` made by `explain` when the decision's checks are first read (a host
   * without it: the caller makes them at once). For decisions recorded by the ten thousand and
   * seldom read; `explain` must read only what is never changed in place after the call.
   */
  decideExplainedLater?(d: Omit<DecisionInput, 'because'>, explain: Explanation): number;
  /** Optional, for checking modes: how many decisions have been recorded */
  decisionCount?(): number;

  /**
   * Causes: a decision can be remembered as the latest reason for a fact about
   * an object (e.g. `('Node/a', 'heartbeat')`, `('Node/a', 'taint:node.kubernetes.io/unreachable:NoExecute')`,
   * `('Pod/ns/p', 'deleted')`), and later decisions cite it.
   */
  remember(object: ObjectRef, fact: string, seq: number): void;
  recall(object: ObjectRef, fact: string): number | undefined;

  /**
   * An API call by a controller. Returns false when an injected fault makes it
   * fail; the host has then recorded ApiCallFailed and the caller must retry as
   * kube-controller-manager does. `machine`: the transition of the controller's machine that chose
   * the call (the ApiCallFailed decision records it, its guards after the failure).
   */
  apiCall(controller: ControllerName, verb: ApiVerb, resource: ApiResource, object: ObjectRef, machine?: MachineTransition | null): boolean;
  /**
   * False when no apiCall can fail (no fault injected, or every one used up): a caller making one call per pod may then
   * skip making each call's object reference (MarkPodsNotReady: 50,000 `Pod/ns/name` strings in
   * one pass at 5,000 nodes, read only by a failure's decision). A host without it is asked every call.
   */
  apiCallsMayFail?(): boolean;
  /**
   * Optional: `updatePod(pods[i], keys[i], ready[i], statusWas[i], timeWas[i])` for i < `count`, told
   * to the controllers as one batch (SimController.onPodsReadyChanged). For MarkPodsNotReady's writes
   * on one node: each pod is bound to `node` and indexed under it, and the caller wrote nothing since
   * the pod was last announced but its own Ready condition (`ready[i]`), in place. A host without it
   * is called per pod.
   */
  updatePodsReady?(batch: PodsReadyWrites): void;

  /** World mutations. Each notifies the other controllers, as an informer would. */
  setNodeTaints(node: NodeRecord, taints: Taint[]): void;
  /**
   * Writes node labels as a patch of metadata.labels would (AddOrUpdateLabelsOnNode): the labels
   * are replaced by `labels`, a new object, and the update is announced.
   */
  setNodeLabels(node: NodeRecord, labels: Record<string, string>): void;
  /** Writes node status (conditions) as the controller's UpdateStatus would. */
  updateNodeStatus(node: NodeRecord): void;
  /**
   * A pod record edited by the caller (it edits the record, then calls this at
   * once). Every change of a pod goes through updatePod, createPod or deletePod:
   * the other controllers, checkpoints and views learn of pod changes only here.
   * `key`: the pod's `namespace/name` when the caller has made it already (else the host makes it).
   * `ready`: the caller wrote nothing since its last call but this, the pod's own Ready condition, in
   * place: its status and lastTransitionTime, which were `readyStatusWas` and `readyTimeWas`
   * (MarkPodsNotReady; a host may keep them so that a step back can undo the write).
   */
  updatePod(pod: PodRecord, key?: string, ready?: PodCondition, readyStatusWas?: ConditionStatus, readyTimeWas?: Micros): void;
  createPod(pod: PodRecord): void;
  deletePod(pod: PodRecord): void;
  /**
   * Optional: the ReplicaSet controller has written `rs.status` (UpdateStatus
   * succeeded). A host that implements it can announce the update; the
   * record is already changed when it is called. `key`: its `namespace/name` as the caller has it
   * (see updatePod).
   */
  updateReplicaSetStatus?(rs: ReplicaSetRecord, key?: string): void;
}
