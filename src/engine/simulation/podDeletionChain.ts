/**
 * A replacement's wait for its ReplicaSet's pods to be deleted (chainToPodDeletions): the sync that sees the
 * `count`-th of them gone creates it, so its time is that deletion's, from the pods' own why-nots, read against the
 * timeline's scales and deletes of those pods.
 */
import type { ObjectRef } from '../model/types';
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import type { ControllerHost } from '../controllers/controllerHost';
import type { Kubelets } from '../kubelet/kubelets';
import type { WhyNot, WhyNotWorld } from '../trace/whyNot';
import { heldBackBy } from './nodeTaintChain';
import { scalesAhead } from './scaleAhead';

/** what the chain reads of the simulation (explain.ts's Explainable has it) */
export interface PodsChained {
  readonly host: ControllerHost;
  readonly kubelets: Pick<Kubelets, 'settings' | 'period'>;
}

/** the deleting controllers' why-nots of a pod, read as whyNotOfControllers reads them */
export type DeletionsOf = (pod: ObjectRef) => WhyNot[];

const DELETIONS = new Set(['PodDeletedByTaintEviction', 'PodDeletedByPodEviction']);
/** the checks that take a pod's deletion time away for something of the timeline on the way (scaleAhead, restartAhead, swapAhead) */
const TIME_TAKEN = new Set(['noScaleDownBefore', 'noRestartBefore', 'noTaintSwapBefore']);

/**
 * The timeline's first scale of the ReplicaSet, up above its active pods before the deletions it waits for: the sync
 * at that instant finds fewer active pods than spec.replicas whatever was deleted before it, and creates pods then
 * (manageReplicas), named with the scale as the condition (as scaledUpByTimeline does for a ReplicaSet short of
 * nothing). Undefined for a later scale, or one not above every active pod (the deletions before it decide).
 */
function scaledUpFirst(
  sim: PodsChained,
  w: WhyNot,
  s: { at: Micros; replicas: number; from: number },
  key: string | undefined,
  active: number | undefined,
  world: WhyNotWorld,
): WhyNot | undefined {
  if (key === undefined || active === undefined || s.replicas <= active) return undefined;
  const first = world.scalesOf?.(key)[0];
  if (!first || first.at !== s.at || (first.afterOthers && !onlyLateKubeletEvents(sim, world, s.at))) return undefined;
  const event = `the timeline scales ${w.object} to ${s.replicas} at ${formatTime(s.at)}`;
  const rule = `${event}, above its ${active} active pods, before the deletions it waits for: the sync then creates pods`;
  const path = [
    ...(w.path ?? []),
    {
      guard: 'noScaleBefore',
      upstream: 'syncReplicaSet / manageReplicas (diff < 0)',
      holds: false,
      rule,
      values: { timelineScalesTo: s.replicas, timelineScalesAt: formatTime(s.at), activePods: active },
    },
  ];
  return { ...w, check: { rule: `${w.check.rule}; ${rule}`, values: w.check.values }, path, conditional: { if: event, at: formatTime(s.at) } };
}

/**
 * Whether every event of the timeline before `at` is about kubelets and too late to delete a pod by then: a node goes
 * Unknown no sooner than a grace period after its last heartbeat (at most one post or renewal before the stop), and
 * its pods go after that; a start deletes nothing (one-node-stops with node-a1 started at +1m40s and the ReplicaSet
 * scaled up at +2m: created then).
 */
function onlyLateKubeletEvents(sim: PodsChained, world: WhyNotWorld, at: Micros): boolean {
  const s = sim.kubelets.settings;
  const beat = s.leases ? Math.min(sim.kubelets.period, s.leaseRenewInterval) : sim.kubelets.period;
  const lag = sim.host.config.nodeMonitorGracePeriod - beat;
  return (world.eventsUntil?.(at - 1) ?? [{ what: 'unknown', at }]).every((e) => e.what === 'kubelet' && e.at + lag > at);
}

/**
 * A ReplicaSet whose not-ready pods still count as active: its first replacement is made in the
 * sync that sees the `count`-th of them deleted, so its time is that deletion's, from the pods'
 * own why-nots. Certain only when every other pod's deletion is certain, never, or not earlier.
 */
