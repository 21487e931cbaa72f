/**
 * Whether a node's pods are on their way out: the ReplicaSet's why-nots ask it of the node of each
 * pod they count on (a replacement waits for the deletion of pods on failing nodes; a scale-down's
 * ranking can change while a pod's node fails), and the panel of the first such pod.
 */
import type { NodeRecord } from '../../model/types';
import { formatTime } from '../../model/time';
import type { WhyNotWorld } from '../../trace/whyNot';

/** Why a node's pods will be deleted if nothing changes, as its record stands: Ready not True, or a NoExecute taint. */
export function nodeFails(node: NodeRecord): string | undefined {
  const ready = node.conditions.find((c) => c.type === 'Ready')?.status ?? 'none';
  if (ready !== 'True') return `Ready=${ready}`;
  if (node.taints.some((t) => t.effect === 'NoExecute')) return 'a NoExecute taint';
  return undefined;
}

/**
 * nodeFails, or its kubelet stopped (the world's kubelets); with `ahead`, also the timeline's next
 * stop of it, its Ready set to False, or a NoExecute taint it adds first (a pod's deletion is then
 * named under that event).
 * Undefined while it is healthy.
 */
export function nodeFailing(node: NodeRecord, world: WhyNotWorld | undefined, ahead: boolean): string | undefined {
  const fails = nodeFails(node);
  if (fails) return fails;
  const k = world?.kubelet(node.meta.name);
  if (k?.running === false) return 'its kubelet stopped';
  // its node goes Unknown between posts and Ready again at the kubelet's re-post: its pods' readiness comes and goes
  if (k?.lapses) return 'its kubelet posts node status too seldom and renews no Lease';
  const stop = ahead ? world?.stopsAt?.(node.meta.name) : undefined;
  if (stop) return `the timeline stops its kubelet at ${formatTime(stop.at)}`;
  // Ready=False posted by the timeline: the node is tainted not-ready (or its pods evicted) and its pods go (rs-slow-start
  // seed 48: a replacement waited for the stopped node-a5's pod, +9m40s, while node-c1's went at +9m)
  const ready = ahead ? world?.readyAt?.(node.meta.name) : undefined;
  if (ready?.status === 'False') return `the timeline sets its Ready to False at ${formatTime(ready.at)}`;
  // a NoExecute taint the timeline adds: the taint eviction controller deletes the pods that do not tolerate it
  const taint = ahead ? world?.taintsAt?.(node.meta.name) : undefined;
  return taint ? `the timeline taints it ${taint.taint.key}:NoExecute at ${formatTime(taint.at)}` : undefined;
}
