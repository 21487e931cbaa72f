/**
 * The simulation's ControllerHost: the clock, the world, the trace recorder,
 * the causes memory, injected API faults and the world mutations that keep
 * `cluster.podsByNode` in step and announce every change to every running
 * controller (as informers would), with the `before` values.
 *
 * Fact names remembered by the simulation (controllers `recall` them to cite
 * causes; controllers add their own, e.g. node-lifecycle's
 * `taint:KEY:EFFECT` for TaintAdded and taint-eviction's `deleted`):
 *   Node/X   `heartbeat`       the world decision that started/stopped/changed what the kubelet posts
 *            `ready-status`    the decision that last changed the node's Ready condition (world or kubelet repost)
 *            `condition:TYPE`  the decision that last posted condition TYPE
 *            `taint:KEY:EFFECT` / `untaint:KEY:EFFECT`  a user's taint/untaint event
 *            `created` / `applied` / `deleted`
 *   Pod/NS/N `created` / `applied` / `deleted` / `ready-status` / `phase`
 *   ReplicaSet/NS/N  `created` / `applied` / `scaled` / `deleted`
 *   ControllerManager/kube-controller-manager  `restarted`
 *   ApiCall/VERB/RESOURCE  `fault`  (the FaultInjected decision; ApiCallFailed cites it)
 *
 * Before values: a node's `before` is what the controllers were last told
 * (informers' old object), kept per node; a pod's `before` is what was last
 * announced for it, or, for a pod never announced, its current record with
 * the nodeName it was indexed under (so a binding is always seen as a
 * nodeName change).
 */
import type { ApiResource, ApiVerb, ControllerHost, PodsReadyWrites } from '../controllers/controllerHost';
import type { NodeBefore, PodBefore, PodsReadyBatch, SimController, WatchType } from '../controllers/controller';
import type { ClusterState } from '../model/cluster';
import type { Micros } from '../model/time';
import { formatTime } from '../model/time';
import type { ConditionStatus, LeaseRecord, NodeRecord, ObjectRef, PodCondition, PodRecord, ReplicaSetRecord, Taint } from '../model/types';
import { nsKey } from '../model/types';
import type { ControllerConfig, KubeletConfig } from '../config/types';
import type { VersionBehaviour } from '../versions/types';
import type { ControllerName, DecisionInput, MachineTransition } from '../trace/decision';
import { DecisionLog } from '../trace/decisionLog';
import { explainLater, type Explanation } from '../trace/explainLater';
import { apiCallThrough, armFault, faultsMayFail, type Fault } from './apiFaults';
import { nodeBefore } from '../kubelet/kubelets';
import { BatchMemo } from './batchMemo';
import type { KeptPod } from './checkpoint';
import { causesBefore, setFact, type Facts } from './facts';
import { decisionRecord } from './decisionRecord';
import { SeqIndex } from './seqIndex';
import { indexPodFrom, keptPod, podBeforeOf, PodSlot } from './podIndex';
import { ClearCountingSet, markBatch } from './announced';
import { DirtyPods, ReadyLog } from './dirtyPods';
import { PodReports, type ReadyKeys } from './podReports';
import { settleOrder } from '../model/podOrder';

// simulation.ts and the facts test import these from here (they lived here before the split)
export { setFact, type Facts } from './facts';
export { indexPod } from './podIndex';

export type { Fault } from './apiFaults';

export class SimHost implements ControllerHost {
  now: Micros;
  pass: number | null = null;
  controllerStartTime: Micros;
  readonly trace = new DecisionLog();
  /**
   * Decision seqs by object (explain) and by machine id (the panel's machine drawings), brought up to
   * date from the trace when read, not per decision: building them in decide was a look-up in a map
   * of every object with decisions, and a list, per decision.
   */
  private readonly objectSeqs = new SeqIndex<ObjectRef>(this.trace, (d) => d.object);
  private readonly machineSeqs = new SeqIndex<string>(this.trace, (d) => d.machine?.id);

