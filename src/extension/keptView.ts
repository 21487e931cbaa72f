/**
 * The session's view of the simulation, kept from one update to the next: the
 * items of the live records (RecordsView), the pods' countdowns (countdowns.ts)
 * and each node's pod counts (PodCounts), brought up to date by what the
 * engine reports changed. A simulation without records (tests' fakes) gets a
 * view built anew and diffed.
 */
import type { Simulation } from '../engine/simulation/api';
import type { Delta, NodeItem, NodePodCount, PodItem, ReplicaSetItem } from '../protocol/webview';
import { buildClusterView, diffClusterViews, podsOnNode, type ClusterDelta, type ClusterView, type EvictionLookup } from './viewModel';
import { RecordsView } from './recordsView';
import { countdownsChanged, EvictionIndex, PathDeadlines, podsToCompare } from './countdowns';
import { PodCounts } from './podCounts';

export class KeptView {
  /** the view last sent (or asked for by the trees) */
  private view?: ClusterView;
  /** the view of the live records, kept across steps (and across Reset: its items are compared by value) */
  readonly records = new RecordsView();
  private readonly evictions = new EvictionIndex();
  /** the pod-eviction path's countdowns (recomputed each update, compared with the last) */
  private readonly pathDeadlines = new PathDeadlines();
  private readonly podCounts = new PodCounts();

  /** The whole view, every pod's item made. */
  clusterView(sim: Simulation): ClusterView {
    if (!this.view) this.update(sim, false);
    else if (sim.cluster) this.records.completePods(sim.cluster);
    return this.view as ClusterView;
  }

  /** The nodes' items, without making the pods' items that wait (see podsOn). */
  nodeItems(sim: Simulation): ReadonlyMap<string, NodeItem> {
    if (!this.view) this.update(sim, false);
    return (this.view as ClusterView).nodes;
  }

  /** The ReplicaSets' items of the last update (the panel's rows are sent from these, see ReplicaSetWindow). */
  replicaSetItems(sim: Simulation): ReadonlyMap<string, ReplicaSetItem> {
    if (!this.view) this.update(sim, false);
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
  update(sim: Simulation, full: boolean): ClusterDelta & { podCounts: Delta<NodePodCount> } {
    const delta = this.updateItems(sim, full);
    const deferred = sim.cluster && this.records.podsPending;
    const podCounts = deferred ? this.podCounts.seed(sim.cluster!, deferred) : this.podCounts.update(this.view as ClusterView, delta.touched, full);
    return { nodes: delta.nodes, pods: delta.pods, replicaSets: delta.replicaSets, podCounts };
  }

  private updateItems(sim: Simulation, full: boolean): ClusterDelta & { touched: Set<string> | 'all' } {
    const scheduled = this.evictions.update(sim.trace);
    // taken on every update, so that it always holds what changed since the last one
    const podChanges = sim.takePodChanges?.() ?? 'all';
    const recordChanges = sim.takeRecordChanges?.();
    // taint-eviction deadlines from the trace; the pod-eviction path's from the controller's "why not", which win
    const byNode = this.pathDeadlines.update(sim, podChanges);
    const evictions: EvictionLookup = byNode.size ? { get: (ref) => byNode.get(ref) ?? scheduled.get(ref), size: byNode.size + scheduled.size } : scheduled;
    if (sim.cluster) {
      const podKeys = podsToCompare(podChanges, this.evictions.changed, this.pathDeadlines.changed);
      const changed = recordChanges && {
        ...(recordChanges.nodes !== 'all' ? { nodes: recordChanges.nodes } : {}),
        ...(recordChanges.replicaSets !== 'all' ? { replicaSets: recordChanges.replicaSets } : {}),
      };
      this.records.completeOpen(sim.cluster);
      // the open's first paint waits for no pod's item (made once the webview says it painted, or when read); a step makes
      // only the items the counts read, the others when read (a node's pods, the Cluster tree): the pass in which 1,667
      // nodes go Unknown marks 50,000 pods not ready, and making their items took 460 ms of its host part at 5,000 nodes
      const countdowns = podKeys && countdownsChanged(this.evictions.changed, this.pathDeadlines.changed);
      const delta = this.records.update(sim.cluster, evictions, full, podKeys, changed, full && !this.view, countdowns && { countdowns });
      this.view = this.records.view;
      return { ...delta, touched: this.records.takeTouchedNodes() };
    }
    const prev = full ? undefined : this.view;
    this.view = buildClusterView(sim.state(), evictions);
    return { ...diffClusterViews(prev, this.view), touched: 'all' };
  }
}
