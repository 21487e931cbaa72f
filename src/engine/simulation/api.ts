/**
 * The simulation as every shell (command line, extension host, webview data,
 * benchmark) sees it. simulation/simulation.ts implements it.
 */
import type { ControllerConfig, KubeletConfig } from '../config/types';
import type { ClusterState } from '../model/cluster';
import type { Micros } from '../model/time';
import type { ObjectRef } from '../model/types';
import type { Problem } from '../problems';
import type { Scenario } from '../snapshot/types';
import type { Decision } from '../trace/decision';
import type { DecisionList } from '../trace/decisionLog';
import type { VersionBehaviour } from '../versions/types';
import type { Explanation, MachineView, StateView, ZoneView } from '../trace/views';
import type { ReadyKeys } from './podReports';

export type { ZoneStateName, ZoneView, StateView, MachineView, Explanation } from '../trace/views';

export interface ExpectationResult {
  index: number;
  at: string;
  description: string;
  ok: boolean;
  /** what was found instead, when not ok */
  actual?: string;
  /** the object the expectation is about, when it names one (for `explain --object`) */
  object?: string;
  position?: Problem['position'];
}

export interface GoToPassOptions {
  /** forward, a user's steps (`step(true)`) or run (`runUntil`): the panel keeps checkpoints near for a step back */
  interactive?: boolean;
  /**
   * A step back's restore in parts, asking shouldStop between two (the run-ahead's, in idle slices): `stopped` and
   * `partDone` while parts are left; the next goToPass with this option goes on with them, any other call finishes them.
   */
  restoreInPieces?: boolean;
  /**
   * A step back onto a checkpoint's very pass, or a reset: the restore stops once the records and the controllers the
   * views read are restored (the zones, the countdowns), `partDone` until the rest is (finishRestore, prepareSlice in
   * idle time, or any call that reads it: explain, machines, a step).
   */
  viewsFirst?: boolean;
}

export interface SimulationOptions {
  /** `--version`: overrides the scenario's kubernetesVersion */
  version?: string;
  /** `--set key=value`: overrides one controller-manager or kubelet setting */
  set?: Record<string, string>;
  /**
   * Builds the controllers (default: the real ones, simulation/wiring.ts).
   * Tests pass small fakes here to exercise the loop on its own.
   */
  controllerFactory?: import('./controllerPlan').ControllerFactory;
  /** a checkpoint every this many monitor passes (default: 10, more for big clusters) */
  checkpointEvery?: number;
  /**
   * checking mode: assert the invariants of simulation/invariants.ts after every instant (the fuzzer
   * turns it on), and throw when a controller's machine refuses an event the controller sends
   */
  checkInvariants?: boolean;
  /** checking modes of fast paths (tests: checkpoints, kubelets, restored indexes): each compares with the slow path and throws on a difference */
  checks?: import('./checks').SimulationChecks;
  /**
   * Asked between instants (never in the middle of one) by step, runUntil, runUntilDecision and goToPass (before each pass): true
   * stops the run there, with everything decided so far whole, and sets `stopped`. A later call runs
   * on from there. The command line's guards (--max-decisions, --max-seconds) and Ctrl-C use it; the
   * engine keeps no clock of its own.
   */
  shouldStop?: () => boolean;
  /**
   * Asked inside an instant too, after each controller's work (one instant can hold minutes of
   * work: the sync after a scale to 100,000 replicas). True ends the run there, at once: the
   * instant is left part-done, every decision made so far whole, and `stopped` is set. Unlike
   * shouldStop nothing runs on from there: step and runUntil do nothing until reset() or
   * goToPass() puts a checkpoint back. Ctrl-C on the command line uses it.
   */
  shouldAbort?: () => boolean;
  /**
   * Asked inside an instant too: after each controller's work, and by the ReplicaSet controller
   * between two syncs and by the binder between two pods (one instant can hold minutes of work: the
   * syncs after a scale to 100,000 replicas). True stops the run there and sets `stopped`, with the
   * instant part-done; the next step, runUntil or runUntilDecision goes on from that point first,
   * so the decisions are those of a run never stopped. The views in between show the instant
   * part-done. goToPass and reset drop the part-done instant.
   */
  shouldYield?: () => boolean;
}

