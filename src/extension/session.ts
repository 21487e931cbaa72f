/**
 * One opened scenario: the simulation, the stepping commands, and what the
 * webview and tree views are told. No vscode here: the panel and the commands
 * call this, the tests drive it with a fake simulation.
 */
import type { MachineView, Simulation, SimulationOptions } from '../engine/simulation/api';
import type { Decision } from '../engine/trace/decision';
import type { ZoneView } from '../engine/trace/views';
import { formatTime } from '../engine/model/time';
import type {
  HostMessage,
  NodeItem,
  PodItem,
  InitMessage,
  ScenarioInfo,
  SelectionMessage,
  UiSettings,
  UpdateMessage,
  WebviewMessage,
  WhatIfComparison,
  ZoneRow,
} from '../protocol/webview';
import type { ClusterView } from './viewModel';
import { KeptView, noChange } from './keptView';
import { ReplicaSetWindow } from './replicaSetWindow';
import { NodeWindow } from './nodeWindow';
import { decisionLine } from '../protocol/lists';
import { nextDecision, previousDecision, runUntil, selectFurther } from './decisionRuns';
import { runWhatIf } from './whatIfRun';
import { realityOfSelection, selectRealityMark } from './realityRun';
import { handleMessage, type PanelActions } from './sessionMessages';
import { decisionsAt, FurthestRun, jumpTo, logRows, PassMarks, passProblem } from './passes';
import { initMessage, scenarioInfo, type ScenarioFacts } from './scenarioInfo';
import { machineOf } from './machinesAtPosition';
import { selectionParts } from './selectionParts';
import { Slices, SLICE_MS, type CancelToken, type SessionResult } from './slices';
import { RealityIndex, realityIndexOf } from './reality';
import { chainOf, decisionBySeq, isNoise } from './traceLookup';
import { positionOf, prepareIdle, preparedNow, RunAhead, runAheadNow, slicedMake, type MakeSimulation, type Shown } from './runAhead';
import { PendingStart } from './swapAtOpen';
import { StartMaking } from './startMade';

export { isNoise, SLICE_MS, type SessionResult, type CancelToken, type MakeSimulation };
export { formatSetting, missingLeasesText } from './scenarioInfo';
export { LOOKAHEAD } from './realityRun';

export interface SessionOptions {
  /** creates the simulation of this scenario with the given overrides (called again on Reset and for what-if) */
  make: MakeSimulation;
  options?: SimulationOptions;
  settings: UiSettings;
  /** sends a message to the webview, if one is open */
  post: (m: HostMessage) => void;
  /** milliseconds, for the slices of long runs (tests give a clock of their own) */
  clock?: () => number;
  /** lets the host's events in between two slices (default: a macrotask) */
  yieldNow?: () => Promise<void>;
  /** keep a second simulation one pass ahead in idle time (runAhead.ts; default on) */
  runAhead?: boolean;
}

export class Session {
  /** the shown simulation; undefined while the start is shown by `pending` */
  private shownSim?: Simulation;
  /** the start, shown while its simulation is made: the open's went to the run-ahead (swapAtOpen) */
  private pending?: PendingStart;
  settings: UiSettings;
  readonly options: SimulationOptions;
  /** the highest pass reached in this session */
  lastPass = -1;
  /** passes that hold decisions, from the furthest run (kept when stepping back) */
  private readonly marks = new PassMarks();
  get passMarks(): ReadonlyMap<number, number> {
    return this.marks.byPass;
  }
  lastComparison?: WhatIfComparison;
  /** the selected object (a decision's object when a decision is selected) */
  selected?: string;
  /** the selected decision */
  selectedSeq?: number;
  /** the selected `reality:` entry (a mark of the reality lane) */
  selectedReal?: number;
  /** the decisions of the furthest run, kept when stepping back */
  private readonly run = new FurthestRun();
  /** which pass each decision is shown in */
  readonly passes = this.run.passes;
  /** the view last sent (or asked for by the trees), kept from step to step */
  private kept = new KeptView();
  /** the ReplicaSet rows the webview holds: an update sends theirs alone */
  private readonly rsWindow = new ReplicaSetWindow();
  /** the node rows the webview holds, and its node filter */
  private readonly nodeRows = new NodeWindow();
  /** the zones whose queued names the webview shows (the others are sent as a count) */
  private readonly openQueues = new Set<string>();
  private readonly listeners = new Set<() => void>();
  /** makes the scenario's simulation with these options (Reset, what-if) */
  readonly make: MakeSimulation;
  readonly post: (m: HostMessage) => void;
  /** the next pass, computed in idle time (idleSlice) */
  readonly ahead: RunAhead<KeptView>;
  /** where every simulation of the scenario starts (positionOf) */
  private readonly startKey: string | undefined;
  private readonly startMaking: StartMaking;

