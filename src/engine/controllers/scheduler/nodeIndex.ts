/**
 * Where the simplified binder finds the best node without looking at every
 * node for every pod (5,000 nodes, thousands of replacements in an outage).
 *
 * Nodes are grouped in classes: the same Ready status, cordon, NoSchedule /
 * NoExecute taints, labels (but the ones each node has a value of its own
 * for, nodeAffinity.ts PER_NODE_LABELS) and allocatable. Filters 1–4
 * (fit.ts) give the same answer for every node of a class, so they are
 * decided once per class and pod requirement (tolerations + required
 * placement) and remembered. Within a class, for each request vector asked
 * for, a heap holds the nodes with room for it, best score first (then name
 * in natural order), and counts the others by NodeResourcesFit reason; the
 * heaps are kept up to date as pods are bound to, or leave, a node. A pod then
 * costs one look per class plus O(log n) per change.
 *
 * A requirement that reads the node's own name or hostname label (matchFields
 * metadata.name, a hostname nodeSelector) is decided node by node within the
 * classes that pass filters 1–2.
 *
 * The usage of a node is kept from the pod announcements: the requests of the
 * non-terminal pods bound to it (a terminating pod still counts until it is
 * gone), as the scheduler cache counts them.
 */
import type { KObject, NodeRecord, PodRecord, Taint, Toleration } from '../../model/types';
import type { ClusterState } from '../../model/cluster';
import { nodeAllocatable, podRequests, type Allocatable, type Requests } from './resources';
import { matchesPlacement, requiredPlacement, sharedLabelsText, type RequiredPlacement } from './nodeAffinity';
import {
  emptyUsage,
  nodeReadyStatus,
  INSUFFICIENT_CPU,
  INSUFFICIENT_MEMORY,
  leastAllocatedScore,
  naturalCompare,
  nodeFacts,
  placementReason,
  resourceMisfit,
  TOO_MANY_PODS,
  TAINT_NODE_UNSCHEDULABLE,
  type NodeFacts,
  type Usage,
} from './fit';
import type { Reason, Wording } from './reasons';
import { toleratesTaint } from '../../model/tolerations';
import { addTo, countingNode, movedRequests, restoredMoves, type NodeUsage } from './nodeUsage';

export { countingNode } from './nodeUsage';

export interface NodeEntry {
  name: string;
  node: NodeRecord;
  facts: NodeFacts;
  alloc: Allocatable;
  used: Usage;
  cls: NodeClass;
  /** position in natural name order among the indexed nodes */
  rank: number;
  /** the objects the class was worked out from (each is replaced, never edited in place) */
  seen: { taints: readonly Taint[]; labels: Record<string, string>; raw: KObject };
}

const seenOf = (node: NodeRecord): NodeEntry['seen'] => ({ taints: node.taints, labels: node.meta.labels, raw: node.raw });

/** The outcome of one placement: the best node (if any), and every other node's reason counted. */
export interface Placement {
  best?: NodeEntry;
  score: number;
  /** nodes that passed every filter */
  feasible: number;
  /** reason -> nodes filtered out for it (a node short of cpu and memory counts under both), by reason */
  reasons: Map<Reason, number>;
}

const PER_NODE = '\u0000per-node';
/** heaps kept per class before they are dropped and rebuilt on demand (distinct request vectors) */
const MAX_HEAPS_PER_CLASS = 32;
/** pod requirements remembered per class (distinct tolerations and placements) */
const MAX_VERDICTS_PER_CLASS = 256;

interface Slot {
  e: NodeEntry;
  score: number;
}

/** The nodes of one class with room for one request vector, best first. */
class FitHeap {
  private a: Slot[] = [];
  private pos = new Map<NodeEntry, number>();
  private misfit = new Map<NodeEntry, number>();
  /** non-fitting nodes counted by reason: too many pods, cpu, memory */
  readonly counts = [0, 0, 0];

  constructor(readonly req: Requests) {}

  get size(): number {
    return this.a.length;
  }
  peek(): Slot | undefined {
    return this.a[0];
  }

  /** Puts the node where its current usage says (in the heap, or counted as not fitting). */
  update(e: NodeEntry): void {
    const mask = resourceMisfit(this.req, e.alloc, e.used);
    this.setMisfit(e, mask);
    if (mask) {
      this.removeFromHeap(e);
      return;
    }
    const score = leastAllocatedScore(this.req, e.alloc, e.used);
    const i = this.pos.get(e);
    if (i === undefined) {
      this.a.push({ e, score });
      this.pos.set(e, this.a.length - 1);
      this.up(this.a.length - 1);
      return;
    }
    const old = this.a[i]!.score;
    this.a[i]!.score = score;
    if (score > old) this.up(i);
    else if (score < old) this.down(i);
  }