  /** Decision seqs by object, ascending. */
  get byObject(): ReadonlyMap<ObjectRef, readonly number[]> {
    return this.objectSeqs.get();
  }
  /** The seqs of the decisions that recorded a transition of each machine, ascending. */
  get byMachine(): ReadonlyMap<string, readonly number[]> {
    return this.machineSeqs.get();
  }
  /**
   * The causes memory: per object, its facts and the decision each names, in pairs (fact, seq).
   * Keyed by object rather than by an `object|fact` string: remember and recall run for most
   * decisions, and a key string built per call had to be allocated and hashed whole each time.
   */
  facts: Facts = new Map();
  faults = new Map<string, Fault>();
  /** the running controllers, in the order of spec 1.3 */
  controllers: SimController[] = [];
  /** what the controllers were last told about each node */
  private nodeSeen = new Map<string, NodeBefore>();
  /**
   * Per pod key the host was told of: what it last announced for the pod, the snapshot's record
   * under the key, whether it changed since the last checkpoint. One look-up per pod change
   * instead of one per map (what was announced, the dirty set): at 5,000 nodes a look-up in a map
   * of 150,000 keys is a cache miss or more, and MarkPodsNotReady changes 50,000 pods at once.
   */
  private podSlots = new Map<string, PodSlot>();
  private epoch = 0; // bumped by reindex: what a slot says was announced before is forgotten
  /** The snapshot's pods (never edited: the simulation works on a copy): checkpoints' pods share their metadata when equal. */
  pristinePods: ReadonlyMap<string, PodRecord> = new Map();
  /** checking mode (SimulationOptions.checks.pods): every pod a checkpoint keeps is the pod map's record */
  checkPods = false;
  /** the last condition frozenConditions had to copy */
  private madeCondition: { last?: object } = {};
  /** pod key -> the node it is indexed under in podsByNode */
  private podNode = new Map<string, string>();
  /** called after anyone but the kubelet changed a node's conditions */
  onNodeConditionsChanged: (node: NodeRecord) => void = () => {};

  constructor(
    public cluster: ClusterState,
    readonly config: ControllerConfig,
    readonly kubelet: KubeletConfig,
    readonly behaviour: VersionBehaviour,
    readonly startTime: Micros,
    index?: { byNode: Map<string, Set<string>>; podNode: Map<string, string> },
  ) {
    this.now = startTime;
    this.controllerStartTime = startTime;
    this.reindex(index);
  }

  /**
   * Rebuilds the indexes from the cluster (at start, and after restoring a
   * checkpoint). `podsByNode` is rebuilt in pod order unless the index is
   * given (a checkpoint keeps its changes, so that controllers iterating a
   * node's pods see them in the same order as in a fresh run).
   */
  reindex(
    index?: { byNode: Map<string, Set<string>>; podNode: Map<string, string> },
    putBack?: { pods: Iterable<string>; podsReady?: readonly string[]; nodes: ReadonlySet<string>; replicaSets: ReadonlySet<string> },
  ): void {
    if (putBack) {
      // a step back put back these records and kept the live ones of the rest (`podsReady`: Ready writes undone alone): a view compares these again
      for (const key of putBack.pods) this.podReports.changed(key);
      if (putBack.podsReady) this.podReports.readyChangedAll(putBack.podsReady);
      for (const name of putBack.nodes) this.recordChanges?.nodes.add(name);
      for (const key of putBack.replicaSets) this.recordChanges?.replicaSets.add(key);
    } else {
      // the records were put in wholesale (the start): a view must compare them all
      this.podReports.lose();
      this.recordChangesLost = true;
    }
    // what was announced is forgotten (PodSlot.announced); the slots stay, with their bases (PodSlot.rebase)
    this.epoch++;
    if (putBack) {
      // A node not put back is as it was at the checkpoint, and what the controllers were last told
      // of it then is its entry now (nothing was announced of it since); 5,000 copies a step back.
      for (const name of putBack.nodes) {
        const node = this.cluster.nodes.get(name);
        if (node === undefined) this.nodeSeen.delete(name);
        else this.nodeSeen.set(name, nodeBefore(node));
      }
    } else {
      this.nodeSeen.clear();
      for (const node of this.cluster.nodes.values()) this.nodeSeen.set(node.meta.name, nodeBefore(node));
    }
    let byNode = new Map<string, Set<string>>();
    if (index) {
      byNode = index.byNode;
      this.podNode = index.podNode;
    } else {
      this.podNode = new Map();
      for (const [key, pod] of this.cluster.pods) {
        if (!pod.nodeName) continue;
        this.podNode.set(key, pod.nodeName);
        let s = byNode.get(pod.nodeName);
        if (!s) byNode.set(pod.nodeName, (s = new Set()));
        s.add(key);
      }
    }
    this.cluster.podsByNode = byNode;
  }

