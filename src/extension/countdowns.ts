/**
 * Each pod's eviction countdown, kept from one update to the next: the
 * taint-eviction controller's scheduled evictions (EvictionIndex, from the
 * trace) and the pod-eviction path's (PathDeadlines, from the controller's
 * "why not"), and which pods' countdowns changed (podsToCompare).
 */
import type { Simulation } from '../engine/simulation/api';
import type { ClusterState } from '../engine/model/cluster';
import type { DecisionList } from '../engine/trace/decisionLog';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Pending taint-based evictions as the taint-eviction controller scheduled
 * them: the latest PodEvictionScheduled of each pod (its `details.deadline`)
 * unless a PodEvictionCancelled or PodEvicted came after it. Incremental: it
 * reads only the decisions added since the last call; a step back (the trace
 * cut back to a part of what was read) undoes only the changes of the
 * decisions it took off; another trace is read again from its start.
 */
export class EvictionIndex {
  private readonly pending = new Map<string, Pending>();
  private seen = 0;
  private lastSeq = 0;
  /** the seq of each decision read, by its index: tells a trace cut back from another one */
  private seqs: number[] = [];
  /**
   * Each change to `pending`, in the trace's order, with the entry it replaced: a step back after the pods' evictions were
   * scheduled read the whole trace again (50,000 PodEvictionScheduled at 5,000 nodes) and reported every pod changed
   */
  private readonly undo: { i: number; ref: string; was: Pending | undefined }[] = [];
  /** the pod refs whose entry the last update set or removed; 'all' on the first update */
  changed: Set<string> | 'all' = 'all';

  update(trace: DecisionList): Map<string, Pending> {
    const n = trace.length;
    const extended = this.seen === 0 || (n >= this.seen && trace.at(this.seen - 1)?.seq === this.lastSeq);
    const cutBack = !extended && n < this.seen && (n === 0 || trace.at(n - 1)!.seq === this.seqs[n - 1]);
    const first = this.seen === 0;
    const changed = new Set<string>();
    if (cutBack) {
      // the entries as they were after decision n-1: the changes of the decisions taken off undone, newest first
      const before = new Map<string, Pending | undefined>();
      while (this.undo.length && this.undo[this.undo.length - 1].i >= n) {
        const u = this.undo.pop()!;
        if (!before.has(u.ref)) before.set(u.ref, this.pending.get(u.ref));
        if (u.was) this.pending.set(u.ref, u.was);
        else this.pending.delete(u.ref);
      }
      for (const [ref, was] of before) if (!samePending(was, this.pending.get(ref))) changed.add(ref);
      this.seqs.length = n;
      this.seen = n;
    } else if (!extended) {
      // another trace (a what-if's re-run): read again, and report the entries that differ (not 'all': that compared 150,000 pods)
      const before = new Map(this.pending);
      this.pending.clear();
      this.undo.length = 0;
      this.seqs.length = 0;
      this.seen = 0;
      this.read(trace, new Set());
      for (const [ref, was] of before) if (!samePending(was, this.pending.get(ref))) changed.add(ref);
      for (const ref of this.pending.keys()) if (!before.has(ref)) changed.add(ref);
    }
    this.read(trace, changed);
    this.changed = first ? 'all' : changed;
    this.lastSeq = n ? trace.at(n - 1)!.seq : 0;
    return this.pending;
  }

  /** Reads the decisions from `seen` on, noting each change (and its undo). */
  private read(trace: DecisionList, changed: Set<string>): void {
    for (let i = this.seen; i < trace.length; i++) {
      const d = trace.at(i)!;
      this.seqs.push(d.seq);
      if (d.action === 'PodEvictionScheduled') {
        const deadline = str(d.details?.deadline);
        if (deadline) {
          this.undo.push({ i, ref: d.object, was: this.pending.get(d.object) });
          this.pending.set(d.object, { at: deadline, node: str(d.details?.node) });
          changed.add(d.object);
        }
      } else if (d.action === 'PodEvictionCancelled' || d.action === 'PodEvicted') {
        const was = this.pending.get(d.object);
        if (was) {
          this.undo.push({ i, ref: d.object, was });
          this.pending.delete(d.object);
          changed.add(d.object);
        }
      }
    }
    this.seen = trace.length;
  }
}

type Pending = { at: string; node: string };

const samePending = (a: Pending | undefined, b: Pending | undefined): boolean => a === b || (!!a && !!b && a.at === b.at && a.node === b.node);

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
const NO_CHANGES: ReadonlySet<string> = new Set();

/** The refs of a node's pods the pod-eviction path deletes: the engine's (DeletePods' rule: not DaemonSet pods by selector, not pods being deleted). */
function podsWithCountdown(sim: PathSim, node: string): string[] {
  return (sim.podsEvictedFrom?.(node) ?? []).map((key) => `Pod/${key}`);
}

/** The keys of the pods whose countdown appeared, went or moved since the last update (EvictionIndex.changed and PathDeadlines.changed). */
export function countdownsChanged(evictionChanges: ReadonlySet<string> | 'all', pathChanges: ReadonlySet<string>): ReadonlySet<string> {
  const keys = new Set(pathChanges);
  if (evictionChanges !== 'all') for (const ref of evictionChanges) if (ref.startsWith('Pod/')) keys.add(ref.slice(4));
  return keys;
}

/**
 * The keys of the only pods whose items may be out of date since the last update: pod records
 * created, changed or deleted (the engine's takePodChanges), pods whose scheduled eviction
 * changed (EvictionIndex.changed) and pods whose pod-eviction path countdown appeared, went or
 * moved (PathDeadlines). Undefined, to compare every pod, when the engine or the index could not
 * say (a step back, a new view).
 */
export function podsToCompare(
  podChanges: ReadonlySet<string> | 'all',
  evictionChanges: ReadonlySet<string> | 'all',
  pathChanges: ReadonlySet<string>,
): ReadonlySet<string> | undefined {
  if (podChanges === 'all' || evictionChanges === 'all') return undefined;
  // the engine's set as it is when nothing is added (a copy of 50,000 keys in the pass a zone goes Unknown)
  let adds = pathChanges.size > 0;
  for (const ref of evictionChanges) if (ref.startsWith('Pod/')) adds = true;
  if (!adds) return podChanges;
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
    const deadlines = pathNodes(sim);
    // no countdown now nor before (taint-based evictions): nothing to look at, whatever changed
    if (!deadlines.size && !this.byNode.size) {
      this.changed = NO_CHANGES;
      return this.byRef;
    }
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
