/**
 * A why-not of a pod's deletion by the taint eviction controller (or 1.12's pod eviction) that names
 * a time when the timeline scales the pod's ReplicaSet down by then: the ReplicaSet controller's
 * sync at that scale deletes pods first (manageReplicas / getPodsToDelete ranks the not-ready ones
 * and those on failing nodes first), and may delete this one before its eviction. Such an answer
 * keeps its checks and names no time, the scale as what makes it uncertain: a wrong time is worse
 * than none (the hunt's seed 17: a pod said evicted at +9m under a timeline Ready=False, deleted by
 * the scale to 9 at the same instant).
 */
import { controllerOf } from '../controllers/replicaSet/podUtil';
import type { ClusterState } from '../model/cluster';
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import { nsKey } from '../model/types';
import { withoutTime, type WhyNot, type WhyNotCheck, type WhyNotWorld } from '../trace/whyNot';

/**
 * The timeline's scales of the ReplicaSet `key` ahead, in order, each with the spec it scales from (the scale's before
 * it, or `spec`, the one of now): a scale down and up again is a scale up. The one reading of them for the evictions
 * (readScaleDown) and the replacement's chain to them (explain.ts).
 */
export function scalesAhead(world: WhyNotWorld, key: string, spec: number): { at: Micros; replicas: number; from: number }[] {
  let from = spec;
  return (world.scalesOf?.(key) ?? []).map((s) => {
    const scale = { at: s.at, replicas: s.replicas, from };
    from = s.replicas;
    return scale;
  });
}

/**
 * `w` unchanged, or without its time when the timeline scales the pod's ReplicaSet down before it and the pod's own
 * scale-down answer (`byScale`, the ReplicaSet controller's forecast of those syncs) does not keep it for sure. `byScale`
 * is asked only when such a scale comes: a replacement's chain reads its pods' deletions without the ReplicaSet
 * controller's answers, and must still read them (rs-create-failures seed 22: a pod the scale to 9 deleted first was said
 * evicted at +7m10s, and the replacement with it).
 */
export function readScaleDown(w: WhyNot, cluster: ClusterState, world: WhyNotWorld, byScale: () => WhyNot | undefined): WhyNot {
  if (w.outcome !== 'PodDeletedByTaintEviction' && w.outcome !== 'PodDeletedByPodEviction') return w;
  const named = w.wouldFireAt ?? w.conditional?.at;
  if (named === undefined || !w.object?.startsWith('Pod/')) return w;
  // a pod's ref is Pod/ and its key
  const pod = cluster.pods.get(w.object.slice('Pod/'.length));
  const owner = pod && controllerOf(pod.meta);
  if (!owner || owner.kind !== 'ReplicaSet') return w;
  const key = nsKey(pod.meta.namespace, owner.name);
  const spec = cluster.replicaSets.get(key)?.replicas;
  if (spec === undefined) return w;
  const at = parseTimestamp(named)!;
  // at the deletion's own instant the taint eviction controller runs before the ReplicaSet controller's sync: not first
  const down = scalesAhead(world, key, spec).find((s) => s.at < at && s.replicas < s.from);
  if (!down) return w;
  // kept by every scale the timeline holds (the forecast ranked it under them), or deleted by one only after the
  // eviction: the eviction's time stands
  const own = byScale();
  if (!own || own.never) return w;
  // kept by every scale its forecast could rank, and the first it cannot comes at or after the deletion: the time stands
  // (whyNot.complete's later scales: a pod kept at the first scale down, its eviction before a second one that ranks pods
  // a scale up made in between)
  const unread = own.path?.find((c) => c.guard === 'laterScalesRead' && !c.holds)?.values?.timelineScalesAt;
  const ranked = !own.path?.some((c) => c.guard === 'rankingSettled' && !c.holds);
  if (ranked && typeof unread === 'string' && parseTimestamp(unread)! >= at) return w;
  const scaleAt = own.wouldFireAt ?? own.conditional?.at;
  if (scaleAt !== undefined && parseTimestamp(scaleAt)! > at) return w;
  const check: WhyNotCheck = {
    guard: 'noScaleDownBefore',
    upstream: 'syncReplicaSet -> manageReplicas -> getPodsToDelete (replica_set.go)',
    holds: false,
    rule: `the timeline scales ReplicaSet/${key} down to ${down.replicas} at ${formatTime(down.at)}, before the time named (${named}): its sync may delete this pod first, so no time is certain`,
    values: { timelineScalesAt: formatTime(down.at), replicas: down.replicas, namedWithoutIt: named },
  };
  return withoutTime(w, check, true);
}
