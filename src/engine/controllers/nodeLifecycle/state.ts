/**
 * The node lifecycle controller's memory, in one object that the files named
 * after upstream's functions (pkg/controller/nodelifecycle/node_lifecycle_controller.go) take as their first argument: the
 * informers' notes, nodeHealthMap, knownNodeSet, the zone queues, the
 * machines, and the bookkeeping of the fast paths (slots.ts, deadlines.ts).
 * Its methods are the small helpers all of them use (decide, the machines'
 * ask and commit, the tracks and their zone tally, the 100 ms grid).
 */
import { copyNodeCondition } from '../../model/records';
import { type TracedActor, createTracedActor } from '../../machines/traced';
import { becauseWithGuards, carriesGuards } from '../../machines/guardChecks';
import { type Micros, ms } from '../../model/time';
import type { ConditionStatus, NodeCondition, PodRecord } from '../../model/types';
import { zoneKeyOfLabels, zoneLabelsOf } from '../../model/zones';
import type { MapColumns } from '../../model/sharedKeys';
import type { Check, DecisionInput, MachineTransition } from '../../trace/decision';
import type { ControllerHost } from '../controllerHost';
import type { StateValue } from 'xstate';
import { DeadlineHeap } from './deadlines';
import { GraceCohorts } from './graceCohorts';
import type { NodeHealthData } from './nodeHealthData';
import { disruptionExclusion } from './disruption';
import { deletePodsDeletes } from './guards';
import { type NodeHealthEvent, monitorMachine, zoneMachine } from './machines';
import { MachineTable, type MemoActor } from '../../machines/table';
import { type Answer, NodeMachines } from './nodeMachines';
import { ZoneAnswers } from './zoneMachines';
import { RateLimitedTimedQueue } from './rateLimitedQueue';
import { NodeSlots, type Slot } from './slots';
import { type NodeLifecycleRules, rulesOf } from './versionRules';

/** Decisions that must cite a cause (the checking mode asserts it): the snapshot's state is cited through AssumptionMade. */
const ROOTED_IN_ASSUMPTION: ReadonlySet<string> = new Set(['TaintAdded', 'NodeQueuedForTainting', 'NodeQueuedForEviction', 'PodEvicted']);

/** The machines whose last transition the views show: the node health, zone and monitor machines. */
const hasView = (id: string): boolean => id.startsWith('node/') || id.startsWith('zone/') || id === 'monitor';

/** scheduler.NodeEvictionPeriod: the tainting / eviction pass runs every 100 ms. */
export const NODE_EVICTION_PERIOD = ms(100);
/**
 * monitorNodeHealth's retries of a failed node status update within one pass:
 * wait.PollImmediate(retrySleepTime = 20 ms, timeout retrySleepTime * NodeHealthUpdateRetry (5) =
 * 100 ms) tries at once, at each tick (20, 40, 60, 80 ms) and once more when the timeout closes the
 * poll (100 ms): 6 attempts (a 7th only when the 100 ms tick wins its race with the timeout).
 */
export const NODE_HEALTH_UPDATE_ATTEMPTS = 6;
export const RETRY_SLEEP_TIME = ms(20);
/** the retry of a tainting item whose node has no Ready condition */
export const RETRY_NO_READY = ms(50);

export const FILE = 'pkg/controller/nodelifecycle/node_lifecycle_controller.go';
export const UTIL_FILE = 'pkg/controller/util/node/controller_utils.go';

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
  /** Check after every pass's deadline loops that each Ready node has an entry no later than its grace deadline (tests) */
  verifyDeadlines?: boolean;
  /**
   * Throw when a node health machine refuses an event the controller sends (tests): without it
   * the controller writes nothing for a refused event, as the machine answered.
   */
  strictMachines?: boolean;
  /** counts what the fast paths take (tests: each is taken, and none when every node is evaluated) */
  stats?: FastPathStats;
}

/** How many evaluations each fast path (fastPaths.ts) stood in for. */
export interface FastPathStats {
  /** readyFastPath with a new heartbeat (a plain status post) */
  plainPosts: number;
  /** readyFastPath with the saved heartbeat */
  unchangedReady: number;
  /** Unknown nodes on the pod-eviction path left out (unchangedUnknownEvictionPath) */
  unknownSettled: number;
}

