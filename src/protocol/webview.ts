/**
 * Every message between the extension host and the Controller Stepper
 * webview, in one place. No message type is written as a bare string
 * anywhere else: senders build messages through these types, and what comes
 * from the webview (untrusted: it renders workspace data) is checked once, at
 * the edge, by `parseWebviewMessage`.
 */
import type { ExpectationResult, Explanation, MachineView, ZoneView } from '../engine/simulation/api';
import type { Decision } from '../engine/trace/decision';
import type { PodLineage } from '../engine/trace/lineage';
import {
  MAX_DETAILS,
  MAX_WINDOW,
  type DecisionDetailsMessage,
  type DecisionLine,
  type Delta,
  type DetailsMessage,
  type NodeFilterMessage,
  type NodePodCount,
  type NodeRows,
  type NodesMessage,
  type NodeWindowMessage,
  type ReplicaSetItem,
  type ReplicaSetRows,
} from './lists';

// ---------------------------------------------------------------------------
// View models: what the webview draws. Built by the host from the simulation
// (src/extension/viewModel.ts); plain data, cheap to diff.

export interface PodItem {
  /** `Pod/NAMESPACE/NAME` */
  ref: string;
  /** spec.nodeName, empty when pending */
  node: string;
  phase: string;
  ready: boolean;
  /** `ReplicaSet/NS/NAME` when a ReplicaSet owns it */
  owner?: string;
  /** when the taint-eviction controller will delete it (RFC3339): its PodEvictionScheduled deadline, while pending */
  evictionAt?: string;
}

export { FIRST_ROWS as FIRST_REPLICASET_ROWS, MAX_WINDOW as MAX_REPLICASET_WINDOW } from './lists';
export type { DecisionLine, Delta, NodeItem, NodePodCount, NodeRows, ReplicaSetItem, ReplicaSetRows, Rows } from './lists';
export type { DecisionDetailsMessage, DetailsMessage, NodeFilterMessage, NodesMessage, NodeWindowMessage } from './lists';

export interface PassMark {
  pass: number;
  /** decisions in that pass, noise (MonitorPass) not counted */
  decisions: number;
}

export interface ScenarioInfo {
  name: string;
  file: string;
  kubernetesVersion: string;
  plainSnapshot: boolean;
  controllerMemory: string;
  binder: string;
  /** the controller-manager settings in force, as `key -> value text` */
  settings: Record<string, string>;
  /** `--set` overrides in force (what-if) */
  overrides: Record<string, string>;
  /** nodeMonitorPeriod in milliseconds: pass k is at startTime + k periods (the timeline's time axis) */
  monitorPeriodMs?: number;
  /** the scenario's `events:`, for the timeline's marks */
  events?: ScenarioEventMark[];
}

/** One `events:` entry of the scenario, as the timeline marks it. */
export interface ScenarioEventMark {
  /** RFC3339 */
  at: string;
  /** e.g. `kubelet stop: node-a1, node-a2` */
  text: string;
}

export interface ProblemItem {
  severity: string;
  code: string;
  message: string;
  where?: string;
}

/** What the loader assumed (spec 1.4): shown, never silent. */
export interface AssumptionItem {
  text: string;
  /** the AssumptionMade decision, when the trace holds one */
  seq?: number;
}

export interface UiSettings {
  /** collapse MonitorPass/heartbeat noise in the decision log */
  collapseNoise: boolean;
  /** passes per second while playing */
  playSpeed: number;
}

export interface WhatIfComparison {
  setting: string;
  value: string;
  /** simulated time both runs reached */
  until: string;
  /** decisions (action + object) that happened only in the original run */
  onlyOriginal: ComparedDecision[];
  /** only in the run with the setting changed */
  onlyChanged: ComparedDecision[];
  /** in both, at different times */
  moved: { action: string; object: string; original: string; changed: string }[];
  /** decisions that are the same in both runs */
  same: number;
  /** the first place the traces differ, or none */
  firstDifference?: string;
}

export interface ComparedDecision {
  action: string;
  object: string;
  time: string;
  summary: string;
}

// ---------------------------------------------------------------------------
// Host -> webview

