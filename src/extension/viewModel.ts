/**
 * What the webview draws, built from the simulation, and the delta between two
 * such views: only what changed per step crosses to the webview (5,000 nodes,
 * 150,000 pods). Read from the live typed records (`Simulation.cluster`) when
 * the simulation offers them, else from the exported state (spec 2.2). Pure:
 * no vscode, testable with plain data.
 */
import type { MachineView, Simulation, StateView } from '../engine/simulation/api';
import type { ClusterState } from '../engine/model/cluster';
import type { KObject, NodeRecord, OwnerReference, PodRecord, ReplicaSetRecord, Taint } from '../engine/model/types';
import type { Decision } from '../engine/trace/decision';
import { zoneKeyOfLabels } from '../engine/model/zones';
import { taintText } from '../engine/model/tolerations';
import type { Delta, NodeItem, NodePodCount, PodItem, ReplicaSetItem } from '../protocol/webview';

export interface ClusterView {
  nodes: Map<string, NodeItem>;
  pods: Map<string, PodItem>;
  replicaSets: Map<string, ReplicaSetItem>;
  /** the pods by node name (`''`: pending), when the view keeps them (RecordsView) */
  podsByNode?: ReadonlyMap<string, ReadonlyMap<string, PodItem>>;
}

/** The pods bound to a node, from the view's index when it has one (the tree asks on every step for each expanded node). */
export function podsOnNode(view: ClusterView, node: string): PodItem[] {
  if (view.podsByNode) return [...(view.podsByNode.get(node)?.values() ?? [])];
  return [...view.pods.values()].filter((p) => p.node === node);
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown, dflt = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);

/** `Zone/KEY` as the trace names zones (spec 2.1), from a node's labels. */
export function zoneOfLabels(labels: Record<string, unknown>): string {
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') strings[k] = v;
  return `Zone/${zoneKeyOfLabels(strings)}`;
}

/**
 * Pending taint-based evictions as the taint-eviction controller scheduled
 * them: the latest PodEvictionScheduled of each pod (its `details.deadline`)
 * unless a PodEvictionCancelled or PodEvicted came after it. Incremental: it
 * reads only the decisions added since the last call, and starts again when
 * the trace was cut back (stepping back).
 */
export class EvictionIndex {
  private readonly pending = new Map<string, { at: string; node: string }>();
  private seen = 0;
  private lastSeq = 0;
  /** the pod refs whose entry the last update set or removed; 'all' when it started again */
  changed: Set<string> | 'all' = 'all';

  update(trace: readonly Decision[]): Map<string, { at: string; node: string }> {
    const cut = this.seen > trace.length || (this.seen > 0 && trace[this.seen - 1]?.seq !== this.lastSeq);
    if (cut) {
      this.pending.clear();
      this.seen = 0;
    }
    const changed = new Set<string>();
    for (let i = this.seen; i < trace.length; i++) {
      const d = trace[i];
      if (d.action === 'PodEvictionScheduled') {
        const deadline = str(d.details?.deadline);
        if (deadline) {
          this.pending.set(d.object, { at: deadline, node: str(d.details?.node) });
          changed.add(d.object);
        }
      } else if (d.action === 'PodEvictionCancelled' || d.action === 'PodEvicted') {
        if (this.pending.delete(d.object)) changed.add(d.object);
      }
    }
    this.changed = cut || this.seen === 0 ? 'all' : changed;
    this.seen = trace.length;
    this.lastSeq = trace.length ? trace[trace.length - 1].seq : 0;
    return this.pending;
  }
}

type PathSim = Pick<Simulation, 'podEvictionDeadlines' | 'podsEvictedFrom'> & { cluster?: ClusterState };

/** Not-Ready nodes asked for their pod-eviction countdown per view, at most. */
const PATH_NODES_ASKED = 500;

/**
 * The pod-eviction path (1.12 and whenever taint-based evictions are off): the node lifecycle
 * controller deletes a node's pods itself, once podEvictionTimeout has passed and the zone's queue
 * releases the node. The countdown of each pod on a not-Ready node is when the engine says the
 * controller will do that (its own "why not"): the engine's not-Ready nodes (at most
 * PATH_NODES_ASKED asked per view) whose pods the controller will delete, with when.
 */
