/**
 * A why-not of the node lifecycle or taint eviction controller that names a time at or after a
 * restart of kube-controller-manager the timeline holds: the new controllers start with empty
 * memory (monitorNodeHealth's first pass makes every node's probeTimestamp "now", the zone queues
 * and the taint eviction's scheduled deletions start over), so a time read from the memory of the
 * controller running now is not the run's. Such an answer keeps its checks and names no time, with
 * the restart as what makes it uncertain: a wrong time is worse than none.
 */
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import type { NodeRecord, PodRecord } from '../model/types';
import type { Scenario, TimeSpec } from '../snapshot/types';
import { withoutTime, type WhyNot, type WhyNotCheck, type WhyNotOutcome, type WhyNotWorld } from '../trace/whyNot';
import { zoneKeyOf } from '../model/zones';
import type { ControllerHost } from '../controllers/controllerHost';
import { delayAfterTaint } from '../controllers/taintEviction/whyNot';
import { taintsWithEffect } from '../model/tolerations';
import { findCondition, NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE } from '../controllers/nodeLifecycle/taints';
import { TIMELINE_STOPS_KUBELET } from '../controllers/nodeLifecycle/whyNotStatusUnknown';

const FROM_MEMORY = new Set<WhyNotOutcome>([
  'NodeStatusUnknown',
  'NodeTaintedNoExecute',
  'NodePodsEvicted',
  'PodDeletedByTaintEviction',
  'PodDeletedByPodEviction',
]);

/** The first restart of kube-controller-manager the timeline holds after `now` (`failover`: the new leader waits), or undefined. */
export function nextRestart(events: Scenario['events'], timeOf: (at: TimeSpec) => Micros, now: Micros): NextRestart | undefined {
  const after = events
    .flatMap((e) => (e.kind === 'restartControllerManager' ? [{ at: timeOf(e.at), failover: e.failover }] : []))
    .filter((r) => r.at > now)
    .sort((a, b) => a.at - b.at);
  const first = after[0];
  return first && { ...first, ...(after[1] ? { then: after[1].at } : {}) };
}

/** The timeline's next restart of kube-controller-manager; `then`: the one after it (at the same instant or later) */
export interface NextRestart {
  at: Micros;
  failover: boolean;
  then?: Micros;
}

/** The pod whose taint eviction an answer names, and its node (readRestart re-times it across the restart). */
export interface RestartPod {
  host: ControllerHost;
  pod: PodRecord;
  node: NodeRecord;
  world: WhyNotWorld;
  /** whether the node's kubelet runs now (it posts and renews) */
  running(node: string): boolean;
}

/**
 * `w` unchanged, or re-timed or without its time when the restart comes by it (the pass at that instant runs after
 * it). A pod's taint eviction whose NoExecute taint is on the node before the restart (now, or named before it) is
 * re-timed: the new taint eviction controller lists the tainted node as it starts and gives the pod its whole toleration
 * again from then (processPodOnNode with no work kept), and the fresh node lifecycle controller leaves the taint of a
 * node still Unknown or NotReady; any other time read from memory is not the run's.
 */
export function readRestart(w: WhyNot, next: NextRestart | undefined, on?: RestartPod): WhyNot {
  if (next === undefined || !w.outcome || !FROM_MEMORY.has(w.outcome)) return w;
  const restart = next.at;
  const named = w.wouldFireAt ?? w.conditional?.at;
  if (named === undefined || parseTimestamp(named)! < restart) return w;
  // a failover first is read by failoverAhead.ts (explain.ts does not bring it here)
  const again = on ? tolerationAgain(w, restart, on) : undefined;
  // another restart by the time re-timed (a failover at the same instant: the new leader waits) starts it over again
  if (again && !(next.then !== undefined && next.then <= parseTimestamp(again.conditional!.at)!)) return again;
  const check: WhyNotCheck = {
    guard: 'noRestartBefore',
    upstream: 'kube-controller-manager restart: NewNodeLifecycleController / NewTaintEvictionController start with empty maps and queues',
    holds: false,
    rule: `the timeline restarts kube-controller-manager at ${formatTime(restart)}, by the time read from the running controller's memory (${named}): no time is certain`,
    values: { timelineRestartsAt: formatTime(restart), namedWithoutIt: named },
  };
  return withoutTime(w, check, true);
}

/**
 * Whether the node is the only one its zone's new taint queue holds at the restart: the fresh node lifecycle
 * controller leaves master disruption mode on its first pass (it starts with no zone state, as if every zone were down),
 * takes every controller NoExecute taint away and queues each failing node again, and a zone's fresh rate limiter lets
 * one node through at once; behind others, the node waits for its turn (outage-1.31 with a restart at +3m: the taint
 * came back at +3m10s). So every other node of the zone is Ready with a running kubelet, and the timeline does nothing
 * to any of them by then.
 */
