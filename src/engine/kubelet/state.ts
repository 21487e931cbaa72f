/**
 * What the simulation keeps per kubelet (Kubelets' states).
 */
import type { Micros } from '../model/time';
import type { LeaseRecord } from '../model/types';
import type { PostedCondition } from './nodestatus';

/** KubeletState.due when not known */
export const UNKNOWN = Number.NEGATIVE_INFINITY;
/** a time that never comes (no post or renewal due) */
export const NEVER = Number.POSITIVE_INFINITY;

export interface KubeletState {
  node: string;
  /** posting status */
  status: boolean;
  /** renewing the Lease (meaningful when leases are on) */
  lease: boolean;
  /** what it posts */
  desired: PostedCondition[];
  /** plain posts fall on anchor + k·P (k ≥ 1) */
  anchor: Micros;
  /** the last post written into the node record (the anchor until the first post) */
  lastPost: Micros;
  /** whether it has posted during the simulation */
  posted?: boolean;
  leaseAnchor: Micros;
  lastRenew: Micros;
  /** a pending repost (the API's conditions differ from `desired`) */
  repostAt?: Micros;
  /**
   * The node's Lease record as last renewed: a cache, so that a renewal (1.8
   * million an hour at 5,000 nodes) does not look the Lease up in a map of
   * 5,000 (that look-up was the renewal's main cost: a cache miss each time).
   * Valid because Lease records are replaced only by the world's apply and
   * delete, which call `forgetLease`, and by a checkpoint restore, which
   * rebuilds the states without it.
   */
  leaseRecord?: LeaseRecord;
  /**
   * Before this time `materialise` has nothing to write for this kubelet: its next plain post's
   * and next renewal's grid times, as the last `materialise` that looked at it found them (NEVER:
   * neither). -Infinity when unknown: every change of the kubelet's timing (status, lease, anchors,
   * lastPost, lastRenew) outside `materialise` resets it (post, renew, stop; new and restored
   * states start without it). A `materialise` (all 5,000 kubelets every 10 s at 5,000 nodes)
   * then passes over a kubelet with nothing due with one comparison instead of two divisions.
   */
  due?: Micros;
  /**
   * The next plain post's and the next renewal's grid times as the same `materialise` found them
   * (NEVER: none); read only while `due` is known (nothing moved the kubelet's timing since). The
   * next `materialise` then takes its grid points from them: a division per timer is the
   * renewal's dearest step otherwise.
   */
  nextPost: Micros;
  nextRenew: Micros;
}

/**
 * Every state is made here, with all its fields (Kubelets.addNode, a checkpoint's restore): a
 * field added later (the first post's `posted`, a pending repost, the cached Lease) gave the
 * state another make in the middle of the run, and `materialise`, which reads all 5,000
 * states every 10 s, was compiled again for each (model/records.ts).
 */
export function kubeletState(
  node: string,
  status: boolean,
  lease: boolean,
  desired: PostedCondition[],
  anchor: Micros,
  lastPost: Micros,
  leaseAnchor: Micros,
  lastRenew: Micros,
  posted: boolean | undefined,
  repostAt: Micros | undefined,
): KubeletState {
  return {
    node,
    status,
    lease,
    desired,
    anchor,
    lastPost,
    posted,
    leaseAnchor,
    lastRenew,
    repostAt,
    leaseRecord: undefined,
    due: UNKNOWN,
    nextPost: NEVER,
    nextRenew: NEVER,
  };
}
