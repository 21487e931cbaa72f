/**
 * The view of the live records kept from one step to the next (RecordsView):
 * what changed since the last update, without building an item for a record
 * that did not change.
 */
import type { ClusterState } from '../engine/model/cluster';
import type { NodeRecord, PodRecord, ReplicaSetRecord, Taint } from '../engine/model/types';
import type { ReadyKeys } from '../engine/simulation/podReports';
import type { Delta, NodeItem, PodItem, ReplicaSetItem } from '../protocol/webview';
import { visitPieces, type PieceList } from './pieces';
import {
  evictionOf,
  NO_EVICTIONS,
  podsOnNode,
  nodeItem,
  podItem,
  readyOfNode,
  readyOfPod,
  replicaSetItem,
  replicaSetOwner,
  zoneOfLabels,
  type ClusterDelta,
  type ClusterView,
  type EvictionLookup,
} from './viewModel';

/**
 * How many pods' items one piece of completeOpenSlice makes between two looks at the slice's clock: 2-3 ms at 5,000 nodes
 * on a quiet 2-core machine (1,000 made pieces of 16-110 ms under load, each at least one a slice).
 */
export const PODS_PER_PIECE = 250;
/** The records' keys completeOpenSlice reads a piece, per pod's item a piece makes (reading a key is that much cheaper). */
export const KEYS_PER_POD = 32;
/** ReplicaSets' items a piece of an alignment's owed ones (KeptView.alignSlice) compares or makes: 4-5 ms at 5,000 nodes. */
export const REPLICA_SETS_PER_PIECE = 1000;
/** Ready-only keys put in the stale set between two looks at the slice's clock (about 2 ms at 150,000 pods). */
const STALE_CHUNK = 8192;
/** Ready-only keys left listed at most (RecordsView.staleLists): four times the Unknown pass's 50,000 at 5,000 nodes. */
const STALE_LISTED_MAX = 200_000;

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
    s.length === k + v + 2 + t.effect.length &&
    s.startsWith(t.key) &&
    s.charCodeAt(k) === 61 &&
    s.startsWith(t.value, k + 1) &&
    s.charCodeAt(k + 1 + v) === 58 &&
    s.startsWith(t.effect, k + 2 + v)
  );
}

