/**
 * The simulation: a virtual clock, the world (cluster records, kubelets,
 * scenario events), the controllers, and the decision trace.
 *
 * The loop. Due work comes from: the scenario's events (sorted by time,
 * file order within one instant), kubelet reposts, monitor passes at
 * controllerStartTime + k × nodeMonitorPeriod, a new leader after a failover,
 * and each controller's `nextWake()`. The clock jumps from one instant with
 * due work to the next; nothing is done per 100 ms pass unless a controller
 * asks for it. At one instant T (spec 1.3):
 *   1. kubelets: derived heartbeats and Lease renewals before T are written
 *      into the records;
 *   2. world events at T, in file order (so an event at T, such as
 *      `kubelet: stop`, comes before a post the kubelet would make at T);
 *      then the kubelets' posts, renewals and reposts due at T;
 *   3. a new leader, when a failover's wait ends at T;
 *   4. when a monitor pass is due at T the pass counter (`host.pass`)
 *      advances — pass numbers count every monitor pass since the start of
 *      the simulation from 0, across restarts;
 *   5. controllers in order (node-lifecycle, taint-eviction, replicaset,
 *      scheduler): each is woken when its nextWake() ≤ T, and node-lifecycle
 *      always at a monitor pass (its `wake` tells a monitor pass from a
 *      100 ms pass by `host.now` against `host.controllerStartTime` and
 *      `config.nodeMonitorPeriod`); this round repeats while any controller
 *      still has work due at T, at most MAX_ROUNDS times.
 *
 * Checkpoints: after the instant of every K-th monitor pass (and at the
 * start) the world, the kubelets, the controllers' `save()`, the queue
 * positions, the causes memory and the trace length are copied; goToPass(n)
 * restores the nearest checkpoint at or before n and runs forward from it.
 * The trace is append-only; going back truncates it to the checkpoint.
 */
import type { ControllerConfig, KubeletConfig } from '../config/types';
import type { SimController } from '../controllers/controller';
import type { ClusterState } from '../model/cluster';
import type { Micros } from '../model/time';
import { formatDuration, formatTime } from '../model/time';
import type { DaemonSetRecord, KObject, LeaseRecord, NodeRecord, ObjectRef, PodRecord, ReplicaSetRecord } from '../model/types';
import type { Problem } from '../problems';
import type { Scenario, ScenarioEvent, TimeSpec } from '../snapshot/types';
import type { Decision } from '../trace/decision';
import type { VersionBehaviour } from '../versions/types';
import { exportCluster } from '../model/export';
import { Kubelets, nodeBefore } from '../kubelet/kubelets';
import type { Explanation, ExpectationResult, MachineView, Simulation, SimulationOptions, StateView, ZoneView } from './api';
import { SimHost, indexPod, setFact, type Facts } from './simHost';
import { applyWorldEvent, assumeMissingLeases, CONTROLLER_MANAGER_REF } from './world';
import { missingLeasesMode, planMissingLeases } from '../kubelet/missingLeases';
import { buildControllers, planControllers, type ControllerFactory, type ControllerPlan } from './controllerPlan';
import {
  checkpointChecks,
  cloneCluster,
  cloneDaemonSet,
  cloneLease,
  cloneNode,
  clonePod,
  cloneReplicaSet,
  copyMap,
  frozenReplicaSet,
  heartbeatsSince,
  leaseFrom,
  LeaseRenewal,
  nodeFrom,
  NodeHeartbeats,
  sameFields,
} from './checkpoint';
import { explainObject } from './explain';
import { checkExpectations } from './expectations';
import { resolveSimulationSettings } from './settings';
import { defaultControllerFactory } from './wiring';
import { keysSharedWith } from '../model/sharedKeys';
import { InvariantChecker } from './invariants';
import { MAX_HORIZON } from '../model/limits';

/** The scenario's notes about the version it guessed (snapshot/scenario.ts: assumedVersion). */
const VERSION_GUESS_CODES: ReadonlySet<string> = new Set(['version-assumed', 'version-clamped']);

/** How many times the controllers are woken again at one instant while work is still due. */
export const MAX_ROUNDS = 100;
/**
 * While `goToPass` replays forward after restoring a checkpoint, and on a user's single steps
 * (`step(true)`), a checkpoint is also saved every this many passes: the next step back (the panel
 * steps back one pass at a time) then replays at most this many passes instead of up to
 * `checkpointEvery` (100 at 5,000 nodes: the first step back during an outage took 2 s). Saving
 * has no effect on decisions; the extra checkpoints are thinned like the others.
 */
export const FINE_CHECKPOINT_EVERY = 10;
export { checkpointChecks };
/**
 * A monitor pass after which at least this share of the pods (and at least HEAVY_PASS_MIN_PODS)
 * changed since the last checkpoint is followed by a checkpoint too: such a pass (a zone's nodes
 * going Unknown and MarkPodsNotReady on 50,000 pods at 5,000 nodes, or their recovery) is the
 * dearest to replay, and a step back to it or past it would otherwise replay it from up to
 * `checkpointEvery` passes before. The pods it changed are kept by the next checkpoint anyway, and
 * there is at most one such checkpoint per that many pod changes: its fixed part (every node's and
 * Lease's times, the controllers' save) is small beside what the controllers did for them.
 */
export const HEAVY_PASS_SHARE = 0.1;
export const HEAVY_PASS_MIN_PODS = 1000;
/** Checkpoints kept; beyond this every other one is merged into its successor. */
export const MAX_CHECKPOINTS = 48;

/**
 * A checkpoint. Pods, Nodes, ReplicaSets and Leases are kept as deltas: the
 * records changed since the previous checkpoint (null for a deletion). The
 * key order of the maps and the pod sets of the nodes whose set changed are
 * kept too, so that restoring gives maps that iterate exactly as in a fresh run. Restoring checkpoint k puts
 * back, in the live maps, the records changed since it, from the deltas of
 * checkpoints 0..k or the snapshot. DaemonSets (few) are copied whole. Facts
 * (causes memory) are a delta too.
 */
/** The records of one map changed since the previous checkpoint (null: deleted), and the map's key order. */
/** An instant's rounds of controller work, and how far they got (SimulationOptions.shouldYield). */
interface MidInstant {
  t: Micros;
  monitorDue: boolean;
  /** the trace's length when the instant began */
  traceFrom: number;
  round: number;
  /** the controllers of this round, in order, and the next one to ask */
  order: SimController[];
  index: number;
  woke: boolean;
  /** the controller at `index` stopped with work left: it is woken first, without asking whether it is due */
  again: boolean;
}