  constructor(opts: SessionOptions) {
    this.make = opts.make;
    // every simulation of the session asks whether its slice is over: between instants (shouldStop), and
    // inside one, between two controllers' work, two ReplicaSet syncs or two binder batches (shouldYield),
    // so that one long instant (the syncs after a scale to 100,000 replicas) does not hold the host (the ahead one: its idle slice)
    const clock = opts.clock ?? (() => performance.now());
    const yieldNow = opts.yieldNow ?? (() => new Promise<void>((r) => setTimeout(r, 0)));
    this.slices = new Slices(clock, yieldNow);
    this.startMaking = new StartMaking(
      () => this.pending,
      (sim) => (this.sim = sim),
      clock,
      yieldNow,
      SLICE_MS,
    );
    const over = () => (this.ahead.working ? this.ahead.over() : this.slices.over());
    this.options = { ...(opts.options ?? {}), shouldStop: over, shouldYield: over };
    this.settings = opts.settings;
    this.post = opts.post;
    this.sim = preparedNow(this.make(this.options));
    this.startKey = positionOf(this.sim);
    this.ahead = new RunAhead(slicedMake(this.make, this.options), opts.runAhead ?? true, KeptView.ahead);
  }

  /**
   * The shown simulation. While the start is shown without one (swapAtOpen), it is made here at once: what reads it
   * never sees a half-made simulation, nor the open's, which the run-ahead steps on.
   */
  get sim(): Simulation {
    return this.shownSim ?? (this.sim = this.pending!.making(() => true)!);
  }
  set sim(s: Simulation) {
    this.shownSim = s;
    this.pending = undefined;
  }
  /** `sim`, for the views that read it only when they have nothing made (KeptView.nodeItems) */
  private readonly simNow = (): Simulation => this.sim;

  /** The shown position, without making the shown simulation (the run-ahead's, the status bar's). */
  get shown(): Shown {
    return this.shownSim ?? this.pending!;
  }

  /** What the init message reads (the scenario, its settings, problems, assumptions), without making the shown simulation. */
  private get facts(): ScenarioFacts {
    return this.shownSim ?? this.pending!.facts;
  }

  /** The scenario shown (every simulation of the session has it), without making the shown simulation. */
  get scenario(): Simulation['scenario'] {
    return this.facts.scenario;
  }

  /** The scenario's start time, without making the shown simulation. */
  get startTime(): number {
    return this.facts.startTime;
  }

  /** The shown simulation's problems, without making it. */
  get problems(): Simulation['problems'] {
    return this.facts.problems;
  }

  /** The zones at the shown position (Simulation.zones), without making the shown simulation: the trees ask at the open. */
  zones(namesOf?: (zone: string) => boolean): ZoneView[] {
    return this.pending ? this.pending.zones(namesOf) : this.sim.zones(namesOf);
  }

  /** Whether the shown simulation is still being made (swapAtOpen). */
  get shownPending(): boolean {
    return this.pending !== undefined;
  }

  /** Resolves once a simulation stands on the shown position: made in slices while the start is pending (startMade.ts); false once closed. */
  readonly started = (): Promise<boolean> => this.startMaking.started();

  /** Another scenario was opened: what waits for this one's start is not answered. */
  readonly close = (): void => this.startMaking.close();

  /** The open's roles swapped (swapAtOpen.ts): the open's simulation, never stepped, its views sent, goes to the run-ahead (only at the start). */
  swapAtOpen(): boolean {
    const s = this.shownSim;
    if (!s || !this.ahead.enabled || s.pass !== null || s.partDone || !this.kept.hasView || this.slices.running) return false;
    this.pending = new PendingStart(s, slicedMake(this.make, this.options));
    this.shownSim = undefined;
    this.ahead.adopt(s);
    return true;
  }

