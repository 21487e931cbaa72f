/**
 * What the webview knows: built only from host messages (src/protocol/webview.ts).
 * Updates carry deltas; this applies them.
 */
import type { Explanation } from '../engine/simulation/api';
import type { Decision } from '../engine/trace/decision';
import type {
  DecisionLine,
  HostMessage,
  InitMessage,
  NodeItem,
  NodePodCount,
  PodItem,
  PodLineage,
  RealityWhy,
  ReplicaSetItem,
  SelectedMachine,
  SelectionMessage,
  UiSettings,
  UpdateMessage,
  WhatIfComparison,
  Delta,
  NodeRows,
  ZoneRow,
} from '../protocol/webview';

export interface Selection {
  object?: string;
  seq?: number;
}

export class Store {
  init?: InitMessage;
  settings: UiSettings = { collapseNoise: true, playSpeed: 2 };
  time = '';
  pass: number | null = null;
  lastPass = -1;
  zones: ZoneRow[] = [];
  /** the node list's keys (those the host's node filter keeps) in its order, and its zone headings (see NodeWindow in the host) */
  nodeKeys: string[] = [];
  nodeZones: { zone: string; count: number }[] = [];
  /** per key, '1': a row with chips (two lines), for the rows whose items are not here */
  nodeTall = '';
  /** the filter the keys are of, and how many nodes there are */
  nodeFilter = '';
  nodeTotal = 0;
  /** the unfiltered order (the keys last sent with no filter): the host sends later keys as a mask over it */
  private nodeOrder: string[] = [];
  /** the items of the node rows the host keeps up to date here, the window */
  readonly nodes = new Map<string, NodeItem>();
  /** the pod counts of the node rows held (the window's), by node ref (none: no pods) */
  readonly podCounts = new Map<string, NodePodCount>();
  /** every ReplicaSet's ref in the list's order (the host sends it again only when the set changed) */
  replicaSetKeys: string[] = [];
  /** the items of the ReplicaSet rows the host keeps up to date here, the window (see ReplicaSetWindow in the host) */
  readonly replicaSets = new Map<string, ReplicaSetItem>();
  readonly passMarks = new Map<number, number>();
  decisions: DecisionLine[] = [];
  /** decisions after the current pass, at instants before the next (shown "between passes") */
  afterPass: DecisionLine[] = [];
  /** the pass's decisions were cut to the first LOG_ROWS: how many there are (routine ticks not counted) */
  cut?: { inPass: number; afterPass: number };
  /** decisions seen whole (the selection's, those asked for by seq: `decisionDetails`), for the log's opened entries */
  readonly details = new Map<number, Decision>();
  /** bumped when details came */
  detailsVersion = 0;
  selection: Selection = {};
  decision?: { decision: Decision; chain: Decision[] };
  explanation?: Explanation;
  lineage?: PodLineage;
  machine?: SelectedMachine;
  /** the selection's other machines, which the machine view offers beside the one it draws first */
  otherMachines?: SelectedMachine[];
  /** the selection against the scenario's `reality:` */
  reality?: RealityWhy;
  /** the selection's why waits for the start's simulation (SelectionMessage.waiting) */
  waiting?: true;
  /** a scenario is being loaded (its name): everything else is empty */
  loading?: string;
  whatIf?: WhatIfComparison;
  playing = false;
  error?: string;
  /** bumped on every change of the cluster collections, for views that cache */
  version = 0;
  /** bumped when an item of the node window came, changed or went */
  nodesVersion = 0;
  /** bumped when the node list's keys (or the rows' shapes) came: the list is laid out again */
  nodeKeysVersion = 0;
  /** bumped when an item of the ReplicaSet window came or went (the 14,121-row table is left alone otherwise) */
  replicaSetsVersion = 0;
  /** bumped when the ReplicaSets' keys came: the list is laid out again */
  replicaSetKeysVersion = 0;
  /** bumped when the shown node's pods came again */
  podsVersion = 0;
  /** the pods of the selected node (or the selected pod's node): the only pods the host sends */
  nodePods?: { node: string; pods: PodItem[] };