interface MapDelta<T> {
  delta: Map<string, T | null>;
  /** shared between checkpoints: never edited */
  order: readonly string[];
}

/**
 * The pods changed since the previous checkpoint, the keys added to and removed from the pod map
 * since then, in order (true: added), and the map's key order (an array of 150,000 keys at 5,000
 * nodes, 1.2 MB, shared with the previous checkpoint unless pods came or went in between).
 */
interface PodDelta {
  /** built from `changed` when first read (a restore, thinning): see PodChanges */
  delta: Map<string, PodRecord | null>;
  /** in pairs: key, added (see SimHost.podKeyLog) */
  keyLog: (string | boolean)[];
  /**
   * The pod map's key order: the previous checkpoint's array when no key was added or removed
   * since (never edited). A restore after pods came or went rebuilds the map in this order instead
   * of first replaying every key log from the snapshot's order (two passes over 150,000 keys).
   */
  order: readonly string[];
}

interface Checkpoint {
  pass: number | null;
  now: Micros;
  /** a node whose heartbeat times alone changed is kept as those times (NodeHeartbeats) */
  nodes: MapDelta<NodeRecord | NodeHeartbeats>;
  pods: PodDelta;
  replicaSets: MapDelta<ReplicaSetRecord>;
  /** a Lease whose renewTime alone changed is kept as that time (LeaseRenewal) */
  leases: MapDelta<LeaseRecord | LeaseRenewal>;
  daemonSets: Map<string, DaemonSetRecord>;
  ignored: KObject[];
  /** podsByNode's changes since the previous checkpoint (see SimHost.indexLog) */
  indexLog: (string | undefined)[];
  /**
   * podsByNode's sets changed since the previous checkpoint (every set in the first), each as its
   * pod keys in order (null: the node has no set), and the map's key order (see SimHost.indexNodes)
   */
  byNode: MapDelta<readonly string[]>;
  /** the facts remembered since the previous checkpoint, in order, in triples: object, fact, seq (SimHost.factLog) */
  factsDelta: (string | number)[];
  kubelets: unknown;
  controllers: { name: string; saved: unknown }[];
  eventIndex: number;
  nextMonitorAt: Micros | undefined;
  leaderAt: Micros | undefined;
  controllerStartTime: Micros;
  faults: [string, { remaining: number; seq: number }][];
  traceLength: number;
  problems: number;
  lastPassTime: Micros | undefined;
  processedUpTo: Micros;
}

export function createSimulation(scenario: Scenario, options: SimulationOptions = {}): SimulationImpl {
  return new SimulationImpl(scenario, options);
}

export class SimulationImpl implements Simulation {
  readonly scenario: Scenario;
  readonly behaviour: VersionBehaviour;
  readonly config: ControllerConfig;
  readonly kubelet: KubeletConfig;
  /** the loader's, the settings' and the simulation's own problems */
  private readonly ownProblems: Problem[];
  readonly startTime: Micros;
  readonly host: SimHost;
  readonly kubelets: Kubelets;
  readonly plan: ControllerPlan[];
  private readonly factory: ControllerFactory;
  private readonly events: { time: Micros; ev: ScenarioEvent }[];
  private eventIndex = 0;
  private nextMonitorAt: Micros | undefined;
  /** during a failover: when the new leader starts */
  private leaderAt: Micros | undefined;
  private checkpoints: Checkpoint[] = [];
  /**
   * Per node, the latest full copy a checkpoint made (at first the snapshot's record): what the
   * next checkpoint keeps only heartbeat times against when nothing else changed. It is only a
   * candidate, compared field by field; after a restore or a deletion it may be a copy no
   * checkpoint holds any more, which is as good (never edited either).
   */
  private nodeCopies = new Map<string, NodeRecord>();
  /** The same for Leases, against which a checkpoint keeps only a renewTime. */
  private leaseCopies = new Map<string, LeaseRecord>();
  /** while goToPass replays up to this pass: checkpoints every FINE_CHECKPOINT_EVERY passes too */
  private fineUntil: number | null = null;
  private readonly checkpointEvery: number;
  /** see HEAVY_PASS_SHARE */
  private readonly heavyPassPods: number;
  private livelockReported = false;