function pathNodes(sim: PathSim): ReadonlyMap<string, string> {
  return sim.cluster && sim.podEvictionDeadlines ? sim.podEvictionDeadlines(PATH_NODES_ASKED) : NO_PATH_NODES;
}

const NO_PATH_NODES: ReadonlyMap<string, string> = new Map();

/** The refs of a node's pods the pod-eviction path deletes: the engine's (DeletePods' rule: not DaemonSet pods by selector, not pods being deleted). */
function podsWithCountdown(sim: PathSim, node: string): string[] {
  return (sim.podsEvictedFrom?.(node) ?? []).map((key) => `Pod/${key}`);
}

/** Where a pod's eviction countdown comes from: a map, or two read as one (see Session). */
export interface EvictionLookup {
  get(ref: string): { at: string; node: string } | undefined;
  /** 0 when there is none: then no pod is looked up (most steps of a healthy cluster) */
  readonly size: number;
}

const NO_EVICTIONS: EvictionLookup = new Map();

function evictionOf(ref: string, node: string, evictions: EvictionLookup): string | undefined {
  if (evictions.size === 0) return undefined;
  const e = evictions.get(ref);
  return e && (!e.node || e.node === node) ? e.at : undefined;
}

function withEviction(item: PodItem, evictions: EvictionLookup): PodItem {
  const at = evictionOf(item.ref, item.node, evictions);
  if (at !== undefined) item.evictionAt = at;
  return item;
}

function readyOfNode(n: NodeRecord): string {
  for (const c of n.conditions) if (c.type === 'Ready') return c.status;
  return 'None';
}

function readyOfPod(p: PodRecord): boolean {
  for (const c of p.conditions) if (c.type === 'Ready' && c.status === 'True') return true;
  return false;
}

function replicaSetOwner(p: PodRecord): OwnerReference | undefined {
  for (const o of p.meta.ownerReferences) if (o.kind === 'ReplicaSet' && o.controller !== false) return o;
  return undefined;
}

function nodeItem(n: NodeRecord, ref = `Node/${n.meta.name}`, zone = zoneOfLabels(n.meta.labels)): NodeItem {
  return { ref, name: n.meta.name, zone, ready: readyOfNode(n), taints: n.taints.map(taintText), unschedulable: n.unschedulable };
}

function podItem(p: PodRecord, evictions: EvictionLookup, ref = `Pod/${p.meta.namespace}/${p.meta.name}`): PodItem {
  const owner = replicaSetOwner(p);
  const item: PodItem = { ref, node: p.nodeName ?? '', phase: p.phase, ready: readyOfPod(p) };
  if (owner) item.owner = `ReplicaSet/${p.meta.namespace}/${owner.name}`;
  return withEviction(item, evictions);
}

function replicaSetItem(r: ReplicaSetRecord, ref = `ReplicaSet/${r.meta.namespace}/${r.meta.name}`): ReplicaSetItem {
  return { ref, desired: r.replicas ?? 1, current: r.status.replicas, ready: r.status.readyReplicas };
}

/** From the live records: no export, no copies of the objects. */
export function buildClusterViewFromRecords(cluster: ClusterState, evictions: EvictionLookup = NO_EVICTIONS): ClusterView {
  const view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map() };
  for (const n of cluster.nodes.values()) {
    const item = nodeItem(n);
    view.nodes.set(item.ref, item);
  }
  for (const p of cluster.pods.values()) {
    const item = podItem(p, evictions);
    view.pods.set(item.ref, item);
  }
  for (const r of cluster.replicaSets.values()) {
    const item = replicaSetItem(r);
    view.replicaSets.set(item.ref, item);
  }
  return view;
}

// Comparisons of an item with the record it was built from, without building
// its strings again: a step looks at 150,000 pods and most of them are as sent.