export const HOST_MESSAGE = {
  init: 'init',
  update: 'update',
  select: 'select',
  whatIf: 'whatIf',
  playing: 'playing',
  settings: 'settings',
  error: 'error',
  selection: 'selection',
  loading: 'loading',
  zones: 'zones',
  decisions: 'decisions',
  replicaSets: 'replicaSets',
  nodes: 'nodes',
  details: 'details',
} as const;

export interface InitMessage {
  type: typeof HOST_MESSAGE.init;
  scenario: ScenarioInfo;
  problems: ProblemItem[];
  assumptions: AssumptionItem[];
  settings: UiSettings;
  startTime: string;
  /** settings that can be changed for a what-if run, with their current values */
  whatIfKeys: { key: string; value: string }[];
  /** the scenario's `reality:` lined up with the simulation (absent: the scenario has no `reality:`) */
  reality?: RealityLane;
}

/**
 * The real decisions of the scenario's `reality:` lined up with the simulated ones, compared once over
 * the whole span of the evidence (a deterministic run to the last real decision plus the tolerance):
 * the timeline shows the entries at or before the current time.
 */
export interface RealityLane {
  /** how far apart a real and a simulated decision may be and still match, e.g. `5s` */
  tolerance: string;
  /** one per `reality:` entry, in time order */
  real: RealityMark[];
  /** simulated decisions of kinds the evidence shows that no real decision matched */
  onlySimulated: OnlySimulatedMark[];
}

export interface RealityMark {
  /** 0-based index in the scenario's `reality:` list (what selectReality names) */
  index: number;
  /** RFC3339 */
  at: string;
  action: string;
  object: string;
  detail?: string;
  controller?: string;
  /** `file:line: the line`, as import wrote it */
  evidence?: string;
  /** matched: `seq` is the simulated decision; onlyReal: `reasons` say the likely cause */
  status: 'matched' | 'onlyReal';
  seq?: number;
  /** simulated minus real, e.g. `+0s`, `-328ms` */
  delta?: string;
  reasons?: string[];
}

export interface OnlySimulatedMark {
  seq: number;
  /** RFC3339 */
  at: string;
  action: string;
  object: string;
  reasons: string[];
}

/** What the Why shows of reality for the selection: the real decision a simulated one matched, or why they differ. */
export interface RealityWhy {
  status: 'matched' | 'onlyReal' | 'onlySimulated';
  /** the real decision (matched, onlyReal) */
  real?: RealityMark;
  /** the simulated decision (matched, onlySimulated) */
  seq?: number;
  reasons: string[];
  /** further real decisions the same simulated one matched (PodsMarkedNotReady names several pods) */
  alsoMatched?: RealityMark[];
}

export interface UpdateMessage {
  type: typeof HOST_MESSAGE.update;
  /** true: the collections below are complete, drop what you have */
  full: boolean;
  time: string;
  pass: number | null;
  /** the highest pass reached so far (the timeline's length) */
  lastPass: number;
  zones: ZoneRow[];
  /** the node list: its keys when they changed, the items of its window that changed (see lists.ts) */
  nodes: NodeRows;
  /**
   * The pod counts of the node window's rows that changed, as the node items (a row in the window absent from them has no
   * pods); the rows out of the window get theirs when they come into it. The pods shown come with the selection.
   */
  podCounts: Delta<NodePodCount>;
  replicaSets: ReplicaSetRows;
  /**
   * The decisions of the current pass (the webview collapses the noise): all of them, or the first
   * LOG_ROWS when the pass holds more (see `cut`), each one line (its details on demand).
   */
  decisions: DecisionLine[];
  /**
   * Present when `decisions` and `afterPass` were cut to LOG_ROWS: how many decisions (not counting
   * the routine ticks) the pass and the instants after it hold. The rest come on demand (`allDecisions`).
   */
  cut?: { inPass: number; afterPass: number };
  /** passes that hold decisions (complete list when full, else additions) */
  passMarks: PassMark[];
  /**
   * Decisions after the current pass's instant, at instants before the next pass (Next Decision or Run
   * Until stopped between passes); shown after the pass's own, "between passes".
   */
  afterPass?: DecisionLine[];
  /** the decision to select after this update (Next/Previous Decision) */
  focusSeq?: number;
  /** the selection at the new position, recomputed (as a SelectionMessage; absent: unchanged) */
  selection?: Omit<SelectionMessage, 'type'>;
  expectations?: ExpectationResult[];
}

