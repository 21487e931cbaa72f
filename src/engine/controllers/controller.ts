/**
 * How the simulation drives a controller. Like kube-controller-manager's
 * informers and workqueues: world changes are announced synchronously
 * (on*Event), the controller only notes what to do, and does the work when
 * the simulation calls `wake` at a time the controller asked for with
 * `nextWake`. Within one instant the simulation runs, in this order (spec
 * 1.3): world events, node-lifecycle (monitor pass, then the 100 ms
 * tainting/eviction pass), taint-eviction, replicaset, scheduler; and
 * repeats that order while any controller still has work due at the same
 * instant (bounded).
 *
 * A restart of kube-controller-manager discards the controller objects and
 * constructs new ones (in-memory state lost); `start` is their informers'
 * initial list.
 *
 * What a host promises, and the controllers' incremental state relies on
 * (issue 5: at 150,000 pods nothing can be re-read per sync):
 * - every change to a record is announced (on*Event) before the next `wake`
 *   of any controller, in the order it happened; none is dropped or held back
 *   (the ReplicaSet controller's running pod counts, the node lifecycle
 *   controller's settled nodes and the binder's indexes are kept from these
 *   announcements alone; a test harness that drops or defers events opts out
 *   with the controller's own option, e.g. the ReplicaSet tally's readsEveryPod);
 * - records change only through the host, and a record's labels, tolerations,
 *   owner references, taints and node and Lease metadata are replaced, never
 *   edited in place, so that a controller may keep what it worked out from one
 *   of those objects (by identity) until it is replaced. Conditions are not in
 *   this list: kubelets and MarkPodsNotReady edit them in place.
 */
import type { ControllerHost, PodsReadyWrites } from './controllerHost';
import type { WhyNot, WhyNotWorld } from '../trace/whyNot';
import type { Micros } from '../model/time';
import type {
  KObject,
  NodeCondition,
  NodeRecord,
  ObjectRef,
  PodRecord,
  ReplicaSetRecord,
  LeaseRecord,
  Taint,
  PodCondition,
  Toleration,
  PodPhase,
} from '../model/types';
import type { ControllerName } from '../trace/decision';
import type { Explanation, MachineView, ZoneView } from '../trace/views';
import type { Problem } from '../problems';

export type WatchType = 'added' | 'updated' | 'deleted';

/** Runs work made in pieces (a generator: startInPieces, ...) to its end at once. */
export function drain(pieces: Iterator<unknown>): void {
  while (!pieces.next().done);
}

/** The node as it was before an update: what informers' old object would show. */
export interface NodeBefore {
  taints: Taint[];
  conditions: NodeCondition[];
  labels: Record<string, string>;
  unschedulable: boolean;
}

export interface PodBefore {
  nodeName?: string;
  tolerations: Toleration[];
  phase: PodPhase;
  conditions: PodCondition[];
  labels: Record<string, string>;
  deletionTimestamp?: Micros;
  /**
   * the record's `raw` (shared: never edited in place), whose spec a pod replaced under its key (an
   * apply) may request otherwise by; the pod's own field, not its spec: reading that costs a cache
   * miss per pod when MarkPodsNotReady announces 50,000
   */
  raw?: KObject;
}

/** What controllers are told of a ControllerHost.updatePodsReady (its lists, read-only, and each pod's `before`). */
export type PodsReadyBatch = Readonly<Pick<PodsReadyWrites, 'node' | 'count'>> & {
  readonly pods: readonly PodRecord[];
  readonly keys: readonly string[];
  readonly before: readonly PodBefore[];
};