  constructor(scenario: Scenario, options: SimulationOptions = {}) {
    this.scenario = scenario;
    const settings = resolveSimulationSettings(scenario, options);
    this.behaviour = settings.behaviour;
    this.config = settings.config;
    this.kubelet = settings.kubelet;
    // a version given on the command line makes the loader's version guess moot
    const guess = options.version !== undefined ? VERSION_GUESS_CODES : undefined;
    this.ownProblems = [...(guess ? scenario.problems.filter((p) => !guess.has(p.code)) : scenario.problems), ...settings.problems];
    this.startTime = scenario.startTime ?? scenario.snapshot.latestTimestamp ?? 0;
    // a scenario file reports it at its place; a plain snapshot has no place to point at
    if (scenario.startTime === undefined && scenario.snapshot.latestTimestamp === undefined && !this.ownProblems.some((p) => p.code === 'no-start-time')) {
      this.ownProblems.push({
        code: 'no-start-time',
        severity: 'warning',
        message: 'no timestamp in the snapshot: the clock starts at 1970-01-01T00:00:00Z; write a scenario with startTime to choose',
      });
    }
    this.factory = options.controllerFactory ?? defaultControllerFactory;
    this.shouldStop = options.shouldStop;
    this.shouldAbort = options.shouldAbort;
    this.shouldYield = options.shouldYield;
    this.plan = planControllers(this.config, this.behaviour, scenario.binder);
    // the snapshot's records stay as loaded: the simulation works on a copy, and checkpoints start from them
    const cluster = cloneCluster(scenario.snapshot.cluster);
    this.host = new SimHost(cluster, this.config, this.kubelet, this.behaviour, this.startTime);
    this.host.pristinePods = scenario.snapshot.cluster.pods;
    this.nodeCopies = new Map(scenario.snapshot.cluster.nodes);
    this.leaseCopies = new Map(scenario.snapshot.cluster.leases);
    const leases = settings.leases;
    this.kubelets = new Kubelets(
      cluster,
      {
        updateFrequency: this.kubelet.nodeStatusUpdateFrequency,
        reportFrequency: this.kubelet.nodeStatusReportFrequency,
        leaseRenewInterval: this.kubelet.leaseRenewInterval,
        leases,
        gracePeriod: this.config.nodeMonitorGracePeriod,
      },
      {
        nodeStatusChanged: (node, _before, why) => {
          if (why === 'repost') this.recordRepost(node.meta.name, _before);
          this.host.announceNode('updated', node);
        },
        leaseCreated: (lease) => this.host.announceLease('added', lease),
        heartbeats: (batch, count) => this.host.announceHeartbeats(batch, count),
        leaseRenewed: (lease) => this.host.announceLease('updated', lease),
        leasesRenewed: (batch, count) => this.host.announceLeaseRenewals(batch, count),
        // restoring a checkpoint puts back only the records marked changed since it
        touched: (node) => this.host.heartbeatNodes.add(node.meta.name),
      },
    );
    this.host.onNodeConditionsChanged = (node) => this.kubelets.conditionsChanged(node.meta.name, this.host.now);
    // big clusters: fewer checkpoints (each holds the controllers' saved memory), at most MAX_CHECKPOINTS kept
    this.checkpointEvery = options.checkpointEvery ?? Math.max(10, Math.ceil(cluster.nodes.size / 50));
    this.heavyPassPods = Math.max(HEAVY_PASS_MIN_PODS, Math.ceil(cluster.pods.size * HEAVY_PASS_SHARE));

    this.events = scenario.events
      .map((ev) => ({ time: this.timeOf(ev.at), ev }))
      .map((e) => {
        if (e.time < this.startTime) {
          this.ownProblems.push({
            code: 'event-before-start',
            severity: 'warning',
            message: `events[${e.ev.index}] is before startTime (${formatTime(e.time)}); applied at startTime`,
            position: e.ev.position,
          });
          return { time: this.startTime, ev: e.ev };
        }
        return e;
      })
      .map((e, i) => ({ ...e, i }))
      .sort((a, b) => a.time - b.time || a.ev.index - b.ev.index || a.i - b.i)
      .map(({ time, ev }) => ({ time, ev }));

    assumeMissingLeases(this.host, planMissingLeases(cluster, missingLeasesMode(scenario), leases), this.kubelet.nodeStatusReportFrequency);
    this.kubelets.init(this.startTime);
    if (options.checkInvariants) this.invariants = new InvariantChecker(this.config.burstReplicas);
    this.startControllers(this.startTime, scenario.controllerMemory);
    this.saveCheckpoint();
  }

  /** checking mode only (options.checkInvariants): what the invariants found wrong so far */
  readonly invariants?: InvariantChecker;

  /**
   * Everything found wrong with the input: the scenario's and the settings'
   * problems, the simulation's own (events naming missing objects, ...), and
   * what the running controllers found in the objects they manage.
   */
  get problems(): readonly Problem[] {
    const out = [...this.ownProblems];
    const seen = new Set(out.map((p) => `${p.code}|${p.message}`));
    for (const c of this.host.controllers) {
      for (const p of c.problems?.() ?? []) {
        const k = `${p.code}|${p.message}`;
        if (!seen.has(k)) {
          seen.add(k);
          out.push(p);
        }
      }
    }
    return out;
  }

  get now(): Micros {
    return this.host.now;
  }
  get pass(): number | null {
    return this.host.pass;
  }
  get trace(): readonly Decision[] {
    return this.host.trace;
  }
  get cluster(): ClusterState {
    return this.host.cluster;
  }
  takePodChanges(): ReadonlySet<string> | 'all' {
    return this.host.takePodChanges();
  }
  takeRecordChanges(): { nodes: ReadonlySet<string> | 'all'; replicaSets: ReadonlySet<string> | 'all' } {
    return this.host.takeRecordChanges();
  }
  /** the running controllers (none during a failover's wait) */
  get controllers(): readonly SimController[] {
    return this.host.controllers;
  }
  /** when the new leader starts, while a failover is under way */
  get leaderStartsAt(): Micros | undefined {
    return this.leaderAt;
  }

  timeOf(at: TimeSpec): Micros {
    return 'offset' in at ? this.startTime + at.offset : at.time;
  }

  // ---- stepping ----

  /** see SimulationOptions.shouldStop */
  stopped = false;
  private readonly shouldStop: (() => boolean) | undefined;
  /** After an instant: whether the caller asked to stop here (it is remembered in `stopped`). */
  private stopHere(): boolean {
    return (this.stopped = this.aborted || this.shouldStop?.() === true);
  }
  private readonly shouldAbort: (() => boolean) | undefined;
  /** see SimulationOptions.shouldAbort: an instant left part-done, which no step may run on from */
  private aborted = false;
  private readonly shouldYield: (() => boolean) | undefined;
  /** see SimulationOptions.shouldYield: an instant left part-done, and where its controllers' work goes on from */
  private midInstant: MidInstant | null = null;

  /** Finishes the instant a yield left part-done; false when it yields again. */
  private resumeInstant(): boolean {
    const m = this.midInstant!;
    if (!this.runRounds(m)) return false;
    this.finishInstant(m);
    return true;
  }

  step(interactive = false): void {
    this.stopped = this.aborted;
    if (this.aborted) return;
    const resumedPass = this.midInstant?.monitorDue;
    if (this.midInstant && !this.resumeInstant()) return;
    const before = this.host.pass;
    // a pass whose instant was left part-done: finishing it ends the step
    for (; !resumedPass;) {
      const t = this.nextInstant();
      if (t === undefined) return;
      if (!this.processInstant(t)) return;
      if (this.host.pass !== before) break;
      if (this.stopHere()) return;
    }
    // A user's single step keeps the last checkpoint at most FINE_CHECKPOINT_EVERY passes behind (as
    // goToPass leaves them behind a step back), so that the first step back replays at most that many
    // passes too, even after a long runUntil. Right after the pass's instant, as processInstant saves.
    const pass = this.host.pass;
    const last = this.checkpoints[this.checkpoints.length - 1];
    if (interactive && pass !== null && (last.pass === null || pass - last.pass >= FINE_CHECKPOINT_EVERY)) this.saveCheckpoint();
  }

