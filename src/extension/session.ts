/**
 * One opened scenario: the simulation, the stepping commands, and what the
 * webview and tree views are told. No vscode here: the panel and the commands
 * call this, the tests drive it with a fake simulation.
 */
import type { MachineView, Simulation, SimulationOptions } from '../engine/simulation/api';
import { NOISE_ACTIONS, type Decision } from '../engine/trace/decision';
import { MISSING_LEASES_ASSUMPTION } from '../engine/kubelet/missingLeases';
import { formatDuration, formatTime, parseTimestamp, type Micros } from '../engine/model/time';
import type {
  AssumptionItem,
  HostMessage,
  InitMessage,
  PassMark,
  ScenarioInfo,
  SelectionMessage,
  UiSettings,
  UpdateMessage,
  WebviewMessage,
  WhatIfComparison,
} from '../protocol/webview';
import { buildClusterView, diffClusterViews, EvictionIndex, MachineSummaries, PathDeadlines, PodCounts, podsOnNode, podsToCompare, RecordsView, type ClusterDelta, type ClusterView, type EvictionLookup } from './viewModel';
import { decisionMatcher, parseRunUntil } from './runUntil';
import { compareTraces } from './whatIf';
import { decisionsAt, PassIndex } from './passes';
import { selectedMachine } from './machineGraph';
import { podLineage } from '../engine/trace/lineage';
import { scenarioEventMarks } from './scenarioEvents';
import { RealityIndex } from './reality';
import { compareWithReality } from '../engine/import/compareRun';

export const isNoise = (d: Decision): boolean => NOISE_ACTIONS.has(d.action);

/** How far Next Decision / Run Until look ahead before giving up (simulated time). */
export const LOOKAHEAD: Micros = 6 * 3_600_000_000;

const DURATION_KEYS = new Set(['nodeMonitorPeriod', 'nodeMonitorGracePeriod', 'nodeStartupGracePeriod', 'podEvictionTimeout', 'leaderElectLeaseDuration']);

export function formatSetting(key: string, value: unknown): string {
  if (DURATION_KEYS.has(key) && typeof value === 'number') return formatDuration(value);
  if (value instanceof Set) return [...value].sort().join(',');
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',');
  }
  return String(value);
}

export type MakeSimulation = (options: SimulationOptions) => Simulation;

export interface SessionOptions {
  /** creates the simulation of this scenario with the given overrides (called again on Reset and for what-if) */
  make: MakeSimulation;
  options?: SimulationOptions;
  settings: UiSettings;
  /** sends a message to the webview, if one is open */
  post: (m: HostMessage) => void;
}

export type SessionResult = { ok: true; message?: string } | { ok: false; message: string };

export class Session {
  sim: Simulation;
  settings: UiSettings;
  readonly options: SimulationOptions;
  /** the highest pass reached in this session */
  lastPass = -1;
  /** passes that hold decisions, from the furthest run (kept when stepping back) */
  readonly passMarks = new Map<number, number>();
  lastComparison?: WhatIfComparison;
  /** the selected object (a decision's object when a decision is selected) */
  selected?: string;
  /** the selected decision */
  selectedSeq?: number;
  /** the selected `reality:` entry (a mark of the reality lane) */
  selectedReal?: number;
  /** which pass each decision is shown in */
  readonly passes = new PassIndex();
  /** the decisions of the furthest run, kept when stepping back (the run is deterministic: the same prefix again) */
  private readonly run: Decision[] = [];
  /** the view last sent (or asked for by the trees) */
  private view?: ClusterView;
  /** the view of the live records, kept across steps (and across Reset: its items are compared by value) */
  private readonly records = new RecordsView();
  private readonly machinesSent = new MachineSummaries();
  private readonly podCounts = new PodCounts();
  private readonly marksSent = new Map<number, number>();
  private readonly listeners = new Set<() => void>();
  private readonly make: MakeSimulation;
  readonly post: (m: HostMessage) => void;

  constructor(opts: SessionOptions) {
    this.make = opts.make;
    this.options = opts.options ?? {};
    this.settings = opts.settings;
    this.post = opts.post;
    this.sim = this.make(this.options);
  }

  /** Tree views and status listen here; called after every change of position. */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  get clusterView(): ClusterView {
    if (!this.view) this.updateView(false);
    return this.view as ClusterView;
  }

  private readonly evictions = new EvictionIndex();
  /** the pod-eviction path's countdowns (recomputed each update, compared with the last) */
  private readonly pathDeadlines = new PathDeadlines();