/** `s === a + b` */
const isPair = (s: string, a: string, b: string): boolean => s.length === a.length + b.length && s.startsWith(a) && s.startsWith(b, a.length);

/** `s === prefix + a + '/' + b` */
function isPath(s: string, prefix: string, a: string, b: string): boolean {
  const at = prefix.length + a.length;
  return s.length === at + 1 + b.length && s.startsWith(prefix) && s.startsWith(a, prefix.length) && s.charCodeAt(at) === 47 && s.startsWith(b, at + 1);
}

/** `s === taintText(t)` */
function isTaintText(s: string, t: Taint): boolean {
  const k = t.key.length;
  if (!t.value) return s.length === k + 1 + t.effect.length && s.startsWith(t.key) && s.charCodeAt(k) === 58 && s.startsWith(t.effect, k + 1);
  const v = t.value.length;
  return (
    s.length === k + v + 2 + t.effect.length && s.startsWith(t.key) && s.charCodeAt(k) === 61 &&
    s.startsWith(t.value, k + 1) && s.charCodeAt(k + 1 + v) === 58 && s.startsWith(t.effect, k + 2 + v)
  );
}

function nodeUnchanged(item: NodeItem, n: NodeRecord): boolean {
  if (item.unschedulable !== n.unschedulable || item.ready !== readyOfNode(n) || item.name !== n.meta.name || !isPair(item.ref, 'Node/', n.meta.name)) return false;
  const taints = n.taints;
  if (item.taints.length !== taints.length) return false;
  for (let i = 0; i < taints.length; i++) if (!isTaintText(item.taints[i], taints[i])) return false;
  return true;
}

/**
 * A pod's item and the strings its texts were made from. The record holds the
 * same string objects from step to step, so comparing with these is a
 * pointer comparison, where comparing the item's texts would read them
 * (150,000 pods: a step's time goes into reading memory).
 */
interface PodEntry {
  item: PodItem;
  namespace: string;
  name: string;
  /** the controlling ReplicaSet's name, null when none */
  owner: string | null;
  // the item's fields again, beside the strings: one object read per pod instead of two
  node: string;
  phase: string;
  ready: boolean;
  evictionAt: string | undefined;
  /** where the Ready=True condition was: looked at first (a pod has five conditions) */
  readyAt: number;
}

function podEntry(item: PodItem, p: PodRecord): PodEntry {
  let readyAt = -1;
  for (let i = 0; i < p.conditions.length && readyAt < 0; i++) if (p.conditions[i].type === 'Ready' && p.conditions[i].status === 'True') readyAt = i;
  return {
    item, namespace: p.meta.namespace, name: p.meta.name, owner: replicaSetOwner(p)?.name ?? null,
    node: item.node, phase: item.phase, ready: item.ready, evictionAt: item.evictionAt, readyAt,
  };
}

function podUnchanged(e: PodEntry, p: PodRecord, evictions: EvictionLookup): boolean {
  const node = p.nodeName ?? '';
  if (e.node !== node || e.phase !== p.phase) return false;
  const c = e.readyAt >= 0 ? p.conditions[e.readyAt] : undefined;
  // found where it was: ready (as with readyOfPod, any Ready=True makes it ready); else look at them all
  const ready = c !== undefined && c.type === 'Ready' && c.status === 'True' ? true : readyOfPod(p);
  if (e.ready !== ready) return false;
  if (p.meta.name !== e.name || p.meta.namespace !== e.namespace) return false;
  const owner = replicaSetOwner(p);
  if ((owner ? owner.name : null) !== e.owner) return false;
  return e.evictionAt === evictionOf(e.item.ref, node, evictions);
}

const replicaSetUnchanged = (item: ReplicaSetItem, r: ReplicaSetRecord): boolean =>
  item.desired === (r.replicas ?? 1) && item.current === r.status.replicas && item.ready === r.status.readyReplicas;

export type ClusterDelta = { nodes: Delta<NodeItem>; pods: Delta<PodItem>; replicaSets: Delta<ReplicaSetItem> };