  /** The pods the last updates reported changed by Ready writes alone, marked stale a slice at a time (panelOwedWork); true while some are left. */
  readonly staleSlice = (more: () => boolean): boolean => this.kept.flushStaleSlice(more);

  /** One slice of idle work (IdlePrepare): the shown simulation's preparation, the next pass, the pods' items the open left out; true while work is left. */
  idleSlice(more: () => boolean): boolean {
    const p = this.pending;
    if (p) {
      // the open's simulation on to the next pass and its views prepared first (a Step then takes it over), then the shown one
      // made; first, though, when a click waits for it (startMade.ts)
      if ((!this.startMaking.wanted && this.ahead.slice(p, more)) || !more()) return true;
      const made = p.making(more);
      if (!made) return true;
      this.sim = made;
      if (!more()) return true;
    }
    if (prepareIdle(this.sim, more)) return true;
    if (more() && this.ahead.slice(this.sim, more)) return true;
    return more() ? this.kept.completeSlice(this.sim, more) : this.ahead.enabled || this.kept.podsWaiting;
  }

  /** The next pass made at once (runAheadNow: the open makes it before its first paint). */
  nextPassNow(): void {
    runAheadNow(this.ahead, this.sim, (views) => views.hasPrepared);
  }

  /** Tree views and status listen here; called after every change of position. */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  get clusterView(): ClusterView {
    return this.kept.clusterView(this.sim);
  }

  /** The nodes' items, without making the pods' items that wait (see podsOn). */
  get nodeItems(): ReadonlyMap<string, NodeItem> {
    return this.kept.nodeItems(this.simNow);
  }

  /** A node's pods' items, sorted by ref: only that node's are brought up to date. */
  podsOn(node: string): PodItem[] {
    return this.kept.podsOn(this.sim, node);
  }

  // -- what the webview is told -------------------------------------------

  scenarioInfo(): ScenarioInfo {
    return scenarioInfo(this.facts, this.options);
  }

  initMessage(): InitMessage {
    return initMessage(this.facts, this.options, this.settings, this.reality());
  }

  /** Everything the webview needs, or only what changed since the last update. */
  updateMessage(full: boolean, focusSeq?: number): UpdateMessage {
    this.catchUp();
    // a start being made: the views stand on it already (swapAtOpen), nothing changed since they were made
    const delta = this.pending && !full ? noChange() : this.kept.update(this.sim, full);
    const at = this.shown;
    const pass = at.pass;
    if (pass !== null && pass > this.lastPass) this.lastPass = pass;
    const marks = this.marks.update(at.trace, this.passes, isNoise, full);
    const shown = logRows(decisionsAt(at.trace, pass, this.passes), this.selectedSeq, isNoise);
    return {
      type: 'update',
      full,
      time: formatTime(at.now),
      pass,
      lastPass: this.lastPass,
      zones: this.zoneRows(),
      ...this.nodeRows.updateWithCounts(this.kept.nodeItems(this.simNow), delta.nodes, full, delta.podCounts),
      replicaSets: this.rsWindow.update(this.kept.replicaSetItems(this.simNow), delta.replicaSets, full),
      decisions: shown.inPass.map(decisionLine),
      ...(shown.afterPass.length ? { afterPass: shown.afterPass.map(decisionLine) } : {}),
      ...(shown.cut ? { cut: shown.cut } : {}),
      passMarks: marks,
      ...(focusSeq !== undefined ? { focusSeq } : {}),
    };
  }

  private catchUp(): void {
    this.run.catchUp(this.shown.trace);
  }

  /** The decision `seq` of the furthest run, if it was made (the trace caught up first), and the pass that shows it. */
  findInRun(seq: number): { decision: Decision; pass: number } | undefined {
    this.catchUp();
    const d = this.run.find(seq);
    return d && { decision: d, pass: this.passes.shownIn(d) };
  }

  /** The whole run so far (also what lies after the current position, once reached), by the pass each decision is shown in. */
  runByPass(includeNoise: boolean): Map<number, Decision[]> {
    this.catchUp();
    return this.run.byPass(includeNoise, isNoise);
  }

