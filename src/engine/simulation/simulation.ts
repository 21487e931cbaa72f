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
 * What a checkpoint keeps and how it is put back: checkpointStore.ts.
 */
import type { ControllerConfig, KubeletConfig } from '../config/types';
import { drain, type SimController } from '../controllers/controller';
import type { ClusterState } from '../model/cluster';
import type { Micros } from '../model/time';
import { formatDuration } from '../model/time';
import { withoutRepeats, type Problem } from '../problems';
import type { Scenario, ScenarioEvent } from '../snapshot/types';
import { VERSION_GUESS_CODES } from '../snapshot/scenario';
import type { Decision } from '../trace/decision';
import type { VersionBehaviour } from '../versions/types';
import type { Kubelets } from '../kubelet/kubelets';
import { wireKubelets } from './kubeletWiring';
import type { GoToPassOptions, Simulation, SimulationOptions } from './api';
import { SimHost } from './simHost';
import { applyWorldEvent, assumeMissingLeases } from './world';
import { missingLeasesMode, planMissingLeases } from '../kubelet/missingLeases';
import { buildControllers, planControllers, startInPieces, type ControllerFactory, type ControllerPlan } from './controllerPlan';
import { cloneCluster } from './checkpoint';
import { CheckpointStore, type Checkpoint, type LoopPosition } from './checkpointStore';
import { HandOff, handOffNext, type HandOffSource, type HandOffTarget } from './handOff';
import { Redo, takeOwed } from './redo';
import { VIEWS_RESTORED } from './partsUnderWay';
import { startToTake, takeStart } from './startLike';
import { checkpointDue, fineDue, heavyPass, PendingCheckpoint, podsDue, runEndReplay, RunEndRing, STEP_BACK_CHECKPOINTS } from './checkpointPlacement';
import { SimulationViews } from './simulationViews';
import { resolveSimulationSettings } from './settings';
import { defaultControllerFactory, withChecks } from './wiring';
import { InvariantChecker } from './invariants';
import { livelock, MAX_ROUNDS, NO_START_TIME, recordNewLeader, runRounds, sayOnce, scheduleEvents, withinHorizon, type MidInstant } from './instants';
import { MAX_HORIZON } from '../model/limits';
import { settleOrderSlice } from '../model/podOrder';
import { warmUpOnce } from './warmUp';

export { MAX_ROUNDS } from './instants';
export { FINE_CHECKPOINT_EVERY, HEAVY_PASS_MIN_PODS, HEAVY_PASS_SHARE } from './checkpointPlacement';
export { MAX_CHECKPOINTS } from './checkpointStore';

export function createSimulation(scenario: Scenario, options: SimulationOptions = {}): SimulationImpl {
  return new SimulationImpl(scenario, options);
}

export class SimulationImpl extends SimulationViews implements Simulation {
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
  /** the options that decide what the run does (afresh) */
  private readonly sameRun: SimulationOptions;
  private readonly events: { time: Micros; ev: ScenarioEvent }[];
  private eventIndex = 0;
  private nextMonitorAt: Micros | undefined;
  /** during a failover: when the new leader starts */
  private leaderAt: Micros | undefined;
  private readonly store: CheckpointStore;
  /** oldest first */
  private get checkpoints(): readonly Checkpoint[] {
    return this.store.list;
  }
  protected owedRestoreOf = (name: string) => this.store.owedOf(name);
  /** while goToPass replays up to this pass: more checkpoints (checkpointDue) */
  private replay: ReturnType<typeof runEndReplay> = null;
  /** while the panel's runUntilDecision runs: a checkpoint after every pass, the last few kept */
  private readonly ring = new RunEndRing<Checkpoint>();
  /** settled by every public method that can change the state or reads the checkpoints; not by the views (test/engine/simulation/pendingCheckpoint.test.ts) */
  private readonly pending = new PendingCheckpoint({ save: () => this.saveCheckpoint(), copyPods: (max) => this.host.dirtyPods.copy(max) });
  private readonly checkpointEvery: number;
  /** see HEAVY_PASS_SHARE */
  private readonly heavy: ReturnType<typeof heavyPass>;
  /** what a hand-off writes into (handOff.ts) */
  private readonly target: HandOffTarget;