  /** The pod index as it is (a step back to a checkpoint after which no pod moved keeps it: see reindex). */
  get currentIndex(): { byNode: Map<string, Set<string>>; podNode: Map<string, string> } {
    return { byNode: this.cluster.podsByNode, podNode: this.podNode };
  }

  /** Pods created, changed or deleted through the host since the last checkpoint, and the copies a checkpoint keeps of them. */
  readonly dirtyPods = new DirtyPods((slot, readyOnly) => this.podCopy(slot, readyOnly));

  /** The copy a checkpoint keeps of a changed pod (keptPod; null: deleted). */
  private podCopy(slot: PodSlot, readyOnly: boolean): KeptPod | null {
    if (this.checkPods && this.cluster.pods.get(slot.key) !== slot.pod)
      throw new Error(`checkpoint: Pod ${slot.key} in the pod map is not the record last passed to the host`);
    return keptPod(slot, readyOnly, this.pristinePods, this.madeCondition, this.checkPods);
  }

  /** A restore or a hand-off put `v` (a kept pod, or the snapshot's record) in the live pod under `key`. */
  podPutBack(key: string, v: KeptPod): void {
    this.slotOf(key).rebase(v);
  }

  private slotOf(key: string): PodSlot {
    let slot = this.podSlots.get(key);
    if (slot === undefined) {
      slot = new PodSlot(key);
      this.podSlots.set(key, slot);
    }
    return slot;
  }

  /** The same for nodes (by name), ReplicaSets (namespace/name) and Leases (node name). */
  dirtyNodes = new Set<string>();
  /**
   * Nodes whose heartbeat times alone were written since the last checkpoint (a kubelet's plain
   * post: `announceHeartbeats`, and the kubelets' `touched`), unless also in dirtyNodes. Every
   * other change of a node goes through announceNode, which puts it in dirtyNodes: a checkpoint
   * keeps such a node's times against its last full copy without comparing the records (see
   * SimulationImpl.saveCheckpoint). A name may be in both; the records changed since the last
   * checkpoint are those of both sets.
   */
  heartbeatNodes = new ClearCountingSet<string>();
  dirtyReplicaSets = new Set<string>();
  /** ReplicaSets whose status alone was written since the last checkpoint (updateReplicaSetStatus), as heartbeatNodes for nodes */
  statusReplicaSets = new Set<string>();
  dirtyLeases = new ClearCountingSet<string>();
  // The logs are flat (pairs one after the other), not an array per entry: checkpoints keep them,
  // 50,000 entries and more for an outage at 5,000 nodes, and a two-element array costs 64 bytes.
  /** Changes of `podsByNode` since the last checkpoint, in order, in pairs: the pod key, the node it is indexed under from then on. */
  indexLog: (string | undefined)[] = [];
  /**
   * The nodes whose set in `podsByNode` changed since the last checkpoint (a pod indexed under or
   * taken from it): a checkpoint keeps those sets alone, so that a restore puts back the sets that
   * changed since instead of building all 150,000 entries again from the snapshot through every log.
   */
  indexNodes = new Set<string>();
  /** MarkPodsNotReady's Ready writes since the last checkpoint (see ReadyLog) */
  readyLog = new ReadyLog();
  /** Keys added to (true) and removed from (false) `cluster.pods` since the last checkpoint, in order, in pairs: key, added. */
  podKeyLog: (string | boolean)[] = [];
  /**
   * The facts remembered since the last checkpoint, in order, in triples: object, fact, seq (one
   * remembered twice is there twice; the later wins when a checkpoint's log is replayed).
   */
  factLog: (string | number)[] = [];