/**
 * The view of the live records kept from one update to the next, and what
 * changed since the last one: the same items and deltas as building the view
 * anew (buildClusterViewFromRecords) and diffing it (diffClusterViews), but an
 * unchanged record costs a look-up and a few comparisons, with no new item, ref
 * string or map entry (at 150,000 pods the rebuild was most of a step's work).
 * The engine changes records in place, so each record is compared with its
 * item field by field every time, never trusted by identity; only a node's
 * zone is kept by its labels object, which the engine replaces and never edits
 * (simulation/checkpoint.ts), and a pod's texts by the strings they were made
 * of (PodEntry). An item is never edited once made: messages
 * already sent hold it, so a changed record gets a new one.
 */
export class RecordsView {
  /** by ref, like a built view, in the order of the cluster's maps */
  private readonly podsByNode = new Map<string, Map<string, PodItem>>();
  readonly view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map(), podsByNode: this.podsByNode };
  // the same items by the keys of the cluster's maps, where the records are found
  private readonly nodes = new Map<string, NodeItem>();
  private readonly zoneLabels = new Map<string, object>();
  private readonly pods = new Map<string, PodEntry>();
  private readonly replicaSets = new Map<string, ReplicaSetItem>();
  // the cluster's maps read last time: stepping back may put in new maps, in another key order
  private readonly sources = new Map<'nodes' | 'pods' | 'replicaSets', Map<string, unknown>>();
  /** the nodes whose pods (or their items) changed since takeTouchedNodes: their pod counts are counted again */
  private touched = new Set<string>();

  private unlist(item: PodItem): void {
    this.touched.add(item.node);
    const onNode = this.podsByNode.get(item.node);
    if (onNode?.delete(item.ref) && onNode.size === 0) this.podsByNode.delete(item.node);
  }

  /** The node names whose list of pods, or one of its items, changed since the last call. */
  takeTouchedNodes(): Set<string> {
    const t = this.touched;
    this.touched = new Set();
    return t;
  }

  /**
   * Brings the view up to date. `full`: the delta lists every item as upserted and nothing as removed, as for a new webview.
   * `podKeys`: the keys of the only pods that may differ from their items (records created, changed or deleted, and
   * pods whose eviction changed, since the last update); without it every pod is compared. `changed`: the same for
   * nodes (names) and ReplicaSets (keys), from the engine's takeRecordChanges; without them every one is compared (at
   * 5,000 nodes and 14,120 ReplicaSets that was most of an ordinary step's host part).
   */
  update(
    cluster: ClusterState, evictions: EvictionLookup = NO_EVICTIONS, full = false, podKeys?: Iterable<string>,
    changed?: { nodes?: Iterable<string>; replicaSets?: Iterable<string> },
  ): ClusterDelta {
    // a map not read before: settle() refills the view from it in its order, so the loops below leave the view alone
    const nodesByRef = this.sources.get('nodes') === cluster.nodes ? this.view.nodes : undefined;
    const podsByRef = this.sources.get('pods') === cluster.pods ? this.view.pods : undefined;
    const replicaSetsByRef = this.sources.get('replicaSets') === cluster.replicaSets ? this.view.replicaSets : undefined;
    const nodes: NodeItem[] = [];
    const visitNode = (n: NodeRecord, key: string): void => {
      const old = this.nodes.get(key);
      const labels = n.meta.labels;
      let zone: string | undefined;
      if (old) {
        if (this.zoneLabels.get(key) !== labels) {
          zone = zoneOfLabels(labels);
          this.zoneLabels.set(key, labels);
        }
        if ((zone === undefined || zone === old.zone) && nodeUnchanged(old, n)) return;
        zone ??= old.zone;
      } else {
        zone = zoneOfLabels(labels);
        this.zoneLabels.set(key, labels);
      }
      const item = nodeItem(n, old && isPair(old.ref, 'Node/', n.meta.name) ? old.ref : undefined, zone);
      this.nodes.set(key, item);
      nodesByRef?.set(item.ref, item);
      nodes.push(item);
    };
    const nodesGone: string[] = [];
    if (changed?.nodes && nodesByRef && !full) {
      for (const key of changed.nodes) {
        const n = cluster.nodes.get(key);
        if (n) {
          visitNode(n, key);
          continue;
        }
        const old = this.nodes.get(key);
        if (!old) continue;
        this.nodes.delete(key);
        this.zoneLabels.delete(key);
        nodesByRef.delete(old.ref);
        nodesGone.push(old.ref);
      }
    } else {
      cluster.nodes.forEach(visitNode);
    }
    const pods: PodItem[] = [];
    const visitPod = (p: PodRecord, key: string): void => {
      const old = this.pods.get(key);
      if (old && podUnchanged(old, p, evictions)) return;
      const item = podItem(p, evictions, old && old.name === p.meta.name && old.namespace === p.meta.namespace ? old.item.ref : undefined);
      this.pods.set(key, podEntry(item, p));
      if (old) this.unlist(old.item);
      podsByRef?.set(item.ref, item);
      this.touched.add(item.node);
      const onNode = this.podsByNode.get(item.node);
      if (onNode) onNode.set(item.ref, item);
      else this.podsByNode.set(item.node, new Map([[item.ref, item]]));
      pods.push(item);
    };
    const podsGone: string[] = [];
    if (podKeys && podsByRef && !full) {
      // only what may have changed (at 150,000 pods, comparing every pod was most of a step's work)
      for (const key of podKeys) {
        const p = cluster.pods.get(key);
        if (p) {
          visitPod(p, key);
          continue;
        }
        const old = this.pods.get(key);
        if (!old) continue;
        this.pods.delete(key);
        podsByRef.delete(old.item.ref);
        this.unlist(old.item);
        podsGone.push(old.item.ref);
      }
    } else {
      cluster.pods.forEach(visitPod);
    }
    const replicaSets: ReplicaSetItem[] = [];
    const visitReplicaSet = (r: ReplicaSetRecord, key: string): void => {
      const old = this.replicaSets.get(key);
      const ref = old && isPath(old.ref, 'ReplicaSet/', r.meta.namespace, r.meta.name) ? old.ref : undefined;
      if (old && ref && replicaSetUnchanged(old, r)) return;
      const item = replicaSetItem(r, ref);
      this.replicaSets.set(key, item);
      replicaSetsByRef?.set(item.ref, item);
      replicaSets.push(item);
    };
    const replicaSetsGone: string[] = [];
    if (changed?.replicaSets && replicaSetsByRef && !full) {
      for (const key of changed.replicaSets) {
        const r = cluster.replicaSets.get(key);
        if (r) {
          visitReplicaSet(r, key);
          continue;
        }
        const old = this.replicaSets.get(key);
        if (!old) continue;
        this.replicaSets.delete(key);
        replicaSetsByRef.delete(old.ref);
        replicaSetsGone.push(old.ref);
      }
    } else {
      cluster.replicaSets.forEach(visitReplicaSet);
    }
    const delta: ClusterDelta = {
      nodes: withRemoved(this.settle('nodes', cluster.nodes, this.nodes, this.view.nodes, (i) => i, nodes, full), nodesGone),
      pods: withRemoved(this.settle('pods', cluster.pods, this.pods, this.view.pods, (e) => e.item, pods, full, (item) => this.unlist(item)), podsGone),
      replicaSets: withRemoved(this.settle('replicaSets', cluster.replicaSets, this.replicaSets, this.view.replicaSets, (i) => i, replicaSets, full), replicaSetsGone),
    };
    if (this.zoneLabels.size !== this.nodes.size) for (const key of this.zoneLabels.keys()) if (!this.nodes.has(key)) this.zoneLabels.delete(key);
    return delta;
  }

  /** Drops the items whose records are gone, puts the view in the records' order when the map is new, and makes the delta. */
  private settle<E, T extends { ref: string }>(
    which: 'nodes' | 'pods' | 'replicaSets', records: Map<string, unknown>, byKey: Map<string, E>, byRef: Map<string, T>, itemOf: (e: E) => T, upsert: T[], full: boolean,
    gone?: (item: T) => void,
  ): Delta<T> {
    const remove: string[] = [];
    // every record has its item now: as many items as records means none is gone
    if (byKey.size !== records.size) {
      for (const [key, e] of byKey) {
        if (records.has(key)) continue;
        byKey.delete(key);
        const item = itemOf(e);
        byRef.delete(item.ref);
        gone?.(item);
        remove.push(item.ref);
      }
    }
    if (this.sources.get(which) !== records) {
      this.sources.set(which, records);
      byRef.clear();
      for (const key of records.keys()) {
        const item = itemOf(byKey.get(key) as E);
        byRef.set(item.ref, item);
      }
    }
    if (!full) return { upsert, remove };
    const all: T[] = [];
    for (const key of records.keys()) all.push(itemOf(byKey.get(key) as E));
    return { upsert: all, remove: [] };
  }
}

