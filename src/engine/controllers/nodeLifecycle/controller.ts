/**
 * The node lifecycle controller of kube-controller-manager (1.12 … 1.37), on
 * the simulated clock: the SimController shell (informer events, wakes, views,
 * checkpoints) over the controller's memory (state.ts). See index.ts for the
 * public API and the agreements with the simulation. The work itself is in
 * files named after pkg/controller/nodelifecycle/node_lifecycle_controller.go's
 * functions:
 *   monitorNodeHealth.ts     monitorNodeHealth / monitorNodeStatus, classifyNodes
 *   fastPaths.ts             the pass's shortcuts, proven equal by lazyPasses.test.ts
 *   tryUpdateNodeHealth.ts   tryUpdateNodeHealth / tryUpdateNodeStatus
 *   taintBasedEviction.ts    processTaintBaseEviction, markNodeForTainting, markNodeAsReachable,
 *                            doNoExecuteTaintingPass's item
 *   podEviction.ts           processNoTaintBaseEviction, evictPods, cancelPodEviction, doEvictionPass's
 *                            item, processPod; DeletePods, MarkPodsNotReady (pkg/controller/util/node)
 *   handleDisruption.ts      handleDisruption, setLimiterInZone
 *   doNodeProcessingPass.ts  doNoScheduleTaintingPass, reconcileNodeLabels, doFixDeprecatedTaintKeyPass
 *   reconstruct.ts           controllerMemory reconstructed (spec 1.4)
 *   checkpoint.ts            save / restore
 *   whyNot.ts                why not (yet), from the same guards (guards.ts) and machines
 *
 * Facts shared with the world events and the other controllers through
 * host.remember/recall (the "causes" of decisions):
 *   Node/X  heartbeat                 set by the world (KubeletStopped/KubeletStarted/NodeConditionChanged)
 *   Node/X  ready-status              set by the world when Ready changes, and here by NodeStatusUnknown
 *   Node/X  queued                    set here by NodeQueuedForTainting / NodeQueuedForEviction
 *   Node/X  taint:KEY:EFFECT          set here by TaintAdded (and by the world's taint events)
 *   Zone/K  zone-state                set here by ZoneStateChanged
 *   Pod/N/P deleted                   set here by PodEvicted (and by the other controllers)
 *
 * Performance: a monitor pass only evaluates the nodes whose inputs changed
 * (node/lease events, the controller's own writes), whose grace period has
 * run out, that are not Ready, or that wait for a retry. For every other node
 * the real pass would find nothing to do (the heartbeat is unchanged and
 * probeTimestamp + grace is still ahead), so the results are identical.
 * Nothing is done on a 100 ms pass unless a zone queue is non-empty and its
 * token bucket has a token; pods are only touched through podsByNode.
 */
import { machineView } from '../../machines/view';
import { type Micros, formatTime } from '../../model/time';
import { type LeaseRecord, type NodeRecord, type ObjectRef, type PodRecord, zoneRef } from '../../model/types';
import type { Explanation, MachineView, ZoneStateName, ZoneView } from '../../simulation/api';
import type { WhyNot } from '../../trace/whyNot';
import type { NodeBefore, PodBefore, RestoreFrom, SimController, WatchType } from '../controller';
import type { ControllerHost } from '../controllerHost';
import { type SavedNodeLifecycle, restoreNodeLifecycle, saveNodeLifecycle } from './checkpoint';
import { processPending } from './doNodeProcessingPass';
import { labelsInStep } from './labels';
import { monitorMachine, nodeHealthMachine, zoneMachine } from './machines';
import { monitorPass } from './monitorNodeHealth';
import type { HealthView } from './nodeHealthData';
import { evictItem } from './podEviction';
import { type QueueForecast, type QueueForecastAsk, forecastQueue } from './queueForecast';
import { RateLimitedTimedQueue, effectiveRate } from './rateLimitedQueue';
import { reconstructedProbe, recordMemoryAssumption } from './reconstruct';
import type { Slot } from './slots';
import { type Health, NODE_EVICTION_PERIOD, NodeLifecycleState, type NodeLifecycleOptions, type Track, monitorMachineTable, showRate } from './state';
import { taintItem } from './taintBasedEviction';
import { disruptionExclusion } from './disruption';
import { probeExpired, zoneStateByGuards } from './guards';
import { zoneKeyOfLabels } from '../../model/zones';
import { deprecatedTaintFix, findCondition, noScheduleTaintsUpToDate } from './taints';
import type { NodeLifecycleRules } from './versionRules';
import { type WhyNotWorld, explainWhyNot, nodeWhyNot, podEvictionTime } from './whyNot';

