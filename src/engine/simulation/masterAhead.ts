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
 * disruption checks is sure to stay Ready until the time named: a wrong time is worse than none. Where
 * the mode is sure to begin only because kubelets that post too seldom lapse, and to end at the first
 * of their re-posts of Ready, that end is named as a bound instead (masterDisruptionAhead).
 */
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import type { NodeRecord } from '../model/types';
import type { ControllerHost } from '../controllers/controllerHost';
import { disruptionExclusion } from '../controllers/nodeLifecycle/disruption';
import { rulesOf } from '../controllers/nodeLifecycle/versionRules';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE } from '../controllers/nodeLifecycle/taints';
import { withoutTime, type KubeletFacts, type WhyNot, type WhyNotCheck, type WhyNotOutcome, type WhyNotWorld } from '../trace/whyNot';
import { readyAgainBound, repostAfter, repostOfReady } from '../controllers/nodeLifecycle/kubeletLapse';
import { firstAllDown, type Lapsing } from './lapseRounds';

const NODE_LIFECYCLE = new Set<WhyNotOutcome>(['NodeTaintedNoExecute', 'NodePodsEvicted', 'PodDeletedByPodEviction']);
const CONTROLLER_TAINTS = new Set([NOT_READY_NO_EXECUTE.key, UNREACHABLE_NO_EXECUTE.key]);

/** What the node lifecycle controller tells of its nodes ahead, for masterDisruptionAhead. */
export interface NodesAhead {
  /** its probeTimestamp of the node */
  probeOf?(node: string): Micros | undefined;
  /** the monitor pass at or after `t` */
  passAtOrAfter?(t: Micros): Micros | undefined;
  /** the pass that sets the node Unknown as its own why-not names it (a kubelet that posts too seldom: kubeletLapse.ts) */
  unknownAt?(node: string): Micros | undefined;
}

/** The pass that reads a node's re-post of Ready=True, ending the mode (kubeletLapse.ts). */
export interface ModeEnd {
  node: string;
  repost: Micros;
  at: Micros;
}

/**
 * `from`: the first instant from which every zone may be fully disrupted: the last of the instants the Ready
 * nodes may stop being Ready from (the first timeline event about a posting kubelet or its conditions;
 * for a kubelet that posts no more, just past probeTimestamp + nodeMonitorGracePeriod, `probeOf` the
 * controller's); undefined when some node counted in the disruption checks stays
 * Ready, its kubelet posting, with nothing of the timeline about it. Once per question.
 * `end`: where the mode is sure to begin then only because nodes whose kubelets post too seldom
 * have lapsed (each still down at `from`: its re-post of Ready=True comes after it), the end of the mode: the pass that
 * reads the first of their re-posts (all-zones-down, HUNT_PARTIAL seed 6: node-b3 started `only: status` at +45s, every
 * zone down at +1m35s and up again at its re-post at +1m45s, node-a4 tainted at +2m25s, said no time).
 */
