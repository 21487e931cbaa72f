/**
 * A pod's scheduled deletion by the taint eviction controller, read against the node lifecycle
 * controller's own swap of the node's taint: a node whose Ready is False carries
 * not-ready:NoExecute, and when its kubelet posts no more it goes Unknown, and the pass that reads
 * Unknown swaps that taint for unreachable:NoExecute at once (processTaintBaseEviction: "We want to
 * update the taint straight away if Node is already tainted with the opposite taint",
 * SwapNodeControllerTaint). handleNodeUpdate then runs processPodOnNode on the new taints: a pod that
 * tolerates them forever has its deletion cancelled (1.19+), one that does not tolerate
 * unreachable is deleted at once, and any other keeps its deadline (its work's CreatedAt is
 * earlier). So a deadline at or after the swap holds only in that last case.
 */
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import type { PodRecord, Taint } from '../model/types';
import type { ControllerHost } from '../controllers/controllerHost';
import type { SimController } from '../controllers/controller';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE } from '../controllers/nodeLifecycle/taints';
import { scheduledUnder } from '../controllers/taintEviction/whyNot';
import { taintText, taintsWithEffect } from '../model/tolerations';
import { withoutTime, type WhyNot, type WhyNotCheck, type WhyNotWorld } from '../trace/whyNot';
import { readKubeletResume } from './kubeletResumes';
import { TIMELINE_STOPS_KUBELET } from '../controllers/nodeLifecycle/whyNotStatusUnknown';

/** The node's own NodeStatusUnknown answer, once per question. */
function unknownOf(host: ControllerHost, node: string, world: WhyNotWorld, nodes: SimController): WhyNot | undefined {
  const key = `statusUnknown|${node}`;
  if (world.memo?.has(key)) return world.memo.get(key) as WhyNot | undefined;
  const own = nodes.whyNot(host, `Node/${node}`, world).find((x) => x.outcome === 'NodeStatusUnknown');
  const w = own && readKubeletResume(own, node, world);
  world.memo?.set(key, w);
  return w;
}

// an Unknown under the timeline's stop comes (or later); one under "the kubelet stopped now" is only what-if
const parseOr = (t: string | undefined): Micros | undefined => (t === undefined ? undefined : parseTimestamp(t));