  /** `made`: the records' copy and its index, made beforehand (simulationInSlices); the constructor then stops
   * before the controllers' start, and the simulation is not to be used before `startInPieces` is done. */
  constructor(scenario: Scenario, options: SimulationOptions = {}, made?: { cluster: ClusterState; index: SimHost['currentIndex'] }) {
    super();
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
    if (scenario.startTime === undefined && scenario.snapshot.latestTimestamp === undefined && !this.ownProblems.some((p) => p.code === 'no-start-time'))
      this.ownProblems.push(NO_START_TIME);
    this.factory = withChecks(options.controllerFactory ?? defaultControllerFactory, options.checks);
    this.shouldStop = options.shouldStop;
    this.shouldAbort = options.shouldAbort;
    this.shouldYield = options.shouldYield;
    this.sameRun = { ...options, shouldStop: undefined, shouldAbort: undefined, shouldYield: undefined };
    this.plan = planControllers(this.config, this.behaviour, scenario.binder);
    // the snapshot's records stay as loaded: the simulation works on a copy, and checkpoints start from them
    const cluster = made?.cluster ?? cloneCluster(scenario.snapshot.cluster);
    this.host = new SimHost(cluster, this.config, this.kubelet, this.behaviour, this.startTime, made?.index);
    this.host.pristinePods = scenario.snapshot.cluster.pods;
    this.host.checkPods = options.checks?.pods === true;
    this.store = new CheckpointStore(scenario.snapshot.cluster, options.checks);
    this.kubelets = wireKubelets(cluster, this.kubelet, this.config, settings.leases, this.host, options.checks?.kubeletDue);
    // big clusters: fewer checkpoints (each holds the controllers' saved memory), at most MAX_CHECKPOINTS kept
    this.checkpointEvery = options.checkpointEvery ?? Math.max(10, Math.ceil(cluster.nodes.size / 50));
    this.heavy = heavyPass(cluster.pods.size);
    this.target = { store: this.store, host: this.host, kubelets: this.kubelets, controllers: () => this.buildControllers() };
    this.events = scheduleEvents(
      scenario.events,
      (at) => this.timeOf(at),
      this.startTime,
      (p) => this.ownProblems.push(p),
    );

    assumeMissingLeases(this.host, planMissingLeases(cluster, missingLeasesMode(scenario), settings.leases), this.kubelet.nodeStatusReportFrequency);
    this.kubelets.init(this.startTime);
    if (options.checkInvariants) this.invariants = new InvariantChecker(this.config.burstReplicas);
    if (!made) drain(this.startInPieces());
  }

  /**
   * The constructor's last part (the controllers' start, the first checkpoint), a yield between two pieces of about `perPiece` records.
   * `like`: a simulation of the same scenario and options, whose start is taken instead of made (startLike.ts).
   */
  *startInPieces(perPiece = Infinity, like?: SimulationImpl): Generator<void, void, void> {
    const first = like?.scenario === this.scenario ? like.store.list[0] : undefined;
    if (startToTake(first, this.startTime)) {
      this.host.controllerStartTime = this.nextMonitorAt = this.startTime;
      this.host.controllers = this.buildControllers().filter((c) => first.controllers.some((x) => x.name === c.name));
      yield* takeStart(this.host, this.host.controllers, first, like!.trace);
    } else yield* this.startControllers(this.startTime, this.scenario.controllerMemory, perPiece);
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
    this.finishRestore();
    return withoutRepeats(
      this.ownProblems,
      this.host.controllers.flatMap((c) => c.problems?.() ?? []),
    );
  }

