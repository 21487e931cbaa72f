/**
 * The kubelets' states in a checkpoint, and back (Kubelets.save, Kubelets.restore).
 */
import type { MinHeap } from '../simulation/heap';
import { type KubeletColumns, NEVER, NO_REPOST, UNKNOWN } from './state';
import type { PostedCondition } from './nodestatus';

/** per kubelet in a checkpoint: 8 a repost is pending (beside the columns' STATUS, LEASE, POSTED) */
const REPOST = 8;

export interface SavedKubelets {
  /** in the slots' order */
  nodes: readonly string[];
  /** per kubelet: the columns' flags, and REPOST */
  flags: Uint8Array;
  anchor: Float64Array;
  lastPost: Float64Array;
  leaseAnchor: Float64Array;
  lastRenew: Float64Array;
  /** 0 when none is pending */
  repostAt: Float64Array;
  desired: PostedCondition[][];
  reposts: Parameters<MinHeap<string>['restore']>[0];
  nextPlain: number;
}

/**
 * The columns copied (see KubeletColumns): the kubelets' times are numbers in typed arrays, copied as
 * such. `nodes`: the slots' names (shared with the previous save when the same).
 */
export function saveStates(cols: KubeletColumns, nodes: readonly string[], reposts: SavedKubelets['reposts'], nextPlain: number): SavedKubelets {
  const n = cols.size;
  const flags = cols.flags.slice(0, n);
  const repostAt = cols.repostAt.slice(0, n);
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(repostAt[i])) repostAt[i] = 0;
    else flags[i] |= REPOST;
  }
  return {
    nodes,
    flags,
    anchor: cols.anchor.slice(0, n),
    lastPost: cols.lastPost.slice(0, n),
    leaseAnchor: cols.leaseAnchor.slice(0, n),
    lastRenew: cols.lastRenew.slice(0, n),
    repostAt,
    // each list replaced, never edited in place: shared with the checkpoint
    desired: cols.desired.slice(0, n),
    reposts,
    nextPlain,
  };
}

/** Whether the slots are those of `nodes`, in that order (a restore with no node added or deleted since). */
export function sameNodes(cols: KubeletColumns, nodes: readonly string[]): boolean {
  if (cols.size !== nodes.length) return false;
  const names = cols.names;
  for (let i = 0; i < nodes.length; i++) if (names[i] !== nodes[i]) return false;
  return true;
}

/**
 * The saved states written into the columns: in place when they are of the same nodes in the same
 * order (sameNodes: the names and their index are kept), else the slots made anew in the saved
 * order. Each slot ends with `due` unknown (and the grid times it guards none) and no Lease record
 * cached (the restore may have put back another).
 */
export function writeStates(cols: KubeletColumns, s: SavedKubelets): void {
  const n = s.nodes.length;
  if (!sameNodes(cols, s.nodes)) {
    cols.clear(n);
    for (let i = 0; i < n; i++) {
      cols.names[i] = s.nodes[i];
      cols.index.set(s.nodes[i], i);
    }
    cols.size = n;
  }
  for (let i = 0; i < n; i++) {
    const f = s.flags[i];
    cols.flags[i] = f & ~REPOST;
    cols.repostAt[i] = (f & REPOST) !== 0 ? s.repostAt[i] : NO_REPOST;
    cols.leaseRecord[i] = undefined;
  }
  cols.anchor.set(s.anchor);
  cols.lastPost.set(s.lastPost);
  cols.leaseAnchor.set(s.leaseAnchor);
  cols.lastRenew.set(s.lastRenew);
  cols.due.fill(UNKNOWN, 0, n);
  cols.nextPost.fill(NEVER, 0, n);
  cols.nextRenew.fill(NEVER, 0, n);
  cols.desired = s.desired.slice();
  cols.leaseRecord.length = n;
}