export { NODE_EVICTION_PERIOD, NODE_HEALTH_UPDATE_ATTEMPTS, type NodeLifecycleOptions } from './state';
export type { SavedNodeLifecycle } from './checkpoint';

export class NodeLifecycleController implements SimController {
  readonly name = 'node-lifecycle' as const;

  /** the controller's memory, which the upstream-named files take (state.ts) */
  private readonly s: NodeLifecycleState;

  constructor(options: NodeLifecycleOptions = {}) {
    this.s = new NodeLifecycleState(options);
  }

  start(host: ControllerHost, memory: 'reconstructed' | 'fresh'): void {
    this.s.slots.unsettleAll();
    this.s.applySettings(host);
    this.s.started = true;
    this.s.memory = memory;
    this.s.origin = host.controllerStartTime;
    this.s.nextMonitorAt = host.controllerStartTime;
    this.s.lastNow = host.now;
    this.s.monitor = monitorMachineTable().instance('monitor');
    // Only the very start of a simulation can be reconstructed; a restart is a new leader with empty memory.
    this.s.reconstructPending = memory === 'reconstructed' && host.controllerStartTime === host.startTime;
    if (!this.enabled(host)) return;
    if (host.now === host.startTime) recordMemoryAssumption(this.s, host);
    // The informers' initial list: every node is an Add event (NoSchedule tainting pass, nodeEvictionMap).
    for (const name of host.cluster.nodes.keys()) this.s.enqueueNode(name, host.now);
  }

  onNodeEvent(host: ControllerHost, type: WatchType, node: NodeRecord, _before?: NodeBefore): void {
    if (!this.s.started) return;
    this.s.lastNow = host.now;
    const name = node.meta.name;
    this.s.slots.nodeChanged(name);
    if (type !== 'updated') {
      this.s.sortedNames = null;
      this.s.membershipChanged = true;
    }
    if (type === 'deleted') {
      // CreateDeleteNodeHandler: nodesToRetry.Delete, nodeEvictionMap.unregisterNode
      this.s.retry.delete(name);
      this.s.dirty.delete(name);
      this.s.pendingNodes.delete(name);
      return;
    }
    // nodeEvictionMap.registerNode: a node added again before the pass that forgets it is unmarked anew
    if (type === 'added' && this.s.rules.nodeEvictionMap && !this.s.rules.taintBasedEvictions && this.s.evictionState(name) === 'evicted') {
      this.s.sendNode(name, { type: 'REGISTERED_AGAIN' });
    }
    this.s.dirty.add(name);
    this.s.enqueueNode(name, host.now);
  }

  onNodeHeartbeats(host: ControllerHost, batch: readonly NodeRecord[], count: number): void {
    if (!this.s.started) return;
    this.s.lastNow = host.now;
    const slots = this.s.slots.forBatch(batch, count);
    for (let i = 0; i < count; i++) this.heartbeatOf(host, slots[i], batch[i]);
  }

  /**
   * A kubelet's plain post (an update of heartbeat times only). Without Leases (1.12) every
   * kubelet posts every 10 s: 1.5 million posts an hour at 5,000 nodes. The node is not made
   * dirty (its track cannot have changed: a heartbeat changes no uid, label or taint) but noted
   * as a beat, which the next pass evaluates in full all the same (monitorPass). Each post is a
   * node update the nodeUpdateQueue takes; its passes read only the node's conditions' statuses,
   * taints and unschedulable, which a plain post leaves as they were: a node whose taints
   * already match them is not queued (its passes would patch nothing, and any later change of
   * those comes with an event of its own, which clears taintsMatch; options.verifyTracks
   * compares again and throws on a difference).
   */
  private heartbeatOf(host: ControllerHost, slot: Slot, node: NodeRecord): void {
    slot.settled = undefined;
    this.s.slots.noteBeat(slot);
    if (slot.taintsMatch && !this.s.options.verifyTracks) return;
    if (!this.s.pendingNodes.has(slot.name) && this.nodePassesFindNothing(node)) {
      slot.taintsMatch = true;
      return;
    }
    if (slot.taintsMatch) throw new Error(`node lifecycle: ${slot.name}'s taints no longer match its conditions, and no event said so`);
    this.s.enqueueNode(slot.name, host.now);
  }