  runUntil(t: Micros): void {
    t = this.withinHorizon(t);
    this.stopped = this.aborted;
    if (this.aborted) return;
    if (this.midInstant && !this.resumeInstant()) return;
    for (;;) {
      const next = this.nextInstant();
      if (next === undefined || next > t) break;
      if (!this.processInstant(next)) return;
      if (this.stopHere()) return;
    }
    if (t > this.host.now) this.host.now = t;
    this.kubelets.materialise(this.host.now);
  }

  runUntilDecision(match: (d: Decision) => boolean, limit: Micros): Decision | undefined {
    limit = this.withinHorizon(limit);
    // the decisions of an instant left part-done count from its start
    let from = Math.min(this.host.trace.length, this.midInstant?.traceFrom ?? Number.POSITIVE_INFINITY);
    this.stopped = this.aborted;
    if (this.aborted) return undefined;
    if (this.midInstant) {
      if (!this.resumeInstant()) return undefined;
      const tr = this.host.trace;
      for (; from < tr.length; from++) if (match(tr[from])) return tr[from];
      if (this.stopHere()) return undefined;
    }
    for (;;) {
      const next = this.nextInstant();
      if (next === undefined || next > limit) break;
      if (!this.processInstant(next)) return undefined;
      const tr = this.host.trace;
      for (; from < tr.length; from++) if (match(tr[from])) return tr[from];
      if (this.stopHere()) return undefined;
    }
    if (limit > this.host.now) this.host.now = limit;
    this.kubelets.materialise(this.host.now);
    return undefined;
  }

  get lastPass(): number {
    return Math.ceil(MAX_HORIZON / Math.max(1, this.config.nodeMonitorPeriod));
  }

