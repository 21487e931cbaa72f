/**
 * The session's view of the simulation, kept from one update to the next: the
 * items of the live records (RecordsView), the pods' countdowns (countdowns.ts)
 * and each node's pod counts (PodCounts), brought up to date by what the
 * engine reports changed. A simulation without records (tests' fakes) gets a
 * view built anew and diffed.
 *
 * The ahead simulation (runAhead.ts) has a KeptView of its own (`KeptView.ahead`), handed over with it at
 * a swap. At the shown position it takes the ahead one's change reports (the view is then the shown
 * one's, item for item); at the next pass, once the engine's preparation is done, it makes the update the
 * step onto that pass will send (`prepare`), so that the step does not: in the pass in which a zone's
 * 1,667 nodes go Unknown at 5,000 nodes (50,000 pods marked not ready), that was most of the swapped
 * step's host part. Only the records' side of the update is prepared: what depends on the panel (the
 * node and ReplicaSet windows, the filter, the open queues, the selection, the log) is made at the step,
 * so no command between the preparation and the step can make it stale; a move of the shown simulation
 * makes the ahead one align again, which drops it.
 */
import type { Simulation } from '../engine/simulation/api';
import type { ReadyKeys } from '../engine/simulation/podReports';
import type { Delta, NodeItem, NodePodCount, PodItem, ReplicaSetItem } from '../protocol/webview';
import { buildClusterView, diffClusterViews, podsOnNode, type ClusterDelta, type ClusterView, type EvictionLookup } from './viewModel';
import { RecordsView, REPLICA_SETS_PER_PIECE } from './recordsView';
import { visitPieces, type PieceList } from './pieces';
import { countdownsChanged, EvictionIndex, PathDeadlines, podsToCompare } from './countdowns';
import { PodCounts } from './podCounts';
import { positionOf, type Companion } from './runAhead';

export type KeptDelta = ClusterDelta & { podCounts: Delta<NodePodCount> };

/** An update of a view that stands where it was made (a start whose simulation is being made: swapAtOpen.ts). */
export const noChange = (): KeptDelta => ({
  nodes: { upsert: [], remove: [] },
  pods: { upsert: [], remove: [] },
  replicaSets: { upsert: [], remove: [] },
  podCounts: { upsert: [], remove: [] },
});

export class KeptView {
  /** The ahead simulation's views (see the header). */
  static readonly ahead: Companion<KeptView> = {
    make: () => new KeptView(),
    align: (sim, kept, more) => kept.alignSlice(sim, more),
    // the update first (what the step will need), then the pods' items the first alignment left out
    prepare: (sim, kept, more) => (kept.prepare(sim), kept.completeSlice(sim, more)),
  };

  /** the view last sent (or asked for by the trees) */
  private view?: ClusterView;
  /** the view of the live records, kept across steps (and across Reset: its items are compared by value) */
  readonly records = new RecordsView();
  private readonly evictions = new EvictionIndex();
  /** the pod-eviction path's countdowns (recomputed each update, compared with the last) */
  private readonly pathDeadlines = new PathDeadlines();
  private readonly podCounts = new PodCounts();
  /** an update made ahead of the step (prepare), at the simulation's position then */
  private prepared?: { at: string | undefined; delta: KeptDelta };
  /**
   * The nodes' pod counts are counted from the records (not the pods' items) at the next update: some pods' items
   * waited at the last one (RecordsView.podsPending), so the items may not hold every pod the counts sent did.
   */
  private countFromRecords = false;
  /**
   * The ReplicaSets an alignment's update was told changed and left to its next slices (alignSlice), and how many of them
   * are visited; any update before they are all visited visits the rest with its own.
   */
  private owed?: PieceList<string>;
  /** how many updates were answered by a prepared one (tests) */
  preparedUsed = 0;

  /** Makes the update a step onto this position will ask for (the change reports are taken now); the next update at this position gives it. */
  prepare(sim: Simulation): void {
    if (this.prepared && this.prepared.at === positionOf(sim)) return;
    this.prepared = { at: positionOf(sim), delta: this.update(sim, false) };
  }

