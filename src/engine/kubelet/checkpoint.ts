/**
 * The kubelets' states in a checkpoint, and back (Kubelets.save, Kubelets.restore).
 */
import type { MinHeap } from '../simulation/heap';
import { kubeletState, NEVER, UNKNOWN, type KubeletState } from './state';
import type { PostedCondition } from './nodestatus';

/** The numbers kept per kubelet in a checkpoint: anchor, lastPost, leaseAnchor, lastRenew, repostAt. */
const TIMES = 5;

export interface SavedKubelets {
  /** in the states' order */
  nodes: readonly string[];
  /** per state: 1 status, 2 lease, 4 posted, 8 a repost is pending */
  flags: Uint8Array;
  /** per state, TIMES numbers */
  times: Float64Array;
  desired: PostedCondition[][];
  reposts: Parameters<MinHeap<string>['restore']>[0];
  nextPlain: number;
}

/**
 * The states in columns (see SavedKubelets): a checkpoint at 5,000 nodes held 5,000 state
 * objects, and every one had changed since the last (renewals), so none could be shared.
 * `nodes`: the states' keys (shared with the previous save when the same).
 */
export function saveStates(
  states: ReadonlyMap<string, KubeletState>,
  nodes: readonly string[],
  reposts: SavedKubelets['reposts'],
  nextPlain: number,
): SavedKubelets {
  const n = states.size;
  let i = 0;
  const flags = new Uint8Array(n);
  const times = new Float64Array(n * TIMES);
  const desired: PostedCondition[][] = new Array(n);
  for (const st of states.values()) {
    flags[i] = (st.status ? 1 : 0) | (st.lease ? 2 : 0) | (st.posted ? 4 : 0) | (st.repostAt !== undefined ? 8 : 0);
    const t = i * TIMES;
    times[t] = st.anchor;
    times[t + 1] = st.lastPost;
    times[t + 2] = st.leaseAnchor;
    times[t + 3] = st.lastRenew;
    times[t + 4] = st.repostAt ?? 0;
    // replaced, never edited in place: shared with the checkpoint
    desired[i] = st.desired;
    i++;
  }
  return { nodes, flags, times, desired, reposts, nextPlain };
}

/** Whether the states are those of `nodes`, in that order (a restore with no node added or deleted since). */
export function sameNodes(states: ReadonlyMap<string, KubeletState>, nodes: readonly string[]): boolean {
  if (states.size !== nodes.length) return false;
  let i = 0;
  for (const name of states.keys()) if (nodes[i++] !== name) return false;
  return true;
}

/**
 * The saved states written into the live ones, which are of the same nodes in the same order
 * (sameNodes): 5,000 states and their map made anew on every restore at 5,000 nodes. Each ends as
 * statesFrom makes it: `posted` and `repostAt` undefined rather than absent (read only as values),
 * `due` unknown (and the grid times it guards none) and no Lease record cached (the restore may have put back another).
 */
export function writeStates(states: ReadonlyMap<string, KubeletState>, s: SavedKubelets): void {
  let i = 0;
  for (const st of states.values()) {
    const f = s.flags[i],
      t = i * TIMES;
    st.status = (f & 1) !== 0;
    st.lease = (f & 2) !== 0;
    st.desired = s.desired[i];
    st.anchor = s.times[t];
    st.lastPost = s.times[t + 1];
    st.leaseAnchor = s.times[t + 2];
    st.lastRenew = s.times[t + 3];
    st.due = UNKNOWN;
    st.nextPost = NEVER;
    st.nextRenew = NEVER;
    st.posted = (f & 4) !== 0 ? true : undefined;
    st.repostAt = (f & 8) !== 0 ? s.times[t + 4] : undefined;
    st.leaseRecord = undefined;
    i++;
  }
}

/** The saved states made anew. */
export function statesFrom(s: SavedKubelets): Map<string, KubeletState> {
  const states = new Map<string, KubeletState>();
  for (let i = 0; i < s.nodes.length; i++) {
    const f = s.flags[i],
      t = i * TIMES;
    const st = kubeletState(
      s.nodes[i],
      (f & 1) !== 0,
      (f & 2) !== 0,
      s.desired[i],
      s.times[t],
      s.times[t + 1],
      s.times[t + 2],
      s.times[t + 3],
      (f & 4) !== 0 ? true : undefined,
      (f & 8) !== 0 ? s.times[t + 4] : undefined,
    );
    states.set(st.node, st);
  }
  return states;
}