  goToPass(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`goToPass: pass must be a whole number ≥ 0, got ${n}`);
    const lastPass = this.lastPass;
    if (n > lastPass)
      throw new RangeError(`goToPass: pass ${n} is beyond the simulation's horizon (${formatDuration(MAX_HORIZON)} after the start: pass ${lastPass})`);
    const cur = this.host.pass;
    const atPassInstant = cur === n && this.lastPassTime === this.host.now;
    if (atPassInstant) return;
    if (cur === null || cur < n) {
      while (this.host.pass === null || this.host.pass < n) {
        const before = this.host.pass;
        this.step();
        if (this.host.pass === before) return;
      }
      return;
    }
    // backwards (or forwards within the same pass, to the pass's own instant)
    let cp = this.checkpoints[0];
    for (const c of this.checkpoints) if (c.pass !== null && c.pass <= n) cp = c;
    this.restoreCheckpoint(cp);
    this.fineUntil = n;
    try {
      while (this.host.pass === null || this.host.pass < n) {
        const before = this.host.pass;
        this.step();
        if (this.host.pass === before) return;
      }
    } finally {
      this.fineUntil = null;
    }
  }

  /**
   * A run stops at the horizon (limits.ts): no caller, however far it asks (`--until 100000h`, a
   * pass number from saved state), makes the clock run past it. Said once, as a warning.
   */
  private withinHorizon(t: Micros): Micros {
    const last = this.startTime + MAX_HORIZON;
    if (t <= last) return t; // NaN too is taken as "as far as the horizon"
    if (!this.horizonReported) {
      this.horizonReported = true;
      this.ownProblems.push({
        code: 'beyond-horizon',
        severity: 'warning',
        message: `the run stops at ${formatTime(last)}, ${formatDuration(MAX_HORIZON)} after the start: the longest run the simulation takes`,
      });
    }
    return last;
  }
  private horizonReported = false;

  /** The passes of the checkpoints kept (null: before the first pass), oldest first. */
  get checkpointPasses(): (number | null)[] {
    return this.checkpoints.map((c) => c.pass);
  }

  /** Back to the state at the start (from the first checkpoint). */
  reset(): void {
    this.restoreCheckpoint(this.checkpoints[0]);
  }

  // ---- views ----

  state(): StateView {
    this.kubelets.materialise(this.host.now);
    return { time: formatTime(this.host.now), zones: this.zones(), objects: exportCluster(this.host.cluster) };
  }

  zones(): ZoneView[] {
    return this.nodeLifecycle()?.zones?.(this.host) ?? [];
  }

  machines(): MachineView[] {
    return this.host.controllers.flatMap((c) => c.machines());
  }

  explain(object: ObjectRef): Explanation {
    this.kubelets.materialise(this.host.now);
    return explainObject(this, object);
  }

  podEvictionDeadlines(limit: number): ReadonlyMap<string, string> {
    this.kubelets.materialise(this.host.now);
    return this.nodeLifecycle()?.podEvictionDeadlines?.(this.host, limit) ?? new Map();
  }

  podsEvictedFrom(node: string): string[] {
    return this.nodeLifecycle()?.podsEvictedFrom?.(this.host, node) ?? [];
  }

  private nodeLifecycle(): SimController | undefined {
    return this.host.controllers.find((c) => c.name === 'node-lifecycle');
  }

  checkExpectations(): ExpectationResult[] {
    return checkExpectations(this);
  }

  /** Is this controller enabled by the settings (spec 1.3 "Which controllers run")? */
  planOf(name: string): ControllerPlan | undefined {
    return this.plan.find((p) => p.name === name);
  }

  // ---- the loop ----

  private lastPassTime: Micros | undefined;

  private nextInstant(): Micros | undefined {
    let t = Number.POSITIVE_INFINITY;
    if (this.eventIndex < this.events.length) t = Math.min(t, this.events[this.eventIndex].time);
    const r = this.kubelets.nextDue();
    if (r !== undefined) t = Math.min(t, r);
    if (this.nextMonitorAt !== undefined) t = Math.min(t, this.nextMonitorAt);
    if (this.leaderAt !== undefined) t = Math.min(t, this.leaderAt);
    for (const c of this.host.controllers) {
      const w = c.nextWake();
      if (w === undefined) continue;
      // work a controller left undone at an instant already processed is not due again
      if (w <= this.processedUpTo) continue;
      t = Math.min(t, w);
    }
    return Number.isFinite(t) ? Math.max(t, this.host.now) : undefined;
  }

  /** the last instant fully processed */
  private processedUpTo: Micros = Number.NEGATIVE_INFINITY;

  /** Runs the instant at t; false when a yield (or an abort) left it part-done. */
  private processInstant(t: Micros): boolean {
    const host = this.host;
    const traceFrom = host.trace.length;
    host.now = t;
    // kubelet posts strictly before t, then the scenario's events at t, then the posts due at t:
    // an event at t (e.g. `kubelet: stop`) comes before a post the kubelet would make at t
    this.kubelets.materialise(t - 1);
    const ctx = {
      host,
      kubelets: this.kubelets,
      restart: (failover: boolean, seq: number) => this.restart(failover, seq),
      problem: (p: Problem) => this.ownProblems.push(p),
    };
    while (this.eventIndex < this.events.length && this.events[this.eventIndex].time <= t) {
      applyWorldEvent(ctx, this.events[this.eventIndex].ev);
      this.eventIndex++;
    }
    this.kubelets.materialise(t);
    this.kubelets.runDue(t);
    if (this.leaderAt !== undefined && this.leaderAt <= t) {
      this.leaderAt = undefined;
      const seq = host.decide({
        controller: 'world',
        action: 'ControllerManagerRestarted',
        object: CONTROLLER_MANAGER_REF,
        summary: 'A new leader acquired the lease: controllers start now with empty memory',
        because: [
          {
            rule: "the old leader's lease expired (leaderElectLeaseDuration)",
            values: { leaderElectLeaseDuration: formatDuration(this.config.leaderElectLeaseDuration) },
          },
        ],
        causes: [host.recall(CONTROLLER_MANAGER_REF, 'restarted') ?? 0],
        source: 'leaderelection: LeaderElector.tryAcquireOrRenew',
      });
      host.remember(CONTROLLER_MANAGER_REF, 'restarted', seq);
      this.startControllers(t, 'fresh');
    }
    const monitorDue = this.nextMonitorAt !== undefined && this.nextMonitorAt <= t;
    if (monitorDue) {
      host.pass = host.pass === null ? 0 : host.pass + 1;
      this.nextMonitorAt = t + Math.max(1, this.config.nodeMonitorPeriod);
      this.lastPassTime = t;
    }
    const m: MidInstant = { t, monitorDue, traceFrom, round: 0, order: [...host.controllers], index: 0, woke: false, again: false };
    if (!this.runRounds(m)) return false;
    this.finishInstant(m);
    return true;
  }

  /**
   * The rounds of controller work at one instant: every controller due, in order, until none is.
   * A yield (SimulationOptions.shouldYield) after a controller's work, or inside it (the controller
   * then says it has work left), leaves `m` where the next call goes on from; false then.
   */
  private runRounds(m: MidInstant): boolean {
    const host = this.host;
    const t = m.t;
    let yielded = false;
    const ask = this.shouldYield;
    const shouldYield = ask ? () => (yielded ||= ask() === true) : undefined;
    for (; m.round < MAX_ROUNDS; m.round++, m.order = [...host.controllers], m.index = 0, m.woke = false) {
      for (; m.index < m.order.length; m.index++) {
        const c = m.order[m.index];
        if (!host.controllers.includes(c)) continue;
        if (!m.again) {
          const w = c.nextWake();
          const due = (w !== undefined && w <= t) || (m.round === 0 && m.monitorDue && c.name === 'node-lifecycle');
          if (!due) continue;
        }
        const left = c.wake(host, shouldYield) === true;
        m.woke = true;
        m.again = left;
        if (this.shouldAbort?.() === true) {
          this.aborted = this.stopped = true;
          this.midInstant = null;
          return false;
        }
        if (left || shouldYield?.()) {
          if (!left) m.index++;
          this.midInstant = m;
          this.stopped = true;
          return false;
        }
      }
      if (!m.woke) break;
      if (
        !host.controllers.some((c) => {
          const w = c.nextWake();
          return w !== undefined && w <= t;
        })
      )
        break;
    }
    this.midInstant = null;
    return true;
  }

  private finishInstant(m: MidInstant): void {
    const host = this.host;
    const { t, monitorDue, round } = m;
    if (round >= MAX_ROUNDS && !this.livelockReported) {
      this.livelockReported = true;
      this.ownProblems.push({
        code: 'controller-livelock',
        severity: 'warning',
        message: `at ${formatTime(t)} a controller still had work due after ${MAX_ROUNDS} rounds; moving on`,
      });
    }
    this.processedUpTo = t;
    this.invariants?.observe(host.trace);
    if (
      monitorDue &&
      host.pass !== null &&
      (host.pass % this.checkpointEvery === 0 ||
        (this.fineUntil !== null && host.pass <= this.fineUntil && host.pass % FINE_CHECKPOINT_EVERY === 0) ||
        host.dirtyPodCount >= this.heavyPassPods)
    )
      this.saveCheckpoint();
  }

  private startControllers(t: Micros, memory: 'reconstructed' | 'fresh'): void {
    const host = this.host;
    host.controllerStartTime = t;
    host.controllers = buildControllers(this.plan, this.factory, {
      config: this.config,
      behaviour: this.behaviour,
      binder: this.scenario.binder,
      strictMachines: this.invariants !== undefined,
    });
    this.nextMonitorAt = t;
    for (const c of [...host.controllers]) c.start(host, memory);
  }

  private restart(failover: boolean, _seq: number): void {
    this.host.controllers = [];
    if (failover) {
      this.nextMonitorAt = undefined;
      this.leaderAt = this.host.now + this.config.leaderElectLeaseDuration;
    } else {
      this.leaderAt = undefined;
      this.startControllers(this.host.now, 'fresh');
    }
  }

  /** A kubelet's repost changed the node's conditions: one world decision, so the chain stays explainable. */
  private recordRepost(name: string, before: ReturnType<typeof nodeBefore>): void {
    const node = this.host.cluster.nodes.get(name);
    if (!node) return;
    const changed = node.conditions
      .filter((c) => before.conditions.find((b) => b.type === c.type)?.status !== c.status)
      .map((c) => `${c.type}=${c.status} (was ${before.conditions.find((b) => b.type === c.type)?.status ?? 'absent'})`);
    const ref = `Node/${name}`;
    const seq = this.host.decide({
      controller: 'world',
      action: 'NodeConditionChanged',
      object: ref,
      summary: `Kubelet re-posted its conditions: ${changed.join(', ') || 'reasons updated'}`,
      because: [
        { rule: "the node's conditions in the API differed from what the running kubelet posts; it posts at its next status update", values: { changed } },
      ],
      causes: [this.host.recall(ref, 'heartbeat') ?? 0, this.host.recall(ref, 'ready-status') ?? 0],
      source: 'kubelet: tryUpdateNodeStatus',
    });
    if (changed.some((c) => c.startsWith('Ready='))) this.host.remember(ref, 'ready-status', seq);
  }

  // ---- checkpoints ----

  private nodeCopy(name: string, n: NodeRecord): NodeRecord | NodeHeartbeats {
    const base = this.nodeCopies.get(name);
    if (base !== undefined) {
      const times = heartbeatsSince(n, base);
      if (times !== undefined) return new NodeHeartbeats(base, times);
    }
    const copy = cloneNode(n);
    this.nodeCopies.set(name, copy);
    return copy;
  }

  /**
   * The checkpoint's entry for a node whose heartbeat times alone were written since the last
   * checkpoint (in host.heartbeatNodes, not in dirtyNodes): its times against its nodeCopies
   * entry, without comparing the records. Exact because, for every node, the live record equals
   * its nodeCopies entry but for heartbeat times after each checkpoint (nodeCopy compares or makes
   * that copy; a node no checkpoint saw is the snapshot's copy) and after a restore (every node
   * put back is marked dirty, so the next checkpoint compares it), and between checkpoints a node
   * changes only through announceNode (dirtyNodes) or a kubelet's heartbeat writes, which set
   * lastHeartbeatTime, a field every condition has. 5,000 nodes at 5,000 nodes, every checkpoint:
   * comparing them field by field was most of a checkpoint's node part. With
   * `checkpointChecks.heartbeats` the comparison is made as well and a difference throws.
   */
  private heartbeatCopy(name: string, n: NodeRecord): NodeRecord | NodeHeartbeats {
    const base = this.nodeCopies.get(name);
    const conds = n.conditions;
    if (base === undefined || base.conditions.length !== conds.length) return this.nodeCopy(name, n);
    const times = new Array<number>(conds.length);
    for (let i = 0; i < conds.length; i++) times[i] = conds[i].lastHeartbeatTime;
    if (checkpointChecks.heartbeats) {
      const slow = heartbeatsSince(n, base);
      if (slow === undefined || slow.join() !== times.join())
        throw new Error(`checkpoint: Node/${name} changed beyond its heartbeat times without being announced`);
    }
    return new NodeHeartbeats(base, times);
  }

  private leaseCopy(name: string, l: LeaseRecord): LeaseRecord | LeaseRenewal {
    const base = this.leaseCopies.get(name);
    if (base !== undefined && sameFields(l, base, 'renewTime')) return new LeaseRenewal(base, l.renewTime);
    const copy = cloneLease(l);
    this.leaseCopies.set(name, copy);
    return copy;
  }

  private saveCheckpoint(): void {
    const host = this.host;
    const c = host.cluster;
    const last = this.checkpoints[this.checkpoints.length - 1];
    if (last && last.traceLength === host.trace.length && last.pass === host.pass && last.now === host.now) return;
    const podOrder = last !== undefined && host.podKeyLog.length === 0 ? last.pods.order : [...c.pods.keys()];
    const pods: PodDelta = new PodChanges(host.takeDirtyPods(), host.podKeyLog, podOrder);
    host.podKeyLog = [];
    const indexLog = host.indexLog;
    host.indexLog = [];
    const index = c.podsByNode;
    const byNode: MapDelta<readonly string[]> = { delta: new Map(), order: keysSharedWith(last?.byNode.order ?? [], index) };
    for (const name of last === undefined ? index.keys() : host.indexNodes) {
      const set = index.get(name);
      byNode.delta.set(name, set === undefined ? null : [...set]);
    }
    host.indexNodes.clear();
    const nodeDelta = takeChanged(c.nodes, host.dirtyNodes, (n, name) => this.nodeCopy(name, n), false);
    for (const name of host.heartbeatNodes) {
      if (nodeDelta.has(name)) continue;
      const n = c.nodes.get(name);
      nodeDelta.set(name, n === undefined ? null : this.heartbeatCopy(name, n));
    }
    host.dirtyNodes.clear();
    host.heartbeatNodes.clear();
    // the key order: the last checkpoint's array when the keys are the same (most checkpoints)
    const nodes = { delta: nodeDelta, order: keysSharedWith(last?.nodes.order ?? [], c.nodes) };
    const pristineSets = this.scenario.snapshot.cluster.replicaSets;
    const replicaSets = takeDelta(c.replicaSets, host.dirtyReplicaSets, (r, key) => frozenReplicaSet(r, pristineSets.get(key)), last?.replicaSets.order);
    const leases = takeDelta(c.leases, host.dirtyLeases, (l, name) => this.leaseCopy(name, l), last?.leases.order);
    const factsDelta = host.factLog;
    host.factLog = [];
    this.checkpoints.push({
      pass: host.pass,
      now: host.now,
      nodes,
      pods,
      replicaSets,
      leases,
      daemonSets: copyMap(c.daemonSets, cloneDaemonSet),
      ignored: [...c.ignored],
      indexLog,
      byNode,
      factsDelta,
      kubelets: this.kubelets.save(),
      controllers: host.controllers.map((x) => ({ name: x.name, saved: x.save() })),
      eventIndex: this.eventIndex,
      nextMonitorAt: this.nextMonitorAt,
      leaderAt: this.leaderAt,
      controllerStartTime: host.controllerStartTime,
      faults: [...host.faults].map(([k, f]) => [k, { ...f }]),
      traceLength: host.trace.length,
      problems: this.ownProblems.length,
      lastPassTime: this.lastPassTime,
      processedUpTo: this.processedUpTo,
    });
    if (this.checkpoints.length > MAX_CHECKPOINTS) this.thinCheckpoints();
  }

  /** Drops every other checkpoint (never the first or the last), merging its deltas into the next one. */
  private thinCheckpoints(): void {
    const kept: Checkpoint[] = [this.checkpoints[0]];
    for (let i = 1; i < this.checkpoints.length; i++) {
      const cp = this.checkpoints[i];
      const isLast = i === this.checkpoints.length - 1;
      if (i % 2 === 1 && !isLast) {
        const next = this.checkpoints[i + 1];
        next.pods.delta = mergeDelta(cp.pods.delta, next.pods.delta);
        next.pods.keyLog = [...cp.pods.keyLog, ...next.pods.keyLog];
        next.indexLog = [...cp.indexLog, ...next.indexLog];
        next.byNode.delta = mergeDelta(cp.byNode.delta, next.byNode.delta);
        next.nodes.delta = mergeDelta(cp.nodes.delta, next.nodes.delta);
        next.replicaSets.delta = mergeDelta(cp.replicaSets.delta, next.replicaSets.delta);
        next.leases.delta = mergeDelta(cp.leases.delta, next.leases.delta);
        next.factsDelta = [...cp.factsDelta, ...next.factsDelta];
        continue;
      }
      kept.push(cp);
    }
    this.checkpoints = kept;
  }

  private restoreCheckpoint(cp: Checkpoint): void {
    const host = this.host;
    this.aborted = false;
    this.midInstant = null;
    const k = this.checkpoints.indexOf(cp);
    // the checkpoints after this one are dropped: running forward again makes them anew
    const chain = this.checkpoints.slice(0, k + 1);
    const dropped = this.checkpoints.slice(k + 1);
    this.checkpoints = chain;
    const facts: Facts = new Map();
    for (const c of chain)
      for (let i = 0; i < c.factsDelta.length; i += 3) setFact(facts, c.factsDelta[i] as string, c.factsDelta[i + 1] as string, c.factsDelta[i + 2] as number);
    // Only the records changed since the checkpoint (the dropped checkpoints' deltas and what is dirty
    // now) are put back; the others are the live records, unchanged since then. Rebuilding every record
    // from the snapshot and the deltas copied all 150,000 pods at 5,000 nodes on each step back.
    const snap = this.scenario.snapshot.cluster;
    const live = host.cluster;
    // No pod created or deleted since the checkpoint (nor bound or moved): the live map's key order
    // (the index) is the one at the checkpoint, and is kept instead of rebuilt from the snapshot
    // through every log (O(150,000) at 5,000 nodes, most of a single step back in a quiet stretch).
    const keysMoved = host.podKeyLog.length > 0 || dropped.some((c) => c.pods.keyLog.length > 0);
    // the pods indexed elsewhere since the checkpoint, and the nodes whose sets changed
    const podsMoved = new Set<string>();
    for (const log of [host.indexLog, ...dropped.map((c) => c.indexLog)]) for (let i = 0; i < log.length; i += 2) podsMoved.add(log[i]!);
    const setsBack = new Set<string>(host.indexNodes);
    for (const c of dropped) for (const name of c.byNode.delta.keys()) setsBack.add(name);
    const liveIndex = host.currentIndex;
    // the nodes changed since the checkpoint: put back, and marked dirty below (see heartbeatCopy)
    const nodesBack = new Set<string>(host.dirtyNodes);
    for (const name of host.heartbeatNodes) nodesBack.add(name);
    for (const c of dropped) for (const name of c.nodes.delta.keys()) nodesBack.add(name);
    const cluster: ClusterState = {
      nodes: rewind(live.nodes, snap.nodes, chain, dropped, (c) => c.nodes.delta, nodesBack, nodeFrom, cp.nodes.order),
      pods: rewind(live.pods, snap.pods, chain, dropped, (c) => c.pods.delta, host.dirtyPodKeys(), clonePod, keysMoved ? cp.pods.order : undefined),
      replicaSets: rewind(
        live.replicaSets,
        snap.replicaSets,
        chain,
        dropped,
        (c) => c.replicaSets.delta,
        host.dirtyReplicaSets,
        cloneReplicaSet,
        cp.replicaSets.order,
      ),
      daemonSets: copyMap(cp.daemonSets, cloneDaemonSet),
      leases: rewind(live.leases, snap.leases, chain, dropped, (c) => c.leases.delta, host.dirtyLeases, leaseFrom, cp.leases.order),
      podsByNode: new Map(),
      ignored: [...cp.ignored],
    };
    host.cluster = cluster;
    this.kubelets.restore(cp.kubelets, cluster);
    host.now = cp.now;
    host.pass = cp.pass;
    host.controllerStartTime = cp.controllerStartTime;
    host.truncate(cp.traceLength);
    host.facts = facts;
    host.clearDirtyPods();
    host.dirtyNodes.clear();
    host.heartbeatNodes.clear();
    // their nodeCopies entries may be copies made after the checkpoint: the next checkpoint compares them
    for (const name of nodesBack) if (cluster.nodes.has(name)) host.dirtyNodes.add(name);
    host.dirtyReplicaSets.clear();
    host.dirtyLeases.clear();
    host.factLog = [];
    host.podKeyLog = [];
    host.faults = new Map(cp.faults.map(([key, f]) => [key, { ...f }]));
    host.indexLog = [];
    host.indexNodes.clear();
    host.reindex(podsMoved.size === 0 && setsBack.size === 0 ? liveIndex : indexAt(liveIndex, cluster.pods, chain, setsBack, podsMoved, cp.byNode.order));
    if (checkpointChecks.index) checkIndex(host.currentIndex, podsByNodeAt(snap.pods, chain));
    host.controllers = buildControllers(this.plan, this.factory, {
      config: this.config,
      behaviour: this.behaviour,
      binder: this.scenario.binder,
      strictMachines: this.invariants !== undefined,
    }).filter((c) => cp.controllers.some((x) => x.name === c.name));
    for (const c of host.controllers) c.restore(cp.controllers.find((x) => x.name === c.name)!.saved, host);
    this.eventIndex = cp.eventIndex;
    this.nextMonitorAt = cp.nextMonitorAt;
    this.leaderAt = cp.leaderAt;
    this.lastPassTime = cp.lastPassTime;
    this.processedUpTo = cp.processedUpTo;
    this.ownProblems.length = cp.problems;
  }
}