/** Decisions a position sends at most in its update: the pass where 1,667 nodes go Unknown holds 1,707. */
export const LOG_ROWS = 200;

/**
 * A zone as the panel shows it: the queue as a count; the names only for the zones whose queue the
 * user opened (1,650 names at 5,000 nodes, on every step, otherwise).
 */
export type ZoneRow = Omit<ZoneView, 'queued'> & {
  queuedCount: number;
  /** the queued node names when this zone's queue is open, else empty */
  queued: string[];
};

/** The zones again, after a queue was opened or closed. */
export interface ZonesMessage {
  type: typeof HOST_MESSAGE.zones;
  zones: ZoneRow[];
}

/** Every decision of the current position, asked for by `allDecisions` (the update sent LOG_ROWS). */
export interface DecisionsMessage {
  type: typeof HOST_MESSAGE.decisions;
  pass: number | null;
  decisions: DecisionLine[];
  afterPass: DecisionLine[];
}

/**
 * The answer to `replicaSetWindow`: from now on the panel's window is `refs` (what it held of other rows is
 * no longer kept up to date: it drops them), and `items` are those of its rows it did not hold yet.
 */
export interface ReplicaSetsMessage {
  type: typeof HOST_MESSAGE.replicaSets;
  refs: string[];
  items: ReplicaSetItem[];
}

/** The host asks the webview to select an object (tree view selection, Explain Object). */
export interface SelectMessage {
  type: typeof HOST_MESSAGE.select;
  object: string;
}

export interface WhatIfMessage {
  type: typeof HOST_MESSAGE.whatIf;
  comparison: WhatIfComparison;
}

export interface PlayingMessage {
  type: typeof HOST_MESSAGE.playing;
  playing: boolean;
}

export interface SettingsMessage {
  type: typeof HOST_MESSAGE.settings;
  settings: UiSettings;
}

export interface ErrorMessage {
  type: typeof HOST_MESSAGE.error;
  message: string;
}

/** A machine's statechart, built by the host from the machine's own xstate definition. */
export interface MachineGraphState {
  /** dotted path from the root, '' for the root */
  path: string;
  key: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** the initial child's path (compound states) */
  initial?: string;
  children: MachineGraphState[];
}

export interface MachineGraphTransition {
  /** index in `transitions` */
  id: number;
  /** the state that declares it (dotted path) */
  source: string;
  /** dotted path, or '' when the transition has no target (it stays) */
  target: string;
  event: string;
  guard?: string;
  description?: string;
  /** decisions in the trace (up to now) that took it, oldest first, at most 100 */
  taken: { seq: number; time: string; action: string; object: string; from: string; to: string }[];
  /** how many took it in all */
  takenCount: number;
}

export interface MachineGraph {
  root: MachineGraphState;
  transitions: MachineGraphTransition[];
}

/** The selected machine: its live state and its statechart. */
export interface SelectedMachine {
  id: string;
  state: string;
  lastTransition?: MachineView['lastTransition'];
  graph: MachineGraph;
}

/** Where a pod came from: the ReplicaSet that made it, the PodsCreated, and what that creation answered. */
export type { PodLineage };

/**
 * The selection and everything shown for it, recomputed by the host for the current position after every
 * step, jump, step back and open: the webview replaces what it had. No field: nothing of that kind.
 */
export interface SelectionMessage {
  type: typeof HOST_MESSAGE.selection;
  object?: string;
  seq?: number;
  decision?: { decision: Decision; chain: Decision[] };
  explanation?: Explanation;
  lineage?: PodLineage;
  /** the machine drawn first: the selected decision's (the machine that decided), else the object's own */
  machine?: SelectedMachine;
  /** the other machines of the selection, offered beside it: the object's own, and the stateless machines that answered about it */
  otherMachines?: SelectedMachine[];
  /**
   * The pods of the selected node, or of the selected pod's node (`node: ''`: the pending pods), all of
   * them: the only pods the webview holds, sent again with every update.
   */
  nodePods?: { node: string; pods: PodItem[] };
  /** the selection against reality (a scenario with `reality:`) */
  reality?: RealityWhy;
  /** the why, machines and pods wait for the start's simulation, made in slices (swapAtOpen.ts): sent again once made */
  waiting?: true;
}