  /** The decisions shown at the current position (the current pass's, then those after it). */
  shownDecisions(): { inPass: Decision[]; afterPass: Decision[] } {
    this.catchUp();
    return decisionsAt(this.shown.trace, this.shown.pass, this.passes);
  }

  /** The zones with their queues as counts, and the names of the open ones. */
  zoneRows(): ZoneRow[] {
    // the engine builds the names only of the open queues (a simulation that does not count gives them all)
    return this.zones((zone) => this.openQueues.has(zone)).map(({ queued, queuedCount, ...z }) => ({
      ...z,
      queuedCount: queuedCount ?? queued.length,
      queued: this.openQueues.has(z.zone) ? queued : [],
    }));
  }

  /** The webview opened or closed a zone's queue: its names are sent with every update while it is open. */
  zoneQueue(zone: string, open: boolean): SessionResult {
    if (open) this.openQueues.add(zone);
    else this.openQueues.delete(zone);
    this.post({ type: 'zones', zones: this.zoneRows() });
    return { ok: true };
  }

  /** The webview shows these ReplicaSet rows: their items now, and with every update that changes them. */
  replicaSetWindow(refs: readonly string[]): SessionResult {
    this.post(this.rsWindow.window(refs, this.kept.replicaSetItems(this.simNow)));
    return { ok: true };
  }

  /** The webview shows these node rows (as replicaSetWindow), or filters its node list by `text`. */
  nodeWindow(refs: readonly string[]): SessionResult {
    this.post(this.nodeRows.window(refs, this.kept.nodeItems(this.simNow)));
    return { ok: true };
  }
  nodeFilter(text: string): SessionResult {
    this.post(this.nodeRows.setFilter(text, this.kept.nodeItems(this.simNow)));
    return { ok: true };
  }

  /** Every decision of the current position, one line each, for a log that was sent LOG_ROWS of them. */
  allDecisions(): SessionResult {
    const shown = this.shownDecisions();
    this.post({ type: 'decisions', pass: this.shown.pass, decisions: shown.inPass.map(decisionLine), afterPass: shown.afterPass.map(decisionLine) });
    return { ok: true };
  }

  /** These decisions whole (those of the current trace: one stepped back past is gone). */
  decisionDetails(seqs: readonly number[]): SessionResult {
    const found = seqs.map((seq) => this.decision(seq)).filter((d): d is Decision => d !== undefined);
    this.post({ type: 'details', decisions: found });
    return { ok: true };
  }

  /** The position changed: the webview is sent it with its selection, the listeners told (`focusSeq`: a decision to show). */
  changed(focusSeq?: number, full = false): void {
    // one message, so the webview draws the new position and its selection at once
    const update = this.updateMessage(full, focusSeq);
    const { type: _type, ...selection } = this.selectionMessage();
    this.post({ ...update, selection });
    for (const l of this.listeners) l();
  }

  /** The webview (re)started: send it everything. */
  sendAll(): void {
    this.nodeRows.clearFilter();
    if (this.pending) {
      // a page that restarted holds nothing, and the views' full update reads the records: it says "loading" until the
      // start's simulation, made in slices (startMade.ts), stands there, instead of the host making it at once
      this.post({ type: 'loading', name: this.scenario.name || this.scenario.file });
      return this.startMaking.once('all', () => this.sendAll());
    }
    this.post(this.initMessage());
    this.changed(undefined, true);
    if (this.lastComparison) this.post({ type: 'whatIf', comparison: this.lastComparison });
  }

  // -- long runs ----------------------------------------------------------

  /**
   * Between slices.begin(cancel) and slices.end() the engine runs at most SLICE_MS at a time, and a
   * result may be `pending` (see finishLong). Without it (tests, the bench) every call runs to its end.
   */
  readonly slices: Slices;

  /**
   * Makes an engine call that may take long: `finish` when it is done, else the result is pending. Without `stopped`
   * it runs the shown simulation, and from a start still being made it waits for it, made in the run's slices.
   */
  long(run: () => void, finish: () => SessionResult, stopped?: () => boolean | undefined): SessionResult {
    if (stopped || !this.pending || !this.slices.active) return this.slices.long(run, finish, stopped ?? (() => this.sim.stopped));
    const stands = this.startMaking.forRun(() => this.slices.over());
    return this.slices.long(
      () => stands() && run(),
      finish,
      () => this.pending !== undefined || this.sim.stopped,
    );
  }