/**
 * The changed records (copies) and the key order of a map; clears the dirty set. The order is
 * `prevOrder` (the previous checkpoint's) when the keys are the same, in the same order: one
 * array for consecutive checkpoints instead of a copy of 14,120 ReplicaSet keys each.
 */
function takeDelta<T, S = T>(map: Map<string, T>, dirty: Set<string>, clone: (v: T, key: string) => S, prevOrder: readonly string[] | undefined): MapDelta<S> {
  return { delta: takeChanged(map, dirty, clone), order: keysSharedWith(prevOrder ?? [], map) };
}

/** Copies of the records changed since the last checkpoint (null: deleted); clears the dirty set unless told not to. */
function takeChanged<T, S = T>(map: Map<string, T>, dirty: Set<string>, clone: (v: T, key: string) => S, clear = true): Map<string, S | null> {
  const delta = new Map<string, S | null>();
  for (const key of dirty) {
    const v = map.get(key);
    delta.set(key, v === undefined ? null : clone(v, key));
  }
  if (clear) dirty.clear();
  return delta;
}

/**
 * The live map put back to what it was at the last of `chain`: every key changed since then (in a
 * `dropped` checkpoint's delta or `dirty` now) gets a copy of its latest delta in `chain`, else of
 * the base record, or goes when it did not exist then; the map is rebuilt in that checkpoint's key
 * order only when the order differs. Records changed since the checkpoint are always in one of those
 * (every change of a record goes through the host, which marks it dirty), so the others are as they were.
 */