export interface Simulation {
  readonly scenario: Scenario;
  readonly behaviour: VersionBehaviour;
  readonly config: ControllerConfig;
  readonly kubelet: KubeletConfig;
  /** everything found wrong with the input and settings (loader + config) */
  readonly problems: readonly Problem[];
  readonly startTime: Micros;
  readonly now: Micros;
  /** the last monitor pass run, or null before the first */
  readonly pass: number | null;
  readonly trace: DecisionList;
  /**
   * The live world, read-only for callers (never mutate it). Optional: shells
   * that redraw every step (the extension's webview data, 5,000 nodes) read the
   * typed records here instead of exporting the whole state with state().
   */
  readonly cluster?: ClusterState;
  /**
   * With `cluster`: the keys of the pods created, changed or deleted since the
   * last call, or 'all' (the first call, or the records were put back
   * wholesale by a step back): a view that keeps an item per pod compares only
   * those. With `apart`, the pods changed by Ready writes alone are left out and given in `apart.ready` (a view
   * that reads nothing else of them than their item may mark those stale without looking each up).
   */
  takePodChanges?(apart?: { ready?: ReadyKeys }): ReadonlySet<string> | 'all';
  /**
   * The same for nodes (names) and ReplicaSets (`namespace/name` keys): those added, changed or
   * deleted since the last call, or 'all'. Heartbeat times alone are not a change.
   */
  takeRecordChanges?(): { nodes: ReadonlySet<string> | 'all'; replicaSets: ReadonlySet<string> | 'all' };
  /**
   * Builds now what a controller would build at its first need (the binder's node index: about half
   * a second over 150,000 pods, else paid by the step of the first placement), changing nothing
   * decided. For a caller with idle time, such as the panel after it has painted.
   */
  prepare?(): void;
  /**
   * prepare, a slice at a time, for a caller that must stay responsive while idle (the panel: one
   * slice per macrotask): works while `more()` says so (at least one piece: the pending checkpoint
   * is one), and returns true while work is left. A slice resumes where the last one stopped while
   * nothing changed; a step or a restore in between starts the work again. `checkpointOnly`: only what the next step
   * would do at once (the pending checkpoint, the pod map's order a restore left owed).
   */
  prepareSlice?(more: () => boolean, checkpointOnly?: boolean): boolean;
  /** Whether the last step left its checkpoint pending (taken by prepareSlice, or by the next move). */
  readonly hasPendingCheckpoint?: boolean;
  /**
   * Whether the next monitor pass is forecast to be heavy: the pods of the nodes whose grace period runs out by then are
   * a heavy pass's (checkpointDue's forecast, HEAVY_PASS_SHARE). The panel's run-ahead goes on to such a pass early.
   */
  nextPassHeavy?(): boolean;
  /**
   * Takes the passes `from` (another simulation of the same scenario and snapshot) stepped, from its checkpoints,
   * instead of stepping them (handOff.ts): when this one stands, its checkpoint taken, where `from` kept a checkpoint
   * too, it moves to `from`'s next checkpoint if that is at most pass `upTo`. A slice at a time: works while `more()`
   * says so; true while work is left (`partDone` meanwhile: any other call finishes it first), false once done,
   * undefined when there is nothing to take (nothing done but, maybe, its own pending checkpoint).
   */
  handOffSlice?(from: Simulation, upTo: number, more: () => boolean): boolean | undefined;

  /**
   * Runs everything up to and including the next monitor pass. `interactive`: a user's single step
   * (the panel), which also keeps a checkpoint every few passes so that stepping back is quick.
   */
  step(interactive?: boolean): void;
  /** Whether the last step, runUntil or runUntilDecision was stopped early by SimulationOptions.shouldStop. */
  readonly stopped?: boolean;
  /** Whether an instant is left part-done by SimulationOptions.shouldYield: the next step finishes it first (a step that finishes a pass's instant ends there). */
  readonly partDone?: boolean;
  /** Runs everything due up to and including t (`interactive`: the panel's run, checkpoints kept near t for the step backs after it). */
  runUntil(t: Micros, how?: GoToPassOptions): void;
  /** Runs until a decision matches, or until `limit`; returns the decision. `interactive`: the panel's, which keeps checkpoints near its end. */
  runUntilDecision(match: (d: Decision) => boolean, limit: Micros, how?: GoToPassOptions): Decision | undefined;
  /**
   * The state as it was right after monitor pass n (backwards or forwards; from checkpoints, not from the start).
   * Cut by shouldStop or shouldYield (`stopped`), it stops short of n or inside pass n's instant (`partDone`), and
   * the next call for the same pass goes on from there: a part-done pass n is not reached yet.
   */
  goToPass(n: number, how?: GoToPassOptions): void;
  /** Back to the state at the start, from the first checkpoint: that of a simulation made afresh (test/engine/simulation/startLike.test.ts). */
  reset(how?: Pick<GoToPassOptions, 'viewsFirst'>): void;
  /** A restore left part-done by `viewsFirst` finished, while `more()` says so (default: at once); true while parts are left. */
  finishRestore?(more?: () => boolean): boolean;
  /** The last pass the simulation reaches, at its horizon (limits.ts): goToPass refuses any pass beyond it. */
  readonly lastPass: number;

  state(): StateView;
  /** The zones; with `namesOf`, the queued names only of the zones it accepts, and each queue's length (`queuedCount`). */
  zones(namesOf?: (zone: string) => boolean): ZoneView[];
  machines(): MachineView[];
  /**
   * The machine with this id, a controller's or a stateless one's (drawn in the state its last answer in
   * the trace reached); undefined when there is none. Made at most once per position (machineLookup.ts).
   */
  machine(id: string): MachineView | undefined;
  /** The seqs of the trace's decisions whose machine is `id`, ascending (an index: no walk of the trace). */
  machineSeqs?(id: string): readonly number[];
  /** The ids of the machines that may answer about an object: its own, and the stateless machines'. */
  machineIds(object: ObjectRef): { own: string[]; stateless: string[] };
  explain(object: ObjectRef): Explanation;
  /**
   * The pod-eviction path (no taint-based evictions, as in 1.12), for views that count down: the
   * not-Ready nodes (at most `limit` asked, in the cluster's order) whose pods the node lifecycle
   * controller will delete, with when, as its "why not" foresees it (node name -> time; empty with
   * taint-based evictions or when the controller does not run), and which of a node's pods (keys,
   * sorted) it would delete: DeletePods' rule, not a view's guess.
   */
  podEvictionDeadlines?(limit: number): ReadonlyMap<string, string>;
  podsEvictedFrom?(node: string): string[];
  /** Runs the scenario's `expect:` entries (the simulation is advanced as needed). */
  checkExpectations(): ExpectationResult[];
}
