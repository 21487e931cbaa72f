/**
 * The long lists as the panel holds them: every key in the list's order (sent again only when the set or the order
 * changed) and the items of the rows it shows, its window (kept up to date by every update, widened or moved by the
 * panel's requests). At 5,000 nodes the pass in which a zone's nodes go Unknown changed 14,120 ReplicaSets' status
 * (843 KiB of an update) and 1,667 nodes (337 KiB) for the 30 rows of each list in view.
 */
import type { Decision } from '../engine/trace/decision';

export interface NodeItem {
  /** `Node/NAME` */
  ref: string;
  name: string;
  /** `Zone/KEY` */
  zone: string;
  /** the Ready condition's status: True | False | Unknown, or `None` when the node has no Ready condition */
  ready: string;
  /** `key=value:Effect` or `key:Effect` */
  taints: string[];
  unschedulable: boolean;
}

/** Adds/replaces and removals of one keyed collection since the last update. */
export interface Delta<T> {
  upsert: T[];
  remove: string[];
}

/**
 * What a node's row shows of its pods: how many are bound to it and how many of them count down to
 * an eviction. The pods themselves cross only for the node shown (webview.ts's `SelectionMessage.nodePods`): at
 * 5,000 nodes, sending every pod made the first update 28.5 MiB for the 30 pods the panel draws.
 */
export interface NodePodCount {
  /** `Node/NAME` */
  ref: string;
  pods: number;
  /** pods with an eviction countdown (webview.ts's `PodItem.evictionAt`) */
  evicting: number;
}

export interface ReplicaSetItem {
  /** `ReplicaSet/NAMESPACE/NAME` */
  ref: string;
  desired: number;
  current: number;
  ready: number;
}

export interface Rows<T> {
  /** every key in the list's order: present when it changed (always when full, or the node list's `mask`), else unchanged */
  keys?: string[];
  /**
   * Items of the rows the panel holds (its window: the rows it last asked for; after a full update or a new filter the
   * first FIRST_ROWS) that are new to it or changed. A window's key that left the list is dropped.
   */
  items: T[];
}

export type ReplicaSetRows = Rows<ReplicaSetItem>;

/** The node list: its keys are those the node filter keeps, in zone then natural name order. */
export interface NodeRows extends Rows<NodeItem> {
  /** with `keys`: the zones' runs in them, in order (each zone's nodes are consecutive): the list's zone headings */
  zones?: { zone: string; count: number }[];
  /** with `keys`: the filter they are of (lower case; '' none), and how many nodes there are unfiltered */
  filter?: string;
  total?: number;
  /**
   * One character per key, '1' for a row with chips (taints, cordoned: two lines), else '0': the heights of the rows
   * the panel does not hold. Present when it changed (an outage's taints), with `keys` always.
   */
  tall?: string;
  /**
   * Instead of `keys` once the panel holds the unfiltered order (the keys it was last sent with no filter): one character
   * per node of that order, '1' for a key. 5,000 nodes' refs are about 150 KB, their mask 5 KB.
   */
  mask?: string;
}

/** The rows a full update (or a new node filter) carries the items of, before the panel says which it shows. */
export const FIRST_ROWS = 60;
/** The most rows a window may name. */
export const MAX_WINDOW = 2_000;

/**
 * A decision as a one-line log entry: what the log lists and filters on. Its checks (`because`), machine transition,
 * causes and details come on demand (`decisionDetails`) or with the selection: the 200 entries of the pass in which
 * 1,667 nodes go Unknown were 314 KiB whole.
 */
export type DecisionLine = Pick<Decision, 'seq' | 'time' | 'pass' | 'controller' | 'action' | 'object' | 'summary'> & {
  /** how many checks it has (what an opened entry lists) */
  checks: number;
};

export function decisionLine(d: Decision): DecisionLine {
  return { seq: d.seq, time: d.time, pass: d.pass, controller: d.controller, action: d.action, object: d.object, summary: d.summary, checks: d.because.length };
}

/** Decisions whose details a request may name. */
export const MAX_DETAILS = 200;

// The messages of these lists (their types are listed in webview.ts's HOST_MESSAGE and WEBVIEW_MESSAGE)

/** The answer to `decisionDetails`: those decisions whole (checks with their values, machine transition, causes, details). */
export interface DetailsMessage {
  type: 'details';
  decisions: Decision[];
}

/**
 * The answer to `nodeWindow` (from now on the panel's node window is `refs`, as for ReplicaSets) and to `nodeFilter`
 * (with the keys the filter keeps, the window their first FIRST_ROWS).
 */
export interface NodesMessage extends NodeRows {
  type: 'nodes';
  refs: string[];
  /** the pod counts of the window's rows the panel does not hold as they are (those of rows that left it are dropped) */
  podCounts: Delta<NodePodCount>;
}

/** The node rows the panel shows (and a margin), as `replicaSetWindow`. */
export interface NodeWindowMessage {
  type: 'nodeWindow';
  refs: string[];
}
/** The node filter's text (matched in the host against name, taints, Ready status and zone): the keys it keeps come back. */
export interface NodeFilterMessage {
  type: 'nodeFilter';
  text: string;
}
/** An opened log entry (or a search over checks) wants these decisions whole. */
export interface DecisionDetailsMessage {
  type: 'decisionDetails';
  seqs: number[];
}
