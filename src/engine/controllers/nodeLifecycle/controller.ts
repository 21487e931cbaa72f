/**
 * The node lifecycle controller of kube-controller-manager (1.12 … 1.35), on
 * the simulated clock. See index.ts for the public API and the agreements
 * with the simulation; this file ports, function by function,
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth
 * / monitorNodeStatus, tryUpdateNodeHealth / tryUpdateNodeStatus,
 * processTaintBaseEviction, processNoTaintBaseEviction, handleDisruption,
 * doNoExecuteTaintingPass, doEvictionPass, doNoScheduleTaintingPass,
 * doFixDeprecatedTaintKeyPass, markNodeForTainting, markNodeAsReachable,
 * cancelPodEviction, evictPods, classifyNodes, addPodEvictorForNewZone,
 * podUpdated/processPod) and pkg/controller/util/node (MarkPodsNotReady,
 * DeletePods).
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
import type { ControllerHost } from '../controllerHost';
import type { NodeBefore, PodBefore, SimController, WatchType } from '../controller';
import type { Explanation, MachineView, ZoneStateName, ZoneView } from '../../simulation/api';
import type { Check, DecisionInput, MachineTransition } from '../../trace/decision';
import type { Micros } from '../../model/time';
import { formatDuration, formatTime, ms } from '../../model/time';
import type { ConditionStatus, LeaseRecord, NodeCondition, NodeRecord, ObjectRef, PodRecord, Taint } from '../../model/types';
import { nodeRef, podRef, zoneRef } from '../../model/types';
import { zoneKeyOf, zoneKeyOfLabels, zoneLabelsOf } from '../../model/zones';
import { machineView } from '../../machines/view';
import { createTracedActor, type TracedActor } from '../../machines/traced';
import { monitorMachine, nodeHealthMachine, zoneMachine, type NodeHealthEvent, type ReadyStatus } from './machines';
import { RateLimitedTimedQueue, effectiveRate, type QueueState } from './rateLimitedQueue';
import { disruptionExclusion, zoneStateOfCounts } from './disruption';
import { deletePodsDeletes, zoneLimiterQPS, podEvictionTimeoutElapsed, probeExpired } from './guards';
import {
  NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE, deprecatedTaintFix, findCondition, noScheduleTaintDiff, noScheduleTaintsUpToDate, swapTaints, taintExists, taintText,
} from './taints';
import { rulesOf, type NodeLifecycleRules } from './versionRules';
import { labelsInStep, labelsToReconcile } from './labels';
import { MachineTable, type MemoActor } from '../../machines/table';
import { DeadlineHeap } from './deadlines';
import { NodeSlots, NOT_ARMED, type Slot } from './slots';
import { keysSharedWith } from '../../model/sharedKeys';
import { explainWhyNot, nodeWhyNot, podEvictionTime, type WhyNotWorld } from './whyNot';
import type { WhyNot } from '../../trace/whyNot';

/** Decisions that must cite a cause (the checking mode asserts it): the snapshot's state is cited through AssumptionMade. */
const ROOTED_IN_ASSUMPTION: ReadonlySet<string> = new Set(['TaintAdded', 'NodeQueuedForTainting', 'NodeQueuedForEviction', 'PodEvicted']);
import type { StateValue } from 'xstate';

/** scheduler.NodeEvictionPeriod: the tainting / eviction pass runs every 100 ms. */
export const NODE_EVICTION_PERIOD = ms(100);
/**
 * monitorNodeHealth's retries of a failed node status update within one pass:
 * wait.PollImmediate(retrySleepTime = 20 ms, timeout retrySleepTime * NodeHealthUpdateRetry (5) =
 * 100 ms) tries at once, at each tick (20, 40, 60, 80 ms) and once more when the timeout closes the
 * poll (100 ms): 6 attempts (a 7th only when the 100 ms tick wins its race with the timeout).
 */
export const NODE_HEALTH_UPDATE_ATTEMPTS = 6;
const RETRY_SLEEP_TIME = ms(20);
/** the retry of a tainting item whose node has no Ready condition */
const RETRY_NO_READY = ms(50);

const FILE = 'pkg/controller/nodelifecycle/node_lifecycle_controller.go';
const UTIL_FILE = 'pkg/controller/util/node/controller_utils.go';

export interface NodeLifecycleOptions {
  /** override the rules derived from the version (tests) */
  rules?: Partial<NodeLifecycleRules>;
  /**
   * Evaluate every node on every pass, as upstream does, instead of only the
   * nodes with news (tests: the results must be identical).
   */
  evaluateEveryNode?: boolean;
  /**
   * Check what the heartbeat shortcuts rely on (tests): that a track refreshed at the start of a pass,
   * or left as it was for a heartbeat, is still the node's when the node is evaluated; and that a
   * node whose taints matched its conditions at a heartbeat still matches at the next one.
   */
  verifyTracks?: boolean;
}

/** nodeHealthData: what the controller remembers of a node between passes. */
interface Health {
  probe: Micros;
  readyTransition: Micros;
  /** the Ready condition of the saved status; null when the saved status has none */
  savedReady: NodeCondition | null;
  /** the saved Lease (renewTime), or null */
  lease: { renewTime?: Micros } | null;
}

interface Track {
  uid: string;
  zone: string;
  excluded?: string;
  /** the Ready status after the last successful evaluation (null: no Ready condition) */
  current: ConditionStatus | null | undefined;
  /** the node's contribution to its zone's counts, as last tallied */
  counted?: { zone: string; notReady: boolean };
  /**
   * The region and zone labels `zone` was made from (not saved: a restored
   * track makes its key again). While they are the same, the key string is
   * kept: no new string per evaluation, and the map look-ups keyed by it find
   * its hash already computed.
   */
  zoneLabels?: { region: string; zone: string };
}

interface PassContext {
  /** nodes whose evaluation failed this pass: left out of the zone counts */
  skipped: Set<string>;
  /** seqs of decisions that changed a node's Ready this pass, by zone */
  readyChanges: Map<string, number[]>;
}

/**
 * Every node's health and track in a checkpoint, in columns: at 5,000 nodes a
 * checkpoint held a few objects per node, and every Ready node's probe moves
 * between checkpoints, so none could be shared. The names are shared with the
 * previous checkpoint when they are the same.
 */
export interface SavedHealth {
  names: readonly string[];
  /** per node: probe, readyTransition, the saved Lease's renewTime (NaN: none) */
  times: Float64Array;
  /** per node: 1 when a Lease is saved */
  lease: Uint8Array;
  /** replaced, never edited in place (tryUpdateNodeHealth writes a new entry with a copy): shared */
  savedReady: (NodeCondition | null)[];
}

export interface SavedTracks {
  names: readonly string[];
  uid: string[];
  zone: string[];
  excluded: (string | undefined)[];
  current: (ConditionStatus | null | undefined)[];
  /** replaced, never edited in place (recount): shared */
  counted: ({ zone: string; notReady: boolean } | undefined)[];
}

export interface SavedNodeLifecycle {
  started: boolean;
  assumptionSeq: number | undefined;
  memory: 'reconstructed' | 'fresh';
  reconstructPending: boolean;
  origin: Micros;
  nextMonitorAt: Micros;
  lastMonitorAt: Micros | null;
  lastGridPass: Micros | null;
  lastNow: Micros;
  pendingAt: Micros | null;
  pendingNodes: string[];
  pendingPods: string[];
  retryPods: string[];
  known: [string, string][];
  health: SavedHealth;
  tracks: SavedTracks;
  retry: string[];
  evictionStatus: [string, 'unmarked' | 'toBeEvicted' | 'evicted'][];
  dirty: string[];
  leaseRenewed: string[];
  watch: string[];
  deadlines: { t: Micros; name: string }[];
  queues: [string, QueueState][];
  zones: [string, unknown][];
  zoneCounts: [string, { total: number; notReady: number }][];
  nodeActors: [string, StateValue][];
  monitor: unknown;
  transitions: [string, MachineTransition & { seq?: number }][];
}

type NodeActor = MemoActor<typeof nodeHealthMachine>;

/** The node health machine's transitions, shared by every node (see machines/table.ts). */
let nodeTable: MachineTable<typeof nodeHealthMachine> | undefined;
function nodeMachineTable(): MachineTable<typeof nodeHealthMachine> {
  nodeTable ??= new MachineTable(nodeHealthMachine, (e) => (e.type === 'READY_OBSERVED' ? `${e.type}:${e.status}` : e.type));
  return nodeTable;
}
type ZoneActor = TracedActor<typeof zoneMachine>;
type MonitorActor = MemoActor<typeof monitorMachine>;
/** The monitor machine takes two events per pass (PASS_START, PASS_END): a live actor cost ~70 µs each. */
let monitorTable: MachineTable<typeof monitorMachine> | undefined;
function monitorMachineTable(): MachineTable<typeof monitorMachine> {
  monitorTable ??= new MachineTable(monitorMachine, (e) => e.type);
  return monitorTable;
}

export class NodeLifecycleController implements SimController {
  readonly name = 'node-lifecycle' as const;

  private rules!: NodeLifecycleRules;
  private started = false;
  private memory: 'reconstructed' | 'fresh' = 'fresh';
  private reconstructPending = false;
  private origin: Micros = 0;
  private period = 0;
  private nextMonitorAt: Micros = 0;
  private lastMonitorAt: Micros | null = null;
  private lastGridPass: Micros | null = null;
  private lastNow: Micros = 0;

  /** informer work at one instant: nodes for the NoSchedule / deprecated-key passes, pods for processPod */
  private pendingAt: Micros | null = null;
  private pendingNodes = new Set<string>();
  private pendingPods = new Set<string>();
  /** pods whose processPod failed: retried at the next monitor pass */
  private retryPods = new Set<string>();

  /** knownNodeSet: name -> uid */
  private known = new Map<string, string>();
  /** nodeHealthMap */
  private health = new Map<string, Health>();
  private tracks = new Map<string, Track>();
  /** nodesToRetry */
  private retry = new Set<string>();
  /** nodeEvictionMap (pod eviction path, 1.17+): unmarked / toBeEvicted / evicted, for registered nodes */
  private evictionStatus = new Map<string, 'unmarked' | 'toBeEvicted' | 'evicted'>();
  private dirty = new Set<string>();
  /** the node names in order, kept until a node is added or deleted */
  private sortedNames: string[] | null = null;
  /**
   * evaluated on every pass: not Ready, never evaluated; with each node's slot,
   * so that the pass's walk over them (1,667 Unknown nodes every pass while a
   * zone is down at 5,000 nodes) needs no look-up by name. A restore makes new
   * slots, and this map with them.
   */
  private watch = new Map<string, Slot>();
  /** the stamp of the current monitor pass (see Slot.mark) and the slots it evaluates in full */
  private passStamp = 0;
  private full: Slot[] = [];
  /** Ready nodes by probeTimestamp + nodeMonitorGracePeriod */
  private deadlines = new DeadlineHeap<Slot>();
  /**
   * Per node: whether its Lease was renewed since the last pass (and nothing
   * else changed); its armed entry in `deadlines` (see arm); and whether it is
   * settled: Unknown nodes found settled by unchangedUnknown, with nothing new
   * since: 'tainted' (evaluating them does nothing) or 'waiting' (it requeues
   * them); Ready nodes for which a Lease renewal is all the news there can be
   * ('quiet', see leaseOnlySuffices: kept across their Lease renewals).
   * Settled is a cache, not memory: anything that could change the answer for
   * a node forgets it (node and Lease events, its evaluation, its machine, its
   * queue entry), and a restore, a restart or a reset of the probes forgets all.
   */
  private slots = new NodeSlots();
  /** per zone: nodes taking part in disruption checks and how many are not Ready (as of their last evaluation) */
  private tally = new Map<string, { total: number; notReady: number }>();
  /** a node was added or deleted since the last classifyNodes */
  private membershipChanged = true;
  /** some known node's zone may have no state (zone changed, zone dropped, nodes added) */
  private zonesMayBeMissing = true;
  /** zoneNoExecuteTainter (taint-based evictions) or zonePodEvictor (1.12 default path) */
  private queues = new Map<string, RateLimitedTimedQueue>();
  /** zoneStates, as zone machines */
  private zoneActors = new Map<string, ZoneActor>();
  private zoneCounts = new Map<string, { total: number; notReady: number }>();
  private nodeActors = new Map<string, NodeActor>();
  /** the node machines in name order, for machines(); null when one came or went since */
  private sortedNodeActors: NodeActor[] | null = null;
  private monitor!: MonitorActor;
  private transitions = new Map<string, MachineTransition & { seq?: number }>();
  /** --node-monitor-grace-period */
  private grace = 0;
  /** --node-eviction-rate: the QPS a new zone queue starts with */
  private evictionRate = 0.1;
  /** 1.12: doFixDeprecatedTaintKeyPass runs on node events */
  private fixDeprecatedKeys = false;

  constructor(private readonly options: NodeLifecycleOptions = {}) {}

  // ------------------------------------------------------------ SimController

  start(host: ControllerHost, memory: 'reconstructed' | 'fresh'): void {
    this.slots.unsettleAll();
    this.applySettings(host);
    this.started = true;
    this.memory = memory;
    this.origin = host.controllerStartTime;
    this.nextMonitorAt = host.controllerStartTime;
    this.lastNow = host.now;
    this.monitor = monitorMachineTable().instance('monitor');
    // Only the very start of a simulation can be reconstructed; a restart is a new leader with empty memory.
    this.reconstructPending = memory === 'reconstructed' && host.controllerStartTime === host.startTime;
    if (!this.enabled(host)) return;
    if (host.now === host.startTime) this.recordMemoryAssumption(host);
    // The informers' initial list: every node is an Add event (NoSchedule tainting pass, nodeEvictionMap).
    for (const name of host.cluster.nodes.keys()) {
      this.enqueueNode(name, host.now);
      this.evictionStatus.set(name, 'unmarked');
    }
  }