  /** doFixDeprecatedTaintKeyPass and doNoScheduleTaintingPass would patch nothing on this node now. */
  private nodePassesFindNothing(node: NodeRecord): boolean {
    if (this.s.rules.taintNodesByCondition && !noScheduleTaintsUpToDate(node, this.s.rules.minor)) return false;
    if (this.s.fixesDeprecatedKeys() && deprecatedTaintFix(node).toAdd.length) return false;
    if (!labelsInStep(node.meta.labels, this.s.rules.labelsSourceOfTruth)) return false;
    return true;
  }

  onLeaseEvent(host: ControllerHost, type: WatchType, lease: LeaseRecord): void {
    if (!this.s.started) return;
    this.s.lastNow = host.now;
    const slot = this.s.slots.addNews(lease.meta.name);
    slot.lease = type === 'deleted' ? undefined : lease;
    if (slot.settled !== 'quiet') slot.settled = undefined;
  }

  /** A renewal batch: as many onLeaseEvent updates, without a look-up per Lease (the batch's slots are remembered). */
  onLeaseRenewals(host: ControllerHost, batch: readonly LeaseRecord[], count: number): void {
    if (!this.s.started) return;
    this.s.lastNow = host.now;
    const slots = this.s.slots.forBatch(batch, count);
    for (let i = 0; i < count; i++) {
      const slot = slots[i];
      this.s.slots.noteNews(slot);
      slot.lease = batch[i];
      if (slot.settled !== 'quiet') slot.settled = undefined;
    }
  }

  /** podUpdated acts on a pod newly bound: the pods of a Ready-only batch stay bound to its node. */
  onPodsReadyChanged(host: ControllerHost): void {
    this.s.lastNow = host.now;
  }

  onPodEvent(host: ControllerHost, type: WatchType, pod: PodRecord, before?: PodBefore, key?: string): void {
    this.s.lastNow = host.now;
    if (!this.s.started || !this.s.rules.podUpdateHandler || type === 'deleted') return;
    // podUpdated: a pod newly bound (added with a node, or its nodeName changed)
    if (pod.nodeName && (type === 'added' || before?.nodeName !== pod.nodeName)) {
      this.s.pendingPods.add(key ?? `${pod.meta.namespace}/${pod.meta.name}`);
      if (this.s.pendingAt === null) this.s.pendingAt = host.now;
    }
  }

  /** True when a monitor pass is due at `now` (the simulation advances host.pass before waking). */
  isMonitorPassDue(now: Micros): boolean {
    return this.s.started && now >= this.s.nextMonitorAt;
  }

  nextWake(): Micros | undefined {
    if (!this.s.started) return undefined;
    let t: Micros = this.s.nextMonitorAt;
    if (this.s.pendingAt !== null && (this.s.pendingNodes.size || this.s.pendingPods.size)) t = Math.min(t, this.s.pendingAt);
    const g = this.s.nextGridPass();
    if (g !== undefined) t = Math.min(t, g);
    return t;
  }

  /**
   * The deadlines armed before `t` that are the nodes' real ones (the probe has not moved since: the
   * pass at `t` evaluates them with their grace run out, monitorPass), and their pods. Reads only:
   * neither pops nor fills the slots' caches.
   */
  podsOfNodesDueBefore(host: ControllerHost, t: Micros): number {
    if (!this.s.started) return 0;
    const grace = host.config.nodeMonitorGracePeriod;
    const byNode = host.cluster.podsByNode;
    let pods = 0;
    const count = (slot: Slot, at: Micros): void => {
      const h = (slot.health as Health | undefined) ?? this.s.health.get(slot.name);
      if (h !== undefined && h.probe + grace === at) pods += byNode.get(slot.name)?.size ?? 0;
    };
    this.s.deadlines.forEachBefore(t, count);
    // a cohort's node with the heap's entry at the same instant is counted there (probes only move forward)
    this.s.cohorts.forEachBefore(t, this.s.slots.all(), (slot, at) => {
      if (slot.armed !== at) count(slot, at);
    });
    return pods;
  }