/** A scenario is being loaded: the webview drops what it shows and says "loading". */
export interface LoadingMessage {
  type: typeof HOST_MESSAGE.loading;
  name: string;
}

export type HostMessage =
  | InitMessage
  | UpdateMessage
  | SelectMessage
  | WhatIfMessage
  | PlayingMessage
  | SettingsMessage
  | ErrorMessage
  | SelectionMessage
  | LoadingMessage
  | ZonesMessage
  | DecisionsMessage
  | ReplicaSetsMessage
  | NodesMessage
  | DetailsMessage;

// ---------------------------------------------------------------------------
// Webview -> host

/** Toolbar actions; each is also a command of the extension. */
export const WEBVIEW_ACTIONS = ['step', 'stepBack', 'nextDecision', 'previousDecision', 'play', 'pause', 'reset'] as const;
export type WebviewAction = (typeof WEBVIEW_ACTIONS)[number];

export const WEBVIEW_MESSAGE = {
  ready: 'ready',
  painted: 'painted',
  action: 'action',
  goToPass: 'goToPass',
  selectObject: 'selectObject',
  selectDecision: 'selectDecision',
  whatIf: 'whatIf',
  runUntil: 'runUntil',
  selectReality: 'selectReality',
  dropEvidence: 'dropEvidence',
  zoneQueue: 'zoneQueue',
  allDecisions: 'allDecisions',
  replicaSetWindow: 'replicaSetWindow',
  nodeWindow: 'nodeWindow',
  nodeFilter: 'nodeFilter',
  decisionDetails: 'decisionDetails',
} as const;

export interface ReadyMessage {
  type: typeof WEBVIEW_MESSAGE.ready;
}
/** The webview painted a full update (the open's): the host may now do what that paint did not need. */
export interface PaintedMessage {
  type: typeof WEBVIEW_MESSAGE.painted;
}
export interface ActionMessage {
  type: typeof WEBVIEW_MESSAGE.action;
  action: WebviewAction;
}
export interface GoToPassMessage {
  type: typeof WEBVIEW_MESSAGE.goToPass;
  pass: number;
}
export interface SelectObjectMessage {
  type: typeof WEBVIEW_MESSAGE.selectObject;
  object: string;
}
export interface SelectDecisionMessage {
  type: typeof WEBVIEW_MESSAGE.selectDecision;
  seq: number;
}
export interface WhatIfRequestMessage {
  type: typeof WEBVIEW_MESSAGE.whatIf;
  key: string;
  value: string;
}
export interface RunUntilMessage {
  type: typeof WEBVIEW_MESSAGE.runUntil;
  /** a time (`10m`, RFC3339) or a decision filter (`next TaintAdded on node-a1`) */
  text: string;
}

/** A mark of the reality lane was clicked: its `reality:` index. */
export interface SelectRealityMessage {
  type: typeof WEBVIEW_MESSAGE.selectReality;
  index: number;
}
/** Files dropped onto the panel: their URIs (`file:///…`, from the explorer or the desktop). */
export interface DropEvidenceMessage {
  type: typeof WEBVIEW_MESSAGE.dropEvidence;
  uris: string[];
}

/** A zone's queue was opened (send its names with every update) or closed. */
export interface ZoneQueueMessage {
  type: typeof WEBVIEW_MESSAGE.zoneQueue;
  zone: string;
  open: boolean;
}
/** The decision log wants every decision of the current position (the update sent LOG_ROWS). */
export interface AllDecisionsMessage {
  type: typeof WEBVIEW_MESSAGE.allDecisions;
}

/** The ReplicaSet rows the panel shows (and a margin): their items come, and with every update that changes them. */
export interface ReplicaSetWindowMessage {
  type: typeof WEBVIEW_MESSAGE.replicaSetWindow;
  refs: string[];
}