  /** Brings the view up to date and says what changed since it was last brought up to date, with the nodes whose pods changed. */
  private updateView(full: boolean): ClusterDelta & { touched: Set<string> | 'all' } {
    const scheduled = this.evictions.update(this.sim.trace);
    // taken on every update, so that it always holds what changed since the last one
    const podChanges = this.sim.takePodChanges?.() ?? 'all';
    const recordChanges = this.sim.takeRecordChanges?.();
    // taint-eviction deadlines from the trace; the pod-eviction path's from the controller's "why not", which win
    const byNode = this.pathDeadlines.update(this.sim, podChanges);
    const evictions: EvictionLookup = byNode.size ? { get: (ref) => byNode.get(ref) ?? scheduled.get(ref), size: byNode.size + scheduled.size } : scheduled;
    if (this.sim.cluster) {
      const podKeys = podsToCompare(podChanges, this.evictions.changed, this.pathDeadlines.changed);
      const changed = recordChanges && {
        ...(recordChanges.nodes !== 'all' ? { nodes: recordChanges.nodes } : {}),
        ...(recordChanges.replicaSets !== 'all' ? { replicaSets: recordChanges.replicaSets } : {}),
      };
      const delta = this.records.update(this.sim.cluster, evictions, full, podKeys, changed);
      this.view = this.records.view;
      return { ...delta, touched: this.records.takeTouchedNodes() };
    }
    const prev = full ? undefined : this.view;
    this.view = buildClusterView(this.sim.state(), evictions);
    return { ...diffClusterViews(prev, this.view), touched: 'all' };
  }

  // -- what the webview is told -------------------------------------------