  /**
   * True when shouldYield cut the wake's work (between two pieces of the pending nodes, of the first pass's
   * registrations, or of the monitor pass's walk): the next wake goes on with the rest, and nothing new.
   */
  wake(host: ControllerHost, shouldYield?: () => boolean): boolean {
    if (!this.s.started) return false;
    const work = this.s.cut ?? this.work(host);
    this.s.ask = shouldYield;
    const left = work.next().done !== true;
    this.s.ask = undefined;
    this.s.cut = left ? work : null;
    return left;
  }

  private *work(host: ControllerHost): Generator<void, void, void> {
    const now = host.now;
    this.s.lastNow = now;
    if (!this.enabled(host)) {
      this.s.nextMonitorAt = Math.max(this.s.nextMonitorAt, now + this.s.period);
      this.s.pendingNodes.clear();
      this.s.pendingPods.clear();
      return;
    }
    yield* processPending(this.s, host);
    if (now >= this.s.nextMonitorAt && this.s.lastMonitorAt !== now) {
      this.s.lastMonitorAt = now;
      yield* monitorPass(this.s, host);
      this.s.nextMonitorAt = host.now + this.s.period;
      // what the pass wrote (status updates) is informer work at this same instant
      yield* processPending(this.s, host);
    }
    if (this.s.isGridTime(now) && (this.s.lastGridPass === null || now > this.s.lastGridPass) && this.s.anyQueued()) {
      this.s.lastGridPass = now;
      this.queuePass(host);
      yield* processPending(this.s, host);
    }
  }

  machines(): MachineView[] {
    const out: MachineView[] = [];
    if (this.s.monitor) out.push(this.view('monitor', this.s.monitor, monitorMachine.definition));
    for (const k of [...this.s.zoneActors.keys()].sort()) out.push(this.view(`zone/${k}`, this.s.zoneActors.get(k)!, zoneMachine.definition));
    const nodeDef = nodeHealthMachine.definition;
    // the node machines' views are kept on their actors: given again while unchanged (machineView)
    for (const a of this.s.nodes.inOrder()) out.push((a.view = machineView(a.view, a.id, a.state(), nodeDef, this.s.transitions.get(a.id))));
    return out;
  }

  machine(id: string): MachineView | undefined {
    if (id === 'monitor') return this.s.monitor ? this.view('monitor', this.s.monitor, monitorMachine.definition) : undefined;
    if (id.startsWith('zone/')) {
      const a = this.s.zoneActors.get(id.slice(5));
      return a && this.view(id, a, zoneMachine.definition);
    }
    const a = id.startsWith('node/') ? this.s.nodes.get(id.slice(5)) : undefined;
    if (a === undefined || a.id !== id) return undefined;
    return (a.view = machineView(a.view, a.id, a.state(), nodeHealthMachine.definition, this.s.transitions.get(a.id)));
  }

  podEvictionDeadlines(host: ControllerHost, limit: number): Map<string, string> {
    const out = new Map<string, string>();
    if (this.s.rules.taintBasedEvictions) return out;
    let asked = 0;
    // no kubelet facts, as before; one memo for every node asked, so that each zone is walked once a view, not once a node
    const world: WhyNotWorld = { kubelet: () => undefined, memo: new Map() };
    for (const node of host.cluster.nodes.values()) {
      if (findCondition(node.conditions, 'Ready')?.status === 'True') continue;
      if (asked++ >= limit) break;
      const name = node.meta.name;
      const due = podEvictionTime(this, host, name, world);
      if (due) out.set(name, due);
    }
    return out;
  }

  podsEvictedFrom(host: ControllerHost, node: string): string[] {
    const out: string[] = [];
    for (const key of host.cluster.podsByNode.get(node) ?? []) {
      const pod = host.cluster.pods.get(key);
      if (pod && this.s.deletes(host, pod, node)) out.push(key);
    }
    return out.sort();
  }