/** nodeHealthData: what the controller remembers of a node between passes (nodeHealthData.ts). */
export type Health = NodeHealthData;

export interface Track {
  uid: string;
  zone: string;
  excluded?: string;
  /**
   * The node was evaluated successfully at least once: its Ready status as the controller last saw
   * it is then its machine's (currentOf), before that it has none.
   */
  evaluated: boolean;
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

export interface PassContext {
  /** nodes whose evaluation failed this pass: left out of the zone counts */
  skipped: Set<string>;
  /** seqs of decisions that changed a node's Ready this pass, by zone */
  readyChanges: Map<string, number[]>;
}

export type ZoneActor = TracedActor<typeof zoneMachine>;
export type MonitorActor = MemoActor<typeof monitorMachine>;
/** The monitor machine takes two events per pass (PASS_START, PASS_END): a live actor cost ~70 µs each. */
let monitorTable: MachineTable<typeof monitorMachine> | undefined;
export function monitorMachineTable(): MachineTable<typeof monitorMachine> {
  monitorTable ??= new MachineTable(monitorMachine, (e) => e.type);
  return monitorTable;
}

/** What NodeLifecycleController remembers; every field is read and written by the upstream-named files. */
export class NodeLifecycleState {
  readonly options: NodeLifecycleOptions;
  /** what the fast paths took (options.stats, tests) */
  readonly stats: FastPathStats | undefined;

  constructor(options: NodeLifecycleOptions) {
    this.options = options;
    this.stats = options.stats;
    this.nodes = new NodeMachines(options.strictMachines === true, (t, seq) => this.transitions.set(t.id, seq === undefined ? t : { ...t, seq }));
  }

  rules!: NodeLifecycleRules;

  started = false;

  memory: 'reconstructed' | 'fresh' = 'fresh';

  reconstructPending = false;

  origin: Micros = 0;

  period = 0;

  nextMonitorAt: Micros = 0;

  lastMonitorAt: Micros | null = null;

  lastGridPass: Micros | null = null;

  lastNow: Micros = 0;

  /** informer work at one instant: nodes for the NoSchedule / deprecated-key passes, pods for processPod */
  pendingAt: Micros | null = null;

  pendingNodes = new Set<string>();

  pendingPods = new Set<string>();

  /** pods whose processPod failed: retried at the next monitor pass */
  retryPods = new Set<string>();

  /** knownNodeSet: name -> uid */
  known = new Map<string, string>();

  /** nodeHealthMap */
  health = new Map<string, Health>();

  tracks = new Map<string, Track>();

  /** nodesToRetry */
  retry = new Set<string>();

  dirty = new Set<string>();

  /** the node names in order, kept until a node is added or deleted */
  sortedNames: string[] | null = null;

  /**
   * evaluated on every pass: not Ready, never evaluated; with each node's slot,
   * so that the pass's walk over them (1,667 Unknown nodes every pass while a
   * zone is down at 5,000 nodes) needs no look-up by name. A restore makes new
   * slots, and this map with them.
   */
  watch = new Map<string, Slot>();

  /** the stamp of the current monitor pass (see Slot.mark) and the slots it evaluates in full */
  passStamp = 0;

  full: Slot[] = [];
  /** a wake a yield left part-done (wake's shouldYield): the rest of its work, which the next wake goes on with */
  cut: Generator<void, void, void> | null = null;
  /** while a wake runs: its shouldYield, which the work's yield points ask (see `cut`) */
  ask: (() => boolean) | undefined = undefined;

  /** Ready nodes by probeTimestamp + nodeMonitorGracePeriod */
  deadlines = new DeadlineHeap<Slot>();
  /** the same for the nodes leaseOnly moved, one entry per pass (graceCohorts.ts) */
  cohorts = new GraceCohorts();

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
  slots = new NodeSlots();

  /** per zone: nodes taking part in disruption checks and how many are not Ready (as of their last evaluation) */
  tally = new Map<string, { total: number; notReady: number }>();

  /** a node was added or deleted since the last classifyNodes */
  membershipChanged = true;

  /** some known node's zone may have no state (zone changed, zone dropped, nodes added) */
  zonesMayBeMissing = true;