function rewind<T, S = T>(
  map: Map<string, T>,
  base: Map<string, T>,
  chain: Checkpoint[],
  dropped: Checkpoint[],
  deltaOf: (c: Checkpoint) => Map<string, S | null>,
  dirty: Iterable<string>,
  clone: (v: T | S) => T,
  /** the keys' order at the checkpoint; undefined: the live map's order is that order */
  order: readonly string[] | Set<string> | undefined,
): Map<string, T> {
  const changed = new Set<string>(dirty);
  for (const c of dropped) for (const key of deltaOf(c).keys()) changed.add(key);
  for (const key of changed) {
    let v: T | S | null | undefined;
    for (let i = chain.length - 1; i >= 0 && v === undefined; i--) {
      const d = deltaOf(chain[i]);
      if (d.has(key)) v = d.get(key);
    }
    if (v === undefined) v = base.get(key) ?? null;
    if (v) map.set(key, clone(v));
    else map.delete(key);
  }
  if (order === undefined) return map;
  if (map.size === (order instanceof Set ? order.size : order.length)) {
    let same = true;
    const it = order[Symbol.iterator]();
    for (const key of map.keys())
      if (key !== it.next().value) {
        same = false;
        break;
      }
    if (same) return map;
  }
  const out = new Map<string, T>();
  for (const key of order) {
    const v = map.get(key);
    if (v) out.set(key, v);
  }
  return out;
}