  /**
   * Runs the pending work on, a slice at a time with the host's events in between, until it is done
   * or `cancel` is requested: then the panel shows where the run stopped (everything decided so far
   * whole) and the result says so. `progress` hears the simulated time after each slice.
   */
  finishLong(cancel: CancelToken, progress?: (at: string) => void): Promise<SessionResult> {
    return this.slices.finish(
      cancel,
      () => progress?.(formatTime(this.shown.now)),
      () => {
        this.changed();
        const at = this.shown;
        return { ok: false, message: `Cancelled at ${formatTime(at.now)} (pass ${at.pass ?? '—'}): the panel shows where the run stopped.` };
      },
    );
  }

  // -- stepping -----------------------------------------------------------

  step(): SessionResult {
    // to the next pass, even when the current one was left part-done by a cancel (the engine's step
    // would only finish it); a slice's continuation aims at the same pass, and the engine finishes
    // a target pass a slice left part-done (goToPass); at the horizon there is no next pass (said: the panel waits for an answer)
    const shown = this.shown;
    const target = (shown.pass ?? -1) + 1;
    if (target > shown.lastPass) return { ok: false, message: this.passProblem(target) ?? '' };
    // the ahead simulation, when it stands on this position or has gone on from it, finishes the step (with its views);
    // the shown start's simulation, still being made, then goes on being made as the ahead one
    const p = this.pending;
    const ahead = p ? this.ahead.takeOver(p, this.kept, p.making) : this.ahead.takeOver(this.sim, this.kept);
    if (ahead) ({ sim: this.sim, views: this.kept } = ahead);
    else if (p && this.ahead.sim === p.standsFor && positionOf(p.standsFor) === positionOf(p)) {
      // the open's simulation has not moved yet (its views not aligned): shown again, it steps itself as without the swap
      this.ahead.drop();
      this.sim = p.standsFor;
    }
    return this.long(
      () => this.sim.goToPass(target, { interactive: true }),
      () => {
        this.changed();
        return { ok: true };
      },
    );
  }

  stepBack(): SessionResult {
    const pass = this.shown.pass;
    if (pass === null) return { ok: false, message: 'At the start: nothing to step back to.' };
    if (pass === 0) {
      this.reset();
      return { ok: true };
    }
    return this.long(
      () => this.sim.goToPass(pass - 1, { viewsFirst: true }),
      () => {
        this.changed();
        return { ok: true };
      },
    );
  }

  /** Why pass n cannot be gone to (passes.ts), or undefined when it can. */
  passProblem(n: unknown): string | undefined {
    return passProblem(this.shown.lastPass, n);
  }

  goToPass(n: number): SessionResult {
    const problem = this.passProblem(n);
    if (problem) return { ok: false, message: problem };
    // the engine's goToPass asks the slice (shouldStop) before each pass, and a slice's continuation goes on to the same pass
    const forward = (this.shown.pass ?? -1) < n;
    return this.long(
      () => jumpTo(this.sim, n, forward),
      () => (this.changed(), { ok: true }),
    );
  }

  reset(): SessionResult {
    if (this.slices.running) return { ok: false, message: 'A run is under way: wait for it or cancel it.' };
    // The shown simulation back to its first checkpoint (startLike.test), the views by the restore's reports (its controllers
    // the views do not read restored in idle time: viewsFirst); a new one held the click 0.5-1 s at 5,000 nodes, as the making
    // of a start still pending would (updateMessage answers from what is shown). The run-ahead goes back to its own start in idle time.
    if (!this.pending && positionOf(this.sim) !== this.startKey) this.sim.reset({ viewsFirst: true });
    this.changed();
    return { ok: true };
  }

  nextDecision(): SessionResult {
    return nextDecision(this);
  }

  /** Goes back to the latest earlier pass that holds a decision, and selects its last decision. */
  previousDecision(): SessionResult {
    return previousDecision(this);
  }

