/**
 * The simulation's views (Simulation: its position, state, zones, machines, the eviction countdowns): read from the
 * host and the controllers, never changing a decision. SimulationImpl extends it with the loop.
 */
import type { RestoreFrom, SimController } from '../controllers/controller';
import type { ReadyKeys } from './podReports';
import type { Kubelets } from '../kubelet/kubelets';
import { exportCluster } from '../model/export';
import type { ClusterState } from '../model/cluster';
import { formatTime, type Micros } from '../model/time';
import type { DecisionList } from '../trace/decisionLog';
import type { ObjectRef } from '../model/types';
import type { Explanation, ExpectationResult, MachineView, StateView, ZoneView } from './api';
import type { Scenario, TimeSpec } from '../snapshot/types';
import type { WhyNot, WhyNotWorld } from '../trace/whyNot';
import { explainObject, type WhyNotAsk } from './explain';
import { checkExpectations } from './expectations';
import { forgetNewLeader, newLeaderAnswers, whyNotDuringWait, type LeaderRun } from './newLeader';
import { MachineLookup, machineIdsOf } from './machineLookup';
import type { SimHost } from './simHost';
import type { ControllerPlan } from './controllerPlan';
import { PartsUnderWay } from './partsUnderWay';

const NONE: readonly number[] = [];

export abstract class SimulationViews {
  abstract readonly host: SimHost;
  abstract readonly startTime: Micros;
  abstract readonly kubelets: Kubelets;
  abstract readonly plan: readonly ControllerPlan[];
  /** Takes the checkpoint left pending (and finishes a hand-off under way) before an export. */
  abstract settle(): void;
  abstract readonly scenario: Scenario;
  abstract readonly leaderStartsAt: Micros | undefined;
  abstract reset(): void;
  abstract runUntil(t: Micros): void;
  /** a simulation of the same scenario and options, made afresh (the failover's new leader: newLeader.ts) */
  protected abstract afresh(): LeaderRun;
  private readonly machineLookup = new MachineLookup();
  /** While a restore's rest is owed and not begun: what the controller `name` is to be restored from (CheckpointStore.owedOf). */
  protected abstract owedRestoreOf(name: string): { saved: unknown; from: RestoreFrom | undefined } | undefined;
  /** a hand-off or a restore under way in parts (the views read a restore's records before its last parts: viewsFirst) */
  protected readonly underway = new PartsUnderWay();

  /** Finishes a restore left part-done (GoToPassOptions.viewsFirst) before a view that reads every controller; true while parts are left. */
  finishRestore(more: () => boolean = () => true): boolean {
    return this.underway.kind === 'restore' && this.underway.run(more);
  }
  /** Whether a restore is owed before the controller `name` (or, without one, the views) may be read (PartsUnderWay.owes). */
  restoreOwes(name?: string): boolean {
    return this.underway.owes(name);
  }

  timeOf(at: TimeSpec): Micros {
    return 'offset' in at ? this.startTime + at.offset : at.time;
  }
  get now(): Micros {
    return this.host.now;
  }
  get pass(): number | null {
    return this.host.pass;
  }
  get trace(): DecisionList {
    return this.host.trace;
  }
  get cluster(): ClusterState {
    return this.host.cluster;
  }
  /** the running controllers (none during a failover's wait) */
  get controllers(): readonly SimController[] {
    this.finishRestore();
    return this.host.controllers;
  }
  takePodChanges(apart?: { ready?: ReadyKeys }): ReadonlySet<string> | 'all' {
    return this.host.takePodChanges(apart);
  }
  takeRecordChanges(): { nodes: ReadonlySet<string> | 'all'; replicaSets: ReadonlySet<string> | 'all' } {
    return this.host.takeRecordChanges();
  }

  state(): StateView {
    // an export: rare, and it materialises (which writes nothing right after an instant, but need not be proven so here)
    this.settle();
    this.kubelets.materialise(this.host.now);
    return { time: formatTime(this.host.now), zones: this.zones(), objects: exportCluster(this.host.cluster) };
  }

  explain(object: ObjectRef): Explanation {
    if (this.restoreOwes()) this.finishRestore();
    this.kubelets.materialise(this.host.now);
    return explainObject(this, object);
  }

  /**
   * Whether to ask controller `c` about `ref` (Explainable.asks): a controller whose restore is owed is left unasked where it
   * answers nothing about such an object or would answer nothing about this one once restored, and is asked once the
   * restore is finished where it may.
   */
  asks(c: SimController, ref: ObjectRef, world?: WhyNotWorld): boolean {
    const about = c.whyNotAbout?.(ref);
    // one that would say nothing about it once restored, read from what it is restored from, is left so (a pod selected)
    const owed = about !== false && c.whyNotAfterRestore ? this.owedRestoreOf(c.name) : undefined;
    return this.readable(c, owed && !c.whyNotAfterRestore!(ref, this.host, owed.saved, owed.from, world) ? false : about);
  }

  /** `c` may be read: restored, or its restore finished now, unless `about` is false (it answers nothing of what is asked). */
  private readable(c: SimController, about: boolean | undefined): boolean {
    if (!this.restoreOwes(c.name)) return true;
    if (about === false) return false;
    this.finishRestore();
    return true;
  }

  whyNotDuringWait(ref: ObjectRef, ask?: WhyNotAsk): WhyNot[] {
    this.finishRestore();
    return whyNotDuringWait(this, () => this.afresh(), ref, ask);
  }

  newLeaderAnswers(at: Micros, ref: ObjectRef, ask?: WhyNotAsk): WhyNot[] | undefined {
    this.finishRestore();
    return newLeaderAnswers(this, () => this.afresh(), at, ref, ask);
  }

  forgetNewLeader(): void {
    forgetNewLeader(this);
  }

  checkExpectations(): ExpectationResult[] {
    this.settle();
    return checkExpectations(this);
  }

  zones(namesOf?: (zone: string) => boolean): ZoneView[] {
    return this.nodeLifecycle()?.zones?.(this.host, namesOf) ?? [];
  }

  /** Is this controller enabled by the settings (spec 1.3 "Which controllers run")? */
  planOf(name: string): ControllerPlan | undefined {
    return this.plan.find((p) => p.name === name);
  }

  machines(): MachineView[] {
    this.finishRestore();
    return this.host.controllers.flatMap((c) => c.machines());
  }
  machine(id: string): MachineView | undefined {
    if (this.restoreOwes()) this.finishRestore();
    const h = this.host;
    const seqsOf = (m: string) => this.machineSeqs(m);
    // as `asks`: a controller whose restore is owed answers once restored, unless it has no machine of this id whatever its state
    const controllers = h.controllers.map((c) => ({
      machine: c.machine && ((m: string) => (this.readable(c, c.machineAbout?.(m)) ? c.machine!(m) : undefined)),
    }));
    return this.machineLookup.machine({ now: h.now, pass: h.pass, trace: h.trace, seqsOf, controllers, machines: () => this.machines() }, id);
  }
  machineSeqs(id: string): readonly number[] {
    return this.host.byMachine.get(id) ?? NONE;
  }
  machineIds(object: ObjectRef): { own: string[]; stateless: string[] } {
    return machineIdsOf(object);
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
}