export type WebviewMessage =
  | ReadyMessage
  | PaintedMessage
  | ActionMessage
  | GoToPassMessage
  | SelectObjectMessage
  | SelectDecisionMessage
  | WhatIfRequestMessage
  | RunUntilMessage
  | SelectRealityMessage
  | DropEvidenceMessage
  | ZoneQueueMessage
  | AllDecisionsMessage
  | ReplicaSetWindowMessage
  | NodeWindowMessage
  | NodeFilterMessage
  | DecisionDetailsMessage;

// ---------------------------------------------------------------------------
// The edge check: anything posted by the webview is parsed here before the
// host acts on it. Returns undefined for anything malformed.

const MAX_TEXT = 1_000;
/** files one drop may name */
export const MAX_DROPPED = 200;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_TEXT;
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isRefs = (v: unknown): v is string[] => Array.isArray(v) && v.length <= MAX_WINDOW && v.every(isText);

type Parsers = { [K in WebviewMessage['type']]: (m: Record<string, unknown>) => Extract<WebviewMessage, { type: K }> | undefined };

const parsers: Parsers = {
  ready: () => ({ type: 'ready' }),
  painted: () => ({ type: 'painted' }),
  action: (m) => ((WEBVIEW_ACTIONS as readonly unknown[]).includes(m.action) ? { type: 'action', action: m.action as WebviewAction } : undefined),
  goToPass: (m) => (isIndex(m.pass) ? { type: 'goToPass', pass: m.pass } : undefined),
  selectObject: (m) => (isText(m.object) ? { type: 'selectObject', object: m.object } : undefined),
  selectDecision: (m) => (isIndex(m.seq) ? { type: 'selectDecision', seq: m.seq } : undefined),
  whatIf: (m) => (isText(m.key) && typeof m.value === 'string' && m.value.length <= MAX_TEXT ? { type: 'whatIf', key: m.key, value: m.value } : undefined),
  runUntil: (m) => (isText(m.text) ? { type: 'runUntil', text: m.text } : undefined),
  selectReality: (m) => (isIndex(m.index) ? { type: 'selectReality', index: m.index } : undefined),
  zoneQueue: (m) => (isText(m.zone) && typeof m.open === 'boolean' ? { type: 'zoneQueue', zone: m.zone, open: m.open } : undefined),
  allDecisions: () => ({ type: 'allDecisions' }),
  replicaSetWindow: (m) => (isRefs(m.refs) ? { type: 'replicaSetWindow', refs: [...m.refs] } : undefined),
  nodeWindow: (m) => (isRefs(m.refs) ? { type: 'nodeWindow', refs: [...m.refs] } : undefined),
  // '' clears it
  nodeFilter: (m) => (typeof m.text === 'string' && m.text.length <= MAX_TEXT ? { type: 'nodeFilter', text: m.text } : undefined),
  decisionDetails: (m) =>
    Array.isArray(m.seqs) && m.seqs.length > 0 && m.seqs.length <= MAX_DETAILS && m.seqs.every(isIndex)
      ? { type: 'decisionDetails', seqs: [...(m.seqs as number[])] }
      : undefined,
  dropEvidence: (m) =>
    Array.isArray(m.uris) && m.uris.length > 0 && m.uris.length <= MAX_DROPPED && m.uris.every(isText)
      ? { type: 'dropEvidence', uris: [...(m.uris as string[])] }
      : undefined,
};

export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (!isObj(raw) || typeof raw.type !== 'string' || !Object.prototype.hasOwnProperty.call(parsers, raw.type)) return undefined;
  return parsers[raw.type as WebviewMessage['type']](raw);
}

/** State the webview keeps across reloads (vscode.setState) and the serializer revives the panel from. */
export interface WebviewPersistedState {
  /** the scenario file the panel showed */
  file?: string;
  pass?: number | null;
  selected?: string;
}

export function parsePersistedState(raw: unknown): WebviewPersistedState {
  if (!isObj(raw)) return {};
  const out: WebviewPersistedState = {};
  if (isText(raw.file)) out.file = raw.file;
  if (isIndex(raw.pass)) out.pass = raw.pass;
  if (isText(raw.selected)) out.selected = raw.selected;
  return out;
}