  /** zoneNoExecuteTainter (taint-based evictions) or zonePodEvictor (1.12 default path) */
  queues = new Map<string, RateLimitedTimedQueue>();

  /** zoneStates, as zone machines */
  zoneActors = new Map<string, ZoneActor>();
  /** the zone machines' last answers (zoneMachines.ts: a cache, not saved) */
  readonly zoneAnswers = new ZoneAnswers();

  zoneCounts = new Map<string, { total: number; notReady: number }>();

  /**
   * The node health machines: what the controller did to each node (the eviction region, which
   * is also upstream's nodeEvictionMap on the pod eviction path: idle = unmarked, queuedForEviction =
   * toBeEvicted, evicted) and its Ready as last seen (the ready region).
   */
  nodes: NodeMachines;

  monitor!: MonitorActor;

  transitions = new Map<string, MachineTransition & { seq?: number }>();

  /** --node-monitor-grace-period */
  grace = 0;

  /** --node-eviction-rate: the QPS a new zone queue starts with */
  evictionRate = 0.1;

  /** 1.12: doFixDeprecatedTaintKeyPass runs on node events */
  fixDeprecatedKeys = false;

  savedNames: { health: readonly string[]; tracks: readonly string[]; slots: readonly string[] } = { health: [], tracks: [], slots: [] };
  /** what the last checkpoint kept of `known`, the node machines and `transitions` (see columnsSharedWith) */
  savedColumns: { known?: MapColumns<string>; nodeActors?: MapColumns<StateValue>; transitions?: MapColumns<MachineTransition & { seq?: number }> } = {};

  src(fn: string, file = FILE): string {
    return `nodelifecycle: ${fn} (${file}, v1.${this.rules.minor})`;
  }

  get monitorFn(): string {
    return this.rules.legacyStatusFunctions ? 'monitorNodeStatus' : 'monitorNodeHealth';
  }

  get healthFn(): string {
    return this.rules.legacyStatusFunctions ? 'tryUpdateNodeStatus' : 'tryUpdateNodeHealth';
  }

  /** `own`: the caller's checks made when the decision is first read, from values that do not change (`because` is then empty) */
  decide(host: ControllerHost, d: Omit<DecisionInput, 'controller'>, own?: () => Check[]): number {
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
    let seq: number;
    const machine = input.machine;
    if (host.decideExplainedLater !== undefined && carriesGuards(machine)) {
      // the machine's guard checks (nodeMachines.ts AskedGuards) made when the decision is read; the caller's own checks as they are now
      const now = own === undefined ? input.because.slice() : undefined;
      seq = host.decideExplainedLater(input, () => becauseWithGuards(now ?? own!(), machine));
    } else {
      input.because = becauseWithGuards(own ? own() : input.because, machine);
      seq = host.decide(input);
    }
    // a transition answered and not committed is shown once its machine commits it (nodeMachines.ts);
    // the machines of single writes (doNodeProcessingPassMachines.ts, controllerUtilsMachines.ts) keep no state and have no view
    if (d.machine && !this.nodes.isPending(d.machine) && hasView(d.machine.id)) this.transitions.set(d.machine.id, { ...d.machine, seq });
    return seq;
  }

  causes(...xs: (number | undefined)[]): number[] {
    const out: number[] = [];
    for (const x of xs) if (x !== undefined && x > 0 && !out.includes(x)) out.push(x);
    return out;
  }

  /** What the node's machine would do with `e` (nodeMachines.ts): asked before the write it answers for. */
  askNode(name: string, e: NodeHealthEvent, chosenBy?: readonly Check[]): Answer | null {
    return this.nodes.ask(name, e, chosenBy);
  }

  /** Does what the node's machine answered, once the write succeeded (`recordedBy`: see NodeMachines.commit). */
  commitNode(a: Answer, recordedBy?: number): MachineTransition {
    this.slots.unsettle(a.name);
    return this.nodes.commit(a, recordedBy);
  }

  /** Sends an event that needs no write (the controller's view of the node). */
  sendNode(name: string, e: NodeHealthEvent): MachineTransition | null {
    const t = this.nodes.send(name, e);
    // as commitNode (the machine moved)
    if (t !== null) this.slots.unsettle(name);
    return t;
  }