  /** formatTime(now), once per instant: most instants record many decisions */
  private nowText: string | undefined;
  private nowTextAt: Micros = 0;

  /** formatTime(now), made once per instant */
  private timeText(): string {
    if (this.nowText === undefined || this.nowTextAt !== this.now) {
      this.nowTextAt = this.now;
      this.nowText = formatTime(this.now);
    }
    return this.nowText;
  }

  decide(d: DecisionInput): number {
    const seq = this.trace.length + 1;
    const time = this.timeText();
    const causes = d.causes ? causesBefore(d.causes, seq) : [];
    const rec = decisionRecord(d, seq, time, this.pass, causes);
    this.trace.push(rec);
    return seq;
  }

  decideExplainedLater(d: Omit<DecisionInput, 'because'>, explain: Explanation): number {
    const seq = this.trace.length + 1;
    const causes = d.causes ? causesBefore(d.causes, seq) : [];
    const head = { seq, time: this.timeText(), pass: this.pass, controller: d.controller, action: d.action, object: d.object, summary: d.summary };
    this.trace.push(explainLater(head, explain, causes, d.machine ?? null, d.source, d.details));
    return seq;
  }

  decisionCount(): number {
    return this.trace.length;
  }

  /** Forgets every decision after `length` (going back to a checkpoint). */
  truncate(length: number): void {
    if (this.trace.length <= length) return;
    // the indexes read the decisions they take back
    this.objectSeqs.truncate(length);
    this.machineSeqs.truncate(length);
    this.trace.truncate(length);
  }

  remember(object: ObjectRef, fact: string, seq: number): void {
    setFact(this.facts, object, fact, seq);
    this.factLog.push(object, fact, seq);
  }
  recall(object: ObjectRef, fact: string): number | undefined {
    const list = this.facts.get(object);
    if (list === undefined) return undefined;
    for (let i = 0; i < list.length; i += 2) if (list[i] === fact) return list[i + 1] as number;
    return undefined;
  }

  armFault(verb: ApiVerb, resource: ApiResource, count: number, seq: number): void {
    armFault(this.faults, verb, resource, count, seq);
  }

  apiCallsMayFail(): boolean {
    return faultsMayFail(this.faults);
  }

  apiCall(controller: ControllerName, verb: ApiVerb, resource: ApiResource, object: ObjectRef, machine?: MachineTransition | null): boolean {
    return apiCallThrough(this.faults, this, controller, verb, resource, object, machine);
  }

  // ---- world mutations (controllers and world events) ----

  setNodeTaints(node: NodeRecord, taints: Taint[]): void {
    node.taints = taints;
    this.announceNode('updated', node);
  }

  setNodeLabels(node: NodeRecord, labels: Record<string, string>): void {
    // a new meta: the old one may be shared with a checkpoint's copy of the node
    node.meta = { ...node.meta, labels };
    this.announceNode('updated', node);
  }

  updateNodeStatus(node: NodeRecord): void {
    this.announceNode('updated', node);
    this.onNodeConditionsChanged(node);
  }

  private readonly podReports = new PodReports();

  /**
   * For a view that keeps an item per pod (the extension's webview data, 150,000 pods at
   * 5,000 nodes): the keys of the pods created, changed or deleted since the last call, or
   * 'all' on the first call and after the records were put in wholesale (a step back), when
   * the view must compare every pod. Complete because every change of a pod record goes
   * through updatePod, createPod or deletePod (the controllers' contract, controllers/controllerHost.ts).
   * `apart`: the pods changed by Ready writes alone given apart (PodReports).
   */
  takePodChanges(apart?: { ready?: ReadyKeys }): ReadonlySet<string> | 'all' {
    return this.podReports.take(apart);
  }