  /** Forgets everything about the scenario shown: another one is loading or has been opened. */
  private clear(): void {
    this.init = undefined;
    this.time = '';
    this.pass = null;
    this.lastPass = -1;
    this.zones = [];
    this.nodes.clear();
    this.nodeKeys = [];
    this.nodeOrder = [];
    this.nodeZones = [];
    this.nodeTall = '';
    this.nodeFilter = '';
    this.nodeTotal = 0;
    this.nodeKeysVersion++;
    this.podCounts.clear();
    this.nodePods = undefined;
    this.podsVersion++;
    this.replicaSets.clear();
    this.replicaSetKeys = [];
    this.replicaSetKeysVersion++;
    this.replicaSetsVersion++;
    this.passMarks.clear();
    this.decisions = [];
    this.afterPass = [];
    this.cut = undefined;
    this.details.clear();
    this.detailsVersion++;
    this.selection = {};
    this.waiting = undefined;
    this.decision = undefined;
    this.explanation = undefined;
    this.lineage = undefined;
    this.machine = undefined;
    this.otherMachines = undefined;
    this.reality = undefined;
    this.whatIf = undefined;
    this.error = undefined;
    this.loading = undefined;
    this.nodesVersion++;
    this.version++;
  }

  apply(m: HostMessage): void {
    switch (m.type) {
      case 'loading':
        this.clear();
        this.loading = m.name;
        break;
      case 'init':
        // a scenario opened (or the webview restarted): nothing of what was shown before is kept
        this.clear();
        this.init = m;
        this.settings = m.settings;
        break;
      case 'update':
        if (m.full) {
          this.nodes.clear();
          this.podCounts.clear();
          this.passMarks.clear();
        }
        this.time = m.time;
        this.pass = m.pass;
        this.lastPass = m.lastPass;
        this.zones = m.zones;
        this.applyNodes(m.full, m.nodes);
        this.applyPodCounts(m.podCounts);
        this.applyReplicaSets(m.full, m.replicaSets);
        for (const mark of m.passMarks) this.passMarks.set(mark.pass, mark.decisions);
        this.decisions = m.decisions;
        this.afterPass = m.afterPass ?? [];
        this.cut = m.cut;
        if (m.focusSeq !== undefined) this.selection = { ...this.selection, seq: m.focusSeq };
        if (m.selection) this.applySelection({ type: 'selection', ...m.selection });
        this.version++;
        break;
      case 'selection':
        this.applySelection(m);
        break;
      case 'select':
        this.selection = { object: m.object };
        this.decision = undefined;
        this.reality = undefined;
        break;
      case 'whatIf':
        this.whatIf = m.comparison;
        break;
      case 'playing':
        this.playing = m.playing;
        break;
      case 'settings':
        this.settings = m.settings;
        break;
      case 'error':
        this.error = m.message;
        break;
      case 'zones':
        this.zones = m.zones;
        break;
      case 'replicaSets': {
        // the host's window is now these refs: what is held of other rows is no longer kept up to date
        const window = new Set(m.refs);
        for (const ref of this.replicaSets.keys()) if (!window.has(ref)) this.replicaSets.delete(ref);
        for (const item of m.items) this.replicaSets.set(item.ref, item);
        this.replicaSetsVersion++;
        break;
      }
      case 'decisions':
        // asked for at this position: an answer that crossed a step is dropped (the step's update came after it)
        if (m.pass !== this.pass || !this.cut) break;
        this.decisions = m.decisions;
        this.afterPass = m.afterPass;
        this.cut = undefined;
        break;
      case 'details':
        for (const d of m.decisions) this.details.set(d.seq, d);
        this.detailsVersion++;
        break;
      case 'nodes': {
        // the answer to a window or a filter: the window is now these refs
        if (m.keys || m.mask !== undefined) this.applyNodeKeys(m);
        else if (m.filter !== undefined && m.filter !== this.nodeFilter) {
          // a filter that keeps the same keys: its text for the hint
          this.nodeFilter = m.filter;
          this.nodeKeysVersion++;
        }
        const window = new Set(m.refs);
        for (const ref of this.nodes.keys()) if (!window.has(ref)) this.nodes.delete(ref);
        for (const item of m.items) this.nodes.set(item.ref, item);
        this.applyPodCounts(m.podCounts);
        this.nodesVersion++;
        break;
      }
    }
  }