function aloneInZone({ host, node, world, running }: RestartPod, restart: Micros): boolean {
  const zone = zoneKeyOf(node);
  let others = 0;
  for (const n of host.cluster.nodes.values()) {
    if (n === node || zoneKeyOf(n) !== zone) continue;
    others++;
    const ready = findCondition(n.conditions, 'Ready')?.status === 'True';
    if (!ready || !running(n.meta.name) || (world.nodeEvents?.(n.meta.name) ?? []).some((e) => e.at <= restart)) return false;
  }
  // a zone of one node is fully disrupted, not Normal
  return others > 0;
}

const TAINT_SWAP_GUARDS = new Set(['noTaintSwapBefore', 'noUntaintBefore']);

/**
 * A taint eviction named from a NoExecute taint that is on the node before `restart`, re-timed to the restart plus the
 * pod's toleration of the node's taints then. The taint's time must be known: on the node now (the taint eviction's own
 * timer), or the node lifecycle controller's taint named before the restart, for certain or under the timeline's
 * kubelet stop alone (restart-mid-outage: toleration-sixty tainted at +1m10s, named +2m10s from memory, deleted at +3m
 * after the restart at +2m).
 */
function tolerationAgain(w: WhyNot, restart: Micros, on: RestartPod): WhyNot | undefined {
  const { host, pod, node } = on;
  if (w.outcome !== 'PodDeletedByTaintEviction' || w.path?.some((c) => !c.holds && TAINT_SWAP_GUARDS.has(c.guard ?? ''))) return undefined;
  if (!aloneInZone(on, restart)) return undefined;
  // a NotReady node whose kubelet is stopped goes Unknown on the way, and its not-ready taint is swapped for unreachable,
  // which the pod may tolerate for another time (one-node-stops with node-a1 set Ready=False at +20s and a restart at
  // +3m: toleration-zero, 5m of not-ready and 0s of unreachable, was named +8m00s, deleted at the restart)
  if (findCondition(node.conditions, 'Ready')?.status === 'False' && !on.running(node.meta.name)) return undefined;
  const now = taintsWithEffect(node.taints, 'NoExecute');
  let condition: string | undefined;
  let delay: number | undefined;
  /** when the taint is on the node: the events before it are read by the answer that names it */
  let from = host.now;
  if (now.length) {
    // a controller's taint that does not match Ready is swapped on the way (readTaintSwap's): the toleration may differ
    const ready = findCondition(node.conditions, 'Ready')?.status;
    const swapped = now.some((t) => (t.key === UNREACHABLE_NO_EXECUTE.key && ready !== 'Unknown') || (t.key === NOT_READY_NO_EXECUTE.key && ready !== 'False'));
    if (w.wouldFireAt === undefined || swapped) return undefined;
    delay = delayAfterTaint(host, pod, now.slice(1), now[0]!).delay;
  } else {
    const via = w.via;
    if (via?.outcome !== 'NodeTaintedNoExecute' || w.timelineTaint) return undefined;
    const stop = via.conditional?.if.startsWith(TIMELINE_STOPS_KUBELET) && !via.conditional.if.includes(',') ? via.conditional : undefined;
    const taintedAt = via.wouldFireAt ?? stop?.at;
    const named = w.wouldFireAt ?? (stop && w.conditional?.if === stop.if ? w.conditional.at : undefined);
    if (taintedAt === undefined || named === undefined || parseTimestamp(taintedAt)! >= restart) return undefined;
    const after = parseTimestamp(named)! - parseTimestamp(taintedAt)!;
    // the chain's delay, under the taint the node gets (either of the two the node lifecycle controller puts)
    const known = [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE].some((t) => delayAfterTaint(host, pod, node.taints, t).delay === after);
    if (!known) return undefined;
    delay = after;
    condition = stop?.if;
    from = parseTimestamp(taintedAt)!;
  }
  // an event of the timeline about the node by then (a taint it does not tolerate, a start, a condition) decides
  // first or with it (restart-mid-outage with the timeline's taint of node-a1 at the restart's instant: deleted then)
  if (delay === undefined || (on.world.nodeEvents?.(node.meta.name) ?? []).some((e) => e.at > from && e.at <= restart + delay!)) return undefined;
  const event = `the timeline restarts kube-controller-manager at ${formatTime(restart)}`;
  const check: WhyNotCheck = {
    guard: 'noRestartBefore',
    upstream: 'kube-controller-manager restart: NewTaintEvictionController lists the tainted node and processPodOnNode starts its toleration again',
    holds: false,
    rule: `${event}, after the node's NoExecute taint: the new taint eviction controller gives the pod its toleration again from then`,
    values: { timelineRestartsAt: formatTime(restart), namedWithoutIt: w.wouldFireAt ?? w.conditional!.at },
  };
  const at = formatTime(restart + delay);
  return {
    ...withoutTime(w, check, true),
    conditional: { if: condition ? `${condition} and restarts kube-controller-manager at ${formatTime(restart)}` : event, at },
  };
}