export function masterDisruptionAhead(host: ControllerHost, world: WhyNotWorld, ahead: NodesAhead = {}): MasterAhead {
  const key = 'masterDisruptionAhead';
  if (world.memo?.has(key)) return world.memo.get(key) as MasterAhead;
  let from: Micros | undefined = -Infinity;
  // from the nodes that do not flap alone: the lapsing ones' rounds are read against it (lapseRounds.ts)
  let others = -Infinity;
  const lapsed: { node: string; at: Micros; k: KubeletFacts }[] = [];
  const reposting: { node: string; repost: Micros; k: KubeletFacts }[] = [];
  // the mode's start, and so its end, is known only where each node's Unknown is the pass the controller sets it at
  let endKnown = true;
  const rules = rulesOf(host);
  for (const node of host.cluster.nodes.values()) {
    // a node left out of the disruption checks keeps no zone out of FullDisruption
    if (disruptionExclusion(node, rules) !== undefined) continue;
    const name = node.meta.name;
    const ready = node.conditions.find((c) => c.type === 'Ready');
    const k = world.kubelet(name);
    if (ready?.status !== 'True') {
      // down now, but a lapsing kubelet re-posts Ready=True: up again from the pass that reads it (backBy)
      const repost = k?.running && k.lapses ? repostOfReady(k) : undefined;
      if (repost !== undefined) reposting.push({ node: name, repost, k: k! });
      continue;
    }
    // one whose kubelet posts too seldom goes Unknown between its posts as a stopped one does (kubeletLapse.ts), or later
    const lapse = k?.running && k.lapses ? ahead.unknownAt?.(name) : undefined;
    if (lapse !== undefined) {
      from = Math.max(from, lapse);
      lapsed.push({ node: name, at: lapse, k: k! });
      continue;
    }
    if (k?.running !== true || k.lapses) {
      if (k?.lapses) endKnown = false;
      // probeTimestamp only moves on: Unknown comes at a pass after probe + grace, not at it (all-zones-down seed 56: a node
      // stopped at +20s is tainted at +1m, the others' Unknown comes at +1m5s). The controller's probe, or else one at or
      // after the last heartbeat it can read (a Lease renewal too, where it reads them)
      const lease = rules.readsLeases ? host.cluster.leases.get(name)?.renewTime : undefined;
      const probeOf = ahead.probeOf?.(name);
      // without the controller's probe or its passes, the Unknown is a bound, not the pass the mode begins at
      if (probeOf === undefined || !ahead.passAtOrAfter) endKnown = false;
      let probe = probeOf ?? Math.max(ready.lastHeartbeatTime ?? -Infinity, lease ?? -Infinity);
      const grace = host.config.nodeMonitorGracePeriod;
      if (k?.lapses) {
        // its posts move the probe on, no earlier than they come (lapses: they come further apart than grace)
        probe = Math.max(probe, k.lastPost ?? -Infinity);
        for (let post = k.nextPost; post !== undefined && post <= probe + grace; post += k.postEvery ?? Infinity) probe = post;
      }
      // the pass past probe + grace, where the passes are known (a probe read later only comes later)
      from = Math.max(from, ahead.passAtOrAfter?.(probe + grace + 1) ?? probe + grace + 1);
      others = Math.max(others, from);
      continue;
    }
    const first = (world.nodeEvents?.(name) ?? []).find((e) => e.kind === 'kubelet');
    if (!first) {
      from = undefined;
      break;
    }
    // the timeline's stop is when it may go, not the pass it goes Unknown at: the mode's start is not known
    endKnown = false;
    from = Math.max(from, first.at);
    others = Math.max(others, first.at);
  }
  const out: MasterAhead = { from, others };
  if (lapsed.length || reposting.length)
    out.lapsing = [...lapsed.map(({ node, at, k }) => ({ node, k, unknownAt: at })), ...reposting.map(({ node, k }) => ({ node, k, unknownAt: -Infinity }))];
  const end = from !== undefined && from > -Infinity && endKnown ? modeEnd(from, lapsed, ahead) : undefined;
  if (end) out.end = end;
  if (from !== undefined && from > -Infinity && ahead.passAtOrAfter) out.back = backBy(from, lapsed, reposting, ahead.passAtOrAfter);
  world.memo?.set(key, out);
  return out;
}

interface MasterAhead {
  from: Micros | undefined;
  /** the instant from which every node but the lapsing ones may be down */
  others: Micros;
  /** the nodes whose kubelets post too seldom, Ready now or down with a re-post of Ready to come */
  lapsing?: Lapsing[];
  end?: ModeEnd;
  /** the nodes whose lapsing kubelets re-post Ready=True, read at or before `from`: up again when the last one goes down */
  back?: { node: string; read: Micros }[];
}

function backBy(
  from: Micros,
  lapsed: readonly { node: string; at: Micros; k: KubeletFacts }[],
  reposting: readonly { node: string; repost: Micros; k: KubeletFacts }[],
  passAtOrAfter: (t: Micros) => Micros | undefined,
): MasterAhead['back'] {
  const reposts = [...reposting, ...lapsed.map(({ node, at, k }) => ({ node, repost: k.postsReady === 'True' ? repostAfter(k, at) : undefined }))];
  const out: NonNullable<MasterAhead['back']> = [];
  for (const { node, repost } of reposts) {
    const read = repost === undefined ? undefined : passAtOrAfter(repost);
    if (read !== undefined && read <= from) out.push({ node, read });
  }
  return out;
}

/**
 * Whether a lapsed node read Ready again by `from` keeps every zone from going down through `at`: the pass that reads
 * its re-post sets probeTimestamp no earlier than itself, so no pass sets it Unknown again until past that pass + grace,
 * unless the timeline's events about it (or any it cannot read the reach of) come first. Before `from` the mode cannot
 * begin either (all-zones-down, HUNT_PARTIAL HUNT_RESTART seed 803: node-a4 back at +2m45s, node-c1 Unknown at +2m50s
 * and tainted at +2m55s, said no time as every zone might be down from +2m50s).
 */
function upThrough(host: ControllerHost, world: WhyNotWorld, back: MasterAhead['back'], at: Micros): boolean {
  const events = back?.length ? world.eventsUntil?.(at) : undefined;
  if (!events) return false;
  const grace = host.config.nodeMonitorGracePeriod;
  return back!.some((b) => at <= b.read + grace && !events.some((e) => e.kind === 'other' || e.nodes?.includes(b.node)));
}

/**
 * Whether the lapsing kubelets' rounds, followed ahead, never have every one of them down at once from the instant the
 * other nodes may all be down through `at`, with nothing of the timeline about them (or of a reach not read) on the way.
 */