  onNodeEvent(host: ControllerHost, type: WatchType, node: NodeRecord, _before?: NodeBefore): void {
    if (!this.started) return;
    this.lastNow = host.now;
    const name = node.meta.name;
    this.slots.nodeChanged(name);
    if (type !== 'updated') {
      this.sortedNames = null;
      this.membershipChanged = true;
    }
    if (type === 'deleted') {
      // CreateDeleteNodeHandler: nodesToRetry.Delete, nodeEvictionMap.unregisterNode
      this.retry.delete(name);
      this.evictionStatus.delete(name);
      this.dirty.delete(name);
      this.pendingNodes.delete(name);
      return;
    }
    if (type === 'added') this.evictionStatus.set(name, 'unmarked');
    this.dirty.add(name);
    this.enqueueNode(name, host.now);
  }

  onNodeHeartbeats(host: ControllerHost, batch: readonly NodeRecord[], count: number): void {
    if (!this.started) return;
    this.lastNow = host.now;
    const slots = this.slots.forBatch(batch, count);
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
    this.slots.noteBeat(slot);
    if (slot.taintsMatch && !this.options.verifyTracks) return;
    if (!this.pendingNodes.has(slot.name) && this.nodePassesFindNothing(node)) {
      slot.taintsMatch = true;
      return;
    }
    if (slot.taintsMatch) throw new Error(`node lifecycle: ${slot.name}'s taints no longer match its conditions, and no event said so`);
    this.enqueueNode(slot.name, host.now);
  }

  /** doFixDeprecatedTaintKeyPass and doNoScheduleTaintingPass would patch nothing on this node now. */
  private nodePassesFindNothing(node: NodeRecord): boolean {
    if (this.rules.taintNodesByCondition && !noScheduleTaintsUpToDate(node, this.rules.minor)) return false;
    if (this.fixesDeprecatedKeys() && deprecatedTaintFix(node).toAdd.length) return false;
    if (!labelsInStep(node.meta.labels, this.rules.labelsSourceOfTruth)) return false;
    return true;
  }

  onLeaseEvent(host: ControllerHost, type: WatchType, lease: LeaseRecord): void {
    if (!this.started) return;
    this.lastNow = host.now;
    const slot = this.slots.addNews(lease.meta.name);
    slot.lease = type === 'deleted' ? undefined : lease;
    if (slot.settled !== 'quiet') slot.settled = undefined;
  }

  /** A renewal batch: as many onLeaseEvent updates, without a look-up per Lease (the batch's slots are remembered). */
  onLeaseRenewals(host: ControllerHost, batch: readonly LeaseRecord[], count: number): void {
    if (!this.started) return;
    this.lastNow = host.now;
    const slots = this.slots.forBatch(batch, count);
    for (let i = 0; i < count; i++) {
      const slot = slots[i];
      this.slots.noteNews(slot);
      slot.lease = batch[i];
      if (slot.settled !== 'quiet') slot.settled = undefined;
    }
  }

  onPodEvent(host: ControllerHost, type: WatchType, pod: PodRecord, before?: PodBefore): void {
    this.lastNow = host.now;
    if (!this.started || !this.rules.podUpdateHandler || type === 'deleted') return;
    // podUpdated: a pod newly bound (added with a node, or its nodeName changed)
    if (pod.nodeName && (type === 'added' || before?.nodeName !== pod.nodeName)) {
      this.pendingPods.add(`${pod.meta.namespace}/${pod.meta.name}`);
      if (this.pendingAt === null) this.pendingAt = host.now;
    }
  }

  /** True when a monitor pass is due at `now` (the simulation advances host.pass before waking). */
  isMonitorPassDue(now: Micros): boolean {
    return this.started && now >= this.nextMonitorAt;
  }

  nextWake(): Micros | undefined {
    if (!this.started) return undefined;
    let t: Micros = this.nextMonitorAt;
    if (this.pendingAt !== null && (this.pendingNodes.size || this.pendingPods.size)) t = Math.min(t, this.pendingAt);
    const g = this.nextGridPass();
    if (g !== undefined) t = Math.min(t, g);
    return t;
  }

  wake(host: ControllerHost): void {
    if (!this.started) return;
    const now = host.now;
    this.lastNow = now;
    if (!this.enabled(host)) {
      this.nextMonitorAt = Math.max(this.nextMonitorAt, now + this.period);
      this.pendingNodes.clear();
      this.pendingPods.clear();
      return;
    }
    this.processPending(host);
    if (now >= this.nextMonitorAt && this.lastMonitorAt !== now) {
      this.lastMonitorAt = now;
      this.monitorPass(host);
      this.nextMonitorAt = now + this.period;
      // what the pass wrote (status updates) is informer work at this same instant
      this.processPending(host);
    }
    if (this.isGridTime(now) && (this.lastGridPass === null || now > this.lastGridPass) && this.anyQueued()) {
      this.lastGridPass = now;
      this.queuePass(host);
      this.processPending(host);
    }
  }

  machines(): MachineView[] {
    const out: MachineView[] = [];
    if (this.monitor) out.push(this.view('monitor', this.monitor, monitorMachine.definition));
    for (const k of [...this.zoneActors.keys()].sort()) out.push(this.view(`zone/${k}`, this.zoneActors.get(k)!, zoneMachine.definition));
    const nodeDef = nodeHealthMachine.definition;
    // the node machines' views are kept on their actors: given again while unchanged (machineView)
    const sorted = (this.sortedNodeActors ??= [...this.nodeActors.keys()].sort().map((k) => this.nodeActors.get(k)!));
    for (const a of sorted) out.push((a.view = machineView(a.view, a.id, a.state(), nodeDef, this.transitions.get(a.id))));
    return out;
  }

  podEvictionDeadlines(host: ControllerHost, limit: number): Map<string, string> {
    const out = new Map<string, string>();
    if (this.rules.taintBasedEvictions) return out;
    let asked = 0;
    for (const node of host.cluster.nodes.values()) {
      if (findCondition(node.conditions, 'Ready')?.status === 'True') continue;
      if (asked++ >= limit) break;
      const name = node.meta.name;
      const due = podEvictionTime(this, host, name);
      if (due) out.set(name, due);
    }
    return out;
  }

  podsEvictedFrom(host: ControllerHost, node: string): string[] {
    const out: string[] = [];
    for (const key of host.cluster.podsByNode.get(node) ?? []) {
      const pod = host.cluster.pods.get(key);
      if (pod && this.deletes(host, pod, node)) out.push(key);
    }
    return out.sort();
  }