  prepare(): void {
    this.settle();
    for (const c of this.host.controllers) c.prepare?.(this.host);
    // once per version in a process, and not in prepareSlice: one uncut piece of ~100–200 ms (warmUp.ts)
    warmUpOnce(this.behaviour.version.minor, createSimulation);
  }
  prepareSlice(more: () => boolean, checkpointOnly = false): boolean {
    // the pod map's order a restore left owed (the next pass's first pod created makes it good at once: 184 ms after a step
    // back over the Unknown pass) before the rest of a viewsFirst restore; then the checkpoint's pod copies in chunks, its rest
    if (this.underway.kind === 'restore' && (settleOrderSlice(this.host.cluster.pods, more) || this.finishRestore(more))) return true;
    if (checkpointOnly) return (this.pending.slice(more) && this.pending.pending) || settleOrderSlice(this.host.cluster.pods, more);
    if (this.pending.slice(more) || settleOrderSlice(this.host.cluster.pods, more)) return true;
    for (const c of this.host.controllers) if (c.prepareSlice ? c.prepareSlice(this.host, more) : (c.prepare?.(this.host), false)) return true;
    return false;
  }
  /** when the new leader starts, while a failover is under way */
  get leaderStartsAt(): Micros | undefined {
    return this.leaderAt;
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

  get partDone(): boolean {
    return this.midInstant !== null || this.underway.active;
  }
  /** Finishes the instant a yield left part-done; false when it yields again. */
  private resumeInstant(): boolean {
    this.stopped = this.aborted;
    const m = this.midInstant!;
    return this.runRounds(m) && (this.finishInstant(m), true);
  }

  private userStep = false; // while a user's single step runs: see fineDue
  /** `ring`: the step leaves the ring's checkpoint (userStepRing; goToPass: only in the last passes) */
  step(interactive = false, ring = interactive): void {
    this.ring.running = ring;
    this.userStep = interactive;
    try {
      this.settle();
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
    } finally {
      this.ring.running = this.userStep = false;
    }
  }

  runUntil(t: Micros, how?: GoToPassOptions): void {
    this.settle();
    t = withinHorizon(this.startTime, t, this.ownProblems);
    if (!how?.interactive) return this.runTo(t);
    // a call cut short leaves the replay too: a later call of another kind would keep its checkpoints (a resumed one sets it again)
    this.replay = runEndReplay(this.host.pass, this.nextMonitorAt, this.config.nodeMonitorPeriod, t);
    try {
      this.runTo(t);
    } finally {
      this.replay = null;
    }
  }

  private runTo(t: Micros): void {
    this.runToDecision(() => false, t);
  }

  runUntilDecision(match: (d: Decision) => boolean, limit: Micros, how?: GoToPassOptions): Decision | undefined {
    this.settle();
    limit = withinHorizon(this.startTime, limit, this.ownProblems);
    if (!how?.interactive) return this.runToDecision(match, limit);
    this.ring.running = true;
    const at = (): [number | null, number] => [this.host.pass, this.host.trace.length];
    if (this.ring.resume(at())) this.saveCheckpoint();
    try {
      const found = this.runToDecision(match, limit);
      // the pass it ends on: the step back goes before it (a run cut short goes on, and wants it)
      if (!this.stopped && this.ring.end(at(), this.store.list, (cp) => this.store.merge(cp))) this.pending.drop();
      return found;
    } finally {
      this.ring.running = false;
    }
  }

  private runToDecision(match: (d: Decision) => boolean, limit: Micros): Decision | undefined {
    // the decisions of an instant left part-done count from its start
    let from = Math.min(this.host.trace.length, this.midInstant?.traceFrom ?? Number.POSITIVE_INFINITY);
    this.stopped = this.aborted;
    if (this.aborted) return undefined;
    if (this.midInstant) {
      if (!this.resumeInstant()) return undefined;
      const tr = this.host.trace;
      for (; from < tr.length; from++) if (match(tr.at(from)!)) return tr.at(from);
      if (this.stopHere()) return undefined;
    }
    for (;;) {
      const next = this.nextInstant();
      if (next === undefined || next > limit) break;
      // a pass it ran before a step back, taken again where it ends in time and decides nothing looked for (redo.ts)
      if (this.redone(Infinity, (cp, made) => cp.now <= limit && !made.some(match))) {
        if (this.underway.active) return void (this.stopped = true);
      } else if (!this.processInstant(next)) return undefined;
      const tr = this.host.trace;
      for (; from < tr.length; from++) if (match(tr.at(from)!)) return tr.at(from);
      if (this.stopHere()) return undefined;
    }
    this.settle();
    if (limit > this.host.now) this.host.now = limit;
    this.kubelets.materialise(this.host.now);
    return undefined;
  }

  get lastPass(): number {
    return Math.ceil(MAX_HORIZON / Math.max(1, this.config.nodeMonitorPeriod));
  }

  goToPass(n: number, how?: GoToPassOptions): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`goToPass: pass must be a whole number ≥ 0, got ${n}`);
    const lastPass = this.lastPass;
    if (n > lastPass)
      throw new RangeError(`goToPass: pass ${n} is beyond the simulation's horizon (${formatDuration(MAX_HORIZON)} after the start: pass ${lastPass})`);
    // a restore left in parts goes on in parts when asked so (GoToPassOptions.restoreInPieces), a redo's always; once
    // done, the call is not stopped even where it has nothing more to do (the session's step reads `stopped`)
    const inParts = how?.restoreInPieces || this.underway.kind === 'handOff';
    if (this.underway.active && inParts && this.underway.run(() => !this.shouldStop?.())) return void (this.stopped = true);
    this.stopped = this.aborted;
    // before a restore too: the checkpoint may thin the list, and so choose the one restored; but the rest of a restore a
    // step back at once after another left owed is taken into this one (CheckpointStore.dropOwed), not paid in the click,
    // and so is it into a Step's redo at once after a Step Back (takeOwed)
    const back = how?.viewsFirst === true && this.underway.kind === 'restore' && (this.host.pass ?? -1) > n && this.store.dropOwed();
    const redoes = !back && this.underway.viewsRestored && (this.host.pass ?? -1) < n && takeOwed(this.redo, this.target, n, this.heavy.is);
    if (back || redoes) this.underway.drop();
    else this.settle();
    if (redoes) {
      // where the restore dropped would have stood the loop at its end (`restoring`), the hand-off goes on from
      this.ring.drop(this.store.list);
      this.standAt(this.store.list[this.store.list.length - 1].loop);
    }
    // an instant a yield left part-done is finished first, unless going back drops it
    if (this.midInstant && (this.host.pass ?? -1) <= n && !this.resumeInstant()) return;
    const cur = this.host.pass;
    if (cur === n && this.lastPassTime === this.host.now) return void (this.replay = null);
    if (cur !== null && cur >= n) {
      // backwards (or forwards within the same pass, to the pass's own instant)
      let cp = this.checkpoints[0];
      for (const c of this.checkpoints) if (c.pass !== null && c.pass <= n) cp = c;
      const later = how?.viewsFirst === true && cp.pass === n;
      this.restoreCheckpoint(cp, how?.restoreInPieces === true, later);
      this.replay = { to: n, stepBack: cur === n + 1 };
      if (this.underway.active && !later && this.underway.run(() => !this.shouldStop?.())) return void (this.stopped = true);
    } else if (this.replay?.to !== n) this.replay = null;
    // a pass at a time, asking shouldStop between passes too (the extension's slices end there); a
    // replay stopped so goes on at the next call for the same pass, leaving its checkpoints still. A
    // step cut inside an instant (shouldYield) stops here too, even in the target pass: a part-done
    // pass is not reached, and the next call finishes it (above) instead of stepping past it.
    // Each call steps once before it asks, so that a slice always over (the host busy) still moves on.
    const interactive = how?.interactive === true;
    for (let first = true; this.host.pass === null || this.host.pass < n; first = false) {
      const before = this.host.pass;
      if (!first && this.stopHere()) return;
      if (this.redone(n)) {
        if (this.underway.active) return void (this.stopped = true);
        continue;
      }
      this.step(interactive, interactive && (before ?? -1) + 1 >= n - STEP_BACK_CHECKPOINTS - 1);
      if (this.stopped || this.host.pass === before) return;
    }
    this.replay = null;
  }

  /** The passes of the checkpoints kept (null: before the first pass), oldest first. */
  get checkpointPasses(): (number | null)[] {
    this.settle();
    return this.checkpoints.map((c) => c.pass);
  }

  /** Back to the state at the start (from the first checkpoint). */
  reset(how?: Pick<GoToPassOptions, 'viewsFirst'>): void {
    this.settle();
    this.restoreCheckpoint(this.checkpoints[0], false, how?.viewsFirst);
  }

  // ---- views (the rest: simulationViews.ts) ----

  protected afresh(): SimulationImpl {
    return createSimulation(this.scenario, this.sameRun);
  }

  // ---- the loop ----

  private lastPassTime: Micros | undefined;

  private nextInstant(): Micros | undefined {
    let t = Number.POSITIVE_INFINITY;
    if (this.eventIndex < this.events.length) t = Math.min(t, this.events[this.eventIndex].time);
    t = Math.min(t, this.kubelets.nextDue() ?? Number.POSITIVE_INFINITY);
    if (this.nextMonitorAt !== undefined) t = Math.min(t, this.nextMonitorAt);
    if (this.leaderAt !== undefined) t = Math.min(t, this.leaderAt);
    // work a controller left undone at an instant already processed is not due again
    for (const c of this.host.controllers) {
      const w = c.nextWake();
      if (w !== undefined && w > this.processedUpTo) t = Math.min(t, w);
    }
    return Number.isFinite(t) ? Math.max(t, this.host.now) : undefined;
  }

  /** the last instant fully processed */
  private processedUpTo: Micros = Number.NEGATIVE_INFINITY;

  /** Runs the instant at t; false when a yield (or an abort) left it part-done. */
  private processInstant(t: Micros): boolean {
    this.settle();
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
      recordNewLeader(host, this.config.leaderElectLeaseDuration);
      drain(this.startControllers(t, 'fresh'));
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

  /** A yield (SimulationOptions.shouldYield) or an abort leaves the instant part-done (runRounds); false then. */
  private runRounds(m: MidInstant): boolean {
    const how = runRounds(this.host, m, this.shouldYield, this.shouldAbort);
    if (how === 'aborted') this.aborted = true;
    this.midInstant = how === 'yielded' ? m : null;
    if (how !== 'done') this.stopped = true;
    return how === 'done';
  }

  private finishInstant(m: MidInstant): void {
    const host = this.host;
    const { t, monitorDue, round } = m;
    for (const c of host.controllers) c.instantDone?.(host);
    if (round >= MAX_ROUNDS) sayOnce(this.ownProblems, livelock(t, MAX_ROUNDS));
    this.processedUpTo = t;
    this.invariants?.observe(host.trace);
    if (!monitorDue || host.pass === null) return;
    // the forecast for the next monitor pass (podsDue) is asked last: only when nothing else placed one
    const podsDueNext = () => podsDue(host, this.nextMonitorAt);
    const fine = this.userStep && fineDue(host.pass, this.ring.lastKept(this.checkpoints));
    const placed = fine || checkpointDue(host.pass, this.checkpointEvery, this.replay, host.dirtyPods.count, this.heavy, podsDueNext);
    if (this.ring.due(placed)) this.pending.mark();
  }

  /** in pieces (drained where it is not made so) */
  private *startControllers(t: Micros, memory: 'reconstructed' | 'fresh', perPiece = Infinity): Generator<void, void, void> {
    const host = this.host;
    host.controllerStartTime = t;
    host.controllers = this.buildControllers();
    this.nextMonitorAt = t;
    yield* startInPieces([...host.controllers], host, memory, perPiece);
  }

  private buildControllers(): SimController[] {
    return buildControllers(this.plan, this.factory, {
      config: this.config,
      behaviour: this.behaviour,
      binder: this.scenario.binder,
      strictMachines: this.invariants !== undefined,
    });
  }

  private restart(failover: boolean, _seq: number): void {
    this.host.controllers = [];
    if (failover) {
      this.nextMonitorAt = undefined;
      this.leaderAt = this.host.now + this.config.leaderElectLeaseDuration;
    } else {
      this.leaderAt = undefined;
      drain(this.startControllers(this.host.now, 'fresh'));
    }
  }

  // ---- checkpoints ----
  /** Takes the checkpoint left pending (PendingCheckpoint), if any. */
  settle(): void {
    if (this.underway.active) this.underway.run(() => true);
    this.pending.settle();
  }
  get hasPendingCheckpoint(): boolean {
    return this.pending.pending;
  }
  nextPassHeavy(): boolean {
    return !this.midInstant && this.heavy.is(podsDue(this.host, this.nextMonitorAt));
  }

  private saveCheckpoint(): void {
    this.store.save(this.host, this.kubelets, {
      eventIndex: this.eventIndex,
      nextMonitorAt: this.nextMonitorAt,
      leaderAt: this.leaderAt,
      problems: this.ownProblems.length,
      lastPassTime: this.lastPassTime,
      processedUpTo: this.processedUpTo,
    });
    this.ring.saved(this.store.list, (cp) => this.store.merge(cp));
  }

  /** `inPieces`: the restore is left to goToPass's next calls (GoToPassOptions.restoreInPieces); `viewsFirst`: its rest to finishRestore's */
  private restoreCheckpoint(cp: Checkpoint, inPieces = false, viewsFirst = false): void {
    this.pending.drop();
    this.aborted = false;
    this.midInstant = null;
    this.underway.start(this.restoring(cp), 'restore');
    if (!inPieces) this.underway.run(() => true, viewsFirst ? VIEWS_RESTORED : undefined);
  }

  private *restoring(cp: Checkpoint): Generator<unknown, void, void> {
    this.redo = Redo.beforeRestore(this.store.list, this.store.list.indexOf(cp), this.host.trace, this.ownProblems, this.redo);
    const loop = yield* this.store.restoreInPieces(cp, this.host, this.kubelets, () => this.buildControllers());
    this.ring.drop(this.store.list);
    this.standAt(loop);
  }

  private standAt(loop: LoopPosition): void {
    ({ eventIndex: this.eventIndex, nextMonitorAt: this.nextMonitorAt, leaderAt: this.leaderAt, lastPassTime: this.lastPassTime } = loop);
    this.processedUpTo = loop.processedUpTo;
    this.ownProblems.length = loop.problems;
  }

  handOffSlice(from: Simulation, upTo: number, more: () => boolean): boolean | undefined {
    if (this.underway.kind === 'restore') return undefined;
    if (!this.underway.active) {
      if (!(from instanceof SimulationImpl) || from.scenario.snapshot !== this.scenario.snapshot || this.midInstant || this.aborted) return undefined;
      // the checkpoint of where it stands first (a user's step leaves it pending), in slices as prepareSlice takes it
      if (this.pending.slice(more)) return true;
      if (!this.takeFrom({ store: from.store, trace: from.host.trace, problems: from.ownProblems }, upTo)) return undefined;
    }
    return this.underway.run(more);
  }

  /** what it ran before its last restore (redo.ts), taken again instead of stepped; `redoneCount`, `redoneFromLog`, `redoneLogShared`: passes so taken, HandOff.fromLog's and logShared's (tests) */
  private redo?: Redo;
  redoneCount = 0;
  redoneFromLog = 0;
  redoneLogShared = 0;
  /** The next pass taken from `redo` where it stands on a checkpoint of that run (redo.ts), in parts as goToPass's; whether it began. */
  private redone(upTo: number, fits?: (next: Checkpoint, made: Decision[]) => boolean): boolean {
    if (!this.redo || this.midInstant || this.aborted) return false;
    this.pending.settle();
    if (!this.takeFrom(this.redo, upTo, true, fits)) return false;
    this.redoneCount++;
    this.underway.run(() => !this.shouldStop?.());
    return true;
  }
  /** Starts the hand-off of `source`'s checkpoint after the one this stands on (handOffNext's, `own`: its own past run's). */
  private takeFrom(source: HandOffSource, upTo: number, own = false, fits?: (next: Checkpoint, made: Decision[]) => boolean): boolean {
    const target = this.target;
    const next = handOffNext(source, target, upTo, own ? this.heavy.is : undefined, fits);
    if (next === undefined) return false;
    this.underway.start(this.handedOff(new HandOff(source, next, target, own, this.redo?.spend(own ? next : undefined))), 'handOff');
    return true;
  }

  private *handedOff(h: HandOff): Generator<void, void, void> {
    while (h.run(() => false)) yield;
    this.redoneFromLog += h.fromLog;
    if (h.logShared) this.redoneLogShared++;
    this.ownProblems.push(...h.done!.problems);
    this.standAt(h.done!.loop);
    this.ring.handedOff();
    this.invariants?.observe(this.host.trace);
  }
}