function lapsesOutOfStep(host: ControllerHost, world: WhyNotWorld, m: MasterAhead, at: Micros, ahead: NodesAhead): boolean {
  if (!m.lapsing || !ahead.passAtOrAfter) return false;
  const events = world.eventsUntil?.(at);
  const nodes = new Set(m.lapsing.map((l) => l.node));
  if (!events || events.some((e) => e.kind === 'other' || e.nodes?.some((n) => nodes.has(n)))) return false;
  // -Infinity: every other node is down now
  return firstAllDown(m.lapsing, Math.max(m.others, host.now), at, host.config.nodeMonitorGracePeriod, ahead.passAtOrAfter) === undefined;
}

/** The first re-post of Ready=True that ends the mode begun at `from`, if every lapsed node is still down at `from`. */
function modeEnd(from: Micros, lapsed: readonly { node: string; at: Micros; k: KubeletFacts }[], ahead: NodesAhead): ModeEnd | undefined {
  let end: ModeEnd | undefined;
  for (const { node, at, k } of lapsed) {
    const repost = repostAfter(k, at);
    // Ready again before the pass at `from` (the kubelet comes first at one instant): the mode may not begin then
    if (repost === undefined || repost <= from) return undefined;
    if (k.postsReady !== 'True') continue;
    const read = ahead.passAtOrAfter?.(repost) ?? repost;
    if (!end || read < end.at) end = { node, repost, at: read };
  }
  return end;
}

/** Whether the answer's time rests on the controller's own taint (not a user's alone): the mode takes only those away. */
function restsOnControllerTaint(w: WhyNot, node: NodeRecord | undefined): boolean {
  if (w.outcome && NODE_LIFECYCLE.has(w.outcome)) return true;
  if (w.outcome !== 'PodDeletedByTaintEviction' || !node) return false;
  if (node.taints.some((t) => t.effect === 'NoExecute' && CONTROLLER_TAINTS.has(t.key))) return true;
  return !w.timelineTaint && w.via?.outcome === 'NodeTaintedNoExecute';
}

function givenInTheMode(w: WhyNot | undefined): boolean {
  return w !== undefined && (w.path?.some((c) => c.guard === 'notInMasterDisruption' && !c.holds) === true || givenInTheMode(w.via));
}

/** `w` unchanged, or without its time when every zone may be fully disrupted by it (`node`: the node it goes through). */
export function readMasterDisruption(w: WhyNot, host: ControllerHost, world: WhyNotWorld, node: NodeRecord | undefined, ahead: NodesAhead = {}): WhyNot {
  const named = w.wouldFireAt ?? w.conditional?.at;
  if (named === undefined || !restsOnControllerTaint(w, node)) return w;
  // an answer given in the mode names its end already, as a bound ("… and its zone's rate and queue let it through at once"),
  // and so does one through it: a pod's deletion under the node's taint (all-zones-down, HUNT_RESTART seed 215: said no time)
  if (givenInTheMode(w)) return w;
  const m = masterDisruptionAhead(host, world, ahead);
  const { from, end, back } = m;
  const at = parseTimestamp(named)!;
  // the pass at the instant all zones go down runs before the taint eviction's timer at it
  if (from === undefined || at < from || upThrough(host, world, back, at) || lapsesOutOfStep(host, world, m, at, ahead)) return w;
  const check: WhyNotCheck = {
    guard: 'noMasterDisruptionBefore',
    upstream: 'handleDisruption: allAreFullyDisrupted -> markNodeAsReachable / cancelPodEviction (node_lifecycle_controller.go)',
    holds: false,
    rule: `no node is sure to stay Ready until ${named}: every zone may be in FullDisruption by then, and the controller then removes its not-ready and unreachable taints and evicts nothing (master disruption mode), so no time is certain`,
    values: { namedWithoutIt: named, ...(from > -Infinity ? { everyZoneMayBeDownFrom: formatTime(from) } : {}) },
  };
  // a re-post of Ready ends a mode that only lapsed kubelets began: nothing comes before the pass that reads it. Only
  // below an answer that is itself a bound (certain, or "… let it through at once"), not one on the timeline's events
  const bound = w.wouldFireAt !== undefined || (w.conditional?.if.includes('let it through at once') && !w.conditional.if.startsWith('the timeline'));
  if (!end || !bound) return withoutTime(w, check, true);
  check.rule = `every zone is in FullDisruption from ${formatTime(from)}, and the controller then removes its not-ready and unreachable taints and evicts nothing (master disruption mode) until a node is Ready again`;
  check.values = {
    ...check.values,
    everyZoneDownFrom: formatTime(from),
    endsAt: formatTime(end.at),
    readyAgain: end.node,
    kubeletRepostsAt: formatTime(end.repost),
  };
  delete check.values.everyZoneMayBeDownFrom;
  return { ...withoutTime(w, check, true), ...readyAgainBound(end, 'the controller leaves master disruption mode') };
}