  /** Names of the nodes and keys of the ReplicaSets announced since takeRecordChanges; null until it is first called. */
  private recordChanges: { nodes: Set<string>; replicaSets: Set<string> } | null = null;
  private recordChangesLost = true;

  /**
   * takePodChanges for nodes and ReplicaSets: the names of the nodes and the keys of the
   * ReplicaSets announced (added, changed, deleted) since the last call, 'all' as there. Complete
   * for what a view shows: a node changes only through announceNode or a kubelet's heartbeat
   * writes (heartbeat times alone, see heartbeatNodes), a ReplicaSet only through
   * announceReplicaSet (the contract checkpoints rely on: dirtyNodes, dirtyReplicaSets).
   */
  takeRecordChanges(): { nodes: ReadonlySet<string> | 'all'; replicaSets: ReadonlySet<string> | 'all' } {
    const lost = this.recordChanges === null || this.recordChangesLost;
    const out = lost ? { nodes: 'all' as const, replicaSets: 'all' as const } : (this.recordChanges as { nodes: Set<string>; replicaSets: Set<string> });
    this.recordChanges = { nodes: new Set(), replicaSets: new Set() };
    this.recordChangesLost = false;
    return out;
  }

  updatePod(
    pod: PodRecord,
    key = nsKey(pod.meta.namespace, pod.meta.name),
    ready?: PodCondition,
    readyStatusWas?: ConditionStatus,
    readyTimeWas?: Micros,
  ): void {
    const slot = this.slotOf(key);
    if (ready !== undefined) this.readyWritten(slot, key, ready, readyStatusWas!, readyTimeWas!);
    else {
      this.dirtyPods.mark(slot, false);
      this.podReports.changed(key);
    }
    const seen = slot.announced(this.epoch);
    const now = this.seenOf(pod, seen);
    const indexed = this.podNode.get(key);
    let before = seen;
    if (!before) {
      // never announced: its current record, under the node it was indexed under; that is `now`
      // itself when the node is the same (both are never edited, see seenOf)
      before = indexed === now.nodeName ? now : { ...now, nodeName: indexed };
    }
    if (indexed !== pod.nodeName) this.moveIndex(key, indexed, pod.nodeName);
    slot.announce(now, this.epoch);
    slot.pod = pod;
    this.notifyPod('updated', pod, before, key);
  }

  /** A pod's Ready condition written in place (updatePod, updatePodsReady): logged for a step back, its slot and reports told. */
  private readyWritten(slot: PodSlot, key: string, ready: PodCondition, statusWas: ConditionStatus, timeWas: Micros): void {
    this.readyLog.push(key, ready, statusWas, timeWas, slot);
    slot.ready = ready;
    this.dirtyPods.mark(slot, true);
    this.podReports.readyChanged(key);
  }

  /**
   * see ControllerHost.updatePodsReady: updatePod for each, without the index's look-up (the pods are
   * indexed under the batch's node, so nothing moves and a pod never announced is its own `before`),
   * the slots looked up in one loop first (independent look-ups in a map of 150,000 keys, whose cache
   * misses overlap), and one call per controller that takes the batch.
   */
  updatePodsReady(w: PodsReadyWrites): void {
    const { count, pods, keys } = w;
    const slots = new Array<PodSlot>(count);
    for (let i = 0; i < count; i++) slots[i] = this.slotOf(keys[i]);
    const before = new Array<PodBefore>(count);
    const epoch = this.epoch;
    for (let i = 0; i < count; i++) {
      const slot = slots[i];
      const key = keys[i];
      const pod = pods[i];
      const ready = w.ready[i];
      if (this.checkPods && (this.podNode.get(key) !== w.node || pod.nodeName !== w.node))
        throw new Error(`updatePodsReady: Pod ${key} is not bound to and indexed under Node ${w.node}`);
      this.readyWritten(slot, key, ready, w.statusWas[i], w.timeWas[i]);
      const seen = slot.announced(epoch);
      const now = this.seenOf(pod, seen);
      before[i] = seen ?? now;
      slot.announce(now, epoch);
      slot.pod = pod;
    }
    const batch: PodsReadyBatch = { node: w.node, count, pods, keys, before };
    for (const c of this.controllers) {
      if (c.onPodsReadyChanged) c.onPodsReadyChanged(this, batch);
      else if (c.onPodEvent) for (let i = 0; i < count; i++) c.onPodEvent(this, 'updated', pods[i], before[i], keys[i]);
    }
  }

