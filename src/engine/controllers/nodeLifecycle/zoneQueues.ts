/**
 * A node that changes zone, as upstream's per-zone queues see it
 * (pkg/controller/nodelifecycle/node_lifecycle_controller.go: markNodeForTainting,
 * markNodeAsReachable, evictPods, cancelPodEviction all reach `zone...[GetZoneKey(node)]`,
 * the node's current zone; scheduler/rate_limited_queue.go: Add refuses a value only when that
 * queue's set holds it, Try keeps a released value in the set, Remove drops both). The queue of
 * the zone a node left is never told: it keeps the node and releases it on its own schedule
 * (handleDisruption even keeps the queue of a zone with no node left). The node health machine
 * takes these facts as event fields (machines.ts: heldByZoneLeft, fromZoneLeft, queuedElsewhere).
 */
import type { NodeLifecycleState } from './state';

/** Whether the queue of a zone other than `zone` holds the node, in its queue or (`setToo`) its set. */
function heldByOther(nlc: NodeLifecycleState, name: string, zone: string, setToo: boolean): boolean {
  for (const [z, q] of nlc.queues) if (z !== zone && (setToo ? q.has(name) : q.isQueued(name))) return true;
  return false;
}

/** The field of MARK_NODE_FOR_TAINTING / QUEUED_FOR_EVICTION for a node being added to `zone`'s queue. */
export function zoneLeftHolds(nlc: NodeLifecycleState, name: string, zone: string): { heldByZoneLeft?: true } {
  return heldByOther(nlc, name, zone, true) ? { heldByZoneLeft: true } : {};
}

/** The field of TAINT_PASS / EVICTION_PASS for `zone`'s queue releasing the node (its current zone is in its track). */
export function releasedByZoneLeft(nlc: NodeLifecycleState, name: string, zone: string): { fromZoneLeft?: true } {
  const current = nlc.tracks.get(name)?.zone;
  return current !== undefined && current !== zone ? { fromZoneLeft: true } : {};
}

/** The field of DEQUEUED for `zone`'s queue dropping the node: another zone's queue still has it queued. */
export function queuedInOtherZone(nlc: NodeLifecycleState, name: string, zone: string): { queuedElsewhere?: true } {
  return heldByOther(nlc, name, zone, false) ? { queuedElsewhere: true } : {};
}