/**
 * The pod index at the last of `chain`, from the live one: the sets of `setsBack` (changed since)
 * are put back from the latest checkpoint that kept them, the others are the live sets,
 * unchanged since; the pods of `podsMoved` are indexed under their node in `pods` (the pod map
 * put back to the checkpoint: a pod is indexed under its nodeName, see SimHost.updatePod).
 */
function indexAt(
  live: { byNode: Map<string, Set<string>>; podNode: Map<string, string> },
  pods: ReadonlyMap<string, PodRecord>,
  chain: Checkpoint[],
  setsBack: ReadonlySet<string>,
  podsMoved: ReadonlySet<string>,
  order: readonly string[],
): { byNode: Map<string, Set<string>>; podNode: Map<string, string> } {
  const byNode = rewind(
    live.byNode,
    new Map(),
    chain,
    [],
    (c) => c.byNode.delta,
    setsBack,
    (keys) => new Set(keys),
    order,
  );
  const podNode = live.podNode;
  for (const key of podsMoved) {
    const node = pods.get(key)?.nodeName;
    if (node) podNode.set(key, node);
    else podNode.delete(key);
  }
  return { byNode, podNode };
}

/** checkpointChecks.index: the index put back equals the one replayed from the snapshot through every log, order included. */
function checkIndex(
  got: { byNode: Map<string, Set<string>>; podNode: Map<string, string> },
  want: { byNode: Map<string, Set<string>>; podNode: Map<string, string> },
): void {
  const text = (m: Map<string, Set<string>>) => JSON.stringify([...m].map(([n, keys]) => [n, [...keys]]));
  if (text(got.byNode) !== text(want.byNode)) throw new Error('checkpoint: podsByNode put back differs from the one replayed from the snapshot');
  const pairs = (m: Map<string, string>) => JSON.stringify([...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  if (pairs(got.podNode) !== pairs(want.podNode)) throw new Error("checkpoint: the pods' nodes put back differ from the ones replayed from the snapshot");
}

/**
 * podsByNode at the last of `chain`, each node's pods in their order then:
 * the index the host builds from the snapshot's pods, through every change logged up to it
 * (the slow path, which checkpointChecks.index compares with indexAt).
 */
function podsByNodeAt(base: Map<string, PodRecord>, chain: Checkpoint[]): { byNode: Map<string, Set<string>>; podNode: Map<string, string> } {
  const byNode = new Map<string, Set<string>>();
  const podNode = new Map<string, string>();
  for (const [key, pod] of base) indexPod(byNode, podNode, key, pod.nodeName);
  for (const c of chain) for (let i = 0; i < c.indexLog.length; i += 2) indexPod(byNode, podNode, c.indexLog[i]!, c.indexLog[i + 1]);
  return { byNode, podNode };
}

/**
 * A checkpoint's pods: the changed ones as the host listed them (each key once, in the order first
 * changed), and the map a restore or thinning reads built from them only when first read. Most
 * checkpoints are never read, and the one after MarkPodsNotReady holds 50,000 pods at 5,000 nodes:
 * a map of them was 50,000 inserts (and its growth) per checkpoint for nothing.
 */
class PodChanges implements PodDelta {
  private changed: { keys: string[]; values: (PodRecord | null)[] } | undefined;
  private map: Map<string, PodRecord | null> | undefined;
  constructor(
    changed: { keys: string[]; values: (PodRecord | null)[] },
    public keyLog: (string | boolean)[],
    readonly order: readonly string[],
  ) {
    this.changed = changed;
  }

  get delta(): Map<string, PodRecord | null> {
    if (this.map === undefined) {
      const m = new Map<string, PodRecord | null>();
      const { keys, values } = this.changed!;
      for (let i = 0; i < keys.length; i++) m.set(keys[i], values[i]);
      this.map = m;
      this.changed = undefined;
    }
    return this.map;
  }

  set delta(m: Map<string, PodRecord | null>) {
    this.map = m;
    this.changed = undefined;
  }
}

/** Two consecutive deltas as one (the later one wins). */
function mergeDelta<T>(earlier: Map<string, T | null>, later: Map<string, T | null>): Map<string, T | null> {
  const out = new Map(earlier);
  for (const [k, v] of later) out.set(k, v);
  return out;
}