  /**
   * An update whose delta is dropped (the ahead simulation's alignment), a slice at a time; true while work is left.
   * The first one makes the whole view: as at the open, the pods' items wait; before the first pass they are made by
   * completeSlice once the next pass is prepared (at 5,000 nodes 150,000 items are 0.4 s, which the first step after
   * open waited for).
   */
  alignSlice(sim: Simulation, more: () => boolean, podsPerPiece?: number, replicaSetsPerPiece = REPLICA_SETS_PER_PIECE): boolean {
    if (!this.view && sim.cluster) {
      this.update(sim, true);
      if (!more()) return true;
    }
    // past the first pass (run-ahead turned on again mid-run) the items are made before the alignment's update, as before:
    // only the open's first pass is waited for; the update in a slice of its own (after a Run Until of 35 passes at 5,000
    // nodes it is 60-370 ms, which the items' last piece made one slice with)
    if (sim.pass !== null) {
      const waiting = this.podsWaiting;
      if (this.completeSlice(sim, more, podsPerPiece) || (waiting && !more())) return true;
    }
    // the reports are taken here, not answered by an update prepared at an earlier visit of this position (a step's,
    // before a step back: the run-ahead's restore in parts may bring it back here with the shown one). The ReplicaSets they
    // name are visited in pieces after it (after a Run Until of 35 passes at 5,000 nodes, 9,000 of them were 36-47 ms of
    // a 60-70 ms update); then the reports are taken again, so that the view ends at the position it stands on then.
    for (;;) {
      if (this.owed) {
        if (this.owedSlice(sim, more, replicaSetsPerPiece) || !more()) return true;
      }
      this.prepared = undefined;
      this.update(sim, false, true);
      if (!this.owed) return false;
      if (!more()) return true;
    }
  }

  /** The owed ReplicaSets visited a piece at a time while `more()` says so; true while some are left. */
  private owedSlice(sim: Simulation, more: () => boolean, perPiece: number): boolean {
    const left = visitPieces(this.owed!, perPiece, more, (piece) => {
      if (sim.cluster) this.records.replicaSetsOnly(sim.cluster, piece);
    });
    if (left) return true;
    this.owed = undefined;
    return false;
  }

  /** Whether an update is prepared (for the step onto the simulation's position). */
  get hasPrepared(): boolean {
    return this.prepared !== undefined;
  }

  /**
   * Whether pods' items of the view's first update wait (completeSlice). Not the Ready-only changes it marks stale after
   * them: the owed work takes those (panelOwedWork), a read puts them in anyway, so they keep no idle work going.
   */
  get podsWaiting(): boolean {
    return this.records.podsPending !== undefined;
  }

  /** The pods reported changed by Ready writes alone marked stale a slice at a time (RecordsView.flushStaleSlice); true while some are left. */
  flushStaleSlice(more: () => boolean): boolean {
    return this.records.flushStaleSlice(more);
  }

  /**
   * The pods' items the view's first update left out, made a slice at a time (`podsPerPiece` a piece), then the pods
   * changed by Ready writes alone marked stale (RecordsView.flushStaleSlice); true while some wait. The updates meanwhile
   * do not wait for them (see countFromRecords).
   */
  completeSlice(sim: Simulation, more: () => boolean, podsPerPiece?: number): boolean {
    if (sim.cluster === undefined) return false;
    if (this.records.completeOpenSlice(sim.cluster, more, podsPerPiece)) return true;
    return this.records.staleListedPods > 0 && more() && this.records.flushStaleSlice(more);
  }

  /** The whole view, every pod's item made. */
  clusterView(sim: Simulation): ClusterView {
    if (!this.view) this.update(sim, false);
    else if (sim.cluster) this.records.completePods(sim.cluster);
    return this.view as ClusterView;
  }

  /** Whether the view was made (by an update). */
  get hasView(): boolean {
    return this.view !== undefined;
  }

  /** The nodes' items, without making the pods' items that wait (see podsOn). `sim` is only asked for when no view was made yet. */
  nodeItems(sim: () => Simulation): ReadonlyMap<string, NodeItem> {
    if (!this.view) this.update(sim(), false);
    return (this.view as ClusterView).nodes;
  }

  /** The ReplicaSets' items of the last update (the panel's rows are sent from these, see ReplicaSetWindow); `sim` as nodeItems'. */
  replicaSetItems(sim: () => Simulation): ReadonlyMap<string, ReplicaSetItem> {
    if (!this.view) this.update(sim(), false);
    return (this.view as ClusterView).replicaSets;
  }

  /** A node's pods' items, sorted by ref: only that node's are brought up to date. */
  podsOn(sim: Simulation, node: string): PodItem[] {
    if (!this.view) this.update(sim, false);
    return sim.cluster ? this.records.podsOn(sim.cluster, node) : podsOnNode(this.view as ClusterView, node);
  }

  /** A pod's item, up to date. */
  podItem(sim: Simulation, ref: string): PodItem | undefined {
    if (!this.view) this.update(sim, false);
    return sim.cluster ? this.records.pod(sim.cluster, ref) : (this.view as ClusterView).pods.get(ref);
  }