  scenarioInfo(): ScenarioInfo {
    const s = this.sim.scenario;
    const settings: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.sim.config)) settings[k] = formatSetting(k, v);
    return {
      name: s.name,
      file: s.file,
      kubernetesVersion: this.sim.behaviour.version.text,
      plainSnapshot: s.plainSnapshot,
      controllerMemory: s.controllerMemory,
      binder: s.binder,
      settings,
      overrides: { ...(this.options.set ?? {}) },
      monitorPeriodMs: this.sim.config.nodeMonitorPeriod / 1000,
      events: scenarioEventMarks(s.events, this.sim.startTime),
    };
  }

  assumptions(): AssumptionItem[] {
    const s = this.sim.scenario;
    const out: AssumptionItem[] = [
      {
        text:
          s.controllerMemory === 'fresh'
            ? 'Controller memory: fresh. Every node is newly observed at the start time, as a controller that has just started.'
            : "Controller memory: reconstructed from the snapshot (probe time from the Ready heartbeat and the Lease, transition time from the Ready condition, taint-eviction timers from the taints' timeAdded).",
      },
    ];
    if (s.binder === 'simplified') out.push({ text: 'Pods without a node are placed by a simplified binder (the main kube-scheduler filters and its least-allocated score, ties by name), not the real scheduler.' });
    // the missing-Lease assumption is one decision per node (for the node's own trace); here it is one line
    const leases: Decision[] = [];
    for (const d of this.sim.trace) {
      if (d.action !== 'AssumptionMade') continue;
      if (d.details?.assumption === MISSING_LEASES_ASSUMPTION) leases.push(d);
      else out.push({ text: d.summary, seq: d.seq });
    }
    if (leases.length) out.push({ text: missingLeasesText(leases), seq: leases[0].seq });
    return out;
  }

  initMessage(): InitMessage {
    return {
      type: 'init',
      scenario: this.scenarioInfo(),
      problems: this.sim.problems.map((p) => ({
        severity: p.severity,
        code: p.code,
        message: p.message,
        where: p.position ? `${p.position.file}:${p.position.line}:${p.position.column}` : undefined,
      })),
      assumptions: this.assumptions(),
      settings: this.settings,
      startTime: formatTime(this.sim.startTime),
      whatIfKeys: Object.entries(this.sim.config)
        .filter(([, v]) => typeof v === 'number' || typeof v === 'boolean')
        .map(([key, v]) => ({ key, value: formatSetting(key, v) })),
      ...(this.reality() ? { reality: this.reality()!.lane } : {}),
    };
  }

  /** Everything the webview needs, or only what changed since the last update. */
  updateMessage(full: boolean, focusSeq?: number): UpdateMessage {
    this.catchUp();
    const delta = this.updateView(full);
    const podCounts = this.podCounts.update(this.view as ClusterView, delta.touched, full);
    const machineDelta = this.machinesSent.update(this.machineViews().list, full);
    this.recordPassMarks();
    const marks: PassMark[] = [];
    for (const [pass, decisions] of this.passMarks) {
      if (!full && this.marksSent.get(pass) === decisions) continue;
      marks.push({ pass, decisions });
      this.marksSent.set(pass, decisions);
    }
    marks.sort((a, b) => a.pass - b.pass);
    const pass = this.sim.pass;
    const shown = decisionsAt(this.sim.trace, pass, this.passes);
    return {
      type: 'update',
      full,
      time: formatTime(this.sim.now),
      pass,
      lastPass: this.lastPass,
      zones: this.sim.zones(),
      nodes: delta.nodes,
      podCounts,
      replicaSets: delta.replicaSets,
      machines: machineDelta,
      decisions: shown.inPass,
      ...(shown.afterPass.length ? { afterPass: shown.afterPass } : {}),
      passMarks: marks,
      ...(focusSeq !== undefined ? { focusSeq } : {}),
    };
  }

  /** Learns the passes' instants and extends the run from the trace's new decisions. */
  private catchUp(): void {
    const t = this.sim.trace;
    const from = this.run.length;
    if (t.length <= from) return;
    for (let i = from; i < t.length; i++) {
      this.passes.observe(t[i]);
      this.run.push(t[i]);
    }
  }

  /** The whole run so far (also what lies after the current position, once reached), by the pass each decision is shown in. */
  runByPass(includeNoise: boolean): Map<number, Decision[]> {
    this.catchUp();
    const out = new Map<number, Decision[]>();
    for (const d of this.run) {
      if (!includeNoise && isNoise(d)) continue;
      const p = this.passes.shownIn(d);
      const list = out.get(p);
      if (list) list.push(d);
      else out.set(p, [d]);
    }
    return out;
  }

  private marksSeen = 0;
  private marksLastSeq = 0;
  private readonly marksCounting = new Map<number, number>();

  /** Counts decisions per pass incrementally (the trace only grows, except when stepping back cuts it). */
  private recordPassMarks(): void {
    const pass = this.sim.pass;
    if (pass !== null && pass > this.lastPass) this.lastPass = pass;
    const trace = this.sim.trace;
    if (this.marksSeen > trace.length || (this.marksSeen > 0 && trace[this.marksSeen - 1]?.seq !== this.marksLastSeq)) {
      this.marksCounting.clear();
      this.marksSeen = 0;
    }
    for (let i = this.marksSeen; i < trace.length; i++) {
      const d = trace[i];
      if (isNoise(d)) continue;
      const p = this.passes.shownIn(d);
      this.marksCounting.set(p, (this.marksCounting.get(p) ?? 0) + 1);
    }
    this.marksSeen = trace.length;
    this.marksLastSeq = trace.length ? trace[trace.length - 1].seq : 0;
    for (const [p, n] of this.marksCounting) if ((this.passMarks.get(p) ?? 0) < n) this.passMarks.set(p, n);
  }

  /** The decisions shown at the current position (the current pass's, then those after it). */
  shownDecisions(): { inPass: Decision[]; afterPass: Decision[] } {
    this.catchUp();
    return decisionsAt(this.sim.trace, this.sim.pass, this.passes);
  }

  private changed(focusSeq?: number, full = false): void {
    // one message, so the webview draws the new position and its selection at once
    const update = this.updateMessage(full, focusSeq);
    const { type: _type, ...selection } = this.selectionMessage();
    this.post({ ...update, selection });
    for (const l of this.listeners) l();
  }

  /** The webview (re)started: send it everything. */
  sendAll(): void {
    this.post(this.initMessage());
    this.changed(undefined, true);
    if (this.lastComparison) this.post({ type: 'whatIf', comparison: this.lastComparison });
  }

  // -- stepping -----------------------------------------------------------

  step(): SessionResult {
    this.sim.step(true);
    this.changed();
    return { ok: true };
  }

  stepBack(): SessionResult {
    const pass = this.sim.pass;
    if (pass === null) return { ok: false, message: 'At the start: nothing to step back to.' };
    if (pass === 0) {
      this.reset();
      return { ok: true };
    }
    this.sim.goToPass(pass - 1);
    this.changed();
    return { ok: true };
  }

  /**
   * Why pass n cannot be gone to, or undefined when it can: a whole number from 0 to the simulation's
   * last pass (the engine refuses, by throwing, a pass beyond its horizon).
   */
  passProblem(n: unknown): string | undefined {
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return `No pass ${String(n)}: a pass is a whole number from 0.`;
    if (n > this.sim.lastPass) return `No pass ${n}: the simulation stops at pass ${this.sim.lastPass}, its horizon.`;
    return undefined;
  }

  goToPass(n: number): SessionResult {
    const problem = this.passProblem(n);
    if (problem) return { ok: false, message: problem };
    this.sim.goToPass(n);
    this.changed();
    return { ok: true };
  }

  reset(): SessionResult {
    this.sim = this.make(this.options);
    this.changed(undefined, true);
    return { ok: true };
  }

  nextDecision(): SessionResult {
    const last = this.sim.trace.length ? this.sim.trace[this.sim.trace.length - 1].seq : 0;
    const d = this.sim.runUntilDecision((x) => x.seq > last && !isNoise(x), this.sim.now + LOOKAHEAD);
    if (d) this.focus(d);
    this.changed(d?.seq);
    return d ? { ok: true, message: `${d.time} ${d.action} ${d.object}` } : { ok: false, message: 'No decision in the next 6 hours of simulated time.' };
  }

  /** Goes back to the latest earlier pass that holds a decision, and selects its last decision. */
  previousDecision(): SessionResult {
    const pass = this.sim.pass;
    if (pass === null) return { ok: false, message: 'At the start: no earlier decision.' };
    const earlier = [...this.passMarks.keys()].filter((p) => p < pass).sort((a, b) => b - a)[0];
    if (earlier === undefined) return { ok: false, message: 'No earlier pass holds a decision.' };
    this.sim.goToPass(earlier);
    const focus = this.shownDecisions().inPass.filter((d) => !isNoise(d)).at(-1);
    if (focus) this.focus(focus);
    this.changed(focus?.seq);
    return { ok: true };
  }

  runUntil(text: string): SessionResult {
    const parsed = parseRunUntil(text, this.sim.startTime);
    if (!parsed.ok) return parsed;
    const target = parsed.target;
    if (target.kind === 'time') {
      if (target.at < this.sim.now) {
        return { ok: false, message: `${formatTime(target.at)} is in the past (now ${formatTime(this.sim.now)}); use the timeline or Step Back.` };
      }
      this.sim.runUntil(target.at);
      this.changed();
      return { ok: true, message: `Ran until ${formatTime(this.sim.now)}.` };
    }
    const last = this.sim.trace.length ? this.sim.trace[this.sim.trace.length - 1].seq : 0;
    const match = decisionMatcher(target, isNoise);
    const d = this.sim.runUntilDecision((x) => x.seq > last && match(x), this.sim.now + LOOKAHEAD);
    if (d) this.focus(d);
    this.changed(d?.seq);
    if (!d) return { ok: false, message: `No ${target.description} in the next 6 hours of simulated time (now ${formatTime(this.sim.now)}).` };
    return { ok: true, message: `${d.time} ${d.action} ${d.object}: ${d.summary}` };
  }

  // -- why ----------------------------------------------------------------

  decision(seq: number): Decision | undefined {
    const t = this.sim.trace;
    const guess = t[seq - 1];
    return guess?.seq === seq ? guess : t.find((d) => d.seq === seq);
  }

  /** The causes of a decision, transitively, oldest first. */
  chainOf(d: Decision): Decision[] {
    const seen = new Map<number, Decision>();
    const todo = [...d.causes];
    while (todo.length) {
      const seq = todo.pop() as number;
      if (seen.has(seq) || seq === d.seq) continue;
      const c = this.decision(seq);
      if (!c) continue;
      seen.set(seq, c);
      todo.push(...c.causes);
    }
    return [...seen.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Selects a decision: the why shows it, the machine view its object's machine. */
  private focus(d: Decision): void {
    this.selectedSeq = d.seq;
    this.selected = d.object;
    this.selectedReal = undefined;
  }

  /**
   * Selects a decision. One further on in the run (the Decisions tree keeps the whole run) is gone to
   * first: its pass, or the instant it was made at.
   */
  selectDecision(seq: number): SessionResult {
    let d = this.decision(seq);
    if (!d) {
      this.catchUp();
      const ahead = this.run.find((x) => x.seq === seq);
      if (!ahead) return { ok: false, message: `No decision ${seq} in this run.` };
      this.sim.goToPass(this.passes.shownIn(ahead));
      d = this.decision(seq) ?? this.sim.runUntilDecision((x) => x.seq === seq, this.sim.now + LOOKAHEAD);
      if (!d) return { ok: false, message: `Decision ${seq} was not made again.` };
      this.focus(d);
      this.changed(d.seq);
      return { ok: true };
    }
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
    let explanation;
    if (this.selected && !d) {
      explanation = this.sim.explain(this.selected);
      if (!explanation.exists && !explanation.happened.length) {
        this.selected = undefined;
        explanation = undefined;
      }
    }
    const object = this.selected;
    const reality = this.realityOfSelection(d);
    if (!object) return { type: 'selection', ...(reality ? { reality } : {}) };
    const view = this.clusterView;
    const pod = view.pods.get(object);
    const lineage = podLineage(this.sim.trace, object, pod?.owner);
    const node = object.startsWith('Node/') ? object.slice(5) : pod?.node;
    const machine = this.machineFor(object) ?? (d?.machine ? this.machineViews().byId().get(d.machine.id) : undefined);
    return {
      type: 'selection',
      object,
      ...(d ? { seq: d.seq, decision: { decision: d, chain: this.chainOf(d) } } : {}),
      ...(explanation ? { explanation } : {}),
      ...(lineage ? { lineage } : {}),
      // plain data only: a definition may hold functions (guards, actions) that no message can carry
      ...(machine ? { machine: selectedMachine(machine, this.sim.trace) } : {}),
      ...(node !== undefined ? { nodePods: { node, pods: podsOnNode(view, node) } } : {}),
      ...(reality ? { reality } : {}),
    };
  }

  // -- reality ------------------------------------------------------------

  private realityCache?: { index?: RealityIndex };

  /** The scenario's `reality:` compared with a run of its own over the evidence's span, once (see reality.ts). */
  reality(): RealityIndex | undefined {
    if (!this.realityCache) {
      const report = this.sim.scenario.reality?.length ? compareWithReality(this.make(this.options)) : undefined;
      this.realityCache = { index: report ? new RealityIndex(report) : undefined };
    }
    return this.realityCache.index;
  }

  /** The selected real entry (dropped once the position is before it), else the selected decision, against reality. */
  private realityOfSelection(d: Decision | undefined) {
    const index = this.reality();
    if (!index) return undefined;
    if (this.selectedReal !== undefined) {
      const r = index.entry(this.selectedReal);
      if (r && parseTimestamp(r.at)! <= this.sim.now) return index.forEntry(this.selectedReal);
      this.selectedReal = undefined;
    }
    return d ? index.forDecision(d.seq) : undefined;
  }

  /**
   * A mark of the reality lane: goes to the pass that shows the matched simulated decision and selects
   * it, or, for a real decision the simulation did not make, to the first pass at or after its time,
   * selecting its object. The Why then shows the real decision and how it compares.
   */
  selectReality(index: number): SessionResult {
    const r = this.reality()?.entry(index);
    if (!r) return { ok: false, message: `No reality: entry ${index + 1} in this scenario.` };
    if (r.seq !== undefined) {
      const seq = r.seq;
      this.catchUp();
      if (!this.run.some((x) => x.seq === seq)) this.sim.runUntilDecision((x) => x.seq === seq, this.sim.now + LOOKAHEAD);
      this.catchUp();
      const ahead = this.run.find((x) => x.seq === seq);
      if (!ahead) return { ok: false, message: `The simulated decision ${seq} was not made again.` };
      this.sim.goToPass(this.passes.shownIn(ahead));
      const d = this.decision(seq);
      if (d) this.focus(d);
      this.selectedReal = index;
      this.changed(d?.seq);
      return { ok: true, message: `${r.at} ${r.action} ${r.object}: matched #${seq} (${r.delta})` };
    }
    const at = parseTimestamp(r.at)!;
    this.sim.goToPass(Math.max(0, Math.ceil((at - this.sim.startTime) / this.sim.config.nodeMonitorPeriod)));
    this.selected = r.object;
    this.selectedSeq = undefined;
    this.selectedReal = index;
    this.changed();
    return { ok: true, message: `${r.at} ${r.action} ${r.object}: only in reality` };
  }

  /** The machine of an object: its own (`node/…`, `zone/…`, `replicaset/…`), or for a pod its taint-eviction worker's. */
  machineFor(ref: string): MachineView | undefined {
    const [kind, ...rest] = ref.split('/');
    const name = rest.join('/');
    const ids = kind === 'Pod' ? [`pod/${name}`, `taint-eviction/${name}`] : kind === 'ControllerManager' ? ['monitor'] : [`${kind.toLowerCase()}/${name}`];
    const byId = this.machineViews().byId();
    for (const id of ids) {
      const m = byId.get(id);
      if (m) return m;
    }
    return undefined;
  }

  private machinesAt?: { sim: Simulation; now: number; decisions: number; pass: number | null; list: MachineView[]; index?: Map<string, MachineView> };

  /**
   * The machines at the current position, asked of the engine once per position: a step's update and its
   * selection both need them, and at 5,000 nodes and 14,120 ReplicaSets each ask lists about 19,000.
   */
  private machineViews(): { list: MachineView[]; byId(): Map<string, MachineView> } {
    const sim = this.sim;
    let at = this.machinesAt;
    if (!at || at.sim !== sim || at.now !== sim.now || at.decisions !== sim.trace.length || at.pass !== sim.pass) {
      at = this.machinesAt = { sim, now: sim.now, decisions: sim.trace.length, pass: sim.pass, list: sim.machines() };
    }
    const kept = at;
    return { list: kept.list, byId: () => (kept.index ??= new Map(kept.list.map((m) => [m.id, m]))) };
  }

  // -- what-if ------------------------------------------------------------

  whatIf(key: string, value: string): SessionResult {
    let changed: Simulation;
    try {
      changed = this.make({ ...this.options, set: { ...(this.options.set ?? {}), [key]: value } });
    } catch (e) {
      return { ok: false, message: `Cannot re-run with ${key}=${value}: ${(e as Error).message}` };
    }
    const errors = changed.problems.filter((p) => p.severity === 'error' && !this.sim.problems.some((q) => q.code === p.code && q.message === p.message));
    if (errors.length) return { ok: false, message: `Cannot re-run with ${key}=${value}: ${errors.map((p) => p.message).join('; ')}` };
    const until = this.sim.now;
    changed.runUntil(until);
    this.lastComparison = compareTraces(this.sim.trace, changed.trace, { setting: key, value, until: formatTime(until) }, isNoise);
    this.post({ type: 'whatIf', comparison: this.lastComparison });
    const c = this.lastComparison;
    return { ok: true, message: `${key}=${value}: ${c.onlyOriginal.length} decisions only originally, ${c.onlyChanged.length} only with the change, ${c.moved.length} at other times, ${c.same} the same.` };
  }

  // -- webview messages ---------------------------------------------------

  /** Handles a message already checked by parseWebviewMessage. */
  handle(m: WebviewMessage, actions: { play(): void; pause(): void; dropEvidence?(uris: string[]): SessionResult }): SessionResult {
    switch (m.type) {
      case 'ready':
        this.sendAll();
        return { ok: true };
      case 'action':
        switch (m.action) {
          case 'step': return this.step();
          case 'stepBack': return this.stepBack();
          case 'nextDecision': return this.nextDecision();
          case 'previousDecision': return this.previousDecision();
          case 'reset': return this.reset();
          case 'play': actions.play(); return { ok: true };
          case 'pause': actions.pause(); return { ok: true };
        }
        return { ok: false, message: 'unknown action' };
      case 'goToPass': return this.goToPass(m.pass);
      case 'selectObject': return this.selectObject(m.object);
      case 'selectDecision': return this.selectDecision(m.seq);
      case 'whatIf': return this.whatIf(m.key, m.value);
      case 'runUntil': return this.runUntil(m.text);
      case 'selectReality': return this.selectReality(m.index);
      case 'dropEvidence': return actions.dropEvidence ? actions.dropEvidence(m.uris) : { ok: false, message: 'Dropping evidence needs the extension.' };
    }
  }
}

/** The missing-Lease assumption in one line: how many nodes, the first few by name. */
export function missingLeasesText(decisions: readonly Decision[]): string {
  const names = decisions.map((d) => d.object.slice(d.object.indexOf('/') + 1));
  const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  return `No Lease in the snapshot: ${names.length} node${names.length === 1 ? '' : 's'} whose Ready is True taken as having renewed ${names.length === 1 ? 'its Lease' : 'their Leases'} at the start time (missingLeases: assumed): ${shown}.`;
}