  zones(host: ControllerHost): ZoneView[] {
    const out: ZoneView[] = [];
    for (const k of [...this.zoneActors.keys()].sort()) {
      const counts = this.zoneCounts.get(k) ?? { total: 0, notReady: 0 };
      const q = this.queues.get(k);
      const next = q?.nextTry(this.gridFrom(host.now), this.origin, NODE_EVICTION_PERIOD);
      out.push({
        zone: zoneRef(k),
        state: this.zoneActors.get(k)!.state() as ZoneStateName,
        nodes: counts.total,
        notReady: counts.notReady,
        evictionRate: q ? showRate(effectiveRate(q.limiter)) : host.config.nodeEvictionRate,
        ...(next !== undefined ? { nextTokenAt: formatTime(next) } : {}),
        queued: q ? q.queued().map((i) => i.value) : [],
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

  save(): SavedNodeLifecycle {
    return {
      started: this.started,
      assumptionSeq: this.assumptionSeq,
      memory: this.memory,
      reconstructPending: this.reconstructPending,
      origin: this.origin,
      nextMonitorAt: this.nextMonitorAt,
      lastMonitorAt: this.lastMonitorAt,
      lastGridPass: this.lastGridPass,
      lastNow: this.lastNow,
      pendingAt: this.pendingAt,
      pendingNodes: [...this.pendingNodes],
      pendingPods: [...this.pendingPods],
      retryPods: [...this.retryPods],
      known: [...this.known],
      health: this.saveHealth(),
      tracks: this.saveTracks(),
      retry: [...this.retry],
      evictionStatus: [...this.evictionStatus],
      // a heartbeat is saved as dirty: restored, the node is refreshed and evaluated, as a beat is
      dirty: [...this.dirty, ...this.slots.beatNames().filter((n) => !this.dirty.has(n))],
      leaseRenewed: this.slots.newsNames(),
      watch: [...this.watch.keys()],
      // only the live entries: the heap keeps stale ones until their time comes
      // the deadline each Ready node with an entry stands for (the armed entry may be earlier: see arm)
      deadlines: this.liveDeadlines(),
      queues: [...this.queues].map(([k, q]) => [k, q.save()]),
      zones: [...this.zoneActors].map(([k, a]) => [k, a.actor.getPersistedSnapshot()]),
      zoneCounts: [...this.zoneCounts].map(([k, c]) => [k, { ...c }]),
      nodeActors: [...this.nodeActors].map(([k, a]) => [k, a.save()]),
      monitor: this.monitor ? this.monitor.save() : undefined,
      // transitions are replaced, never edited: shared with the checkpoint
      transitions: [...this.transitions],
    };
  }

  private savedNames: { health: readonly string[]; tracks: readonly string[] } = { health: [], tracks: [] };

  private saveHealth(): SavedHealth {
    const n = this.health.size;
    const names = this.savedNames.health = keysSharedWith(this.savedNames.health, this.health);
    const times = new Float64Array(n * 3);
    const lease = new Uint8Array(n);
    const savedReady: (NodeCondition | null)[] = new Array(n);
    let i = 0;
    for (const h of this.health.values()) {
      times[i * 3] = h.probe;
      times[i * 3 + 1] = h.readyTransition;
      times[i * 3 + 2] = h.lease?.renewTime ?? Number.NaN;
      lease[i] = h.lease ? 1 : 0;
      savedReady[i] = h.savedReady;
      i++;
    }
    return { names, times, lease, savedReady };
  }

  private saveTracks(): SavedTracks {
    const n = this.tracks.size;
    const names = this.savedNames.tracks = keysSharedWith(this.savedNames.tracks, this.tracks);
    const out: SavedTracks = { names, uid: new Array(n), zone: new Array(n), excluded: new Array(n), current: new Array(n), counted: new Array(n) };
    let i = 0;
    for (const t of this.tracks.values()) {
      out.uid[i] = t.uid;
      out.zone[i] = t.zone;
      out.excluded[i] = t.excluded;
      out.current[i] = t.current;
      out.counted[i] = t.counted;
      i++;
    }
    return out;
  }

  private liveDeadlines(): { t: Micros; name: string }[] {
    const out: { t: Micros; name: string }[] = [];
    // each node once, in the order of the entries: its slot marked with a stamp of its own (Slot.mark;
    // a pass's stamp is always newer), its health and track read through the slot (the maps' own)
    const stamp = ++this.passStamp;
    const items = this.deadlines.items();
    for (let i = 0; i < items.length; i++) {
      const slot = items[i];
      if (slot.mark === stamp) continue;
      slot.mark = stamp;
      const h = this.slotHealth(slot);
      if (h && this.slotTrack(slot)?.current === 'True') out.push({ t: h.probe + this.grace, name: slot.name });
    }
    return out;
  }

  /** What the controller reads from its settings and version: the same at start and after a restore. */
  private applySettings(host: ControllerHost): void {
    this.rules = { ...rulesOf(host), ...(this.options.rules ?? {}) };
    this.period = Math.max(1, host.config.nodeMonitorPeriod);
    this.evictionRate = host.config.nodeEvictionRate;
    this.grace = host.config.nodeMonitorGracePeriod;
    this.fixDeprecatedKeys = host.behaviour.fixesDeprecatedTaintKeys;
  }

  restore(saved: unknown, host: ControllerHost): void {
    this.slots.unsettleAll();
    // Copied: only what the live controller edits in place (health, tracks, zone counts, the zone
    // machines' snapshots; queues copy themselves). The rest is replaced, never edited, and is shared
    // with the checkpoint: a structuredClone of all of it (5,000 nodes) was most of a restore.
    const s = saved as SavedNodeLifecycle;
    this.applySettings(host);
    this.started = s.started;
    this.assumptionSeq = s.assumptionSeq;
    this.memory = s.memory;
    this.reconstructPending = s.reconstructPending;
    this.origin = s.origin;
    this.nextMonitorAt = s.nextMonitorAt;
    this.lastMonitorAt = s.lastMonitorAt;
    this.lastGridPass = s.lastGridPass;
    this.lastNow = s.lastNow;
    this.pendingAt = s.pendingAt;
    this.pendingNodes = new Set(s.pendingNodes);
    this.pendingPods = new Set(s.pendingPods);
    this.retryPods = new Set(s.retryPods);
    this.known = new Map(s.known);
    this.health = restoreHealth(s.health);
    this.tracks = restoreTracks(s.tracks);
    this.retry = new Set(s.retry);
    this.evictionStatus = new Map(s.evictionStatus);
    this.dirty = new Set(s.dirty);
    this.slots.reset();
    this.watch = new Map();
    for (const name of s.watch) this.watch.set(name, this.slots.of(name));
    this.deadlines = DeadlineHeap.from(s.deadlines.map((e) => ({ t: e.t, v: this.slots.of(e.name) })));
    for (const name of s.leaseRenewed) this.slots.addNews(name);
    for (const e of s.deadlines) {
      const slot = this.slots.of(e.name);
      if (e.t < slot.armed) slot.armed = e.t;
    }
    this.sortedNames = null;
    this.membershipChanged = true;
    this.zonesMayBeMissing = true;
    this.tally = new Map();
    for (const t of this.tracks.values()) {
      if (!t.counted) continue;
      const c = this.tally.get(t.counted.zone) ?? { total: 0, notReady: 0 };
      c.total++;
      if (t.counted.notReady) c.notReady++;
      this.tally.set(t.counted.zone, c);
    }
    this.queues = new Map(s.queues.map(([k, q]) => [k, RateLimitedTimedQueue.restore(q)]));
    for (const a of this.zoneActors.values()) a.stop();
    this.zoneActors = new Map(s.zones.map(([k, snap]) => [k, createTracedActor(zoneMachine, `zone/${k}`, { snapshot: structuredClone(snap) })]));
    this.zoneCounts = new Map(s.zoneCounts.map(([k, c]) => [k, { ...c }]));
    this.nodeActors = new Map(s.nodeActors.map(([k, value]) => [k, nodeMachineTable().instance(`node/${k}`, value)]));
    this.sortedNodeActors = null;
    this.monitor = monitorMachineTable().instance('monitor', structuredClone(s.monitor) as StateValue | undefined);
    this.transitions = new Map(s.transitions);
  }

  // ------------------------------------------------------- read-only accessors (whyNot, tests)

  /** @internal */ get _rules(): NodeLifecycleRules { return this.rules; }
  /** @internal */ healthOf(name: string): Readonly<Health> | undefined { return this.health.get(name); }
  /** @internal the nodes whose slot holds a health entry or track the maps no longer hold (tests) */
  staleSlotCopies(): string[] {
    const out: string[] = [];
    for (const name of new Set([...this.health.keys(), ...this.tracks.keys()])) {
      const slot = this.slots.get(name);
      if (!slot) continue;
      if ((slot.health !== undefined && slot.health !== this.health.get(name)) || (slot.track !== undefined && slot.track !== this.tracks.get(name))) out.push(name);
    }
    return out;
  }
  /** @internal */ queueOf(zone: string): RateLimitedTimedQueue | undefined { return this.queues.get(zone); }
  /** @internal */ zoneStateOf(zone: string): ZoneStateName | undefined { return this.zoneActors.get(zone)?.state() as ZoneStateName | undefined; }
  /** @internal */ nodeStateOf(name: string): string | undefined { return this.nodeActors.get(name)?.state(); }
  /** @internal */ trackOf(name: string): Readonly<Track> | undefined { return this.tracks.get(name); }
  /** @internal */ isKnown(name: string): boolean { return this.known.has(name); }
  /** @internal */ inMasterDisruption(): boolean { return this.monitor?.state().includes('AllZonesFullyDisrupted') ?? false; }
  /** @internal */ zoneCountsOf(zone: string): { total: number; notReady: number } | undefined { return this.zoneCounts.get(zone); }
  /** @internal */ nextMonitor(): Micros { return this.nextMonitorAt; }
  /** @internal */ nextTokenOf(zone: string, now: Micros): Micros | undefined {
    return this.queues.get(zone)?.nextTry(this.gridFrom(now), this.origin, NODE_EVICTION_PERIOD);
  }
  /** @internal */ enabled(host: ControllerHost): boolean { return host.config.controllers.has('nodelifecycle'); }

  // ---------------------------------------------------------------- helpers

  private src(fn: string, file = FILE): string {
    return `nodelifecycle: ${fn} (${file}, v1.${this.rules.minor})`;
  }
  private get monitorFn(): string { return this.rules.legacyStatusFunctions ? 'monitorNodeStatus' : 'monitorNodeHealth'; }
  private get healthFn(): string { return this.rules.legacyStatusFunctions ? 'tryUpdateNodeStatus' : 'tryUpdateNodeHealth'; }

  private decide(host: ControllerHost, d: Omit<DecisionInput, 'controller'>): number {
    // Every caller passes a literal of its own: it is completed rather than copied (a spread of
    // literals of many shapes is a slow copy), and the host reads its fields into a record of its own.
    const input = d as DecisionInput;
    input.controller = 'node-lifecycle';
    // A taint or eviction of a node that was already unhealthy in the snapshot has no decision
    // of ours behind it: its root is what the controller assumed about the snapshot.
    // After a restart the new leader's first observation is the root: the restart decision.
    if (!input.causes?.length && ROOTED_IN_ASSUMPTION.has(input.action)) {
      const root = this.assumptionSeq ?? host.recall('ControllerManager/kube-controller-manager', 'restarted');
      if (root !== undefined) input.causes = [root];
    }
    const seq = host.decide(input);
    if (d.machine) this.transitions.set(d.machine.id, { ...d.machine, seq });
    return seq;
  }

  private causes(...xs: (number | undefined)[]): number[] {
    const out: number[] = [];
    for (const x of xs) if (x !== undefined && x > 0 && !out.includes(x)) out.push(x);
    return out;
  }

  private view(id: string, a: { state(): string }, definition: unknown): MachineView {
    return machineView(undefined, id, a.state(), definition, this.transitions.get(id));
  }

  private nodeActor(name: string): NodeActor {
    let a = this.nodeActors.get(name);
    if (!a) {
      a = nodeMachineTable().instance(`node/${name}`);
      this.nodeActors.set(name, a);
      this.sortedNodeActors = null;
    }
    return a;
  }

  /** Sends an event to a node's machine; remembers the transition for the machine view. */
  private sendNode(name: string, e: NodeHealthEvent): MachineTransition | null {
    this.slots.unsettle(name);
    const t = this.nodeActor(name).send(e);
    if (t) this.transitions.set(t.id, t);
    return t;
  }

  private evictionState(name: string): string {
    const v = this.nodeActors.get(name)?.stateValue as { eviction?: string } | undefined;
    return v?.eviction ?? 'idle';
  }
  private readyState(name: string): string {
    const v = this.nodeActors.get(name)?.stateValue as { ready?: string } | undefined;
    return v?.ready ?? 'NotObserved';
  }

  private enqueueNode(name: string, now: Micros): void {
    if (!this.rules.taintNodesByCondition && !this.fixesDeprecatedKeys() && this.rules.labelsSourceOfTruth === 'none') return;
    this.pendingNodes.add(name);
    if (this.pendingAt === null) this.pendingAt = now;
  }
  private fixesDeprecatedKeys(): boolean { return this.fixDeprecatedKeys; }

  private isGridTime(t: Micros): boolean {
    return t >= this.origin && (t - this.origin) % NODE_EVICTION_PERIOD === 0;
  }
  private gridFrom(now: Micros): Micros {
    const after = this.lastGridPass === null ? this.origin : this.lastGridPass + NODE_EVICTION_PERIOD;
    return Math.max(after, now, this.origin);
  }
  private nextGridPass(): Micros | undefined {
    let best: Micros | undefined;
    const from = this.gridFrom(this.lastNow);
    for (const q of this.queues.values()) {
      const t = q.nextTry(from, this.origin, NODE_EVICTION_PERIOD);
      if (t !== undefined && (best === undefined || t < best)) best = t;
    }
    return best;
  }
  private anyQueued(): boolean {
    for (const q of this.queues.values()) if (q.length) return true;
    return false;
  }

  /** the AssumptionMade decision of the start (see decide) */
  private assumptionSeq: number | undefined;

  private recordMemoryAssumption(host: ControllerHost): void {
    const reconstructed = this.memory === 'reconstructed';
    this.assumptionSeq = host.decide({
      controller: 'world', action: 'AssumptionMade', object: 'ControllerManager/kube-controller-manager',
      summary: reconstructed
        ? 'Node lifecycle controller memory reconstructed from the snapshot, as if it had been running all along'
        : 'Node lifecycle controller starts with empty memory: every node is newly observed now',
      because: reconstructed
        ? [
          { rule: 'probeTimestamp = the later of the Ready condition\'s lastHeartbeatTime and the Lease\'s renewTime (creationTimestamp when the node never posted Ready)' },
          { rule: 'readyTransitionTimestamp = the Ready condition\'s lastTransitionTime' },
          { rule: 'nodes that already carry the NoExecute taint matching their Ready status count as already tainted (not queued again)' },
          { rule: 'zone states start Initial and are computed at the first monitor pass', values: { firstPass: formatTime(host.controllerStartTime) } },
        ]
        : [
          { rule: 'probeTimestamp = readyTransitionTimestamp = the first monitor pass, for every node that has a Ready condition', values: { firstPass: formatTime(host.controllerStartTime) } },
          { rule: 'every node is registered anew: markNodeAsReachable removes its not-ready/unreachable NoExecute taints (taint-based evictions) or cancelPodEviction forgets it' },
        ],
      source: reconstructed ? 'controller-stepper: controllerMemory reconstructed (spec 1.4)' : 'controller-stepper: controllerMemory fresh (spec 1.4)',
    });
  }

  // ---------------------------------------------------------- informer work

  private processPending(host: ControllerHost): void {
    if (this.pendingAt === null || this.pendingAt > host.now) return;
    const nodes = [...this.pendingNodes].sort();
    const pods = [...this.pendingPods].sort();
    this.pendingNodes.clear();
    this.pendingPods.clear();
    this.pendingAt = null;
    for (const name of nodes) {
      const node = host.cluster.nodes.get(name);
      if (!node) continue;
      if (host.behaviour.fixesDeprecatedTaintKeys) this.doFixDeprecatedTaintKeyPass(host, node);
      if (this.rules.taintNodesByCondition) this.doNoScheduleTaintingPass(host, node);
      // doNodeProcessingPassWorker: the labels after the NoSchedule taints, on every node add and update
      if (this.rules.labelsSourceOfTruth !== 'none') this.reconcileNodeLabels(host, node);
    }
    for (const key of pods) this.processPod(host, key);
  }

  /**
   * reconcileNodeLabels: the OS/arch labels of the other spelling follow the source of truth
   * (labels.ts). A failed patch is logged upstream and not requeued ("TODO: Add nodeName back to
   * the queue"): the node's next update tries again.
   */
  private reconcileNodeLabels(host: ControllerHost, node: NodeRecord): void {
    const truth = this.rules.labelsSourceOfTruth;
    if (labelsInStep(node.meta.labels, truth)) return;
    const { updates, checks } = labelsToReconcile(node.meta.labels, truth);
    const keys = Object.keys(updates);
    if (!keys.length) return;
    const ref = nodeRef(node.meta.name);
    if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref)) return;
    host.setNodeLabels(node, { ...node.meta.labels, ...updates });
    this.decide(host, {
      action: 'NodeLabelsReconciled', object: ref,
      summary: `Set label${keys.length === 1 ? '' : 's'} ${keys.map((k) => `${k}=${updates[k]}`).join(', ')} (kept in step with the ${truth} OS/arch labels)`,
      because: [
        ...checks,
        { rule: `reconcileNodeLabels: the ${truth === 'stable' ? 'stable (kubernetes.io/) OS/arch labels are the source of truth (1.19+)' : 'beta (beta.kubernetes.io/) OS/arch labels are the source of truth (1.14-1.18)'}`, values: { sourceOfTruth: truth } },
      ],
      causes: this.causes(host.recall(ref, 'applied'), host.recall(ref, 'created')),
      source: this.src('reconcileNodeLabels'),
      details: { labels: updates },
    });
  }

  /** doNoScheduleTaintingPass: the NoSchedule taints the conditions (and spec.unschedulable) call for. */
  private doNoScheduleTaintingPass(host: ControllerHost, node: NodeRecord): void {
    if (noScheduleTaintsUpToDate(node, this.rules.minor)) return;
    const { toAdd, toRemove } = noScheduleTaintDiff(node, this.rules.minor);
    if (!toAdd.length && !toRemove.length) return;
    const ref = nodeRef(node.meta.name);
    // failures are logged upstream and not requeued ("TODO: Add nodeName back to the queue")
    if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref)) return;
    const r = swapTaints(node.taints, toAdd, toRemove, host.now);
    host.setNodeTaints(node, r.taints);
    const conditions = Object.fromEntries(node.conditions.map((c) => [c.type, c.status]));
    const because: Check[] = [
      { rule: 'TaintNodesByCondition: each node condition maps to a NoSchedule taint (Ready False -> not-ready, Unknown -> unreachable, pressure True -> its taint), spec.unschedulable -> unschedulable', values: { conditions, unschedulable: node.unschedulable } },
    ];
    const cause = this.causes(host.recall(ref, 'ready-status'), host.recall(ref, 'heartbeat'));
    for (const t of [...r.added, ...r.refreshed]) {
      const seq = this.decide(host, {
        action: 'TaintAdded', object: ref, summary: `Added taint ${taintText(t)}`, because, causes: cause,
        source: this.src('doNoScheduleTaintingPass'),
      });
      host.remember(ref, `taint:${t.key}:${t.effect}`, seq);
    }
    for (const t of r.removed) {
      this.decide(host, {
        action: 'TaintRemoved', object: ref, summary: `Removed taint ${taintText(t)}`, because, causes: this.causes(...cause, host.recall(ref, `taint:${t.key}:${t.effect}`)),
        source: this.src('doNoScheduleTaintingPass'),
      });
    }
  }