/**
 * The keys of the only pods whose items may be out of date since the last update: pod records
 * created, changed or deleted (the engine's takePodChanges), pods whose scheduled eviction
 * changed (EvictionIndex.changed) and pods whose pod-eviction path countdown appeared, went or
 * moved (PathDeadlines). Undefined, to compare every pod, when the engine or the index could not
 * say (a step back, a new view).
 */
export function podsToCompare(podChanges: ReadonlySet<string> | 'all', evictionChanges: ReadonlySet<string> | 'all', pathChanges: ReadonlySet<string>): Set<string> | undefined {
  if (podChanges === 'all' || evictionChanges === 'all') return undefined;
  const keys = new Set(podChanges);
  for (const ref of evictionChanges) if (ref.startsWith('Pod/')) keys.add(ref.slice(4));
  for (const key of pathChanges) keys.add(key);
  return keys;
}

/**
 * The pod-eviction path's countdowns (see pathNodes) from one update to the next, kept per
 * node, and the pods whose countdown appeared, went or moved. A new instance's first update, or
 * one given 'all', computes every countdown afresh.
 * The countdowns are recomputed from the controller's "why not" on every update, not tracked by
 * change: while any node of a 5,000-node 1.12 cluster was not Ready, every one of its 150,000 pods
 * was compared again on every step (about 0.5 s a step) for the few whose countdown had changed,
 * and listing the pods of up to 500 not-Ready nodes again took about 40 ms a step. A node's pods
 * are listed again only when its countdown changed or one of its pods did (the engine's pod
 * changes: created, deleted, bound, owners changed).
 */