  createPod(pod: PodRecord): void {
    const key = nsKey(pod.meta.namespace, pod.meta.name);
    const slot = this.slotOf(key);
    this.dirtyPods.mark(slot);
    this.podReports.changed(key);
    const existing = this.cluster.pods.get(key);
    const seen = slot.announced(this.epoch);
    // The replaced pod as last announced, taken before the index moves: a slot with nothing seen (as a
    // restore leaves every slot) reads the pod's node from the index, which must still be the old one.
    const before = existing ? (seen ?? this.podBefore(key, slot, existing)) : undefined;
    // a new key comes last: after the order a restore left owed (podOrder.ts)
    if (!existing) settleOrder(this.cluster.pods);
    this.cluster.pods.set(key, pod);
    slot.pod = pod;
    this.index(key, pod.nodeName);
    if (before) {
      slot.announce(this.seenOf(pod, seen), this.epoch);
      this.notifyPod('updated', pod, before, key);
      return;
    }
    this.podKeyLog.push(key, true);
    slot.announce(this.seenOf(pod, seen), this.epoch);
    this.notifyPod('added', pod, undefined, key);
  }

  deletePod(pod: PodRecord): void {
    const key = nsKey(pod.meta.namespace, pod.meta.name);
    const current = this.cluster.pods.get(key);
    if (!current) return;
    const slot = this.slotOf(key);
    this.dirtyPods.mark(slot);
    this.podReports.changed(key);
    const before = this.podBefore(key, slot, current);
    this.cluster.pods.delete(key);
    this.podKeyLog.push(key, false);
    this.index(key, undefined);
    slot.announce(undefined, this.epoch);
    slot.pod = undefined;
    this.notifyPod('deleted', current, before, key);
  }

  /** The ReplicaSet controller wrote rs.status (a new object, never edited): announced as an update, as the informer would. */
  updateReplicaSetStatus(rs: ReplicaSetRecord, key = nsKey(rs.meta.namespace, rs.meta.name)): void {
    this.statusReplicaSets.add(key);
    this.announceReplicaSet('updated', rs, key, false);
  }

  // ---- announcements used by the world events ----

  announceNode(type: WatchType, node: NodeRecord): void {
    const name = node.meta.name;
    this.dirtyNodes.add(name);
    this.recordChanges?.nodes.add(name);
    const before = this.nodeSeen.get(name);
    if (type === 'deleted') this.nodeSeen.delete(name);
    else this.nodeSeen.set(name, nodeBefore(node));
    const old = type === 'added' ? undefined : (before ?? nodeBefore(node));
    for (const c of this.controllers) if (c.onNodeEvent) c.onNodeEvent(this, type, node, old);
  }

  /** the kubelets' batches of plain posts, each with its nodes' names */
  private heartbeatBatches = new BatchMemo<NodeRecord, string>();

  /**
   * The kubelets' plain posts of one instant (see KubeletHooks.heartbeats): only heartbeat times
   * changed. A controller that takes the batch gets it at once; any other gets an update per node
   * whose `before` is what the controllers were last told (its statuses, taints and labels are the
   * same), without copying the node.
   */
  announceHeartbeats(batch: readonly NodeRecord[], count: number): void {
    if (!markBatch(this.heartbeatBatches, batch, count, (n) => n.meta.name, this.heartbeatNodes)) return;
    for (const c of this.controllers) {
      if (c.onNodeHeartbeats) c.onNodeHeartbeats(this, batch, count);
      else if (c.onNodeEvent) {
        for (let i = 0; i < count; i++) {
          const node = batch[i];
          c.onNodeEvent(this, 'updated', node, this.nodeSeen.get(node.meta.name) ?? nodeBefore(node));
        }
      }
    }
  }