  zones(host: ControllerHost, namesOf?: (zone: string) => boolean): ZoneView[] {
    const out: ZoneView[] = [];
    for (const k of [...this.s.zoneActors.keys()].sort()) {
      const counts = this.s.zoneCounts.get(k) ?? { total: 0, notReady: 0 };
      const q = this.s.queues.get(k);
      const next = q?.nextTry(this.s.gridFrom(host.now), this.s.origin, NODE_EVICTION_PERIOD);
      const zone = zoneRef(k);
      // the names only where asked: building them is a walk of the sorted queue on every step of the panel
      const names = !namesOf || namesOf(zone);
      out.push({
        zone,
        state: this.s.zoneActors.get(k)!.state() as ZoneStateName,
        nodes: counts.total,
        notReady: counts.notReady,
        evictionRate: q ? showRate(effectiveRate(q.limiter)) : host.config.nodeEvictionRate,
        ...(next !== undefined ? { nextTokenAt: formatTime(next) } : {}),
        queued: q && names ? q.queued().map((i) => i.value) : [],
        ...(namesOf ? { queuedCount: q?.length ?? 0 } : {}),
      });
    }
    return out;
  }

  whyNot(host: ControllerHost, object: ObjectRef, world?: WhyNotWorld): Explanation['whyNot'] {
    return explainWhyNot(this, host, object, world);
  }

  /** A node's outcome, for the taint eviction controller's why-not of a pod to chain to. */
  whyNotOf(host: ControllerHost, node: string, outcome: 'NodeTaintedNoExecute' | 'NodePodsEvicted', world?: WhyNotWorld): WhyNot | undefined {
    return nodeWhyNot(this, host, node, outcome, world);
  }

  /** @internal */ get _rules(): NodeLifecycleRules {
    return this.s.rules;
  }

  /** @internal */ healthOf(name: string): HealthView | undefined {
    return this.s.health.get(name)?.view();
  }

  probeOf(name: string): Micros | undefined {
    return this.s.health.get(name)?.probe;
  }

  /** @internal the nodes whose slot holds a health entry, track or machine the maps no longer hold (tests) */
  staleSlotCopies(): string[] {
    const out: string[] = [];
    for (const name of new Set([...this.s.health.keys(), ...this.s.tracks.keys()])) {
      const slot = this.s.slots.get(name);
      if (!slot) continue;
      if (
        (slot.health !== undefined && slot.health !== this.s.health.get(name)) ||
        (slot.track !== undefined && slot.track !== this.s.tracks.get(name)) ||
        (slot.machine !== undefined && slot.machine !== this.s.nodes.get(name))
      )
        out.push(name);
    }
    return out;
  }

  /** @internal */ queueOf(zone: string): RateLimitedTimedQueue | undefined {
    return this.s.queues.get(zone);
  }

  private readonly forecasts = new WeakMap<RateLimitedTimedQueue, { key: string; f: QueueForecast }>();

  /** @internal the zone queue run forward (queueForecast.ts), kept while the queue and the clock stay */
  queueForecast(zone: string, now: Micros, ask: QueueForecastAsk = {}): QueueForecast | undefined {
    // a zone the first pass has not seen yet gets the new queue with a full bucket addPodEvictorForNewZone gives it
    const q = this.s.queues.get(zone) ?? (this.s.zoneActors.has(zone) ? undefined : new RateLimitedTimedQueue(this.s.evictionRate));
    if (!q) return undefined;
    const o = {
      from: this.s.gridFrom(now),
      origin: this.s.origin,
      step: NODE_EVICTION_PERIOD,
      nextMonitor: this.s.nextMonitorAt,
      period: this.s.period,
      requeues: this.s.rules.taintBasedEvictions && this.s.rules.requeuesUntaintedNodes,
    };
    // with nodes still to come, the question's own (the why-not keeps it for the question)
    const { arrivals, swaps, without } = ask;
    if (arrivals?.length || swaps?.length || without?.size) return forecastQueue(q, o, arrivals, swaps, without);
    const key = `${q.changes}|${JSON.stringify(q.limiter)}|${o.from}|${o.nextMonitor}|${o.period}|${o.requeues}`;
    const kept = this.forecasts.get(q);
    if (kept?.key === key) return kept.f;
    const f = forecastQueue(q, o);
    this.forecasts.set(q, { key, f });
    return f;
  }