export class PathDeadlines {
  /** ref -> countdown: what the view looks up */
  private readonly byRef = new Map<string, { at: string; node: string }>();
  private readonly byNode = new Map<string, { at: string; refs: string[] }>();
  /** the pod keys whose countdown changed in the last `update` (may hold more: comparing them again is harmless) */
  changed: ReadonlySet<string> = new Set();

  /** This update's countdowns by pod ref; `podChanges` are the pod keys changed since the last update ('all': unknown). */
  update(sim: PathSim, podChanges: ReadonlySet<string> | 'all'): ReadonlyMap<string, { at: string; node: string }> {
    const changed = new Set<string>();
    const cluster = sim.cluster;
    // the nodes whose list of pods may differ: each changed pod's node before and after
    const touched = new Set<string>();
    if (podChanges !== 'all' && cluster) {
      for (const key of podChanges) {
        const was = this.byRef.get(`Pod/${key}`);
        if (was) touched.add(was.node);
        const node = cluster.pods.get(key)?.nodeName;
        if (node) touched.add(node);
      }
    }
    const deadlines = pathNodes(sim);
    for (const [node, at] of deadlines) {
      const was = this.byNode.get(node);
      if (was && was.at === at && podChanges !== 'all' && !touched.has(node)) continue;
      if (was) this.drop(node, was.refs, changed);
      const refs = podsWithCountdown(sim, node);
      for (const ref of refs) {
        this.byRef.set(ref, { at, node });
        changed.add(ref.slice('Pod/'.length));
      }
      this.byNode.set(node, { at, refs });
    }
    for (const [node, was] of this.byNode) {
      if (deadlines.has(node)) continue;
      this.drop(node, was.refs, changed);
      this.byNode.delete(node);
    }
    this.changed = changed;
    return this.byRef;
  }