  remove(e: NodeEntry): void {
    this.setMisfit(e, 0);
    this.removeFromHeap(e);
  }

  private setMisfit(e: NodeEntry, mask: number): void {
    const old = this.misfit.get(e) ?? 0;
    if (old === mask) return;
    if (old & TOO_MANY_PODS) this.counts[0]--;
    if (old & INSUFFICIENT_CPU) this.counts[1]--;
    if (old & INSUFFICIENT_MEMORY) this.counts[2]--;
    if (mask & TOO_MANY_PODS) this.counts[0]++;
    if (mask & INSUFFICIENT_CPU) this.counts[1]++;
    if (mask & INSUFFICIENT_MEMORY) this.counts[2]++;
    if (mask) this.misfit.set(e, mask);
    else this.misfit.delete(e);
  }

  private removeFromHeap(e: NodeEntry): void {
    const i = this.pos.get(e);
    if (i === undefined) return;
    this.pos.delete(e);
    const last = this.a.pop()!;
    if (i === this.a.length) return;
    this.a[i] = last;
    this.pos.set(last.e, i);
    this.up(i);
    this.down(this.pos.get(last.e)!);
  }

  private better(x: Slot, y: Slot): boolean {
    return x.score > y.score || (x.score === y.score && x.e.rank < y.e.rank);
  }

  private up(i: number): void {
    const a = this.a,
      item = a[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.better(item, a[p]!)) break;
      a[i] = a[p]!;
      this.pos.set(a[i]!.e, i);
      i = p;
    }
    a[i] = item;
    this.pos.set(item.e, i);
  }

  private down(i: number): void {
    const a = this.a,
      n = a.length,
      item = a[i]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.better(a[c + 1]!, a[c]!)) c++;
      if (!this.better(a[c]!, item)) break;
      a[i] = a[c]!;
      this.pos.set(a[i]!.e, i);
      i = c;
    }
    a[i] = item;
    this.pos.set(item.e, i);
  }
}

class NodeClass {
  readonly nodes = new Set<NodeEntry>();
  /** pod requirement -> the reason every node of the class fails filters 1–4 for, '' (none), or PER_NODE */
  readonly verdicts = new Map<string, string>();
  readonly heaps = new Map<string, FitHeap>();

  constructor(
    readonly key: string,
    readonly facts: NodeFacts,
  ) {}

  heap(req: Requests): FitHeap {
    const k = `${req.milliCpu}/${req.memory}/${req.nonZeroMilliCpu}/${req.nonZeroMemory}`;
    let h = this.heaps.get(k);
    if (!h) {
      if (this.heaps.size >= MAX_HEAPS_PER_CLASS) this.heaps.clear();
      h = new FitHeap(req);
      for (const e of this.nodes) h.update(e);
      this.heaps.set(k, h);
    }
    return h;
  }
}

const tolerationKeys = new WeakMap<readonly Toleration[], string>();

function requirementKey(pod: PodRecord, placement: RequiredPlacement): string {
  let t = tolerationKeys.get(pod.tolerations);
  if (t === undefined) {
    t = JSON.stringify(pod.tolerations);
    tolerationKeys.set(pod.tolerations, t);
  }
  return `${t}\u0000${placement.key}`;
}

const labelKeys = new WeakMap<Record<string, string>, string>();

function classKey(f: NodeFacts, node: NodeRecord, a: Allocatable): string {
  // labels objects are replaced, never edited in place: their text is kept per object
  let labels = labelKeys.get(node.meta.labels);
  if (labels === undefined) {
    labels = sharedLabelsText(node.meta.labels);
    labelKeys.set(node.meta.labels, labels);
  }
  let taints = '';
  for (const t of f.taints) taints += `${JSON.stringify([t.key, t.value ?? '', t.effect])},`;
  return `${f.ready ? 1 : 0}${f.unschedulable ? 1 : 0}|${taints}|${a.reported ? `${a.milliCpu}/${a.memory}/${a.pods}` : '-'}|${labels}`;
}

/**
 * The reasons in one order whatever the history: they are counted class by class, and the
 * classes are in the order they were first seen, which differs between a run and the same run
 * taken up again from a checkpoint (the index is then built from the restored cluster).
 */