  /** `dirty`: false for a status write alone (see statusReplicaSets) */
  announceReplicaSet(type: WatchType, rs: ReplicaSetRecord, key = nsKey(rs.meta.namespace, rs.meta.name), dirty = true): void {
    if (dirty) this.dirtyReplicaSets.add(key);
    this.recordChanges?.replicaSets.add(key);
    for (const c of this.controllers) if (c.onReplicaSetEvent) c.onReplicaSetEvent(this, type, rs, key);
  }

  announceLease(type: WatchType, lease: LeaseRecord): void {
    this.dirtyLeases.add(lease.meta.name);
    for (const c of this.controllers) if (c.onLeaseEvent) c.onLeaseEvent(this, type, lease);
  }

  /** the kubelets' renewal batches, each with its Leases' names */
  private renewalBatches = new BatchMemo<LeaseRecord, string>();

  /**
   * The kubelets' plain renewals of one instant (the first `count` records of
   * `batch`). The same Leases renew together every interval: a batch seen
   * before, whose names were put in dirtyLeases since its last clear, is not
   * put there again name by name (1.8 million adds an hour at 5,000 nodes).
   */
  announceLeaseRenewals(batch: readonly LeaseRecord[], count: number): void {
    if (!markBatch(this.renewalBatches, batch, count, (l) => l.meta.name, this.dirtyLeases)) return;
    for (const c of this.controllers) {
      if (c.onLeaseRenewals) c.onLeaseRenewals(this, batch, count);
      else if (c.onLeaseEvent) for (let i = 0; i < count; i++) c.onLeaseEvent(this, 'updated', batch[i]);
    }
  }

  // The informers' fan-out is written as plain loops, not a callback per event:
  // a closure per announcement (millions of Lease renewals and pod updates an
  // hour at 5,000 nodes) is garbage the collector has to chase.
  // Newly started controllers are told nothing: `start` is their informers' initial list.
  private notifyPod(type: WatchType, pod: PodRecord, before: PodBefore | undefined, key: string): void {
    for (const c of this.controllers) if (c.onPodEvent) c.onPodEvent(this, type, pod, before, key);
  }

  /** A pod about to be edited in place (the timeline's phase): not announced since reindex, it would be its own `before`, edited. */
  podEditing(pod: PodRecord): void {
    const key = nsKey(pod.meta.namespace, pod.meta.name);
    const slot = this.slotOf(key);
    if (!slot.announced(this.epoch)) slot.announce(this.podBefore(key, slot, pod), this.epoch);
  }

  private podBefore(key: string, slot: PodSlot, pod: PodRecord): PodBefore {
    const seen = slot.announced(this.epoch);
    if (seen) return seen;
    const b = this.seenOf(pod, undefined);
    b.nodeName = this.podNode.get(key);
    return b;
  }

  /**
   * What an announcement of the pod tells the controllers, kept as the next announcement's
   * `before`: one per pod an outage touched (50,000 at 5,000 nodes). It shares the pod's
   * conditions but Ready, which is shared with the previous one's when equal (frozenConditions).
   */
  private seenOf(pod: PodRecord, prev: PodBefore | undefined): PodBefore {
    return podBeforeOf(pod, prev?.conditions, this.madeCondition);
  }

  private index(key: string, nodeName: string | undefined): void {
    const old = this.podNode.get(key);
    if (old !== nodeName) this.moveIndex(key, old, nodeName);
  }

  private moveIndex(key: string, old: string | undefined, nodeName: string | undefined): void {
    if (!indexPodFrom(this.cluster.podsByNode, this.podNode, key, old, nodeName)) return;
    this.indexLog.push(key, nodeName);
    if (old !== undefined) this.indexNodes.add(old);
    if (nodeName) this.indexNodes.add(nodeName);
  }
}
