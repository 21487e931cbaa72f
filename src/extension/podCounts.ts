/**
 * What the webview was last told of each node's pods (PodCounts), and which
 * counts changed since.
 */
import type { ClusterState } from '../engine/model/cluster';
import type { Delta, NodePodCount, PodItem } from '../protocol/webview';
import { evictionOf, podsOnNode, type ClusterView, type EvictionLookup } from './viewModel';

/**
 * What each node's row was last told of its pods (NodePodCount), and which counts changed: only the
 * nodes whose pods changed are counted again. A node with no pods has no entry (removed when it
 * had one).
 */
export class PodCounts {
  private readonly sent = new Map<string, NodePodCount>();

  /**
   * The first update's counts, read from the records: the pods' items are made after the first paint (RecordsView's
   * deferPods), and then counted again by `update`, which finds them as sent. The same counts as `update` makes.
   */
  seed(cluster: ClusterState, evictions: EvictionLookup): Delta<NodePodCount> {
    const counts = new Map<string, NodePodCount>();
    for (const p of cluster.pods.values()) {
      const node = p.nodeName;
      if (!node) continue; // pending pods have no row
      let c = counts.get(node);
      if (!c) counts.set(node, (c = { ref: `Node/${node}`, pods: 0, evicting: 0 }));
      c.pods++;
      if (evictions.size && evictionOf(`Pod/${p.meta.namespace}/${p.meta.name}`, node, evictions)) c.evicting++;
    }
    this.sent.clear();
    for (const c of counts.values()) this.sent.set(c.ref, c);
    return { upsert: [...counts.values()], remove: [] };
  }

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
      const pods = grouped ? (grouped.get(node) ?? []) : podsOnNode(view, node);
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