  /** @internal */ zoneStateOf(zone: string): ZoneStateName | undefined {
    return this.s.zoneActors.get(zone)?.state() as ZoneStateName | undefined;
  }

  /** @internal */ nodeStateOf(name: string): string | undefined {
    return this.s.nodes.get(name)?.state();
  }

  /** @internal */ trackOf(name: string): Readonly<Track> | undefined {
    return this.s.tracks.get(name);
  }

  /** @internal */ isKnown(name: string): boolean {
    return this.s.known.has(name);
  }

  /**
   * @internal probeTimestamp the first monitor pass will give a node it has not seen: as reconstructed
   * from the snapshot at the simulation's start (spec 1.4), else that pass itself (fresh memory).
   */
  firstProbeOf(host: ControllerHost, name: string): Micros | undefined {
    const node = host.cluster.nodes.get(name);
    if (!node) return undefined;
    return this.s.reconstructPending ? reconstructedProbe(this.s, host, node).at : this.s.nextMonitorAt;
  }

  /**
   * @internal The zone as the first monitor pass will count it (handleDisruption), while the
   * controller has no state for it yet (the start, a restart): only when that is plain, every node of
   * it Ready True and its probe still fresh at that pass, so that none goes Unknown there.
   */
  firstZoneOf(host: ControllerHost, zone: string): { total: number; notReady: number; state: ZoneStateName } | undefined {
    if (this.s.zoneActors.has(zone)) return undefined;
    let total = 0;
    for (const node of host.cluster.nodes.values()) {
      if (zoneKeyOfLabels(node.meta.labels) !== zone) continue;
      const probe = this.firstProbeOf(host, node.meta.name);
      if (findCondition(node.conditions, 'Ready')?.status !== 'True' || probe === undefined) return undefined;
      if (probeExpired(this.s.nextMonitorAt, probe, host.config.nodeMonitorGracePeriod)) return undefined;
      if (!disruptionExclusion(node, this.s.rules)) total++;
    }
    return total ? { total, notReady: 0, state: zoneStateByGuards(total, 0, host.config.unhealthyZoneThreshold) } : undefined;
  }

  /** @internal */ inMasterDisruption(): boolean {
    return this.s.monitor?.state().includes('AllZonesFullyDisrupted') ?? false;
  }

  /** @internal */ zoneCountsOf(zone: string): { total: number; notReady: number } | undefined {
    return this.s.zoneCounts.get(zone);
  }

  /** @internal */ nextMonitor(): Micros {
    return this.s.nextMonitorAt;
  }

  monitorPassAtOrAfter(t: Micros): Micros {
    const next = this.s.nextMonitorAt;
    const period = Math.max(1, this.s.period);
    return t <= next ? next : next + Math.ceil((t - next) / period) * period;
  }

  /** @internal */ nextTokenOf(zone: string, now: Micros): Micros | undefined {
    return this.s.queues.get(zone)?.nextTry(this.s.gridFrom(now), this.s.origin, NODE_EVICTION_PERIOD);
  }

  /** @internal */ enabled(host: ControllerHost): boolean {
    return host.config.controllers.has('nodelifecycle');
  }

  private view(id: string, a: { state(): string }, definition: unknown): MachineView {
    return machineView(undefined, id, a.state(), definition, this.s.transitions.get(id));
  }

  /** doNoExecuteTaintingPass / doEvictionPass: every zone queue, in zone order, on the 100 ms grid. */
  private queuePass(host: ControllerHost): void {
    for (const zone of [...this.s.queues.keys()].sort()) {
      const q = this.s.queues.get(zone)!;
      if (!q.length) continue;
      q.try(host.now, (item) => (this.s.rules.taintBasedEvictions ? taintItem(this.s, host, zone, q, item) : evictItem(this.s, host, zone, q, item)));
    }
  }

  save(): SavedNodeLifecycle {
    return saveNodeLifecycle(this.s);
  }

  restore(saved: unknown, host: ControllerHost, from?: RestoreFrom): void {
    // the controller that ran until now: its node machines and health entries are taken over
    const previous = from?.previous instanceof NodeLifecycleController ? from.previous.s : undefined;
    restoreNodeLifecycle(this.s, saved as SavedNodeLifecycle, host, previous);
  }
}
