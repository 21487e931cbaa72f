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
   * The counts read from the records, as `update` counts the pods' items (the pods counting down are those of the maps
   * `countingDown`, which `evictions` looks up), and those that changed since the last sent
   * (`full`: every count, as for a new webview). While pods' items wait to be made (RecordsView's deferPods: after the
   * open, until idle slices or a read made them), the items cannot be counted.
   */
  fromRecords(
    cluster: ClusterState,
    evictions: EvictionLookup,
    full: boolean,
    countingDown: readonly ReadonlyMap<string, unknown>[] = [],
  ): Delta<NodePodCount> {
    // by the engine's index of pod keys by node, not pod by pod: a walk over 150,000 pods was 50-130 ms of each step
    // while the items waited (the webview bench at load 8)
    const counts = new Map<string, NodePodCount>();
    for (const [node, keys] of cluster.podsByNode) {
      if (!node || !keys.size) continue; // pending pods have no row
      counts.set(node, { ref: `Node/${node}`, pods: keys.size, evicting: 0 });
    }
    // the pods counting down, from the maps `evictions` reads (pod refs; a ref in two maps counted once): 50,000 in an
    // outage of a zone, where every pod's look-up was 100 ms and more an update
    if (evictions.size)
      for (let i = 0; i < countingDown.length; i++) {
        for (const ref of countingDown[i].keys()) {
          let counted = false;
          for (let j = 0; j < i && !counted; j++) counted = countingDown[j].has(ref);
          const node = counted ? undefined : cluster.pods.get(ref.slice(4))?.nodeName;
          const c = node ? counts.get(node) : undefined;
          if (c && evictionOf(ref, node!, evictions)) c.evicting++;
        }
      }
    if (full) this.sent.clear();
    const upsert: NodePodCount[] = [];
    const remove: string[] = [];
    for (const c of counts.values()) {
      const u = this.send(c, full);
      if (u) upsert.push(u);
    }
    for (const ref of this.sent.keys()) if (!counts.has(ref.slice(5))) remove.push(ref);
    for (const ref of remove) this.sent.delete(ref);
    return { upsert, remove };
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
      const u = this.send({ ref, pods: pods.length, evicting }, full);
      if (u) upsert.push(u);
    }
    return { upsert, remove };
  }

  /** The count to send for its node: undefined when the webview holds it already (`full`: it holds nothing, send it). */
  private send(count: NodePodCount, full: boolean): NodePodCount | undefined {
    const old = this.sent.get(count.ref);
    if (old && old.pods === count.pods && old.evicting === count.evicting) return full ? old : undefined;
    this.sent.set(count.ref, count);
    return count;
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