function nodeUnchanged(item: NodeItem, n: NodeRecord): boolean {
  if (item.unschedulable !== n.unschedulable || item.ready !== readyOfNode(n) || item.name !== n.meta.name || !isPair(item.ref, 'Node/', n.meta.name))
    return false;
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
    item,
    namespace: p.meta.namespace,
    name: p.meta.name,
    owner: replicaSetOwner(p)?.name ?? null,
    node: item.node,
    phase: item.phase,
    ready: item.ready,
    evictionAt: item.evictionAt,
    readyAt,
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
  private readonly podsByNode = new Map<string, Map<string, PodItem>>();
  /**
   * by ref, like a built view; in the order the items were made, which is not always the records' order: a step back
   * may put in a new map in another key order, and putting the view in that order again touched every pod (150,000
   * inserts, 140-280 ms of each step back during the outage at 5,000 nodes). What is drawn does not read that order:
   * the webview files items by ref, the trees and a node's pods are sorted, a full delta follows the records (only
   * the searchable quick pick of objects lists them as they are here).
   */
  readonly view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map(), podsByNode: this.podsByNode };
  // the same items by the keys of the cluster's maps, where the records are found
  private readonly nodes = new Map<string, NodeItem>();
  private readonly zoneLabels = new Map<string, object>();
  private readonly pods = new Map<string, PodEntry>();
  private readonly replicaSets = new Map<string, ReplicaSetItem>();
  /** the nodes whose pods (or their items) changed since takeTouchedNodes: their pod counts are counted again */
  private touched = new Set<string>();
  /**
   * While the first update's pods' items wait (deferPods): the evictions of the last update, which go with the records
   * of its position (the items still to make are made from the records and these, as a fresh view there would be).
   */
  private pending: EvictionLookup | undefined;
  /**
   * Pods whose record changed (as the engine reported) in what neither a node's count nor its countdown shows (Ready,
   * phase, owner: 50,000 pods marked not ready in the pass a zone's 1,667 nodes go Unknown), so that no count changed:
   * their items are made again when read (podsOn, pod, completePods), not at the step. With `staleEvictions`, the
   * evictions of the last update (the records and they are of the same position until the next update).
   */
  private stale = new Set<string>();
  private staleEvictions: EvictionLookup = NO_EVICTIONS;
  /**
   * The pods changed by Ready writes alone (readyOnly) not yet put in `stale`: the lists as the engine gave them. Put in
   * when anything reads `stale`, or in idle slices (flushStaleSlice): 50,000 inserts into the set were 8-24 ms of the
   * click that gave them at 5,000 nodes (a Reset over the Unknown pass, a step back over it, its redo). Only pods with an
   * item then go stale (a pod gone since has none; while the open's items wait, the others are made from the records). A
   * pod made at an update while listed here goes stale when put in: made again when read, as it is (podUnchanged), a
   * cost and no change.
   */
  private staleLists: (readonly string[])[] = [];
  /** how many keys the lists hold (those of the first list already put in, `staleDone`, among them) */
  private staleListed = 0;
  private staleDone = 0;
  /** completeOpenSlice's pods (their keys when it began) and how many of them are made */
  private openKeys?: PieceList<string>;
  /**
   * completeOpenSlice's read of the records' keys under way, a piece at a time: every key for its first round, then those
   * without an item (the pods made since). Of the pod map it was begun on (another map: begun again); the map's iterator
   * goes on over keys added since and skips those deleted.
   */
  private openScan?: { pods: ReadonlyMap<string, unknown>; keys: Iterator<string>; found: string[]; all: boolean };

  /** While pods' items of the first update wait (completePods, completeOpenSlice): the evictions of the last update. */
  get podsPending(): EvictionLookup | undefined {
    return this.pending;
  }

  /**
   * Makes the pods' items the first update left out, from the records and the evictions of the last update (the view
   * reads them all: the trees). Every node with pods is touched.
   */
  completeOpen(cluster: ClusterState): void {
    const evictions = this.pending;
    if (!evictions) return;
    this.pending = this.openKeys = this.openScan = undefined;
    this.update(cluster, evictions, false, cluster.pods.keys(), { nodes: [], replicaSets: [] });
  }

  /**
   * completeOpen a slice at a time (while `more()` says so, `podsPerPiece` pods at a time); true while pods' items wait.
   * Updates may come between two slices (the steps after open do not wait for the items): each one visits the pods
   * reported changed that have an item (KeptView leaves the others to this) and gives its evictions to the slices after
   * it; the pods created since the keys were taken are made in a last round.
   * Between an update and a slice the records may move on (the ahead simulation's steps): a pod changed since is
   * reported, and its item compared again at the next update.
   */
  completeOpenSlice(cluster: ClusterState, more: () => boolean, podsPerPiece = PODS_PER_PIECE): boolean {
    const evictions = this.pending;
    if (!evictions) return false;
    for (;;) {
      if (!this.openKeys) {
        // every pod's key for the first round, then the pods made since the keys were taken, which the updates meanwhile
        // left to this; a piece at a time (150,000 keys were one piece of 10-30 ms at 5,000 nodes)
        const keys = this.openKeysSlice(cluster, more, podsPerPiece * KEYS_PER_POD);
        if (!keys) return true;
        if (!keys.length) break;
        this.openKeys = { keys, done: 0 };
        if (!more()) return true;
      }
      const left = visitPieces(this.openKeys, podsPerPiece, more, (piece) => this.update(cluster, this.pending!, false, piece, { nodes: [], replicaSets: [] }));
      if (left) return true;
      this.openKeys = undefined;
      if (!more()) return true;
    }
    this.pending = this.openKeys = this.openScan = undefined;
    return false;
  }

  /** The keys of completeOpenSlice's next round (see openScan), read `perPiece` a piece while `more()` says so; undefined while some are left to read. */
  private openKeysSlice(cluster: ClusterState, more: () => boolean, perPiece: number): string[] | undefined {
    let scan = this.openScan;
    if (scan?.pods !== cluster.pods) {
      // a scan of another map begun again, as it began (every key while no round was made)
      scan = this.openScan = { pods: cluster.pods, keys: cluster.pods.keys(), found: [], all: scan?.all ?? true };
    }
    for (;;) {
      for (let i = 0; i < perPiece; i++) {
        const r = scan.keys.next();
        if (r.done) {
          this.openScan = { pods: cluster.pods, keys: cluster.pods.keys(), found: [], all: false };
          return scan.found;
        }
        if (scan.all || !this.pods.has(r.value)) scan.found.push(r.value);
      }
      if (!more()) return undefined;
    }
  }

  /** Makes every pod's item that waits (the open's, and the stale ones): the whole view is read. */
  completePods(cluster: ClusterState): void {
    this.completeOpen(cluster);
    this.flushStale();
    if (!this.stale.size) return;
    const keys = this.stale;
    this.stale = new Set();
    this.update(cluster, this.staleEvictions, false, keys, { nodes: [], replicaSets: [] });
  }

  /**
   * The items of a node's pods, sorted by ref, each up to date (its stale pods are made again, those the open left out
   * are made, the others not looked at).
   */
  podsOn(cluster: ClusterState, node: string): PodItem[] {
    if (this.pending) {
      // the open's pods of this node alone (the first selection after open need not wait for 150,000 items)
      const keys: string[] = [];
      for (const key of cluster.podsByNode.get(node) ?? []) if (!this.pods.has(key)) keys.push(key);
      if (keys.length) this.update(cluster, this.pending, false, keys, { nodes: [], replicaSets: [] });
    }
    this.flushStale();
    if (this.stale.size) {
      const keys: string[] = [];
      // stale pods were on the node they are indexed under in the records and in this view when they went stale
      for (const key of cluster.podsByNode.get(node) ?? []) if (this.stale.delete(key)) keys.push(key);
      if (keys.length) this.update(cluster, this.staleEvictions, false, keys, { nodes: [], replicaSets: [] });
    }
    return podsOnNode(this.view, node);
  }

  /** One pod's item, up to date. */
  pod(cluster: ClusterState, ref: string): PodItem | undefined {
    const key = ref.startsWith('Pod/') ? ref.slice(4) : ref;
    if (this.pending && !this.pods.has(key)) this.update(cluster, this.pending, false, [key], { nodes: [], replicaSets: [] });
    this.flushStale();
    if (this.stale.delete(key)) this.update(cluster, this.staleEvictions, false, [key], { nodes: [], replicaSets: [] });
    return this.view.pods.get(ref);
  }

  /** Only these ReplicaSets' items brought up to date (a piece of an alignment's, whose delta is dropped: KeptView.alignSlice). */
  replicaSetsOnly(cluster: ClusterState, keys: readonly string[]): void {
    this.update(cluster, this.pending ?? NO_EVICTIONS, false, [], { nodes: [], replicaSets: keys });
  }

  /** Of these pod keys, those that have an item. */
  withItems(keys: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const key of keys) if (this.pods.has(key)) out.add(key);
    return out;
  }

  /** How many pods' items wait to be made again (for tests and the bench). */
  get stalePods(): number {
    this.flushStale();
    return this.stale.size;
  }

  /** How many keys of pods changed by Ready writes alone wait to be put in the stale set (for tests and the bench). */
  get staleListedPods(): number {
    return this.staleListed - this.staleDone;
  }

  /** Puts the Ready-only lists in the stale set, up to `max` keys; true while some are left. */
  private flushStaleSome(max: number): boolean {
    const stale = this.stale;
    let left = max;
    while (this.staleLists.length > 0 && left > 0) {
      const keys = this.staleLists[0];
      const end = Math.min(keys.length, this.staleDone + left);
      for (let i = this.staleDone; i < end; i++) if (this.pods.has(keys[i])) stale.add(keys[i]);
      left -= end - this.staleDone;
      this.staleDone = end;
      if (end < keys.length) break;
      this.staleLists.shift();
      this.staleListed -= keys.length;
      this.staleDone = 0;
    }
    return this.staleLists.length > 0;
  }

  private flushStale(): void {
    if (this.staleLists.length > 0) this.flushStaleSome(Number.POSITIVE_INFINITY);
  }

  /** The Ready-only lists put in the stale set a part at a time while `more()` says so (idle slices); true while some are left. */
  flushStaleSlice(more: () => boolean): boolean {
    while (this.flushStaleSome(STALE_CHUNK)) if (!more()) return true;
    return false;
  }

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
    cluster: ClusterState,
    evictions: EvictionLookup = NO_EVICTIONS,
    full = false,
    podKeys?: Iterable<string>,
    changed?: { nodes?: Iterable<string>; replicaSets?: Iterable<string> },
    deferPods = false,
    lazyPods?: { countdowns: ReadonlySet<string>; ready?: ReadyKeys },
  ): ClusterDelta {
    // the first paint needs the nodes and their pod counts (podCounts.ts countsOfRecords), not 150,000 pods' items
    const skipPods = deferPods && full && this.pods.size === 0;
    // the items still waiting are made with the evictions of the position the records are at
    if (skipPods || this.pending) this.pending = evictions;
    // A new map (a step back may give one) is read as the same one: what is visited is still only what changed, when
    // the engine says, since its report covers the records a step back put back (the others are the same records).
    const nodesByRef = this.view.nodes;
    const podsByRef = this.view.pods;
    const replicaSetsByRef = this.view.replicaSets;
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
      nodesByRef.set(item.ref, item);
      nodes.push(item);
    };
    const nodesGone =
      changed?.nodes && !full
        ? visitOnly(changed.nodes, cluster.nodes, visitNode, this.nodes, (old, key) => {
            this.zoneLabels.delete(key);
            nodesByRef.delete(old.ref);
            return old.ref;
          })
        : (cluster.nodes.forEach(visitNode), []);
    const pods: PodItem[] = [];
    const visitPod = (p: PodRecord, key: string): void => {
      const old = this.pods.get(key);
      if (old && podUnchanged(old, p, evictions)) return;
      const item = podItem(p, evictions, old && old.name === p.meta.name && old.namespace === p.meta.namespace ? old.item.ref : undefined);
      this.pods.set(key, podEntry(item, p));
      if (old) this.unlist(old.item);
      podsByRef.set(item.ref, item);
      this.touched.add(item.node);
      const onNode = this.podsByNode.get(item.node);
      if (onNode) onNode.set(item.ref, item);
      else this.podsByNode.set(item.node, new Map([[item.ref, item]]));
      pods.push(item);
    };
    // only what may have changed (at 150,000 pods, comparing every pod was most of a step's work); with lazyPods, a pod
    // whose node and countdown are as its item says waits (stale) until it is read
    const byKeys = podKeys && !full;
    if (byKeys && lazyPods) this.staleEvictions = evictions;
    if (byKeys && lazyPods?.ready) this.readyOnly(lazyPods.ready);
    const keys = byKeys && lazyPods ? this.countedNow(podKeys, cluster, lazyPods.countdowns) : podKeys;
    const podsGone = skipPods
      ? []
      : byKeys
        ? visitOnly(keys as Iterable<string>, cluster.pods, visitPod, this.pods, (old) => {
            podsByRef.delete(old.item.ref);
            this.unlist(old.item);
            return old.item.ref;
          })
        : (cluster.pods.forEach(visitPod), this.stale.clear(), this.dropStaleLists(), (this.pending = this.openKeys = this.openScan = undefined), []);
    const replicaSets: ReplicaSetItem[] = [];
    const visitReplicaSet = (r: ReplicaSetRecord, key: string): void => {
      const old = this.replicaSets.get(key);
      const ref = old && isPath(old.ref, 'ReplicaSet/', r.meta.namespace, r.meta.name) ? old.ref : undefined;
      if (old && ref && replicaSetUnchanged(old, r)) return;
      const item = replicaSetItem(r, ref);
      this.replicaSets.set(key, item);
      replicaSetsByRef.set(item.ref, item);
      replicaSets.push(item);
    };
    const replicaSetsGone =
      changed?.replicaSets && !full
        ? visitOnly(changed.replicaSets, cluster.replicaSets, visitReplicaSet, this.replicaSets, (old) => {
            replicaSetsByRef.delete(old.ref);
            return old.ref;
          })
        : (cluster.replicaSets.forEach(visitReplicaSet), []);
    const delta: ClusterDelta = {
      nodes: withRemoved(
        this.settle(cluster.nodes, this.nodes, this.view.nodes, (i) => i, nodes, full),
        nodesGone,
      ),
      pods: skipPods
        ? { upsert: [], remove: [] }
        : withRemoved(
            this.settle(
              cluster.pods,
              this.pods,
              this.view.pods,
              (e) => e.item,
              pods,
              full,
              (item) => this.unlist(item),
            ),
            podsGone,
          ),
      replicaSets: withRemoved(
        this.settle(cluster.replicaSets, this.replicaSets, this.view.replicaSets, (i) => i, replicaSets, full),
        replicaSetsGone,
      ),
    };
    if (this.zoneLabels.size !== this.nodes.size) for (const key of this.zoneLabels.keys()) if (!this.nodes.has(key)) this.zoneLabels.delete(key);
    return delta;
  }

  /**
   * Of the pods reported changed, those whose item must be made now: created, deleted, moved to another node, or whose
   * countdown changed (`countdowns`, pod keys; a node's counts read them). The others go stale, to be made when read.
   * Two look-ups a pod: this is what the pass in which 50,000 pods are marked not ready costs the view.
   */
  private countedNow(keys: Iterable<string>, cluster: ClusterState, countdowns: ReadonlySet<string>): string[] {
    const now: string[] = [];
    for (const key of keys) {
      const e = this.pods.get(key);
      const p = cluster.pods.get(key);
      if (e && p && e.node === (p.nodeName ?? '') && !countdowns.has(key)) {
        this.stale.add(key);
        continue;
      }
      this.stale.delete(key);
      now.push(key);
    }
    return now;
  }

  /**
   * The pods changed by Ready writes alone (the engine's takePodChanges, apart): neither their node nor anything a count
   * reads changed, so their items go stale as countedNow would leave them, without its two look-ups each; one whose
   * countdown changed too is among the keys reported otherwise (podsToCompare), and countedNow makes it now. The lists are
   * kept as they are, not read (see staleLists).
   */
  private readyOnly(lists: ReadyKeys): void {
    for (const keys of lists)
      if (keys.length > 0) {
        this.staleLists.push(keys);
        this.staleListed += keys.length;
      }
    // lists no read took (quick clicks back and forth over the Unknown pass) are put in before they hold several sets' worth
    if (this.staleListed > STALE_LISTED_MAX) this.flushStale();
  }

  private dropStaleLists(): void {
    this.staleLists = [];
    this.staleListed = this.staleDone = 0;
  }

  /** Drops the items whose records are gone, and makes the delta. */
  private settle<E, T extends { ref: string }>(
    records: Map<string, unknown>,
    byKey: Map<string, E>,
    byRef: Map<string, T>,
    itemOf: (e: E) => T,
    upsert: T[],
    full: boolean,
    gone?: (item: T) => void,
  ): Delta<T> {
    const remove: string[] = [];
    // every record has its item now: as many items as records means none is gone (while the open's pods' items wait
    // there are fewer, and looking for the gone ones would read every item made so far: the updates visit the pods
    // reported changed, the gone ones among them)
    if (byKey.size !== records.size && !(this.pending && byKey === (this.pods as unknown))) {
      for (const [key, e] of byKey) {
        if (records.has(key)) continue;
        byKey.delete(key);
        const item = itemOf(e);
        byRef.delete(item.ref);
        gone?.(item);
        remove.push(item.ref);
      }
    }
    if (!full) return { upsert, remove };
    const all: T[] = [];
    for (const key of records.keys()) all.push(itemOf(byKey.get(key) as E));
    return { upsert: all, remove: [] };
  }
}

/**
 * The update of only the records the engine named: each one that exists is visited; the entry of
 * each one that is gone is deleted from `kept` and `drop` (which unlists it elsewhere) gives the
 * ref to remove.
 */
function visitOnly<R, E>(
  keys: Iterable<string>,
  records: ReadonlyMap<string, R>,
  visit: (r: R, key: string) => void,
  kept: Map<string, E>,
  drop: (old: E, key: string) => string,
): string[] {
  const gone: string[] = [];
  for (const key of keys) {
    const r = records.get(key);
    if (r) {
      visit(r, key);
      continue;
    }
    const old = kept.get(key);
    if (old === undefined) continue;
    kept.delete(key);
    gone.push(drop(old, key));
  }
  return gone;
}

function withRemoved<T>(delta: Delta<T>, removed: string[]): Delta<T> {
  if (removed.length) delta.remove.push(...removed);
  return delta;
}