  evictionState(name: string): string {
    return this.nodes.eviction(name);
  }

  /** The Ready status the controller last saw for the node: undefined before its first evaluation, null without a Ready condition. */
  currentOf(name: string, t: Track): ConditionStatus | null | undefined {
    if (!t.evaluated) return undefined;
    const r = this.nodes.ready(name);
    return r === 'NotObserved' ? null : r;
  }

  isReady(name: string, t: Track): boolean {
    return t.evaluated && this.nodes.ready(name) === 'True';
  }

  /** isReady of the slot's node, through the slot's copy of its machine */
  slotIsReady(slot: Slot, t: Track): boolean {
    return t.evaluated && this.nodes.readyAt(slot) === 'True';
  }

  enqueueNode(name: string, now: Micros): void {
    if (!this.rules.taintNodesByCondition && !this.fixesDeprecatedKeys() && this.rules.labelsSourceOfTruth === 'none') return;
    this.pendingNodes.add(name);
    if (this.pendingAt === null) this.pendingAt = now;
  }

  fixesDeprecatedKeys(): boolean {
    return this.fixDeprecatedKeys;
  }

  isGridTime(t: Micros): boolean {
    return t >= this.origin && (t - this.origin) % NODE_EVICTION_PERIOD === 0;
  }

  gridFrom(now: Micros): Micros {
    const after = this.lastGridPass === null ? this.origin : this.lastGridPass + NODE_EVICTION_PERIOD;
    return Math.max(after, now, this.origin);
  }

  nextGridPass(): Micros | undefined {
    let best: Micros | undefined;
    const from = this.gridFrom(this.lastNow);
    for (const q of this.queues.values()) {
      const t = q.nextTry(from, this.origin, NODE_EVICTION_PERIOD);
      if (t !== undefined && (best === undefined || t < best)) best = t;
    }
    return best;
  }

  anyQueued(): boolean {
    for (const q of this.queues.values()) if (q.length) return true;
    return false;
  }

  /** the AssumptionMade decision of the start (see decide) */
  assumptionSeq: number | undefined;

  nodeNames(host: ControllerHost): string[] {
    if (!this.sortedNames || this.sortedNames.length !== host.cluster.nodes.size) this.sortedNames = [...host.cluster.nodes.keys()].sort();
    return this.sortedNames;
  }

  markFull(slot: Slot, stamp: number): void {
    if (slot.mark === stamp) return;
    slot.mark = stamp;
    this.full.push(slot);
  }

  /**
   * Makes sure the node's grace deadline `t` is seen. A Ready node's probe moves
   * on every Lease renewal (every 10 s), far more often than its deadline (40 s)
   * can come: one entry per node is armed, and when it comes due with the probe
   * moved on, the real deadline is armed then (monitorPass). Probes only move
   * forward, so an armed entry is never later than the deadline it stands for.
   */
  arm(name: string, t: Micros): void {
    this.armSlot(this.slots.of(name), t);
  }

  armSlot(slot: Slot, t: Micros): void {
    if (slot.armed <= t) return;
    slot.armed = t;
    this.deadlines.push(t, slot);
  }

  /** After an evaluation: which set the node is in, its grace deadline, its zone contribution. */
  settle(host: ControllerHost, slot: Slot): void {
    const name = slot.name;
    const t = this.slotTrack(slot);
    const h = this.slotHealth(slot);
    if (!t) return;
    const current = this.currentOf(name, t);
    if (current === 'True' && h) {
      this.watch.delete(name);
      this.armSlot(slot, h.probe + host.config.nodeMonitorGracePeriod);
    } else if (!this.watch.has(name)) {
      this.watch.set(name, slot);
    }
    // the node's zone contribution as it stands (most evaluations): no object made for recount to compare
    const counted = t.counted;
    const counts = current !== undefined && !t.excluded;
    const notReady = current !== 'True';
    if (counts ? counted !== undefined && counted.zone === t.zone && counted.notReady === notReady : counted === undefined) return;
    this.recount(name, counts ? { zone: t.zone, notReady } : undefined);
  }

