/**
 * The binder's node index (nodeIndex.ts) made in slices, for a caller with idle time that must stay
 * responsive (the panel: one slice per macrotask, so that a click is answered between two).
 */
import type { ClusterState } from '../../model/cluster';
import { NodeIndex } from './nodeIndex';
import type { NodeUsage } from './nodeUsage';

/**
 * The result is the index `new NodeIndex(cluster, usage)` makes, as long as the cluster does not change
 * before it is done: its owner (the binder) drops the build on any change it is told of, and a
 * restore makes a new binder.
 */
export class NodeIndexBuild {
  private readonly index: NodeIndex;
  private readonly work: Iterator<void>;

  constructor(
    readonly cluster: ClusterState,
    usage?: NodeUsage,
  ) {
    ({ index: this.index, work: this.work } = NodeIndex.building(cluster, usage));
  }

  /** Works a chunk at a time while `more()` says so (at least one chunk); the index once done, else undefined. */
  slice(more: () => boolean): NodeIndex | undefined {
    do if (this.work.next().done) return this.index;
    while (more());
    return undefined;
  }

  /** The rest at once. */
  finish(): NodeIndex {
    while (!this.work.next().done);
    return this.index;
  }
}