  /** As the ReplicaSets: the keys when the list changed (with its headings and shapes), the window's items that changed. */
  private applyNodes(full: boolean, rows: NodeRows): void {
    if (full) this.nodes.clear();
    if (rows.keys || rows.mask !== undefined) {
      this.applyNodeKeys(rows);
      if (!full && this.nodes.size) {
        const keys = new Set(this.nodeKeys);
        for (const ref of this.nodes.keys()) if (!keys.has(ref)) this.nodes.delete(ref);
      }
    } else if (rows.tall !== undefined) {
      this.nodeTall = rows.tall;
      this.nodeKeysVersion++;
    }
    for (const item of rows.items) this.nodes.set(item.ref, item);
    if (full || rows.keys || rows.items.length) this.nodesVersion++;
  }

  private applyNodeKeys(rows: NodeRows): void {
    const mask = rows.mask;
    this.nodeKeys = mask !== undefined ? this.nodeOrder.filter((_, i) => mask[i] === '1') : (rows.keys ?? []);
    if (rows.keys && !rows.filter) this.nodeOrder = rows.keys;
    this.nodeZones = rows.zones ?? [];
    this.nodeTall = rows.tall ?? '';
    this.nodeFilter = rows.filter ?? '';
    this.nodeTotal = rows.total ?? this.nodeKeys.length;
    this.nodeKeysVersion++;
  }

  /** The host keeps the counts of the rows held (the window) up to date here, as their items: those of the other rows go. */
  private applyPodCounts(d: Delta<NodePodCount>): void {
    applyDelta(this.podCounts, d);
    for (const ref of this.podCounts.keys()) if (!this.nodes.has(ref)) this.podCounts.delete(ref);
  }

  /** The host sends the keys when the set changed, and the items of the window that are new here or changed. */
  private applyReplicaSets(full: boolean, rows: UpdateMessage['replicaSets']): void {
    if (full) this.replicaSets.clear();
    if (rows.keys) {
      this.replicaSetKeys = rows.keys;
      this.replicaSetKeysVersion++;
      // a ReplicaSet that went leaves the window on both sides
      if (!full && this.replicaSets.size) {
        const keys = new Set(rows.keys);
        for (const ref of this.replicaSets.keys()) if (!keys.has(ref)) this.replicaSets.delete(ref);
      }
    }
    for (const item of rows.items) this.replicaSets.set(item.ref, item);
    if (full || rows.keys || rows.items.length) this.replicaSetsVersion++;
  }

  private applySelection(m: SelectionMessage): void {
    this.selection = { ...(m.object !== undefined ? { object: m.object } : {}), ...(m.seq !== undefined ? { seq: m.seq } : {}) };
    this.decision = m.decision;
    this.explanation = m.explanation;
    this.lineage = m.lineage;
    this.machine = m.machine;
    this.otherMachines = m.otherMachines;
    this.nodePods = m.nodePods;
    this.podsVersion++;
    this.reality = m.reality;
    this.waiting = m.waiting;
    if (m.decision) {
      this.details.set(m.decision.decision.seq, m.decision.decision);
      this.detailsVersion++;
    }
  }
}

function applyDelta<T>(map: Map<string, T>, d: Delta<T & { ref: string }> | Delta<T>): void {
  for (const key of d.remove) map.delete(key);
  for (const item of d.upsert as (T & { ref: string })[]) map.set(item.ref, item);
}

/** `1m30s`-style text for a non-negative number of milliseconds (webview-side; the engine is not bundled here). */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const neg = ms < 0;
  let s = Math.round(Math.abs(ms) / 100) / 10;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s = Math.round((s - m * 60) * 10) / 10;
  const out = `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
  return neg ? `-${out}` : out;
}