  /** doFixDeprecatedTaintKeyPass (1.12): node.alpha.kubernetes.io/notReady|unreachable -> node.kubernetes.io/not-ready|unreachable. */
  private doFixDeprecatedTaintKeyPass(host: ControllerHost, node: NodeRecord): void {
    const { toAdd, toRemove } = deprecatedTaintFix(node);
    if (!toAdd.length) return;
    const ref = nodeRef(node.meta.name);
    if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref)) return;
    const r = swapTaints(node.taints, toAdd, toRemove, host.now);
    host.setNodeTaints(node, r.taints);
    const because: Check[] = [{ rule: 'deprecated taint keys are replaced by their node.kubernetes.io/ names', values: { deprecated: toRemove.map(taintText) } }];
    for (const t of [...r.added, ...r.refreshed]) {
      const seq = this.decide(host, { action: 'TaintAdded', object: ref, summary: `Added taint ${taintText(t)}`, because, source: this.src('doFixDeprecatedTaintKeyPass') });
      host.remember(ref, `taint:${t.key}:${t.effect}`, seq);
    }
    for (const t of r.removed) {
      this.decide(host, { action: 'TaintRemoved', object: ref, summary: `Removed deprecated taint ${taintText(t)}`, because, source: this.src('doFixDeprecatedTaintKeyPass') });
    }
  }

  /** processPod: a pod bound to a node whose saved Ready is not True is marked not ready. */
  private processPod(host: ControllerHost, key: string): void {
    const pod = host.cluster.pods.get(key);
    if (!pod || !pod.nodeName) return;
    const h = this.health.get(pod.nodeName);
    if (!h) return;
    const node = host.cluster.nodes.get(pod.nodeName);
    if (!node) return;
    if (!h.savedReady) return;
    // In taint-based eviction mode only node updates are processed here; otherwise the pod may be evicted at once.
    if (!this.rules.taintBasedEvictions && !this.processNoTaintBaseEviction(host, node, h.savedReady.status, [pod])) {
      this.retryPods.add(key);
      return;
    }
    if (h.savedReady.status !== 'True') {
      const ok = this.markPodsNotReady(host, pod.nodeName, [pod], 'processPod');
      if (!ok) this.retryPods.add(key);
    }
  }

  // ------------------------------------------------------------ monitor pass

  private nodeNames(host: ControllerHost): string[] {
    if (!this.sortedNames || this.sortedNames.length !== host.cluster.nodes.size) this.sortedNames = [...host.cluster.nodes.keys()].sort();
    return this.sortedNames;
  }

  private monitorPass(host: ControllerHost): void {
    const now = host.now;
    const pass = this.monitor.send({ type: 'PASS_START' });
    const total = host.cluster.nodes.size;
    this.decide(host, {
      action: 'MonitorPass', object: 'ControllerManager/kube-controller-manager',
      summary: `Monitor pass over ${total} node${total === 1 ? '' : 's'}`,
      because: [{ rule: 'monitorNodeHealth runs every nodeMonitorPeriod', values: { nodeMonitorPeriod: formatDuration(host.config.nodeMonitorPeriod), nodes: total } }],
      machine: pass, source: this.src(this.monitorFn),
    });
    if (this.reconstructPending) this.reconstruct(host, this.nodeNames(host));

    // classifyNodes (the full comparison only when a node was added or deleted)
    // this pass's stamp (Slot.mark, Slot.refreshed)
    const stamp = ++this.passStamp;
    for (const name of this.dirty) {
      const before = this.tracks.get(name)?.zone;
      const t = this.refreshTrack(host, name);
      if (t?.zone !== before) this.zonesMayBeMissing = true;
      if (t) this.slots.of(name).refreshed = stamp;
    }
    let added: string[] = [];
    let deleted: string[] = [];
    if (this.membershipChanged || this.known.size !== total) {
      const names = this.nodeNames(host);
      added = names.filter((n) => !this.known.has(n));
      deleted = [...this.known.keys()].filter((n) => !host.cluster.nodes.has(n)).sort();
      this.membershipChanged = false;
      this.zonesMayBeMissing = true;
    }
    if (this.zonesMayBeMissing) {
      const repZones = new Set<string>();
      for (const n of this.known.keys()) {
        if (!host.cluster.nodes.has(n)) continue;
        const z = this.trackFor(host, n).zone;
        if (!this.zoneActors.has(z)) repZones.add(z);
      }
      for (const z of [...repZones].sort()) this.addPodEvictorForNewZone(z);
      this.zonesMayBeMissing = false;
    }
    for (const name of added) this.registerNode(host, host.cluster.nodes.get(name)!);
    for (const name of deleted) this.removeNode(host, name);

    // the nodes the real pass would find something to do for (see the file comment): each slot once,
    // marked with this pass's stamp (Slot.mark)
    const grace = host.config.nodeMonitorGracePeriod;
    const full = this.full;
    full.length = 0;
    for (const n of this.dirty) this.markFull(this.slots.of(n), stamp);
    // heartbeats: the track is the one the last refresh made (a plain post changes nothing it is made
    // of, and every other change makes the node dirty); the dirty among them were refreshed above
    for (const slot of this.slots.takeBeats()) {
      slot.refreshed = stamp;
      this.markFull(slot, stamp);
    }
    for (const n of this.retry) this.markFull(this.slots.of(n), stamp);
    const settleInPlace = !this.options.evaluateEveryNode;
    for (const slot of this.watch.values()) {
      if (slot.mark === stamp) continue;
      // A node left Unknown with nothing new is settled in place (see unchangedUnknown)
      if (settleInPlace && !slot.news) {
        const settled = slot.settled;
        if (settled === 'tainted' || settled === 'queued') continue;
        if (settled === 'waiting' && this.requeueSettled(host, slot)) continue;
        if (settled === undefined && this.unchangedUnknown(host, slot.name)) continue;
      }
      this.markFull(slot, stamp);
    }
    if (this.options.evaluateEveryNode) for (const n of this.known.keys()) this.markFull(this.slots.of(n), stamp);
    const deadlines = this.deadlines;
    for (let slot = deadlines.popBefore(now); slot; slot = deadlines.popBefore(now)) {
      const t = deadlines.poppedAt;
      if (slot.armed === t) slot.armed = NOT_ARMED;
      const h = this.slotHealth(slot);
      if (!h) continue;
      const due = h.probe + grace;
      if (due === t) this.markFull(slot, stamp);
      // the probe moved since this entry was armed: arm the real deadline (popped in this loop if it has passed too)
      else if (due > t && this.slotTrack(slot)?.current === 'True') this.armSlot(slot, due);
    }
    // Lease-only news first: plain data, no decisions, so their order does not matter
    for (const slot of this.slots.takeNews()) {
      const name = slot.name;
      if (slot.mark === stamp) { /* evaluated in full below */ }
      else if (slot.settled === 'quiet' || (host.cluster.nodes.has(name) && this.known.has(name) && this.leaseOnlySuffices(host, slot))) this.leaseOnly(host, slot);
      else this.markFull(slot, stamp);
      slot.lease = undefined;
    }
    const ctx: PassContext = { skipped: new Set(), readyChanges: new Map() };
    // in name order, as the set of names sorted was (names are unique: one slot per name)
    full.sort(byName);
    for (let i = 0; i < full.length; i++) {
      const slot = full[i];
      const name = slot.name;
      const node = host.cluster.nodes.get(name);
      if (!node || !this.known.has(name)) continue;
      this.dirty.delete(name);
      slot.news = false;
      slot.lease = undefined;
      this.evaluateNode(host, node, ctx, slot);
    }
    full.length = 0;
    for (const key of [...this.retryPods].sort()) {
      this.retryPods.delete(key);
      this.processPod(host, key);
    }
    this.handleDisruption(host, ctx);
    const end = this.monitor.send({ type: 'PASS_END' });
    if (end) this.transitions.set(end.id, end);
  }

  /**
   * A node the controller already set to Unknown, with no news since: the
   * same heartbeat and Lease as the saved status, probe + grace long past, no
   * retry, its machine already in Unknown. Evaluating it (as upstream does on
   * every pass) writes nothing and decides nothing: tryUpdateNodeHealth finds
   * Ready already Unknown, processTaintBaseEviction finds the node tainted and
   * in the queue's set, or (1.19+) untainted and waiting, which only Removes
   * and Adds it again at now; on the pod-eviction path, see
   * unchangedUnknownEvictionPath. That one effect is applied here; any other
   * case returns false and the node is evaluated in full. At 5,000 nodes with a
   * zone down this is most of the pass (issue 5); every check is live, so a
   * change the controller was not told about (a plain kubelet post) is seen.
   */
  private unchangedUnknown(host: ControllerHost, name: string): boolean {
    if (this.retry.has(name) || this.dirty.has(name)) return false;
    const t = this.tracks.get(name);
    const h = this.health.get(name);
    const node = host.cluster.nodes.get(name);
    if (!t || !h || !node || t.current !== 'Unknown' || !h.savedReady || !this.known.has(name)) return false;
    const ready = findCondition(node.conditions, 'Ready');
    const saved = h.savedReady;
    if (!ready || ready.status !== 'Unknown' || saved.status !== 'Unknown') return false;
    if (ready.lastHeartbeatTime !== saved.lastHeartbeatTime || ready.lastTransitionTime !== saved.lastTransitionTime) return false;
    if (!(host.now > h.probe + host.config.nodeMonitorGracePeriod)) return false;
    if (this.rules.readsLeases) {
      const lease = host.cluster.leases.get(name);
      if (lease && (!h.lease || microBefore(h.lease.renewTime, lease.renewTime))) return false;
    }
    if (this.readyState(name) !== 'Unknown') return false;
    // t.zone is the node's zone: its labels cannot have changed without a node event (dirty)
    const q = this.queues.get(t.zone);
    if (!q) return false;
    if (!this.rules.taintBasedEvictions) return this.unchangedUnknownEvictionPath(host, name, h, q);
    if (taintExists(node.taints, NOT_READY_NO_EXECUTE)) return false;
    if (taintExists(node.taints, UNREACHABLE_NO_EXECUTE) || !this.rules.requeuesUntaintedNodes) {
      if (!q.has(name)) return false;
      this.slots.settle(name, 'tainted');
      return true;
    }
    if (!q.requeue(name, node.meta.uid, host.now)) return false;
    this.slots.settle(name, 'waiting');
    return true;
  }

  /**
   * unchangedUnknown on the pod-eviction path (no taint-based evictions, as in
   * 1.12): processNoTaintBaseEviction with Ready Unknown does nothing before
   * probe + podEvictionTimeout, and after it evictPods only Adds the node to its
   * zone queue, which does nothing once the node is in the queue's set (queued,
   * or evicted and not yet cancelled). That set is left only through
   * cancelPodEviction or an eviction (evictItem), which unsettle the node. In
   * nodeEvictionMap (1.17+) the node must already be toBeEvicted (evictPods
   * would write that) and not evicted (evictPods then deletes the pods that
   * arrived since).
   */
  private unchangedUnknownEvictionPath(host: ControllerHost, name: string, h: Health, q: RateLimitedTimedQueue): boolean {
    if (!(host.now > h.probe + host.config.podEvictionTimeout)) {
      this.unknownSettled++;
      return true;
    }
    if (!q.has(name)) return false;
    if (this.rules.nodeEvictionMap) {
      const e = this.evictionStatus.get(name);
      if (e !== undefined && e !== 'toBeEvicted') return false;
    }
    this.slots.settle(name, 'queued');
    this.unknownSettled++;
    return true;
  }

  /** @internal how many evaluations of Unknown nodes the pod-eviction path left out (tests: it is taken) */
  unknownSettled = 0;

  private markFull(slot: Slot, stamp: number): void {
    if (slot.mark === stamp) return;
    slot.mark = stamp;
    this.full.push(slot);
  }

  /** A node settled as 'waiting' (see settled): only its requeue is due. */
  private requeueSettled(host: ControllerHost, slot: Slot): boolean {
    const t = this.slotTrack(slot);
    const q = t && this.queues.get(t.zone);
    if (t && q && q.requeue(slot.name, t.uid, host.now)) return true;
    slot.settled = undefined;
    return false;
  }

  /**
   * A Ready node whose only news is a Lease renewal, with no controller taint
   * and no queue entry: the real pass would only move its probeTimestamp.
   */
  private leaseOnlySuffices(host: ControllerHost, slot: Slot): boolean {
    const name = slot.name;
    const t = this.slotTrack(slot);
    const h = this.slotHealth(slot);
    if (!t || !h || t.current !== 'True') return false;
    const node = host.cluster.nodes.get(name);
    if (!node || taintExists(node.taints, UNREACHABLE_NO_EXECUTE) || taintExists(node.taints, NOT_READY_NO_EXECUTE)) return false;
    if (this.queues.get(t.zone)?.has(name)) return false;
    slot.settled = 'quiet';
    return true;
  }

  /**
   * Makes sure the node's grace deadline `t` is seen. A Ready node's probe moves
   * on every Lease renewal (every 10 s), far more often than its deadline (40 s)
   * can come: one entry per node is armed, and when it comes due with the probe
   * moved on, the real deadline is armed then (monitorPass). Probes only move
   * forward, so an armed entry is never later than the deadline it stands for.
   */
  private arm(name: string, t: Micros): void {
    this.armSlot(this.slots.of(name), t);
  }

  private armSlot(slot: Slot, t: Micros): void {
    if (slot.armed <= t) return;
    slot.armed = t;
    this.deadlines.push(t, slot);
  }

  /** After an evaluation: which set the node is in, its grace deadline, its zone contribution. */
  private settle(host: ControllerHost, slot: Slot): void {
    const name = slot.name;
    const t = this.slotTrack(slot);
    const h = this.slotHealth(slot);
    if (!t) return;
    if (t.current === 'True' && h) {
      this.watch.delete(name);
      this.armSlot(slot, h.probe + host.config.nodeMonitorGracePeriod);
    } else if (!this.watch.has(name)) {
      this.watch.set(name, slot);
    }
    // the node's zone contribution as it stands (most evaluations): no object made for recount to compare
    const counted = t.counted;
    const counts = t.current !== undefined && !t.excluded;
    const notReady = t.current !== 'True';
    if (counts ? counted !== undefined && counted.zone === t.zone && counted.notReady === notReady : counted === undefined) return;
    this.recount(name, counts ? { zone: t.zone, notReady } : undefined);
  }

  private recount(name: string, next: { zone: string; notReady: boolean } | undefined): void {
    const t = this.tracks.get(name);
    const prev = t?.counted;
    if (prev && next && prev.zone === next.zone && prev.notReady === next.notReady) return;
    if (prev) {
      const c = this.tally.get(prev.zone)!;
      c.total--;
      if (prev.notReady) c.notReady--;
      if (c.total === 0) this.tally.delete(prev.zone);
    }
    if (next) {
      const c = this.tally.get(next.zone) ?? { total: 0, notReady: 0 };
      c.total++;
      if (next.notReady) c.notReady++;
      this.tally.set(next.zone, c);
    }
    if (t) t.counted = next;
  }

  /**
   * tryUpdateNodeHealth for a Ready, unchanged node whose Lease was renewed:
   * the saved status is kept, the probe moves to now (grace cannot have run
   * out), markNodeAsReachable finds nothing to remove. Plain data only.
   */
  private leaseOnly(host: ControllerHost, slot: Slot): void {
    if (!this.rules.readsLeases) return;
    const name = slot.name;
    const h = this.slotHealth(slot)!;
    const observed = slot.lease ?? host.cluster.leases.get(name);
    if (observed && (!h.lease || microBefore(h.lease.renewTime, observed.renewTime))) {
      // in place: a new object per renewal (1.5 million an hour at 5,000 nodes) only to outlive
      // two scavenges and be promoted; nothing else holds this one (checkpoints copy health)
      if (h.lease) h.lease.renewTime = observed.renewTime;
      else h.lease = { renewTime: observed.renewTime };
      h.probe = host.now;
      this.armSlot(slot, h.probe + host.config.nodeMonitorGracePeriod);
    }
  }

  private trackFor(host: ControllerHost, name: string): Track {
    let t = this.tracks.get(name);
    if (!t) {
      t = { uid: '', zone: '', current: undefined };
      this.setTrack(name, t);
      this.refreshTrack(host, name);
    }
    return t;
  }

  // The health map and tracks are written only through these, so that the slots' copies stay true.
  private setHealth(name: string, h: Health): void {
    this.health.set(name, h);
    const slot = this.slots.get(name);
    if (slot) slot.health = h;
  }

  private setTrack(name: string, t: Track | undefined): void {
    if (t) this.tracks.set(name, t);
    else this.tracks.delete(name);
    const slot = this.slots.get(name);
    if (slot) slot.track = t;
  }

  private slotHealth(slot: Slot): Health | undefined {
    return (slot.health ?? (slot.health = this.health.get(slot.name))) as Health | undefined;
  }

  private slotTrack(slot: Slot): Track | undefined {
    return (slot.track ?? (slot.track = this.tracks.get(slot.name))) as Track | undefined;
  }

  /** The node's track brought up to date with the node; returns the track (undefined: none, and no node). */
  private refreshTrack(host: ControllerHost, name: string): Track | undefined {
    const node = host.cluster.nodes.get(name);
    if (!node) return this.tracks.get(name);
    let t = this.tracks.get(name);
    // a track already in the map is the slot's copy or the slot has none (setTrack): only a new one is set
    const fresh = t === undefined;
    if (!t) t = { uid: '', zone: '', current: undefined };
    t.uid = node.meta.uid;
    const labels = zoneLabelsOf(node.meta.labels);
    const seen = t.zoneLabels;
    if (fresh || !seen || seen.region !== labels.region || seen.zone !== labels.zone) {
      t.zone = zoneKeyOfLabels(node.meta.labels);
      t.zoneLabels = labels;
    }
    t.excluded = disruptionExclusion(node, this.rules);
    if (fresh) this.setTrack(name, t);
    return t;
  }

  /** addPodEvictorForNewZone: a zone without a state gets Initial and a new queue with a full bucket. */
  private addPodEvictorForNewZone(zone: string): void {
    if (this.zoneActors.has(zone)) return;
    this.zoneActors.set(zone, createTracedActor(zoneMachine, `zone/${zone}`));
    this.queues.set(zone, new RateLimitedTimedQueue(this.evictionRate));
  }

  private registerNode(host: ControllerHost, node: NodeRecord): void {
    const name = node.meta.name;
    const ref = nodeRef(name);
    this.known.set(name, node.meta.uid);
    this.refreshTrack(host, name);
    const t = this.tracks.get(name)!;
    this.nodeActors.delete(name);
    this.sortedNodeActors = null;
    this.nodeActor(name);
    this.decide(host, {
      action: 'NodeRegistered', object: ref, summary: `Registered Node ${name} in Controller`,
      because: [
        { rule: 'classifyNodes: the node is not in knownNodeSet', values: { zone: zoneRef(t.zone), ...(t.excluded ? { excludedFromDisruption: t.excluded } : {}) } },
        ...(this.health.has(name) ? [] : [{ rule: 'no health data yet: the first evaluation takes now as probeTimestamp (nodeStartupGracePeriod from creationTimestamp when the node never posted Ready)' }]),
      ],
      source: this.src(this.monitorFn),
    });
    this.addPodEvictorForNewZone(t.zone);
    if (this.rules.taintBasedEvictions) this.markNodeAsReachable(host, node, 'the node was (re)registered by the controller');
    else this.cancelPodEviction(host, node, 'the node was (re)registered by the controller');
    this.dirty.add(name);
    if (!this.watch.has(name)) this.watch.set(name, this.slots.of(name));
  }

  private removeNode(host: ControllerHost, name: string): void {
    this.slots.unsettle(name);
    this.known.delete(name);
    this.nodeActors.delete(name);
    this.sortedNodeActors = null;
    this.transitions.delete(`node/${name}`);
    this.recount(name, undefined);
    this.setTrack(name, undefined);
    this.watch.delete(name);
    this.dirty.delete(name);
    this.slots.dropNews(name);
    this.decide(host, {
      action: 'NodeRemoved', object: nodeRef(name), summary: `Removing Node ${name} from Controller`,
      because: [{ rule: 'classifyNodes: the node is in knownNodeSet but no longer in the node list' }],
      causes: this.causes(host.recall(nodeRef(name), 'deleted')),
      source: this.src(this.monitorFn),
    });
  }

  /** controllerMemory reconstructed: the health map, knownNodeSet and processed queue entries from the snapshot. */
  private reconstruct(host: ControllerHost, names: string[]): void {
    this.slots.unsettleAll();
    this.reconstructPending = false;
    for (const name of names) {
      const node = host.cluster.nodes.get(name)!;
      const ref = nodeRef(name);
      this.known.set(name, node.meta.uid);
      this.refreshTrack(host, name);
      const t = this.tracks.get(name)!;
      this.addPodEvictorForNewZone(t.zone);
      const ready = findCondition(node.conditions, 'Ready');
      const lease = this.rules.readsLeases ? host.cluster.leases.get(name) : undefined;
      const renew = lease?.renewTime;
      const base = ready ? ready.lastHeartbeatTime : node.meta.creationTimestamp;
      const probe = renew !== undefined && renew > base ? renew : base;
      this.setHealth(name, {
        probe, readyTransition: ready ? ready.lastTransitionTime : node.meta.creationTimestamp,
        savedReady: ready ? { ...ready } : null, lease: lease ? { renewTime: renew } : null,
      });
      const actor = this.nodeActor(name);
      const obs = ready ? actor.send({ type: 'READY_OBSERVED', status: ready.status }) : null;
      if (obs) this.transitions.set(obs.id, obs);
      let tainted = false;
      if (this.rules.taintBasedEvictions && ready && ready.status !== 'True') {
        const own = ready.status === 'False' ? NOT_READY_NO_EXECUTE : UNREACHABLE_NO_EXECUTE;
        if (taintExists(node.taints, own)) {
          this.queues.get(t.zone)!.markProcessed(name);
          const tr = actor.send({ type: 'TAINT_PASS' });
          if (tr) this.transitions.set(tr.id, tr);
          tainted = true;
        }
      }
      this.decide(host, {
        action: 'NodeRegistered', object: ref, summary: `Registered Node ${name} in Controller (memory reconstructed from the snapshot)`,
        because: [
          {
            rule: 'controllerMemory reconstructed: probeTimestamp = later of Ready lastHeartbeatTime and Lease renewTime; readyTransitionTimestamp = Ready lastTransitionTime',
            values: {
              probeTimestamp: formatTime(probe), from: renew !== undefined && renew > base ? 'Lease renewTime' : ready ? 'Ready lastHeartbeatTime' : 'creationTimestamp (no Ready condition)',
              readyTransitionTimestamp: formatTime(ready ? ready.lastTransitionTime : node.meta.creationTimestamp),
              Ready: ready?.status ?? 'none', zone: zoneRef(t.zone),
            },
          },
          ...(tainted ? [{ rule: 'the node already carries the NoExecute taint matching its Ready status: counted as tainted, not queued again' }] : []),
        ],
        machine: obs, source: 'controller-stepper: controllerMemory reconstructed (spec 1.4)',
      });
      this.dirty.add(name);
      if (!this.watch.has(name)) this.watch.set(name, this.slots.of(name));
    }
  }

  // ------------------------------------------------------- node evaluation

  private evaluateNode(host: ControllerHost, node: NodeRecord, ctx: PassContext, slot: Slot): void {
    const name = node.meta.name;
    slot.settled = undefined;
    // A track refreshed at the start of this pass (the dirty nodes) is up to date: what it is made of (the
    // node's uid, name and labels) changes only by world events and node replacements, which come between
    // passes; the pass itself writes statuses and taints only. (options.verifyTracks checks it.)
    if (slot.refreshed !== this.passStamp) this.refreshTrack(host, name);
    else if (this.options.verifyTracks) this.verifyTrack(node);
    if (this.readyFastPath(host, node, slot, ctx)) return;
    const t = this.tracks.get(name)!;
    const r = this.updateNodeHealthWithRetries(host, node, ctx);
    if (!r.ok) {
      // "Update health of Node from Controller error, Skipping - no pods will be evicted": left out of
      // this pass (zone counts, tainting, pods), evaluated again next pass
      ctx.skipped.add(name);
      this.dirty.add(name);
      return;
    }
    const before = t.current;
    t.current = r.current ? r.current.status : null;
    this.settle(host, slot);
    // A health entry re-created from a new heartbeat forgets the saved Lease, so the next pass takes the
    // (unchanged) Lease as news and moves the probe again: that pass must see this node.
    if (this.rules.readsLeases && this.health.get(name)?.lease === null && host.cluster.leases.has(name)) this.slots.addNews(name);
    if (r.current && !r.setUnknownSeq && this.readyState(name) !== r.current.status) {
      this.sendNode(name, { type: 'READY_OBSERVED', status: r.current.status as ReadyStatus });
    }
    if (before !== t.current && r.setUnknownSeq === undefined) {
      const seq = host.recall(nodeRef(name), 'ready-status');
      if (seq !== undefined) pushMap(ctx.readyChanges, t.zone, seq);
    }
    if (!r.current) return;
    if (this.rules.taintBasedEvictions) {
      const status = host.behaviour.unreachableTaintQueuedSamePass ? r.current.status : r.observed.status;
      this.processTaintBaseEviction(host, node, status);
    } else {
      this.processNoTaintBaseEviction(host, node, r.observed.status);
    }
    // MarkPodsNotReady when Ready leaves True (and its retry)
    const leftTrue = r.current.status !== 'True' && r.observed.status === 'True';
    if (this.rules.retriesMarkPodsNotReady) {
      const needsRetry = this.retry.has(name);
      if (leftTrue || (needsRetry && r.observed.status !== 'True')) {
        if (!this.markPodsNotReady(host, name, this.podsOn(host, name), this.rules.markOnlyChangedPods ? 'MarkPodsNotReady' : 'MarkAllPodsNotReady')) {
          this.retry.add(name);
          return;
        }
      }
      this.retry.delete(name);
    } else if (leftTrue) {
      this.markPodsNotReady(host, name, this.podsOn(host, name), 'MarkAllPodsNotReady');
    }
  }

  /**
   * evaluateNode for a node that posts Ready True, when the evaluation can only
   * renew its health entry: the node's machine is Ready and idle, it is not in
   * its zone queue's set, it carries neither NoExecute taint (taint-based
   * evictions) or is unmarked in nodeEvictionMap (the pod-eviction path, 1.17+),
   * and its grace cannot have run out. Two cases: a new heartbeat (a plain
   * status post, every 5 minutes per node with Leases: about 57,000
   * evaluations an hour at 5,000 nodes; every 10 s without them, as in 1.12:
   * 1.2 million), which re-creates the entry from the node (probe = now); and
   * the same heartbeat as the saved status (the first pass of a reconstructed
   * memory, a node event that was not a post, e.g. its taints), which keeps the
   * entry but for a renewed Lease. tryUpdateNodeHealth then writes no status,
   * and markNodeAsReachable (cancelPodEviction) finds nothing to remove: no API
   * call, no decision, no pod touched. Applied here as plain data, as
   * evaluateNode applies it; any other case returns false and the node is
   * evaluated in full. Off when every node is evaluated (the lazy-pass test
   * compares the two).
   */
  private readyFastPath(host: ControllerHost, node: NodeRecord, slot: Slot, ctx: PassContext): boolean {
    if (this.options.evaluateEveryNode) return false;
    const taintBased = this.rules.taintBasedEvictions;
    const name = slot.name;
    const t = this.slotTrack(slot);
    const h = this.slotHealth(slot);
    if (!t || !h) return false;
    const saved = h.savedReady;
    const ready = findCondition(node.conditions, 'Ready');
    if (!saved || !ready || ready.status !== 'True') return false;
    const taints = node.taints;
    // markNodeAsReachable would remove these (taint-based evictions; the pod-eviction path leaves taints alone)
    if (taintBased && (taintExists(taints, UNREACHABLE_NO_EXECUTE) || taintExists(taints, NOT_READY_NO_EXECUTE))) return false;
    // in the zone queue's set: markNodeAsReachable or cancelPodEviction would remove it
    const q = this.queues.get(t.zone);
    if (q && (q.has(name) || q.isQueued(name))) return false;
    // cancelPodEviction would mark the node 'unmarked' in nodeEvictionMap (1.17+ without taint-based evictions)
    if (!taintBased && this.rules.nodeEvictionMap) {
      const e = this.evictionStatus.get(name);
      if (e !== undefined && e !== 'unmarked') return false;
    }
    const v = this.nodeActors.get(name)?.stateValue as { ready?: string; eviction?: string } | undefined;
    if ((v?.ready ?? 'NotObserved') !== 'True' || (v?.eviction ?? 'idle') !== 'idle') return false;
    // tryUpdateNodeHealth: the heartbeat, then the Lease ("always update the probe time if the node lease is renewed")
    const now = host.now;
    const heartbeat = ready.lastHeartbeatTime !== saved.lastHeartbeatTime;
    const observed = this.rules.readsLeases ? host.cluster.leases.get(name) : undefined;
    const renewed = observed !== undefined && (!h.lease || microBefore(h.lease.renewTime, observed.renewTime));
    const grace = host.config.nodeMonitorGracePeriod;
    if (now > (heartbeat || renewed ? now : h.probe) + grace) return false;
    // The new entry is written into the old one: nothing else holds a health entry (checkpoints copy them
    // into columns, restore makes new ones), and the map and the slot already point at it. A renewed
    // Lease is a new object, as tryUpdateNodeHealth makes (the old one may be shared with an entry it copied).
    if (heartbeat) {
      // "the heartbeat changed": a new entry from the node, the saved status follows the node's
      h.readyTransition = saved.lastTransitionTime !== ready.lastTransitionTime ? now : h.readyTransition;
      h.probe = now;
      h.savedReady = { ...ready };
      h.lease = renewed ? { renewTime: observed.renewTime } : null;
      this.plainPosts++;
    } else {
      // the same heartbeat: the entry as it was
      if (renewed) {
        h.lease = { renewTime: observed.renewTime };
        h.probe = now;
      }
      this.unchangedReady++;
    }
    // evaluateNode: Ready is True; settle
    const before = t.current;
    t.current = 'True';
    this.settle(host, slot);
    // an entry that forgot the saved Lease: the next pass takes the Lease as news (see evaluateNode)
    if (this.rules.readsLeases && h.lease === null && host.cluster.leases.has(name)) this.slots.noteNews(slot);
    if (before !== 'True') {
      const seq = host.recall(nodeRef(name), 'ready-status');
      if (seq !== undefined) pushMap(ctx.readyChanges, t.zone, seq);
    }
    // markNodeAsReachable (or cancelPodEviction): nothing to remove, nothing queued, machine idle; nodesToRetry
    // (the observed Ready is True)
    if (this.rules.retriesMarkPodsNotReady) this.retry.delete(name);
    return true;
  }

  /** @internal how many evaluations readyFastPath made, with a new heartbeat and with the same (tests: both are taken) */
  plainPosts = 0;
  unchangedReady = 0;

  /** options.verifyTracks: the track refreshTrack would make now is the one kept. */
  private verifyTrack(node: NodeRecord): void {
    const t = this.tracks.get(node.meta.name);
    const zone = zoneKeyOf(node);
    const excluded = disruptionExclusion(node, this.rules);
    if (!t || t.uid !== node.meta.uid || t.zone !== zone || t.excluded !== excluded) {
      throw new Error(`node lifecycle: the track of ${node.meta.name} changed during the pass (${JSON.stringify({ t, uid: node.meta.uid, zone, excluded })})`);
    }
  }

  private podsOn(host: ControllerHost, node: string): PodRecord[] {
    const keys = host.cluster.podsByNode.get(node);
    if (!keys) return [];
    // in key order; the index is usually in that order already (pods indexed in snapshot order), and
    // checking costs one comparison per key where the sort costs several
    const sorted = [...keys];
    for (let i = 1; i < sorted.length; i++) {
      if (!(sorted[i - 1] < sorted[i])) {
        sorted.sort();
        break;
      }
    }
    const out: PodRecord[] = [];
    for (let i = 0; i < sorted.length; i++) {
      const p = host.cluster.pods.get(sorted[i]);
      if (p) out.push(p);
    }
    return out;
  }

  /**
   * monitorNodeHealth's (1.12: monitorNodeStatus's) retry loop around tryUpdateNodeHealth:
   * `wait.PollImmediate(retrySleepTime, retrySleepTime*NodeHealthUpdateRetry, ...)`, re-reading the
   * node after each failure (here the record itself: a failed write left it as it was). The
   * attempts are made at the pass's instant; upstream sleeps 20 ms between them.
   */
  private updateNodeHealthWithRetries(host: ControllerHost, node: NodeRecord, ctx: PassContext): ReturnType<NodeLifecycleController['tryUpdateNodeHealth']> {
    for (let failed = 0; ; failed++) {
      const r = this.tryUpdateNodeHealth(host, node, ctx, failed);
      if (r.ok || failed + 1 >= NODE_HEALTH_UPDATE_ATTEMPTS) return r;
    }
  }

  /**
   * tryUpdateNodeHealth (1.13+) / tryUpdateNodeStatus (1.12): the probe and
   * transition timestamps, and Ready etc. set to Unknown once probe + grace
   * has passed. Returns the observed (before) and current (after) Ready.
   */
  private tryUpdateNodeHealth(host: ControllerHost, node: NodeRecord, ctx: PassContext, failedAttempts = 0):
    { ok: boolean; observed: NodeCondition; current: NodeCondition | null; setUnknownSeq?: number } {
    const now = host.now;
    const name = node.meta.name;
    const ref = nodeRef(name);
    const cfg = host.config;
    // The working copy of the conditions is made only when they are about to be set to Unknown: until
    // then it would equal node.conditions (a heartbeat's evaluation reads, it does not write).
    let work: NodeCondition[] = node.conditions;
    const readyW = findCondition(work, 'Ready');
    let h = this.health.get(name);
    let observed: NodeCondition;
    let grace: number;
    // The saved status follows the working copy when the health entry is (re)created from this node (Go: status = &node.Status).
    let followsWork = false;
    if (!readyW) {
      observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: node.meta.creationTimestamp, lastTransitionTime: node.meta.creationTimestamp };
      grace = cfg.nodeStartupGracePeriod;
      if (h && !this.rules.legacyStatusFunctions) {
        h = { ...h };
      } else {
        h = { probe: node.meta.creationTimestamp, readyTransition: node.meta.creationTimestamp, savedReady: null, lease: null };
      }
      followsWork = true;
    } else {
      observed = { ...readyW };
      grace = cfg.nodeMonitorGracePeriod;
    }
    const savedReady = followsWork ? null : h ? h.savedReady : null;
    const savedLease = h ? h.lease : null;
    if (!h) {
      // "Missing timestamp for Node. Assuming now as a timestamp."
      h = { probe: now, readyTransition: now, savedReady: null, lease: null };
      followsWork = true;
    } else if (!followsWork && savedReady === null && readyW) {
      // "Creating timestamp entry for newly observed Node"
      h = { probe: now, readyTransition: now, savedReady: null, lease: null };
      followsWork = true;
    } else if (!followsWork && savedReady && readyW && savedReady.lastHeartbeatTime !== readyW.lastHeartbeatTime) {
      const transition = savedReady.lastTransitionTime !== readyW.lastTransitionTime ? now : h.readyTransition;
      h = { probe: now, readyTransition: transition, savedReady: null, lease: null };
      followsWork = true;
    } else {
      h = { ...h };
    }
    // Always update the probe time if the node lease is renewed.
    let observedLease: LeaseRecord | undefined;
    if (this.rules.readsLeases) {
      observedLease = host.cluster.leases.get(name);
      if (observedLease && (!savedLease || microBefore(savedLease.renewTime, observedLease.renewTime))) {
        h.lease = { renewTime: observedLease.renewTime };
        h.probe = now;
      }
    }
    if (probeExpired(now, h.probe, grace)) {
      work = node.conditions.map((c) => ({ ...c }));
      const changed: string[] = [];
      for (const type of host.behaviour.conditionsSetUnknown) {
        const c = findCondition(work, type);
        if (!c) {
          work.push({
            type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
            lastHeartbeatTime: node.meta.creationTimestamp, lastTransitionTime: now,
          });
          changed.push(`${type}=Unknown (never posted)`);
        } else if (c.status !== 'Unknown') {
          changed.push(`${type}=Unknown (was ${c.status})`);
          c.status = 'Unknown';
          c.reason = 'NodeStatusUnknown';
          c.message = 'Kubelet stopped posting node status.';
          c.lastTransitionTime = now;
        }
      }
      const current = findCondition(work, 'Ready')!;
      if (!sameCondition(current, observed)) {
        if (!host.apiCall('node-lifecycle', 'update', 'nodes', ref)) {
          this.finishHealth(name, h, followsWork, work);
          return { ok: false, observed, current: copyCond(current) };
        }
        node.conditions = work;
        host.updateNodeStatus(node);
        this.setHealth(name, {
          probe: h.probe, readyTransition: now, savedReady: copyCond(current),
          lease: this.rules.legacyStatusFunctions ? null : observedLease ? { renewTime: observedLease.renewTime } : null,
        });
        const tr = this.sendNode(name, { type: 'STATUS_UNKNOWN_SET' });
        const neverPosted = !readyW;
        const because: Check[] = [
          {
            rule: `no heartbeat for longer than ${neverPosted ? 'nodeStartupGracePeriod (the kubelet never posted Ready)' : 'nodeMonitorGracePeriod'}: now > probeTimestamp + grace`,
            values: {
              now: formatTime(now), probeTimestamp: formatTime(h.probe), [neverPosted ? 'nodeStartupGracePeriod' : 'nodeMonitorGracePeriod']: formatDuration(grace),
              deadline: formatTime(h.probe + grace),
              ...(readyW ? { lastHeartbeatTime: formatTime(readyW.lastHeartbeatTime) } : {}),
              ...(this.rules.readsLeases ? { leaseRenewTime: observedLease?.renewTime !== undefined ? formatTime(observedLease.renewTime) : 'none' } : {}),
            },
          },
          { rule: 'conditions set to Unknown', values: { changed, reason: neverPosted ? 'NodeStatusNeverUpdated' : 'NodeStatusUnknown' } },
        ];
        if (failedAttempts > 0) {
          because.push({
            rule: `the status update succeeded after failed attempts in the same pass (${this.monitorFn} tries ${NODE_HEALTH_UPDATE_ATTEMPTS} times, ${formatDuration(RETRY_SLEEP_TIME)} apart)`,
            values: { attempt: failedAttempts + 1, failedAttempts },
          });
        }
        const seq = this.decide(host, {
          action: 'NodeStatusUnknown', object: ref,
          summary: neverPosted ? 'Kubelet never posted node status: Ready set to Unknown' : `Kubelet stopped posting node status: Ready ${observed.status} -> Unknown`,
          because, causes: this.causes(host.recall(ref, 'heartbeat')), machine: tr, source: this.src(this.healthFn),
        });
        host.remember(ref, 'ready-status', seq);
        pushMap(ctx.readyChanges, this.tracks.get(name)?.zone ?? '', seq);
        this.dirty.add(name);
        this.enqueueNode(name, now);
        return { ok: true, observed, current: copyCond(current), setUnknownSeq: seq };
      }
    }
    this.finishHealth(name, h, followsWork, work);
    return { ok: true, observed, current: copyCond(findCondition(work, 'Ready')) };
  }

  /** tryUpdateNodeHealth's last step (a method, not a closure made per call): the saved status, the entry. */
  private finishHealth(name: string, h: Health, followsWork: boolean, work: readonly NodeCondition[]): void {
    if (followsWork) h.savedReady = copyCond(findCondition(work, 'Ready'));
    this.setHealth(name, h);
  }

  // ------------------------------------------------- taint-based evictions

  /** processTaintBaseEviction (and 1.12's inline equivalent). */
  private processTaintBaseEviction(host: ControllerHost, node: NodeRecord, status: ConditionStatus): void {
    if (status === 'False') {
      if (taintExists(node.taints, UNREACHABLE_NO_EXECUTE)) this.instantSwap(host, node, NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE, status);
      else this.markNodeForTainting(host, node, status);
    } else if (status === 'Unknown') {
      if (taintExists(node.taints, NOT_READY_NO_EXECUTE)) this.instantSwap(host, node, UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE, status);
      else this.markNodeForTainting(host, node, status);
    } else {
      this.markNodeAsReachable(host, node, 'Ready is True');
    }
  }

  /** "We want to update the taint straight away if Node is already tainted with the opposite taint". */
  private instantSwap(host: ControllerHost, node: NodeRecord, add: Taint, remove: Taint, status: ConditionStatus): void {
    const ref = nodeRef(node.meta.name);
    if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref)) {
      this.dirty.add(node.meta.name);
      return;
    }
    const r = swapTaints(node.taints, [add], [remove], host.now);
    host.setNodeTaints(node, r.taints);
    const tr = this.sendNode(node.meta.name, { type: 'TAINT_SWAPPED' });
    const because: Check[] = [
      { rule: `Ready condition is ${status}`, values: { Ready: status } },
      { rule: 'the node already carries the opposite NoExecute taint: swapped at once, without the zone queue', values: { had: taintText(remove) } },
    ];
    const cause = this.causes(host.recall(ref, 'ready-status'));
    for (const t of [...r.added, ...r.refreshed]) {
      const seq = this.decide(host, { action: 'TaintAdded', object: ref, summary: `Added taint ${taintText(t)} (swapped for ${taintText(remove)})`, because, causes: cause, machine: tr, source: this.src('processTaintBaseEviction') });
      host.remember(ref, `taint:${t.key}:${t.effect}`, seq);
    }
    for (const t of r.removed) {
      this.decide(host, { action: 'TaintRemoved', object: ref, summary: `Removed taint ${taintText(t)} (swapped for ${taintText(add)})`, because, causes: this.causes(...cause, host.recall(ref, `taint:${t.key}:${t.effect}`)), machine: tr, source: this.src('processTaintBaseEviction') });
    }
  }

  /** markNodeForTainting: into the zone's rate-limited tainting queue. */
  private markNodeForTainting(host: ControllerHost, node: NodeRecord, status: ConditionStatus): void {
    const name = node.meta.name;
    this.slots.unsettle(name);
    const zone = this.tracks.get(name)?.zone ?? zoneKeyOf(node);
    this.addPodEvictorForNewZone(zone);
    const q = this.queues.get(zone)!;
    const wasQueued = q.isQueued(name);
    const own = status === 'False' ? NOT_READY_NO_EXECUTE : UNREACHABLE_NO_EXECUTE;
    if (this.rules.requeuesUntaintedNodes && !taintExists(node.taints, own)) q.remove(name);
    if (!q.add(name, node.meta.uid, host.now) || wasQueued) return;
    const ref = nodeRef(name);
    const tr = this.sendNode(name, { type: 'QUEUED_FOR_TAINTING' });
    const zoneState = this.zoneActors.get(zone)?.state() ?? 'Initial';
    const seq = this.decide(host, {
      action: 'NodeQueuedForTainting', object: ref,
      summary: `Node is ${status === 'False' ? 'NotReady' : 'unresponsive'}: added to the taint queue of ${zoneRef(zone)}`,
      because: [
        { rule: `Ready condition is ${status}`, values: { Ready: status } },
        { rule: `the node does not carry ${taintText(own)} yet`, values: { taints: node.taints.map(taintText) } },
        { rule: 'the zone queue releases nodes at the zone\'s eviction rate (token bucket, burst 1)', values: { zone: zoneRef(zone), zoneState, rate: showRate(effectiveRate(q.limiter)), queued: q.length } },
      ],
      causes: this.causes(host.recall(ref, 'ready-status')), machine: tr, source: this.src(this.rules.legacyStatusFunctions ? this.monitorFn : 'processTaintBaseEviction'),
    });
    host.remember(ref, 'queued', seq);
  }

  /** markNodeAsReachable: removes the not-ready/unreachable NoExecute taints and the queue entry. */
  private markNodeAsReachable(host: ControllerHost, node: NodeRecord, why: string): boolean {
    const name = node.meta.name;
    this.slots.unsettle(name);
    const ref = nodeRef(name);
    let decided = false;
    let tr: MachineTransition | null = null;
    for (const t of [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE]) {
      if (!taintExists(node.taints, t)) continue;
      if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref)) {
        this.dirty.add(name);
        return false;
      }
      const r = swapTaints(node.taints, [], [t], host.now);
      host.setNodeTaints(node, r.taints);
      tr ??= this.sendNode(name, { type: 'MARKED_REACHABLE' });
      for (const g of r.removed) {
        this.decide(host, {
          action: 'TaintRemoved', object: ref, summary: `Removed taint ${taintText(g)}`,
          because: [{ rule: `markNodeAsReachable: ${why}`, values: { Ready: findCondition(node.conditions, 'Ready')?.status ?? 'none' } }],
          causes: this.causes(host.recall(ref, 'ready-status'), host.recall(ref, 'heartbeat'), host.recall(ref, `taint:${g.key}:${g.effect}`)),
          machine: tr, source: this.src('markNodeAsReachable'),
        });
        decided = true;
      }
    }
    const zone = this.tracks.get(name)?.zone ?? zoneKeyOf(node);
    const q = this.queues.get(zone);
    const wasQueued = q?.isQueued(name) ?? false;
    const removed = q?.remove(name) ?? false;
    if (wasQueued && !decided) {
      tr ??= this.sendNode(name, { type: 'MARKED_REACHABLE' });
      this.decide(host, {
        action: 'EvictionCancelled', object: ref, summary: `Removed from the taint queue of ${zoneRef(zone)} before it was tainted`,
        because: [{ rule: `markNodeAsReachable: ${why}`, values: { Ready: findCondition(node.conditions, 'Ready')?.status ?? 'none' } }],
        causes: this.causes(host.recall(ref, 'ready-status'), host.recall(ref, 'queued')),
        machine: tr, source: this.src('markNodeAsReachable'),
      });
    } else if (!tr && this.evictionState(name) !== 'idle') {
      this.sendNode(name, { type: 'MARKED_REACHABLE' });
    }
    return removed;
  }

  /** doNoExecuteTaintingPass / doEvictionPass: every zone queue, in zone order, on the 100 ms grid. */
  private queuePass(host: ControllerHost): void {
    for (const zone of [...this.queues.keys()].sort()) {
      const q = this.queues.get(zone)!;
      if (!q.length) continue;
      q.try(host.now, (item) => (this.rules.taintBasedEvictions ? this.taintItem(host, zone, q, item) : this.evictItem(host, zone, q, item)));
    }
  }

  private taintItem(host: ControllerHost, zone: string, q: RateLimitedTimedQueue, item: { value: string; addedAt: Micros }) {
    this.slots.unsettle(item.value);
    const node = host.cluster.nodes.get(item.value);
    if (!node) return { ok: true } as const;
    const ready = findCondition(node.conditions, 'Ready');
    if (!ready) return { ok: false, wait: RETRY_NO_READY } as const;
    let add: Taint;
    let opposite: Taint;
    if (ready.status === 'False') { add = NOT_READY_NO_EXECUTE; opposite = UNREACHABLE_NO_EXECUTE; }
    else if (ready.status === 'Unknown') { add = UNREACHABLE_NO_EXECUTE; opposite = NOT_READY_NO_EXECUTE; }
    else {
      // "Node was in a taint queue, but it's ready now. Ignoring taint request."
      if (this.evictionState(item.value) === 'queuedForTainting') this.sendNode(item.value, { type: 'DEQUEUED' });
      return { ok: true } as const;
    }
    const ref = nodeRef(item.value);
    if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref)) return { ok: false, wait: 0 } as const;
    const r = swapTaints(node.taints, [add], [opposite], host.now);
    host.setNodeTaints(node, r.taints);
    this.enqueueNode(item.value, host.now);
    const tr = this.sendNode(item.value, { type: 'TAINT_PASS' });
    const because: Check[] = [
      { rule: `Ready condition is ${ready.status}`, values: { Ready: ready.status } },
      { rule: 'zone eviction queue released the node', values: { zone: zoneRef(zone), rate: showRate(effectiveRate(q.limiter)), queuedAt: formatTime(item.addedAt) } },
    ];
    const cause = this.causes(host.recall(ref, 'queued'));
    for (const t of r.added) {
      const seq = this.decide(host, { action: 'TaintAdded', object: ref, summary: `Added taint ${taintText(t)}`, because, causes: cause, machine: tr, source: this.src('doNoExecuteTaintingPass') });
      host.remember(ref, `taint:${t.key}:${t.effect}`, seq);
    }
    for (const t of r.refreshed) {
      const seq = this.decide(host, { action: 'TaintAdded', object: ref, summary: `Re-added taint ${taintText(t)} (timeAdded refreshed)`, because, causes: cause, machine: tr, source: this.src('doNoExecuteTaintingPass') });
      host.remember(ref, `taint:${t.key}:${t.effect}`, seq);
    }
    for (const t of r.removed) {
      this.decide(host, { action: 'TaintRemoved', object: ref, summary: `Removed taint ${taintText(t)} (replaced by ${taintText(add)})`, because, causes: this.causes(...cause, host.recall(ref, `taint:${t.key}:${t.effect}`)), machine: tr, source: this.src('doNoExecuteTaintingPass') });
    }
    return { ok: true } as const;
  }

  // ------------------------------------------------- pod eviction path (< 1.27)

  /** processNoTaintBaseEviction (1.12: inline in monitorNodeStatus). */
  /** Returns false when an immediate pod deletion failed (1.17+: the caller retries). */
  private processNoTaintBaseEviction(host: ControllerHost, node: NodeRecord, observed: ConditionStatus, pods?: PodRecord[]): boolean {
    const h = this.health.get(node.meta.name)!;
    const timeout = host.config.podEvictionTimeout;
    if (observed === 'False') {
      if (podEvictionTimeoutElapsed(host.now, h.readyTransition, timeout)) return this.evictPods(host, node, 'False', h.readyTransition, 'readyTransitionTimestamp', pods);
    } else if (observed === 'Unknown') {
      if (podEvictionTimeoutElapsed(host.now, h.probe, timeout)) return this.evictPods(host, node, 'Unknown', h.probe, 'probeTimestamp', pods);
    } else {
      this.cancelPodEviction(host, node, 'Ready is True');
    }
    return true;
  }

  /**
   * evictPods: queues the node in its zone's eviction queue; from 1.17, when the
   * node was already evicted (nodeEvictionMap), deletes the given pods at once.
   */
  private evictPods(host: ControllerHost, node: NodeRecord, status: ConditionStatus, since: Micros, sinceName: string, pods?: PodRecord[]): boolean {
    const name = node.meta.name;
    const zone = this.tracks.get(name)?.zone ?? zoneKeyOf(node);
    this.addPodEvictorForNewZone(zone);
    const q = this.queues.get(zone)!;
    if (this.rules.nodeEvictionMap) {
      if (this.evictionStatus.get(name) === 'evicted') {
        return this.deletePodList(host, name, pods ?? this.podsOn(host, name), [
          { rule: 'the node\'s pods were already evicted (nodeEvictionMap: evicted): pods that arrive later are deleted at once', values: { node: name } },
        ], this.src('evictPods'));
      }
      if (this.evictionStatus.has(name)) this.evictionStatus.set(name, 'toBeEvicted');
    }
    if (!q.add(name, node.meta.uid, host.now)) return true;
    const ref = nodeRef(name);
    const tr = this.sendNode(name, { type: 'QUEUED_FOR_EVICTION' });
    const seq = this.decide(host, {
      action: 'NodeQueuedForEviction', object: ref,
      summary: `Node is ${status === 'False' ? 'NotReady' : 'unresponsive'}: its pods are queued for eviction in ${zoneRef(zone)}`,
      because: [
        { rule: `Ready condition is ${status}`, values: { Ready: status } },
        {
          rule: `now > ${sinceName} + podEvictionTimeout`,
          values: { now: formatTime(host.now), [sinceName]: formatTime(since), podEvictionTimeout: formatDuration(host.config.podEvictionTimeout), deadline: formatTime(since + host.config.podEvictionTimeout) },
        },
        { rule: 'the zone queue releases nodes at the zone\'s eviction rate (token bucket, burst 1)', values: { zone: zoneRef(zone), zoneState: this.zoneActors.get(zone)?.state() ?? 'Initial', rate: showRate(effectiveRate(q.limiter)) } },
      ],
      causes: this.causes(host.recall(ref, 'ready-status')), machine: tr, source: this.src(this.rules.legacyStatusFunctions ? 'evictPods' : 'processNoTaintBaseEviction'),
    });
    host.remember(ref, 'queued', seq);
    return true;
  }

  /** cancelPodEviction: drops the node from the eviction queue. */
  private cancelPodEviction(host: ControllerHost, node: NodeRecord, why: string): boolean {
    this.slots.unsettle(node.meta.name);
    const name = node.meta.name;
    const zone = this.tracks.get(name)?.zone ?? zoneKeyOf(node);
    const q = this.queues.get(zone);
    if (this.rules.nodeEvictionMap && this.evictionStatus.has(name)) this.evictionStatus.set(name, 'unmarked');
    const wasQueued = q?.isQueued(name) ?? false;
    const removed = q?.remove(name) ?? false;
    const ref = nodeRef(name);
    if (wasQueued) {
      const tr = this.sendNode(name, { type: 'EVICTION_CANCELLED' });
      this.decide(host, {
        action: 'EvictionCancelled', object: ref, summary: `Cancelled the pod eviction queued for Node ${name}`,
        because: [{ rule: `cancelPodEviction: ${why}`, values: { Ready: findCondition(node.conditions, 'Ready')?.status ?? 'none', zone: zoneRef(zone) } }],
        causes: this.causes(host.recall(ref, 'ready-status'), host.recall(ref, 'queued')), machine: tr, source: this.src('cancelPodEviction'),
      });
    } else if (removed && this.evictionState(name) !== 'idle') {
      this.sendNode(name, { type: 'EVICTION_CANCELLED' });
    }
    return removed;
  }

  private evictItem(host: ControllerHost, zone: string, q: RateLimitedTimedQueue, item: { value: string; addedAt: Micros }) {
    this.slots.unsettle(item.value);
    const ok = this.deletePodList(host, item.value, this.podsOn(host, item.value), [
      { rule: 'the zone eviction queue released the node (doEvictionPass)', values: { node: item.value, zone: zoneRef(zone), rate: showRate(effectiveRate(q.limiter)), queuedAt: formatTime(item.addedAt) } },
    ], this.src('doEvictionPass'));
    if (!ok) return { ok: false, wait: 0 } as const; // "We are not setting eviction status here."
    if (this.rules.nodeEvictionMap && this.evictionStatus.has(item.value)) this.evictionStatus.set(item.value, 'evicted');
    return { ok: true } as const;
  }

  /**
   * DeletePods: for each pod of the node, SetPodTerminationReason first (every pod, DaemonSet
   * pods and pods already being deleted included), then the delete, except for DaemonSet pods
   * and pods already being deleted; false when a deletion failed. A failed status write is not a
   * conflict here, and DeletePods goes on to the delete (only a conflict skips the pod).
   */
  private deletePodList(host: ControllerHost, nodeName: string, pods: PodRecord[], because: Check[], source: string): boolean {
    const ref = nodeRef(nodeName);
    let tr: MachineTransition | null = null;
    const cause = this.causes(host.recall(ref, 'queued'));
    for (const pod of pods) {
      if (pod.nodeName !== nodeName) continue;
      const pref = podRef(pod.meta.namespace, pod.meta.name);
      const status = this.setPodTerminationReason(host, pod, nodeName);
      if (!this.deletes(host, pod, nodeName)) {
        if (status.written) {
          this.decide(host, {
            action: 'PodStatusUpdated', object: pref, summary: `Set the status of pod ${pod.meta.namespace}/${pod.meta.name} to NodeLost (kept: ${pod.meta.deletionTimestamp !== undefined ? 'already being deleted' : 'managed by a DaemonSet'})`,
            because: [...because, status.check, { rule: 'DeletePods does not delete a pod managed by a DaemonSet or already being deleted' }],
            causes: cause, source: this.src('SetPodTerminationReason', UTIL_FILE),
            details: { node: nodeName, reason: NODE_LOST_REASON, message: status.message },
          });
        }
        continue;
      }
      if (!host.apiCall('node-lifecycle', 'delete', 'pods', pref)) return false;
      host.deletePod(pod);
      tr ??= this.sendNode(nodeName, { type: 'EVICTION_PASS' });
      const seq = this.decide(host, {
        action: 'PodEvicted', object: pref, summary: `Deleted pod ${pod.meta.namespace}/${pod.meta.name} from Node ${nodeName}`,
        because: [...because, status.check, { rule: 'the pod is not managed by a DaemonSet and not already being deleted (DeletePods)' }],
        causes: cause, machine: tr, source,
        details: status.written ? { node: nodeName, statusReason: NODE_LOST_REASON, statusMessage: status.message } : { node: nodeName },
      });
      host.remember(pref, 'deleted', seq);
    }
    if (!tr && this.evictionState(nodeName) === 'queuedForEviction') this.sendNode(nodeName, { type: 'EVICTION_PASS' });
    return true;
  }

  /**
   * SetPodTerminationReason (pkg/controller/util/node): status.reason NodeLost and its message,
   * written with UpdateStatus, unless the reason is NodeLost already.
   */
  private setPodTerminationReason(host: ControllerHost, pod: PodRecord, nodeName: string): { written: boolean; already: boolean; message: string; check: Check } {
    const message = `Node ${nodeName} which was running pod ${pod.meta.name} is unresponsive`;
    if (podStatusReason(pod) === NODE_LOST_REASON) {
      return { written: false, already: true, message, check: { rule: 'SetPodTerminationReason: the pod\'s status reason is NodeLost already (no write)' } };
    }
    if (!host.apiCall('node-lifecycle', 'update', 'pods', podRef(pod.meta.namespace, pod.meta.name))) {
      return { written: false, already: false, message, check: { rule: 'SetPodTerminationReason: the status write failed; DeletePods goes on (only a conflict skips the pod)' } };
    }
    pod.statusReason = NODE_LOST_REASON;
    pod.statusMessage = message;
    host.updatePod(pod);
    return { written: true, already: false, message, check: { rule: 'SetPodTerminationReason: the pod\'s status was written first (UpdateStatus)', values: { reason: NODE_LOST_REASON, message } } };
  }

  /** DeletePods' rule (guards.ts). */
  private deletes(host: ControllerHost, pod: PodRecord, nodeName: string): boolean {
    return deletePodsDeletes(host.cluster, pod, nodeName);
  }

  // ----------------------------------------------------- MarkPodsNotReady

  private markPodsNotReady(host: ControllerHost, nodeName: string, pods: PodRecord[], fn: string): boolean {
    const ref = nodeRef(nodeName);
    const updated: string[] = [];
    let failed = 0;
    for (const pod of pods) {
      if (pod.nodeName !== nodeName) continue;
      const ready = findCondition(pod.conditions, 'Ready');
      if (!ready) continue;
      if (this.rules.markOnlyChangedPods && ready.status === 'False') continue;
      const pref = podRef(pod.meta.namespace, pod.meta.name);
      if (!host.apiCall('node-lifecycle', 'update', 'pods', pref)) {
        failed++;
        continue;
      }
      const was = ready.status;
      ready.status = 'False';
      if (this.rules.markOnlyChangedPods && was !== 'False') ready.lastTransitionTime = host.now;
      host.updatePod(pod);
      if (was !== 'False') updated.push(`${pod.meta.namespace}/${pod.meta.name}`);
    }
    if (updated.length) {
      const nodeReady = findCondition(host.cluster.nodes.get(nodeName)?.conditions ?? [], 'Ready')?.status ?? 'none';
      this.decide(host, {
        action: 'PodsMarkedNotReady', object: ref,
        summary: `Marked ${updated.length} pod${updated.length === 1 ? '' : 's'} on Node ${nodeName} not ready`,
        because: [
          { rule: fn === 'processPod' ? 'a pod was bound to a node whose Ready condition is not True' : 'the node\'s Ready condition left True in this pass (or an earlier attempt failed)', values: { Ready: nodeReady } },
          { rule: 'each pod\'s Ready condition is set to False', values: { pods: updated.length } },
        ],
        causes: this.causes(host.recall(ref, 'ready-status')),
        source: this.src(fn === 'processPod' ? 'processPod' : fn, fn === 'processPod' ? FILE : UTIL_FILE),
        details: { pods: updated },
      });
    }
    return failed === 0;
  }

  // ------------------------------------------------------- handleDisruption

  private handleDisruption(host: ControllerHost, ctx: PassContext): void {
    const cfg = host.config;
    // zoneToNodeConditions: every node's last evaluation, less the nodes whose evaluation failed in this pass
    const counts = new Map<string, { total: number; notReady: number }>();
    for (const [z, c] of this.tally) counts.set(z, { ...c });
    for (const name of ctx.skipped) {
      const k = this.tracks.get(name)?.counted;
      if (!k) continue;
      const c = counts.get(k.zone)!;
      c.total--;
      if (k.notReady) c.notReady--;
      if (c.total === 0) counts.delete(k.zone);
    }
    const newStates = new Map<string, ZoneStateName>();
    let allAre = true;
    for (const [z, c] of counts) {
      const s = zoneStateOfCounts(c.total - c.notReady, c.notReady, cfg.unhealthyZoneThreshold);
      newStates.set(z, s);
      if (s !== 'FullDisruption') allAre = false;
      if (!this.zoneActors.has(z)) this.addPodEvictorForNewZone(z);
    }
    let allWas = true;
    for (const z of [...this.zoneActors.keys()].sort()) {
      if (!counts.has(z)) {
        // a zone with no nodes left is dropped (its queue stays, as upstream never deletes it)
        this.zoneActors.get(z)!.stop();
        this.zoneActors.delete(z);
        this.zonesMayBeMissing = true;
        this.transitions.delete(`zone/${z}`);
        continue;
      }
      if (this.zoneActors.get(z)!.state() !== 'FullDisruption') allWas = false;
    }
    this.zoneCounts = counts;
    if (allAre && allWas) return;
    const names = this.nodeNames(host);
    const zonesSorted = [...this.zoneActors.keys()].sort();
    if (allAre) {
      const tr = this.monitor.send({ type: 'ENTER_MASTER_DISRUPTION' });
      if (tr) this.transitions.set(tr.id, tr);
      for (const name of names) {
        const node = host.cluster.nodes.get(name)!;
        if (this.rules.taintBasedEvictions) this.markNodeAsReachable(host, node, 'all zones are fully disrupted (master disruption mode)');
        else this.cancelPodEviction(host, node, 'all zones are fully disrupted (master disruption mode)');
      }
      const because: Check[] = [{ rule: 'every zone has no Ready node: the controller assumes a control-plane problem and stops all evictions', values: { zones: zonesSorted.map(zoneRef) } }];
      for (const z of zonesSorted) {
        const stateSeq = this.sendZone(host, z, { type: 'ALL_ZONES_FULLY_DISRUPTED' }, because, counts.get(z)!, ctx);
        this.swapLimiter(host, z, 0, because, stateSeq);
      }
      return;
    }
    if (allWas) {
      const tr = this.monitor.send({ type: 'EXIT_MASTER_DISRUPTION' });
      this.slots.unsettleAll(); // every probe moves to now
      if (tr) this.transitions.set(tr.id, tr);
      const now = host.now;
      for (const name of names) {
        const h = this.health.get(name);
        if (!h) continue;
        h.probe = now;
        h.readyTransition = now;
        if (this.tracks.get(name)?.current === 'True') this.arm(name, now + cfg.nodeMonitorGracePeriod);
      }
      const because: Check[] = [{ rule: 'some node is Ready again: leaving master disruption mode; every node\'s probeTimestamp and readyTransitionTimestamp are reset to now', values: { now: formatTime(now), nodes: names.length } }];
      for (const z of zonesSorted) {
        const c = counts.get(z)!;
        const seq = this.sendZone(host, z, { type: 'ZONE_HEALTH', ready: c.total - c.notReady, notReady: c.notReady, unhealthyZoneThreshold: cfg.unhealthyZoneThreshold }, because, c, ctx);
        this.setLimiterInZone(host, z, c.total, newStates.get(z)!, seq);
      }
      return;
    }
    for (const z of zonesSorted) {
      const c = counts.get(z)!;
      const next = newStates.get(z)!;
      if (this.zoneActors.get(z)!.state() === next) continue;
      const seq = this.sendZone(host, z, { type: 'ZONE_HEALTH', ready: c.total - c.notReady, notReady: c.notReady, unhealthyZoneThreshold: cfg.unhealthyZoneThreshold }, [], c, ctx);
      this.setLimiterInZone(host, z, c.total, next, seq);
    }
  }

  private sendZone(host: ControllerHost, zone: string, e: Parameters<ZoneActor['send']>[0], extra: Check[], c: { total: number; notReady: number }, ctx: PassContext): number | undefined {
    const actor = this.zoneActors.get(zone)!;
    const tr = actor.send(e);
    if (!tr || tr.from === tr.to) return undefined;
    const ratio = c.total ? Math.fround(Math.fround(c.notReady) / Math.fround(c.total)) : 0;
    const seq = this.decide(host, {
      action: 'ZoneStateChanged', object: zoneRef(zone), summary: `Zone ${zoneRef(zone)} is now ${tr.to} (was ${tr.from})`,
      because: [
        {
          rule: 'ComputeZoneState: FullDisruption when no node is Ready; PartialDisruption when more than 2 are not Ready and notReady/all >= unhealthyZoneThreshold; else Normal',
          values: { nodes: c.total, ready: c.total - c.notReady, notReady: c.notReady, ratio: Number(ratio.toFixed(4)), unhealthyZoneThreshold: host.config.unhealthyZoneThreshold },
        },
        ...extra,
      ],
      causes: this.causes(...(ctx.readyChanges.get(zone) ?? []).slice(-20)), machine: tr, source: this.src('handleDisruption'),
    });
    host.remember(zoneRef(zone), 'zone-state', seq);
    return seq;
  }

  /** setLimiterInZone: Normal -> nodeEvictionRate; PartialDisruption -> ReducedQPSFunc(zone size); FullDisruption -> HealthyQPSFunc. */
  private setLimiterInZone(host: ControllerHost, zone: string, zoneSize: number, state: ZoneStateName, cause?: number): void {
    const l = zoneLimiterQPS(state, zoneSize, host.config);
    if (!l) return;
    this.swapLimiter(host, zone, l.qps, [{ rule: l.rule, values: l.values }], cause);
  }

  private swapLimiter(host: ControllerHost, zone: string, qps: number, because: Check[], cause?: number): void {
    const q = this.queues.get(zone);
    if (!q) return;
    const from = showRate(effectiveRate(q.limiter));
    if (!q.swapLimiter(qps, host.now)) return;
    this.decide(host, {
      action: 'EvictionRateChanged', object: zoneRef(zone),
      summary: `${this.rules.taintBasedEvictions ? 'Tainting' : 'Eviction'} rate of ${zoneRef(zone)}: ${from} -> ${showRate(effectiveRate(q.limiter))} nodes/s`,
      because: [...because, { rule: 'SwapLimiter: a new token bucket (burst 1), drained if the old one had no token', values: { from, to: showRate(effectiveRate(q.limiter)) } }],
      causes: this.causes(cause), source: this.src('setLimiterInZone'),
    });
  }

}