function byReason(reasons: Map<Reason, number>): Map<Reason, number> {
  if (reasons.size < 2) return reasons;
  return new Map([...reasons].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** How many nodes, or pods, a slice of NodeIndexBuild works through between two looks at its time. */
export const BUILD_CHUNK = 64;

export class NodeIndex {
  private entries = new Map<string, NodeEntry>();
  private classes = new Map<string, NodeClass>();

  /**
   * The index of `cluster` (undefined: an empty one, which NodeIndexBuild fills). `usage`: the sums
   * of the cluster's pods by node (the binder's, nodeUsage.ts), read instead of every pod.
   */
  constructor(cluster?: ClusterState, usage?: NodeUsage) {
    if (cluster) for (const _ of this.fill(cluster, usage));
  }

  /** The index of `cluster` made a chunk at a time (NodeIndexBuild): one pass over the nodes, then over the pods (unless `usage`). */
  static building(cluster: ClusterState, usage?: NodeUsage): { index: NodeIndex; work: Iterator<void> } {
    const index = new NodeIndex();
    return { index, work: index.fill(cluster, usage) };
  }

  private *fill(cluster: ClusterState, usage: NodeUsage | undefined): Generator<void, void, undefined> {
    let n = 0;
    for (const node of cluster.nodes.values()) {
      this.addEntry(node, usage === undefined ? emptyUsage() : usage.of(node.meta.name));
      if (++n % BUILD_CHUNK === 0) yield;
    }
    this.rerank();
    yield;
    for (const e of this.entries.values()) {
      this.joinClass(e, classKey(e.facts, e.node, e.alloc));
      if (++n % BUILD_CHUNK === 0) yield;
    }
    if (usage !== undefined) return;
    for (const pod of cluster.pods.values()) {
      const name = countingNode(pod.nodeName, pod.phase);
      const e = name === undefined ? undefined : this.entries.get(name);
      if (e) addTo(e.used, podRequests(pod), 1);
      if (++n % BUILD_CHUNK === 0) yield;
    }
  }

  get size(): number {
    return this.entries.size;
  }
  entry(name: string): NodeEntry | undefined {
    this.settle();
    return this.entries.get(name);
  }

  /**
   * Known nodes changed since their class was last worked out: it is worked out when the index is
   * next read (settle), once per node however often it changed. When a zone's nodes go Unknown,
   * each is updated twice in that pass (its status, then its taint) and nothing is placed before the
   * next one: worked out at once, that was twice 1,667 classes for nothing.
   */
  private unsettled = new Set<NodeEntry>();

  private settle(): void {
    if (this.unsettled.size === 0) return;
    for (const e of this.unsettled) this.reclassify(e);
    this.unsettled.clear();
  }

  /** A node added, replaced or changed (not a plain heartbeat). */
  nodeChanged(node: NodeRecord, cluster: ClusterState): void {
    const e = this.entries.get(node.meta.name);
    if (!e) {
      const used = emptyUsage();
      for (const key of cluster.podsByNode.get(node.meta.name) ?? []) {
        const pod = cluster.pods.get(key);
        if (pod && countingNode(pod.nodeName, pod.phase) === node.meta.name) addTo(used, podRequests(pod), 1);
      }
      const e = this.addEntry(node, used);
      // ranked before it joins a heap: the heaps order by rank
      this.rerank();
      this.joinClass(e, classKey(e.facts, node, e.alloc));
      return;
    }
    e.node = node;
    if (!this.unsettled.has(e) && this.sameClassObjects(e, node)) return;
    this.unsettled.add(e);
  }

  /**
   * Most updates leave the class as it was: the same taints, labels and status objects (replaced,
   * never edited in place), cordon and Ready status.
   */
  private sameClassObjects(e: NodeEntry, node: NodeRecord): boolean {
    return (
      node.taints === e.seen.taints &&
      node.meta.labels === e.seen.labels &&
      node.raw === e.seen.raw &&
      node.unschedulable === e.facts.unschedulable &&
      (nodeReadyStatus(node) === 'True') === e.facts.ready
    );
  }

  /** The class of the node as it is now (`e.node`), and the entry moved to it. */
  private reclassify(e: NodeEntry): void {
    const node = e.node;
    if (this.sameClassObjects(e, node)) return;
    const facts = nodeFacts(node);
    const alloc = nodeAllocatable(node);
    const key = classKey(facts, node, alloc);
    e.seen = seenOf(node);
    e.facts = facts;
    e.alloc = alloc;
    if (key === e.cls.key) return;
    this.leaveClass(e);
    this.joinClass(e, key);
  }

  nodeDeleted(name: string): boolean {
    const e = this.entries.get(name);
    if (!e) return false;
    this.unsettled.delete(e);
    this.leaveClass(e);
    this.entries.delete(name);
    return true;
  }

  /**
   * A pod's requests moved: they counted on node `was` and now count on `now` (either undefined:
   * nowhere), as the binder works out from the announcement (`countingNode` before and after).
   * They are the pod's current ones, and `reqWas` before when the record was replaced under its key
   * (an apply: in-place resize is not modelled).
   */
  podMoved(was: string | undefined, now: string | undefined, pod: PodRecord, reqWas?: Requests): void {
    movedRequests(was, now, pod, reqWas, (name, req, sign) => this.use(name, req, sign));
  }

  /**
   * This index, which is the live cluster's, made the index of `cluster` (a checkpoint put back):
   * the pods and nodes put back are given with the record each replaced (undefined: none), every
   * other one is the record the index last saw. What the index holds is the cluster's alone (usage
   * sums, classes, ranks), so the result is what `new NodeIndex(cluster)` would hold; made again,
   * it cost 5,000 nodes and 150,000 pods on every step back. `check` (tests: SimplifiedBinderOptions.checkRestoredIndex)
   * compares the result with an index made anew from the cluster and throws on a difference.
   */
  restoredTo(
    cluster: ClusterState,
    pods: ReadonlyMap<string, PodRecord | undefined>,
    nodes: ReadonlyMap<string, NodeRecord | undefined>,
    check = false,
  ): NodeIndex {
    // Not settled first: a node still owing its class (a restore just before, which put 1,667 Unknown nodes back Ready)
    // is mostly put back here again (the redo of that pass: Unknown again), and worked out once when next read. Its
    // usage moves in the heaps of the class it has until then, which it leaves whole when worked out (reclassify).
    // pods first: a node put back below counts its pods from the cluster as it joins
    restoredMoves(cluster, pods, (name, req, sign) => this.use(name, req, sign));
    for (const name of nodes.keys()) {
      const node = cluster.nodes.get(name);
      const e = this.entries.get(name);
      if (node === undefined) this.nodeDeleted(name);
      // a node put back as a copy of what the index saw (its heartbeat times aside): the same class
      else if (e !== undefined && sameClassInputs(e, node)) {
        e.node = node;
        e.seen = seenOf(node);
      } else this.nodeChanged(node, cluster);
    }
    if (check) {
      const made = new NodeIndex(cluster);
      if (made.text() !== this.text()) throw new Error('scheduler: the node index taken over on a restore differs from one made anew');
    }
    return this;
  }

  /** What the index holds in rank order (restoredTo's check; tests): ranks by order, not number (a deleted node leaves a gap) */
  text(): string {
    this.settle();
    const entries = [...this.entries.values()].sort((a, b) => a.rank - b.rank);
    return JSON.stringify(entries.map((e) => [e.name, e.cls.key, e.used, e.alloc, e.node === undefined]));
  }

  private use(name: string, req: Requests, sign: 1 | -1): void {
    const e = this.entries.get(name);
    if (!e) return;
    addTo(e.used, req, sign);
    for (const h of e.cls.heaps.values()) h.update(e);
  }

  /** The best node for the pod, and why every other node was not chosen (counts by reason). */
  place(pod: PodRecord, w: Wording): Placement {
    this.settle();
    const req = podRequests(pod);
    const placement = requiredPlacement(pod);
    const rkey = requirementKey(pod, placement);
    const reasons = new Map<Reason, number>();
    const count = (r: Reason, n: number): void => {
      if (n) reasons.set(r, (reasons.get(r) ?? 0) + n);
    };
    let best: NodeEntry | undefined;
    let bestScore = -1;
    let feasible = 0;
    const consider = (e: NodeEntry, score: number): void => {
      if (score > bestScore || (score === bestScore && best !== undefined && e.rank < best.rank)) {
        best = e;
        bestScore = score;
      }
    };
    for (const cls of this.classes.values()) {
      let v = cls.verdicts.get(rkey);
      if (v === undefined) {
        if (cls.verdicts.size >= MAX_VERDICTS_PER_CLASS) cls.verdicts.clear();
        v = placement.perNode ? (classOnlyReason(pod, cls.facts, w) ?? PER_NODE) : (placementReason(pod, placement, cls.facts, '', w) ?? '');
        cls.verdicts.set(rkey, v);
      }
      if (v === PER_NODE) {
        for (const e of cls.nodes) {
          if (!matchesPlacement(placement, e.facts.labels, e.name)) {
            count(w.affinity, 1);
            continue;
          }
          if (!e.facts.ready) {
            count(w.notReady, 1);
            continue;
          }
          const mask = resourceMisfit(req, e.alloc, e.used);
          if (mask) {
            countMask(count, mask, 1, w);
            continue;
          }
          feasible++;
          consider(e, leastAllocatedScore(req, e.alloc, e.used));
        }
        continue;
      }
      if (v !== '') {
        count(v, cls.nodes.size);
        continue;
      }
      const h = cls.heap(req);
      feasible += h.size;
      count(w.tooManyPods, h.counts[0]!);
      count(w.insufficientCpu, h.counts[1]!);
      count(w.insufficientMemory, h.counts[2]!);
      const top = h.peek();
      if (top) consider(top.e, top.score);
    }
    return { best, score: best ? bestScore : 0, feasible, reasons: byReason(reasons) };
  }

  /** A new entry, in no class yet (it joins one once ranked). */
  private addEntry(node: NodeRecord, used: Usage): NodeEntry {
    const e: NodeEntry = {
      name: node.meta.name,
      node,
      facts: nodeFacts(node),
      alloc: nodeAllocatable(node),
      used,
      cls: undefined as unknown as NodeClass,
      rank: 0,
      seen: seenOf(node),
    };
    this.entries.set(e.name, e);
    return e;
  }

  private joinClass(e: NodeEntry, key: string): void {
    let cls = this.classes.get(key);
    if (!cls) {
      cls = new NodeClass(key, e.facts);
      this.classes.set(key, cls);
    }
    e.cls = cls;
    cls.nodes.add(e);
    for (const h of cls.heaps.values()) h.update(e);
  }

  private leaveClass(e: NodeEntry): void {
    const cls = e.cls;
    cls.nodes.delete(e);
    for (const h of cls.heaps.values()) h.remove(e);
    if (cls.nodes.size === 0) this.classes.delete(cls.key);
  }

  /** Natural name order never changes between two nodes, so heaps stay valid when a node joins. */
  private rerank(): void {
    const all = [...this.entries.values()];
    // a key per name that sorts as plain text (naturalCompare breaks the rare ties of zero padding)
    const keys = new Map<NodeEntry, string>();
    for (const e of all) keys.set(e, naturalKey(e.name));
    all.sort((a, b) => {
      const x = keys.get(a)!,
        y = keys.get(b)!;
      return x < y ? -1 : x > y ? 1 : naturalCompare(a.name, b.name);
    });
    for (let i = 0; i < all.length; i++) all[i]!.rank = i;
  }
}

/** What the node's class is worked out from is the same in `node` as in what the entry saw (taints by value). */
function sameClassInputs(e: NodeEntry, node: NodeRecord): boolean {
  if (node.meta.labels !== e.seen.labels || node.raw !== e.seen.raw) return false;
  if (node.unschedulable !== e.facts.unschedulable || (nodeReadyStatus(node) === 'True') !== e.facts.ready) return false;
  const a = e.seen.taints,
    b = node.taints;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i],
      y = b[i];
    if (x.key !== y.key || x.value !== y.value || x.effect !== y.effect || x.timeAdded !== y.timeAdded) return false;
  }
  return true;
}

/** The name with each run of digits as its length and value (`n9` -> `n1:9`, `n10` -> `n2:10`): natural order as text. */
function naturalKey(name: string): string {
  return name.replace(/\d+/g, (d) => {
    const v = d.replace(/^0+(?=\d)/, '');
    return `${String.fromCharCode(0x30 + Math.min(v.length, 0xffff - 0x30))}${v}`;
  });
}

/** Filters 1–2 alone (for requirements decided node by node). */
function classOnlyReason(pod: PodRecord, facts: NodeFacts, w: Wording): Reason | undefined {
  if (facts.unschedulable && !toleratesTaint(pod.tolerations, { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' })) return w.unschedulable;
  for (const t of facts.taints) if (!toleratesTaint(pod.tolerations, t)) return w.taint(t);
  return undefined;
}

function countMask(count: (r: Reason, n: number) => void, mask: number, n: number, w: Wording): void {
  if (mask & TOO_MANY_PODS) count(w.tooManyPods, n);
  if (mask & INSUFFICIENT_CPU) count(w.insufficientCpu, n);
  if (mask & INSUFFICIENT_MEMORY) count(w.insufficientMemory, n);
}