export function chainToPodDeletions(
  sim: PodsChained,
  w: WhyNot,
  waits: NonNullable<WhyNot['waitsForDeletion']>,
  world: WhyNotWorld,
  deletionsOf: DeletionsOf,
): WhyNot {
  interface PodTime {
    at?: Micros;
    certain: boolean;
    never: boolean;
    w?: WhyNot;
  }
  const times: PodTime[] = waits.pods.map((pod) => {
    // one world for every pod: the timeline's stops are resolved once, a node's answer worked out once
    const ws = deletionsOf(pod).filter((x) => x.outcome && DELETIONS.has(x.outcome));
    let best: PodTime = { certain: false, never: ws.length > 0 && ws.every((x) => x.never), ...(ws[0] ? { w: ws[0] } : {}) };
    for (const x of ws) {
      const at = x.wouldFireAt ?? x.conditional?.at;
      if (at === undefined) continue;
      const t = parseTimestamp(at)!;
      const certain = x.wouldFireAt !== undefined;
      if (best.at === undefined || t < best.at || (t === best.at && certain && !best.certain)) best = { at: t, certain, never: false, w: x };
    }
    return best;
  });
  // the timeline's deletes: one deletion each, at that event, when no earlier one of the pod is known
  for (const d of waits.timeline ?? []) {
    const at = formatTime(d.at);
    const event = `the timeline deletes ${d.pod} at ${at}`;
    const x: PodTime = {
      at: d.at,
      certain: false,
      never: false,
      w: { what: 'deleted by the timeline', check: { rule: event }, object: d.pod, conditional: { if: event, at } },
    };
    const i = waits.pods.indexOf(d.pod);
    if (i < 0) times.push(x);
    else if (times[i]!.at === undefined || d.at < times[i]!.at!) times[i] = x;
  }
  const timed = times.filter((t) => t.at !== undefined).sort((a, b) => a.at! - b.at!);
  const kth = timed[waits.count - 1];
  const check = (via: WhyNot) => heldBackBy(w, via, `${via.what} of ${via.object}`);
  // a scale by the timeline changes what the sync makes up: up before that deletion, it creates pods at once
  // (manageReplicas); down at the deletion's instant, the sync after both reads the lower spec and may find none missing
  // (the hunt's rs-deletion-cost seed 12: scaled to 10 at the instant a taint evicts one of 11, created at +4m where the
  // answer said +1m30s; rs-slow-start seed 15 alike): no time. A scale down before it is synced first and read by the
  // pods' own answers (the later-scale audit runs check those times)
  const key = w.object?.startsWith('ReplicaSet/') ? w.object.slice('ReplicaSet/'.length) : undefined;
  const spec = key !== undefined ? sim.host.cluster.replicaSets.get(key)?.replicas : undefined;
  // each scale read against the one before it: down and up again is a scale up too (outage-1.31 scaled to 10 at +1m and
  // back to 12 at +1m30s, which created pods then; the answer said +6m10s)
  const scale =
    kth?.at !== undefined && key !== undefined && spec !== undefined
      ? scalesAhead(world, key, spec).find((s) => s.at <= kth.at! && (s.replicas > s.from || (s.at === kth.at && s.replicas < s.from)))
      : undefined;
  const scaledFirst = (s: { at: Micros; replicas: number }, before: string) => {
    const rule = `the timeline scales ${w.object} to ${s.replicas} at ${formatTime(s.at)}, before ${before}: no time is certain`;
    const path = [
      ...(w.path ?? []),
      { guard: 'noScaleBefore', upstream: 'syncReplicaSet / manageReplicas', holds: false, rule, values: { timelineScalesAt: formatTime(s.at) } },
    ];
    return { ...w, check: { rule: `${w.check.rule}; ${rule}`, values: w.check.values }, path };
  };
  // active now: spec.replicas and the deletions it waits for, but one
  const active = spec !== undefined ? spec + waits.count - 1 : undefined;
  if (scale) return scaledUpFirst(sim, w, scale, key, active, world) ?? scaledFirst(scale, `the deletion it would wait for (${formatTime(kth!.at!)})`);
  if (kth?.at !== undefined && kth.w) {
    // certain when nothing could come first: every pod's deletion known, the earlier ones certain
    const sure = (t: PodTime) => t.certain || (t.w?.conditional !== undefined && t.w.conditional.if === event);
    const event = timed.slice(0, waits.count).find((t) => !t.certain)?.w?.conditional?.if;
    const certain = times.every((t) => t.never || (t.at !== undefined && (t.certain || t.at > kth.at!))) && timed.slice(0, waits.count).every((t) => t.certain);
    // or certain but for one event of the timeline alone ("the timeline stops the kubelet at S"), which the condition names
    const onEvent =
      !certain &&
      event !== undefined &&
      /^the timeline [^,]*$/.test(event) &&
      times.every((t) => t.never || (t.at !== undefined && (sure(t) || t.at > kth.at!))) &&
      timed.slice(0, waits.count).every(sure);
    const via = kth.w;
    return {
      ...w,
      check: check(via),
      via,
      ...(certain
        ? { wouldFireAt: formatTime(kth.at!) }
        : onEvent
          ? { conditional: { if: event, at: formatTime(kth.at!) } }
          : { conditional: { if: `${via.object} is deleted then${via.conditional ? ` (${via.conditional.if})` : ''}`, at: formatTime(kth.at!) } }),
    };
  }
  if (times.filter((t) => !t.never).length < waits.count) {
    // never waits for no deletion when the timeline scales it up: the sync creates pods then (one-node-stops seed 78 said
    // never, created at +1m by the scale to 14)
    const up = key !== undefined && spec !== undefined ? scalesAhead(world, key, spec).find((s) => s.replicas > s.from) : undefined;
    if (up) return scaledUpFirst(sim, w, up, key, active, world) ?? scaledFirst(up, 'the deletions it would wait for');
    const via = times.find((t) => t.never)?.w;
    return { ...w, ...(via ? { check: check(via), via } : {}), never: true, ...(via?.neverIf ? { neverIf: via.neverIf } : {}) };
  }
  // no time: the first deletion that names none says why (a timeline scale-down that may take the pod first, …)
  const open = times.find((t) => !t.never && t.at === undefined && t.w?.path?.some((c) => !c.holds && TIME_TAKEN.has(c.guard)))?.w;
  return open ? { ...w, check: check(open), via: open } : w;
}