// ------------------------------------------------------------------ helpers

/** Slots by node name (names are unique), as a sort of the names. */
/** nodepkg.NodeUnreachablePodReason */
const NODE_LOST_REASON = 'NodeLost';

/** The pod's status.reason: as a controller wrote it, else as exported. */
function podStatusReason(pod: PodRecord): string | undefined {
  if (pod.statusReason !== undefined) return pod.statusReason;
  const status = (pod.raw as { status?: { reason?: unknown } }).status;
  return typeof status?.reason === 'string' ? status.reason : undefined;
}

function byName(a: Slot, b: Slot): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A float32 QPS as the user wrote it (0.1, not 0.10000000149011612). */
export function showRate(qps: number): number {
  return Number(qps.toPrecision(7));
}

function pushMap(m: Map<string, number[]>, k: string, v: number): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

function copyCond(c: NodeCondition | undefined): NodeCondition | null {
  return c ? { ...c } : null;
}


function restoreHealth(s: SavedHealth): Map<string, Health> {
  const out = new Map<string, Health>();
  for (let i = 0; i < s.names.length; i++) {
    const renew = s.times[i * 3 + 2];
    out.set(s.names[i], {
      probe: s.times[i * 3], readyTransition: s.times[i * 3 + 1], savedReady: s.savedReady[i],
      lease: s.lease[i] ? { renewTime: Number.isNaN(renew) ? undefined : renew } : null,
    });
  }
  return out;
}

function restoreTracks(s: SavedTracks): Map<string, Track> {
  const out = new Map<string, Track>();
  for (let i = 0; i < s.names.length; i++) {
    out.set(s.names[i], { uid: s.uid[i], zone: s.zone[i], current: s.current[i], excluded: s.excluded[i], counted: s.counted[i] });
  }
  return out;
}


/** apiequality.Semantic.DeepEqual of two NodeConditions. */
function sameCondition(a: NodeCondition, b: NodeCondition): boolean {
  return a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '')
    && a.lastHeartbeatTime === b.lastHeartbeatTime && a.lastTransitionTime === b.lastTransitionTime;
}

/** MicroTime.Before with nil pointers: false unless both are set. */
function microBefore(a: Micros | undefined, b: Micros | undefined): boolean {
  return a !== undefined && b !== undefined && a < b;
}