/** `w` (a PodDeletedByTaintEviction with a time) with the swap read: unchanged when none comes by its time or the deadline stands. */
export function readTaintSwap(w: WhyNot, host: ControllerHost, pod: PodRecord, node: string, world: WhyNotWorld, nodes: SimController | undefined): WhyNot {
  const named = w.wouldFireAt ?? w.conditional?.at;
  const n = host.cluster.nodes.get(node);
  if (named === undefined || !nodes || !n) return w;
  const ready = n.conditions.find((c) => c.type === 'Ready')?.status;
  if (ready !== 'False' && ready !== 'Unknown') return w;
  const taints = taintsWithEffect(n.taints, 'NoExecute');
  if (!taints.some((t) => t.key === NOT_READY_NO_EXECUTE.key)) return w;
  const period = Math.max(1, host.config.nodeMonitorPeriod);
  // Unknown already with the opposite taint: the pass that reads it so (the next) swaps it; False: the pass that sets
  // Unknown (1.34 on), or the next one (before, it decides on the Ready it read before)
  const unknown = ready === 'False' ? unknownOf(host, node, world, nodes) : undefined;
  const u =
    ready === 'Unknown'
      ? (nodes as { nextMonitor?(): Micros }).nextMonitor?.()
      : parseOr(unknown?.wouldFireAt ?? (unknown?.conditional?.if.startsWith(TIMELINE_STOPS_KUBELET) ? unknown.conditional.at : undefined));
  if (u === undefined) return w;
  const swap: Micros = ready === 'Unknown' ? u : u + (host.behaviour.unreachableTaintQueuedSamePass ? 0 : period);
  const fire = parseTimestamp(named)!;
  // the pass at the deadline's instant runs before the taint eviction's timer
  if (swap > fire) return w;
  const after: Taint[] = taints.map((t) => (t.key === NOT_READY_NO_EXECUTE.key ? { ...UNREACHABLE_NO_EXECUTE } : t));
  const then = scheduledUnder(host, pod, after);
  if (then === 'keep') return w;
  // certain only when the node's Unknown is, the deadline was, and (for a cancel) nothing of the timeline may taint it again
  const later = (world.nodeEvents?.(node) ?? []).length > 0;
  const certain = (ready === 'Unknown' || unknown?.wouldFireAt !== undefined) && w.wouldFireAt !== undefined && (then === 'evictNow' || !later);
  const goes = ready === 'Unknown' ? 'the node is Unknown' : `the node goes Unknown at ${formatTime(u)}`;
  const check: WhyNotCheck = {
    guard: 'noTaintSwapBefore',
    upstream: 'processTaintBaseEviction (node_lifecycle_controller.go): SwapNodeControllerTaint; then processPodOnNode (taint eviction)',
    holds: false,
    rule:
      then === 'cancel'
        ? `${goes} and its ${taintText(NOT_READY_NO_EXECUTE)} is swapped for ${taintText(UNREACHABLE_NO_EXECUTE)} at ${formatTime(swap)}, which the pod tolerates forever: its deletion is cancelled`
        : `${goes} and its ${taintText(NOT_READY_NO_EXECUTE)} is swapped for ${taintText(UNREACHABLE_NO_EXECUTE)} at ${formatTime(swap)}, which the pod does not tolerate: it is deleted then`,
    values: { ...(ready === 'False' ? { nodeUnknownAt: formatTime(u) } : {}), taintSwappedAt: formatTime(swap), deadlineBefore: named },
  };
  const rest: WhyNot = { ...withoutTime(w, check, true), ...(unknown ? { via: unknown } : {}) };
  if (!certain) return rest;
  return then === 'cancel' ? { ...rest, never: true } : { ...rest, wouldFireAt: formatTime(swap) };
}

/**
 * Whether `w`, a pod's deletion the taint eviction controller has scheduled (its work there: processPodOnNode keeps
 * a work whose CreatedAt is earlier than now, whatever the taints become, unless none is left, the pod tolerates them
 * forever, or one is not tolerated), stands through the timeline's next event about its node when that event is a
 * Ready condition that keeps the node not Ready (False, or Unknown) on a stopped kubelet, with nothing else about the
 * kubelet after it: the node lifecycle controller then only swaps its NoExecute taint between not-ready (the pass that
 * reads False) and unreachable (the pass that finds it Unknown again), and the pod's work is kept under both.
 * readKubeletResume would take the time away for any event about the kubelet or conditions (outage-1.31 with node-a1
 * stopped at +30s and set Ready=False at +3m: the deletion scheduled for +6m10s came then).
 */
export function scheduledThroughNotReady(w: WhyNot, host: ControllerHost, pod: PodRecord, node: string, world: WhyNotWorld): boolean {
  if (w.outcome !== 'PodDeletedByTaintEviction' || w.wouldFireAt === undefined || w.blocking?.guard !== 'decidePodOnNode') return false;
  const r = world.resumesAt?.(node);
  const ready = world.readyAt?.(node);
  if (!r || r.start || r.again || r.stoppedAt !== undefined || ready?.at !== r.at || (ready.status !== 'False' && ready.status !== 'Unknown')) return false;
  const n = host.cluster.nodes.get(node);
  if (!n) return false;
  const others = taintsWithEffect(n.taints, 'NoExecute').filter((t) => t.key !== NOT_READY_NO_EXECUTE.key && t.key !== UNREACHABLE_NO_EXECUTE.key);
  return [NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE].every((t) => scheduledUnder(host, pod, [...others, { ...t }]) === 'keep');
}