  /** Brings the view up to date: what changed since it was last brought up to date, and the nodes' pod counts that changed. */
  update(sim: Simulation, full: boolean, oweReplicaSets = false): KeptDelta {
    // the prepared update, made at this position, is what changed since the last one (its reports were taken then); a
    // full update is everything anyway. Elsewhere it was dropped without being sent, and this view stands at its position.
    const prepared = this.prepared;
    this.prepared = undefined;
    if (prepared && !full && prepared.at === positionOf(sim)) {
      this.preparedUsed++;
      return prepared.delta;
    }
    const delta = this.updateItems(sim, full, oweReplicaSets);
    const waiting = sim.cluster && this.records.podsPending;
    let podCounts: Delta<NodePodCount>;
    if (sim.cluster && (waiting || this.countFromRecords)) {
      // once more after the last item was made: the items made since touched every node with pods, and one walk over the
      // records (a few ms at 150,000 pods) is cheaper than listing each node's items
      podCounts = this.podCounts.fromRecords(sim.cluster, delta.evictions, full, delta.countingDown);
      this.countFromRecords = waiting !== undefined;
    } else podCounts = this.podCounts.update(this.view as ClusterView, delta.touched, full);
    return { nodes: delta.nodes, pods: delta.pods, replicaSets: delta.replicaSets, podCounts };
  }

  /**
   * The ReplicaSets an update visits: those reported changed and those still owed (alignSlice), or, for an alignment's
   * (`owe`), none: the reported ones are owed, to the slices after it.
   */
  private replicaSetsNow(reported: ReadonlySet<string>, full: boolean, owe: boolean): Iterable<string> {
    const owed = this.owed;
    if (full) return reported;
    if (owe && !this.view) return reported;
    if (owe) {
      if (!reported.size) return [];
      const keys = owed ? owed.keys.slice(owed.done) : [];
      for (const key of reported) keys.push(key);
      this.owed = { keys, done: 0 };
      return [];
    }
    if (!owed) return reported;
    this.owed = undefined;
    const keys = new Set(owed.keys.slice(owed.done));
    for (const key of reported) keys.add(key);
    return keys;
  }

  private updateItems(
    sim: Simulation,
    full: boolean,
    oweReplicaSets: boolean,
  ): ClusterDelta & { touched: Set<string> | 'all'; evictions: EvictionLookup; countingDown: ReadonlyMap<string, unknown>[] } {
    const scheduled = this.evictions.update(sim.trace);
    // taken on every update, so that it always holds what changed since the last one
    // the pods changed by Ready writes alone apart: they go stale without a look-up each (RecordsView.update)
    const apart: { ready?: ReadyKeys } = {};
    const podChanges = sim.takePodChanges?.(apart) ?? 'all';
    const recordChanges = sim.takeRecordChanges?.();
    // taint-eviction deadlines from the trace; the pod-eviction path's from the controller's "why not", which win
    const byNode = this.pathDeadlines.update(sim, podChanges);
    const evictions: EvictionLookup = byNode.size ? { get: (ref) => byNode.get(ref) ?? scheduled.get(ref), size: byNode.size + scheduled.size } : scheduled;
    if (sim.cluster) {
      let podKeys = podsToCompare(podChanges, this.evictions.changed, this.pathDeadlines.changed);
      const changed = recordChanges && {
        ...(recordChanges.nodes !== 'all' ? { nodes: recordChanges.nodes } : {}),
        ...(recordChanges.replicaSets !== 'all' ? { replicaSets: this.replicaSetsNow(recordChanges.replicaSets, full, oweReplicaSets) } : {}),
      };
      // every ReplicaSet visited (no report, or all of them): none is owed
      if (!changed?.replicaSets || full) this.owed = undefined;
      // the open's first paint waits for no pod's item, nor do the steps after it (they are made in idle slices, or when
      // read: a node's pods, the Cluster tree; meanwhile a changed pod without an item is left to the making, which
      // reads the records then); a step makes only the items the counts read, the others when read: the pass in which
      // 1,667 nodes go Unknown marks 50,000 pods not ready, and making their items took 460 ms of its host part at 5,000 nodes
      if (podKeys && this.records.podsPending) podKeys = this.records.withItems(podKeys);
      const countdowns = podKeys && countdownsChanged(this.evictions.changed, this.pathDeadlines.changed);
      const lazy = countdowns && { countdowns, ready: apart.ready };
      // a view that makes every item now reads the Ready-only ones with the others
      if (podKeys && !lazy && apart.ready?.length) podKeys = new Set([...podKeys, ...apart.ready.flat()]);
      const delta = this.records.update(sim.cluster, evictions, full, podKeys, changed, full && !this.view, lazy);
      this.view = this.records.view;
      return { ...delta, touched: this.records.takeTouchedNodes(), evictions, countingDown: [byNode, scheduled] };
    }
    const prev = full ? undefined : this.view;
    this.view = buildClusterView(sim.state(), evictions);
    return { ...diffClusterViews(prev, this.view), touched: 'all', evictions, countingDown: [byNode, scheduled] };
  }
}