  runUntil(text: string): SessionResult {
    return runUntil(this, text);
  }

  // -- why ----------------------------------------------------------------

  decision(seq: number): Decision | undefined {
    return decisionBySeq(this.shown.trace, seq);
  }

  /** The causes of a decision, transitively, oldest first. */
  chainOf(d: Decision): Decision[] {
    return chainOf(this.shown.trace, d);
  }

  /** Selects a decision: the why shows it, the machine view its object's machine. */
  focus(d: Decision): void {
    this.selectedSeq = d.seq;
    this.selected = d.object;
    this.selectedReal = undefined;
  }

  /**
   * Selects a decision. One further on in the run (the Decisions tree keeps the whole run) is gone to
   * first: its pass, or the instant it was made at.
   */
  selectDecision(seq: number): SessionResult {
    const d = this.decision(seq);
    if (!d) return selectFurther(this, seq);
    this.focus(d);
    this.post(this.selectionMessage());
    return { ok: true };
  }

  selectObject(ref: string): SessionResult {
    this.selected = ref;
    this.selectedSeq = undefined;
    this.selectedReal = undefined;
    this.post({ type: 'select', object: ref });
    this.post(this.selectionMessage());
    return { ok: true };
  }

  /**
   * What the webview shows for the selection at the current position, computed afresh. A decision no
   * longer in the trace (stepped back before it) is unselected; so is an object that neither exists nor
   * has anything in the trace (an evicted pod stays selected: its why says what happened to it).
   */
  selectionMessage(): SelectionMessage {
    const d = this.selectedSeq !== undefined ? this.decision(this.selectedSeq) : undefined;
    if (!d) this.selectedSeq = undefined;
    if (this.pending && this.selected) {
      // the why, the machines and the pods (the records) once the start is made, computed then; the panel says it waits
      this.startMaking.once('selection', () => this.post(this.selectionMessage()));
      return { type: 'selection', object: this.selected, ...(d ? { seq: d.seq, decision: { decision: d, chain: this.chainOf(d) } } : {}), waiting: true };
    }
    let explanation;
    if (this.selected && !d) {
      explanation = this.sim.explain(this.selected);
      if (!explanation.exists && !explanation.happened.length) {
        this.selected = undefined;
        explanation = undefined;
      }
    }
    const object = this.selected;
    const reality = realityOfSelection(this, d);
    if (!object) return { type: 'selection', ...(reality ? { reality } : {}) };
    const pod = object.startsWith('Pod/') ? this.kept.podItem(this.sim, object) : undefined;
    const node = object.startsWith('Node/') ? object.slice(5) : pod?.node;
    return {
      type: 'selection',
      object,
      ...(d ? { seq: d.seq, decision: { decision: d, chain: this.chainOf(d) } } : {}),
      ...(explanation ? { explanation } : {}),
      ...selectionParts(this.sim, object, pod?.owner, d?.machine?.id),
      ...(node !== undefined ? { nodePods: { node, pods: this.podsOn(node) } } : {}),
      ...(reality ? { reality } : {}),
    };
  }

  // -- reality ------------------------------------------------------------

  private realityCache?: { index?: RealityIndex };

  /** The scenario's `reality:` compared with a run of its own over the evidence's span, once (see reality.ts). */
  reality(): RealityIndex | undefined {
    return (this.realityCache ??= { index: realityIndexOf(this.scenario, () => this.make(this.options)) }).index;
  }

  /** A mark of the reality lane: its decision, or its time, gone to and selected (realityRun.ts). */
  selectReality(index: number): SessionResult {
    return selectRealityMark(this, index);
  }

  /** The machine of an object: its own (`node/…`, `zone/…`, `replicaset/…`), or for a pod its taint-eviction worker's. */
  machineFor(ref: string): MachineView | undefined {
    return machineOf(this.sim, ref);
  }

  // -- what-if ------------------------------------------------------------

  whatIf(key: string, value: string): SessionResult {
    return runWhatIf(this, key, value);
  }

  // -- webview messages ---------------------------------------------------

  /** Handles a message already checked by parseWebviewMessage. */
  handle(m: WebviewMessage, actions: PanelActions): SessionResult {
    return handleMessage(this, m, actions);
  }
}