  private drop(node: string, refs: readonly string[], changed: Set<string>): void {
    for (const ref of refs) {
      // a ref listed again under another node this update keeps that entry
      if (this.byRef.get(ref)?.node !== node) continue;
      this.byRef.delete(ref);
      changed.add(ref.slice('Pod/'.length));
    }
  }
}

/**
 * What each node's row was last told of its pods (NodePodCount), and which counts changed: only the
 * nodes whose pods changed are counted again. A node with no pods has no entry (removed when it
 * had one).
 */
export class PodCounts {
  private readonly sent = new Map<string, NodePodCount>();

  /** `touched`: the node names whose pods may have changed ('all': unknown, count every node). */
  update(view: ClusterView, touched: Iterable<string> | 'all', full = false): Delta<NodePodCount> {
    let names: Iterable<string>;
    if (touched !== 'all' && !full) names = touched;
    else {
      const all = new Set<string>();
      for (const ref of this.sent.keys()) all.add(ref.slice(5));
      if (view.podsByNode) for (const node of view.podsByNode.keys()) all.add(node);
      else for (const p of view.pods.values()) all.add(p.node);
      names = all;
    }
    // without an index, grouping once beats filtering 150,000 pods per node
    const grouped = !view.podsByNode && (touched === 'all' || full) ? groupByNode(view.pods) : undefined;
    const upsert: NodePodCount[] = [];
    const remove: string[] = [];
    for (const node of names) {
      if (!node) continue; // pending pods have no row
      const ref = `Node/${node}`;
      const pods = grouped ? grouped.get(node) ?? [] : podsOnNode(view, node);
      const old = this.sent.get(ref);
      if (!pods.length) {
        if (old) {
          this.sent.delete(ref);
          if (!full) remove.push(ref);
        }
        continue;
      }
      let evicting = 0;
      for (const p of pods) if (p.evictionAt) evicting++;
      if (old && old.pods === pods.length && old.evicting === evicting) {
        if (full) upsert.push(old);
        continue;
      }
      const count: NodePodCount = { ref, pods: pods.length, evicting };
      this.sent.set(ref, count);
      upsert.push(count);
    }
    return { upsert, remove };
  }
}

function groupByNode(pods: ReadonlyMap<string, PodItem>): Map<string, PodItem[]> {
  const out = new Map<string, PodItem[]>();
  for (const p of pods.values()) {
    const list = out.get(p.node);
    if (list) list.push(p);
    else out.set(p.node, [p]);
  }
  return out;
}

function withRemoved<T>(delta: Delta<T>, removed: string[]): Delta<T> {
  if (removed.length) delta.remove.push(...removed);
  return delta;
}

/** From the exported state (a `kind: List`), for simulations that do not offer their records. */
export function buildClusterView(state: Pick<StateView, 'objects'>, evictions: EvictionLookup = NO_EVICTIONS): ClusterView {
  const view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map() };
  for (const i of arr(state.objects.items)) {
    const o = obj(i) as KObject;
    const meta = obj(o.metadata);
    const spec = obj(o.spec);
    const status = obj(o.status);
    const ns = str(meta.namespace) || 'default';
    if (o.kind === 'Node') {
      const ready = arr(status.conditions).map(obj).find((c) => c.type === 'Ready');
      const name = str(meta.name);
      view.nodes.set(`Node/${name}`, {
        ref: `Node/${name}`,
        name,
        zone: zoneOfLabels(obj(meta.labels)),
        ready: ready ? str(ready.status) || 'Unknown' : 'None',
        taints: arr(spec.taints).map(obj).map((t) => `${str(t.key)}${str(t.value) ? `=${str(t.value)}` : ''}:${str(t.effect)}`),
        unschedulable: spec.unschedulable === true,
      });
    } else if (o.kind === 'Pod') {
      const owner = arr(meta.ownerReferences).map(obj).find((r) => r.kind === 'ReplicaSet' && r.controller !== false);
      const ref = `Pod/${ns}/${str(meta.name)}`;
      const item: PodItem = {
        ref,
        node: str(spec.nodeName),
        phase: str(status.phase) || 'Pending',
        ready: arr(status.conditions).map(obj).some((c) => c.type === 'Ready' && c.status === 'True'),
      };
      if (owner) item.owner = `ReplicaSet/${ns}/${str(owner.name)}`;
      view.pods.set(ref, withEviction(item, evictions));
    } else if (o.kind === 'ReplicaSet') {
      const ref = `ReplicaSet/${ns}/${str(meta.name)}`;
      view.replicaSets.set(ref, { ref, desired: num(spec.replicas, 1), current: num(status.replicas), ready: num(status.readyReplicas) });
    }
  }
  return view;
}