  recount(name: string, next: { zone: string; notReady: boolean } | undefined): void {
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

  trackFor(host: ControllerHost, name: string): Track {
    let t = this.tracks.get(name);
    if (!t) {
      t = { uid: '', zone: '', evaluated: false };
      this.setTrack(name, t);
      this.refreshTrack(host, name);
    }
    return t;
  }

  // The health map and tracks are written only through these, so that the slots' copies stay true.
  setHealth(name: string, h: Health): void {
    this.health.set(name, h);
    const slot = this.slots.get(name);
    if (slot) slot.health = h;
  }

  setTrack(name: string, t: Track | undefined): void {
    if (t) this.tracks.set(name, t);
    else this.tracks.delete(name);
    const slot = this.slots.get(name);
    if (slot) slot.track = t;
  }

  slotHealth(slot: Slot): Health | undefined {
    return (slot.health ?? (slot.health = this.health.get(slot.name))) as Health | undefined;
  }

  slotTrack(slot: Slot): Track | undefined {
    return (slot.track ?? (slot.track = this.tracks.get(slot.name))) as Track | undefined;
  }

  /** The node's track brought up to date with the node; returns the track (undefined: none, and no node). */
  refreshTrack(host: ControllerHost, name: string): Track | undefined {
    const node = host.cluster.nodes.get(name);
    if (!node) return this.tracks.get(name);
    let t = this.tracks.get(name);
    // a track already in the map is the slot's copy or the slot has none (setTrack): only a new one is set
    const fresh = t === undefined;
    if (!t) t = { uid: '', zone: '', evaluated: false };
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
  addPodEvictorForNewZone(zone: string): void {
    if (this.zoneActors.has(zone)) return;
    this.zoneActors.set(zone, createTracedActor(zoneMachine, `zone/${zone}`, { traceGuards: true }));
    this.queues.set(zone, new RateLimitedTimedQueue(this.evictionRate));
  }

  /** The node's pods, in key order; `keysOut` receives their keys, the index's own strings (see markPodsNotReady). */
  podsOn(host: ControllerHost, node: string, keysOut?: string[]): PodRecord[] {
    const keys = host.cluster.podsByNode.get(node);
    if (!keys) return [];
    // in key order; the index is usually in that order already (pods indexed in snapshot order), and
    // checking costs one comparison per key where the sort costs several (and the set is read as it is)
    let prev: string | undefined;
    let ordered = true;
    for (const k of keys) {
      if (prev !== undefined && !(prev < k)) {
        ordered = false;
        break;
      }
      prev = k;
    }
    const pods = host.cluster.pods;
    const out: PodRecord[] = [];
    for (const k of ordered ? keys : [...keys].sort()) {
      const p = pods.get(k);
      if (!p) continue;
      out.push(p);
      keysOut?.push(k);
    }
    return out;
  }

  /** DeletePods' rule (guards.ts). */
  deletes(host: ControllerHost, pod: PodRecord, nodeName: string): boolean {
    return deletePodsDeletes(host.cluster, pod, nodeName);
  }

  /** What the controller reads from its settings and version: the same at start and after a restore. */
  applySettings(host: ControllerHost): void {
    this.rules = { ...rulesOf(host), ...(this.options.rules ?? {}) };
    this.period = Math.max(1, host.config.nodeMonitorPeriod);
    this.evictionRate = host.config.nodeEvictionRate;
    this.grace = host.config.nodeMonitorGracePeriod;
    this.fixDeprecatedKeys = host.behaviour.fixesDeprecatedTaintKeys;
  }
}

export function byName(a: Slot, b: Slot): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A float32 QPS as the user wrote it (0.1, not 0.10000000149011612). */
export function showRate(qps: number): number {
  return Number(qps.toPrecision(7));
}

export function pushMap(m: Map<string, number[]>, k: string, v: number): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

export function copyCond(c: NodeCondition | undefined): NodeCondition | null {
  return c ? copyNodeCondition(c) : null;
}

/** apiequality.Semantic.DeepEqual of two NodeConditions. */
export function sameCondition(a: NodeCondition, b: NodeCondition): boolean {
  return (
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    a.lastHeartbeatTime === b.lastHeartbeatTime &&
    a.lastTransitionTime === b.lastTransitionTime
  );
}
