/**
 * A time named for the node lifecycle controller's taint or eviction, or for a deletion under its
 * not-ready/unreachable taint, read against its master disruption mode: when every zone is in
 * FullDisruption (handleDisruption: allAreFullyDisrupted) the controller takes itself for the one cut
 * off, removes those taints from every node (markNodeAsReachable; 1.12: cancelPodEviction) and
 * queues nothing until a node is Ready again, so the deletions the taints scheduled are cancelled.
 * The zone forecasts see that for their own zone's nodes only; a node of another zone whose kubelet
 * the timeline also stops, or an outage already under way everywhere, escapes them (all-zones-down
 * seeds 28 and 34: pods said deleted at +6m and +5m10s, cancelled when the last zone went down).
 * Such an answer names no time, the mode as what makes it uncertain, while no node counted in the
 * disruption checks is sure to stay Ready until the time named: a wrong time is worse than none.
 */
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import type { NodeRecord } from '../model/types';
import type { ControllerHost } from '../controllers/controllerHost';
import { disruptionExclusion } from '../controllers/nodeLifecycle/disruption';
import { rulesOf } from '../controllers/nodeLifecycle/versionRules';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE } from '../controllers/nodeLifecycle/taints';
import { withoutTime, type WhyNot, type WhyNotCheck, type WhyNotOutcome, type WhyNotWorld } from '../trace/whyNot';

const NODE_LIFECYCLE = new Set<WhyNotOutcome>(['NodeTaintedNoExecute', 'NodePodsEvicted', 'PodDeletedByPodEviction']);
const CONTROLLER_TAINTS = new Set([NOT_READY_NO_EXECUTE.key, UNREACHABLE_NO_EXECUTE.key]);

/**
 * The first instant from which every zone may be fully disrupted: the last of the instants the Ready
 * nodes may stop being Ready from (the first timeline event about a posting kubelet or its conditions;
 * for a kubelet that posts no more, just past probeTimestamp + nodeMonitorGracePeriod, `probeOf` the
 * controller's); undefined when some node counted in the disruption checks stays
 * Ready, its kubelet posting, with nothing of the timeline about it. Once per question.
 */
/** What the node lifecycle controller tells of its nodes ahead, for masterDisruptionFrom. */
export interface NodesAhead {
  /** its probeTimestamp of the node */
  probeOf?(node: string): Micros | undefined;
  /** the monitor pass at or after `t` */
  passAtOrAfter?(t: Micros): Micros | undefined;
  /** the pass that sets the node Unknown as its own why-not names it (a kubelet that posts too seldom: kubeletLapse.ts) */
  unknownAt?(node: string): Micros | undefined;
}

export function masterDisruptionFrom(host: ControllerHost, world: WhyNotWorld, ahead: NodesAhead = {}): Micros | undefined {
  const key = 'masterDisruptionFrom';
  if (world.memo?.has(key)) return world.memo.get(key) as Micros | undefined;
  let from: Micros | undefined = -Infinity;
  const rules = rulesOf(host);
  for (const node of host.cluster.nodes.values()) {
    // a node left out of the disruption checks keeps no zone out of FullDisruption
    if (disruptionExclusion(node, rules) !== undefined) continue;
    const name = node.meta.name;
    const ready = node.conditions.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') continue;
    const k = world.kubelet(name);
    // one whose kubelet posts too seldom goes Unknown between its posts as a stopped one does (kubeletLapse.ts), or later
    const lapse = k?.running && k.lapses ? ahead.unknownAt?.(name) : undefined;
    if (lapse !== undefined) {
      from = Math.max(from, lapse);
      continue;
    }
    if (k?.running !== true || k.lapses) {
      // probeTimestamp only moves on: Unknown comes at a pass after probe + grace, not at it (all-zones-down seed 56: a node
      // stopped at +20s is tainted at +1m, the others' Unknown comes at +1m5s). The controller's probe, or else one at or
      // after the last heartbeat it can read (a Lease renewal too, where it reads them)
      const lease = rules.readsLeases ? host.cluster.leases.get(name)?.renewTime : undefined;
      let probe = ahead.probeOf?.(name) ?? Math.max(ready.lastHeartbeatTime ?? -Infinity, lease ?? -Infinity);
      const grace = host.config.nodeMonitorGracePeriod;
      if (k?.lapses) {
        // its posts move the probe on, no earlier than they come (lapses: they come further apart than grace)
        probe = Math.max(probe, k.lastPost ?? -Infinity);
        for (let post = k.nextPost; post !== undefined && post <= probe + grace; post += k.postEvery ?? Infinity) probe = post;
      }
      // the pass past probe + grace, where the passes are known (a probe read later only comes later)
      from = Math.max(from, ahead.passAtOrAfter?.(probe + grace + 1) ?? probe + grace + 1);
      continue;
    }
    const first = (world.nodeEvents?.(name) ?? []).find((e) => e.kind === 'kubelet');
    if (!first) {
      from = undefined;
      break;
    }
    from = Math.max(from, first.at);
  }
  world.memo?.set(key, from);
  return from;
}

/** Whether the answer's time rests on the controller's own taint (not a user's alone): the mode takes only those away. */
function restsOnControllerTaint(w: WhyNot, node: NodeRecord | undefined): boolean {
  if (w.outcome && NODE_LIFECYCLE.has(w.outcome)) return true;
  if (w.outcome !== 'PodDeletedByTaintEviction' || !node) return false;
  if (node.taints.some((t) => t.effect === 'NoExecute' && CONTROLLER_TAINTS.has(t.key))) return true;
  return !w.timelineTaint && w.via?.outcome === 'NodeTaintedNoExecute';
}

/** `w` unchanged, or without its time when every zone may be fully disrupted by it (`node`: the node it goes through). */
export function readMasterDisruption(w: WhyNot, host: ControllerHost, world: WhyNotWorld, node: NodeRecord | undefined, ahead: NodesAhead = {}): WhyNot {
  const named = w.wouldFireAt ?? w.conditional?.at;
  if (named === undefined || !restsOnControllerTaint(w, node)) return w;
  // an answer given in the mode names its end already, as a bound ("… and its zone's rate and queue let it through at once")
  if (w.path?.some((c) => c.guard === 'notInMasterDisruption' && !c.holds)) return w;
  const from = masterDisruptionFrom(host, world, ahead);
  const at = parseTimestamp(named)!;
  // the pass at the instant all zones go down runs before the taint eviction's timer at it
  if (from === undefined || at < from) return w;
  const check: WhyNotCheck = {
    guard: 'noMasterDisruptionBefore',
    upstream: 'handleDisruption: allAreFullyDisrupted -> markNodeAsReachable / cancelPodEviction (node_lifecycle_controller.go)',
    holds: false,
    rule: `no node is sure to stay Ready until ${named}: every zone may be in FullDisruption by then, and the controller then removes its not-ready and unreachable taints and evicts nothing (master disruption mode), so no time is certain`,
    values: { namedWithoutIt: named, ...(from > -Infinity ? { everyZoneMayBeDownFrom: formatTime(from) } : {}) },
  };
  return withoutTime(w, check, true);
}