/** Items of `next` that are new or differ from `prev` (by `same`), and keys of `prev` that are gone. */
export function diffItems<T extends { ref: string }>(prev: Map<string, T> | undefined, next: Map<string, T>, same: (a: T, b: T) => boolean = sameValue): Delta<T> {
  const upsert: T[] = [];
  const remove: string[] = [];
  for (const [key, item] of next) {
    const old = prev?.get(key);
    if (!old || !same(old, item)) upsert.push(item);
  }
  if (prev) for (const key of prev.keys()) if (!next.has(key)) remove.push(key);
  return { upsert, remove };
}

/** Structural equality of plain data (the fallback comparison). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

// Field-by-field comparisons for the big collections: a step compares 150,000 pods.
const sameStrings = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
export const sameNode = (a: NodeItem, b: NodeItem): boolean =>
  a.ready === b.ready && a.unschedulable === b.unschedulable && a.zone === b.zone && a.name === b.name && sameStrings(a.taints, b.taints);
export const samePod = (a: PodItem, b: PodItem): boolean =>
  a.phase === b.phase && a.ready === b.ready && a.node === b.node && a.evictionAt === b.evictionAt && a.owner === b.owner;
export const sameReplicaSet = (a: ReplicaSetItem, b: ReplicaSetItem): boolean => a.desired === b.desired && a.current === b.current && a.ready === b.ready;

export function diffClusterViews(prev: ClusterView | undefined, next: ClusterView) {
  return {
    nodes: diffItems(prev?.nodes, next.nodes, sameNode),
    pods: diffItems(prev?.pods, next.pods, samePod),
    replicaSets: diffItems(prev?.replicaSets, next.replicaSets, sameReplicaSet),
  };
}

export type MachineSummary = Omit<MachineView, 'definition'>;

/**
 * What the webview was last told of each machine (id, state, last transition),
 * and which machines changed since. A machine whose state text and last
 * transition object are the ones already sent costs two comparisons and no new
 * summary; a different transition object is compared by value, as before.
 */
export class MachineSummaries {
  private readonly sent = new Map<string, MachineSummary>();

  update(machines: readonly MachineView[], full = false): Delta<MachineSummary> {
    const upsert: MachineSummary[] = [];
    for (const m of machines) {
      const old = this.sent.get(m.id);
      const lastTransition = m.lastTransition || undefined;
      if (old && old.state === m.state && (old.lastTransition === lastTransition || sameValue(old.lastTransition, lastTransition))) {
        if (full) upsert.push(old);
        continue;
      }
      const summary: MachineSummary = { id: m.id, state: m.state, ...(lastTransition ? { lastTransition } : {}) };
      this.sent.set(m.id, summary);
      upsert.push(summary);
    }
    const remove: string[] = [];
    // every machine has its summary now: as many summaries as machines means none is gone
    if (this.sent.size !== machines.length) {
      const ids = new Set<string>();
      for (const m of machines) ids.add(m.id);
      for (const id of this.sent.keys()) {
        if (ids.has(id)) continue;
        this.sent.delete(id);
        if (!full) remove.push(id);
      }
    }
    return { upsert, remove };
  }
}