export interface SimController {
  readonly name: ControllerName;
  /** Called once, at the controller-manager's start (or restart), after construction. */
  start(host: ControllerHost, memory: 'reconstructed' | 'fresh'): void;
  /**
   * Optional: `start` in pieces of about `perPiece` records, the same work with a yield between two
   * pieces (run-ahead's second simulation is made in the extension host's idle slices:
   * simulation/makeInSlices.ts). Nothing else runs on the simulation until it is done.
   */
  startInPieces?(host: ControllerHost, memory: 'reconstructed' | 'fresh', perPiece: number): Generator<void, void, void>;
  onNodeEvent?(host: ControllerHost, type: WatchType, node: NodeRecord, before?: NodeBefore): void;
  /**
   * The kubelets' plain posts of one instant (the first `count` nodes of `batch`; the array is
   * reused): as many updates that changed only heartbeat times (statuses, taints and labels are
   * those last announced). A controller without it gets one onNodeEvent each.
   */
  onNodeHeartbeats?(host: ControllerHost, batch: readonly NodeRecord[], count: number): void;
  /**
   * `key`: the pod's `namespace/name` as the host has it, one string for every controller told of
   * this change (a key each controller built anew had to be flattened and hashed again, per
   * controller, for each of MarkPodsNotReady's 50,000 pod updates at 5,000 nodes).
   */
  onPodEvent?(host: ControllerHost, type: WatchType, pod: PodRecord, before?: PodBefore, key?: string): void;
  /**
   * Optional: updates of the first `count` pods of a batch that changed only their Ready condition
   * (ControllerHost.updatePodsReady: MarkPodsNotReady on one node), with each pod's `before` as
   * onPodEvent has it. The same as an onPodEvent update per pod, in order; a controller without it
   * gets those.
   */
  onPodsReadyChanged?(host: ControllerHost, batch: PodsReadyBatch): void;
  /** `key`: the ReplicaSet's `namespace/name` as the host has it (see onPodEvent) */
  onReplicaSetEvent?(host: ControllerHost, type: WatchType, rs: ReplicaSetRecord, key?: string): void;
  onLeaseEvent?(host: ControllerHost, type: WatchType, lease: LeaseRecord): void;
  /**
   * Plain Lease renewals of one instant (updates: the first `count` records of
   * `batch`, an array the caller reuses afterwards). Without it, each is an
   * `onLeaseEvent` update.
   */
  onLeaseRenewals?(host: ControllerHost, batch: readonly LeaseRecord[], count: number): void;
  /**
   * Optional: builds now what the controller would otherwise build at its first need, so that the
   * cost is paid when the caller has time (Simulation.prepare); must change nothing it decides.
   */
  prepare?(host: ControllerHost): void;
  /**
   * Optional: prepare a slice at a time, working while `more()` says so (at least a little), and
   * resumable at the next call while nothing changed; true while work is left.
   */
  prepareSlice?(host: ControllerHost, more: () => boolean): boolean;
  /** The earliest time at which this controller has work due, or undefined. */
  nextWake(): Micros | undefined;
  /**
   * Does all work due at host.now. A controller may ask `shouldYield` between two units of its
   * work and, when it says true, return true with the rest kept: the next wake call (which the
   * simulation makes before anything else runs) does that rest first, and nothing new.
   */
  wake(host: ControllerHost, shouldYield?: () => boolean): boolean | void;
  /**
   * Optional: the instant's rounds are over (no controller due at it, or MAX_ROUNDS ran out). Work a
   * controller kept for its next round at the instant is put where its next wake finds it.
   */
  instantDone?(host: ControllerHost): void;
  /** xstate machines for the UI's machine view */
  machines(): MachineView[];
  /** the view `machines()` lists under this id, without listing the others; undefined when it lists none */
  machine?(id: string): MachineView | undefined;
  /** zone views (node-lifecycle only); with `namesOf`, the queued names only of the zones it accepts, and the queues' lengths */
  zones?(host: ControllerHost, namesOf?: (zone: string) => boolean): ZoneView[];
  /**
   * The pod-eviction path (node-lifecycle without taint-based evictions, as in 1.12): the not-Ready
   * nodes (at most `limit` of them asked, in the cluster's order) whose pods the controller's "why
   * not" foresees it deleting, with when (node name -> time). Empty with taint-based evictions.
   */
  podEvictionDeadlines?(host: ControllerHost, limit: number): Map<string, string>;
  /** The keys of the node's pods that the pod-eviction path would delete now (DeletePods' rule). */
  podsEvictedFrom?(host: ControllerHost, node: string): string[];
  /**
   * Optional, a forecast for checkpoint placement (never for a decision): how many pods sit on the
   * nodes whose grace period runs out before `t` (the node lifecycle controller's monitor pass at
   * `t` marks them Unknown and, MarkPodsNotReady, their pods not ready), as things stand now.
   */
  podsOfNodesDueBefore?(host: ControllerHost, t: Micros): number;
  /** "why not": the checks that hold back what has not (yet) happened to this object */
  whyNot(host: ControllerHost, object: ObjectRef, world?: WhyNotWorld): Explanation['whyNot'];
  /**
   * Optional: false when `whyNot(host, object)` is none whatever this controller's own state (a kind of object it never answers
   * about), and `machineAbout(id)` when `machine(id)` is undefined so. A view may then leave it unasked while its restore is
   * owed (GoToPassOptions.viewsFirst): a node selected reads its why and machine in the click without that restore.
   */
  whyNotAbout?(object: ObjectRef): boolean;
  machineAbout?(id: string): boolean;
  /**
   * Optional, while its restore is owed and not begun: false when `whyNot(host, object, world)` would be none once it is
   * restored from `saved` with `from` onto the records `host` holds now (read from those, not from the restore); true where
   * it may answer. A pod selected reads its why in the click without the restore where the controller would say nothing.
   */
  whyNotAfterRestore?(object: ObjectRef, host: ControllerHost, saved: unknown, from: RestoreFrom | undefined, world?: WhyNotWorld): boolean;
  /** the first monitor pass at or after `t`, as things stand (the node lifecycle controller; a why-not's reading of the timeline) */
  monitorPassAtOrAfter?(t: Micros): Micros;
  /** one outcome about a node, for another controller's why-not to chain to (the node lifecycle controller) */
  whyNotOf?(host: ControllerHost, node: string, outcome: 'NodeTaintedNoExecute' | 'NodePodsEvicted', world?: WhyNotWorld): WhyNot | undefined;
  /** the controller's probeTimestamp of a node it tracks (the node lifecycle controller; a why-not's reading of Unknown ahead) */
  probeOf?(node: string): Micros | undefined;
  /**
   * Optional: bad input this controller found in the objects it manages (e.g. a
   * ReplicaSet without a selector, a pod with two controllers), as problems
   * with stable codes; the simulation may add them to its own.
   */
  problems?(): Problem[];
  /**
   * Checkpoints for stepping back: a self-contained copy of all in-memory state, and its restore.
   * `from` (optional to use): what a restore may take over instead of building it again from the
   * whole cluster, for what is derived from the cluster alone (indexes).
   */
  save(): unknown;
  restore(saved: unknown, host: ControllerHost, from?: RestoreFrom): void;
  /** Optional: `restore` with a yield between its parts (a restore in parts: CheckpointStore.restoreInPieces); nothing reads the controller meanwhile. */
  restoreInPieces?(saved: unknown, host: ControllerHost, from?: RestoreFrom): Generator<void, void, void>;
}

/**
 * The controller of the same name that ran until a restore (it is discarded after), and the records
 * the restore put back: each with the record it replaced, which is the one that controller last
 * heard of (undefined: none). Every other pod and node is the very record it last heard of; a pod
 * the restore wrote back into its live record (checkpoint.ts `writePodInto`: same node, phase, spec
 * and owner references, its conditions and such put back) is among those, not in `pods`.
 */
export interface RestoreFrom {
  previous: SimController;
  pods: ReadonlyMap<string, PodRecord | undefined>;
  nodes: ReadonlyMap<string, NodeRecord | undefined>;
  /**
   * The pods put back whose place in the pod map's order is not the live one: created since the
   * checkpoint (again, after a deletion), so the live map had them last, and the restored map at
   * their place then. Every other pod is in the same order in both.
   */
  podsMovedInOrder: ReadonlySet<string>;
}
