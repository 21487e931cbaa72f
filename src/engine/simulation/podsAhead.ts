/**
 * What the ReplicaSet controller will read of its pods at a later instant, for the scale-down why-not
 * of a scale that comes after other events of the timeline (or while nodes fail): the timeline's
 * events up to then, by what they reach, and a pod on a failing node as it will be then. A node whose
 * kubelet stops goes Unknown at the monitor pass its why-not names, and that pass marks its pods not
 * ready (MarkPodsNotReady, 1.12's MarkAllPodsNotReady alike); the pod's deletion (taint eviction, or
 * 1.12's pod eviction) comes at the time its own why-not names. Read from those answers, never
 * restated: a pod whose deletion may come by then, or whose node's time is not certain, is not read.
 */
import type { Micros } from '../model/time';
import { parseTimestamp } from '../model/time';
import type { ObjectRef, PodRecord } from '../model/types';
import { podRef } from '../model/types';
import type { Scenario, TimeSpec } from '../snapshot/types';
import type { ControllerHost } from '../controllers/controllerHost';
import type { SimController } from '../controllers/controller';
import type { WhyNot, WhyNotWorld, TimelineEvent } from '../trace/whyNot';
import { resolveNodeTarget } from './world';
import { TIMELINE_STOPS_KUBELET } from '../controllers/nodeLifecycle/whyNotStatusUnknown';

const DELETIONS = new Set(['PodDeletedByTaintEviction', 'PodDeletedByPodEviction']);
/** the controllers whose answers say when a pod is deleted, and when its node goes Unknown */
const DELETING = new Set<string>(['taint-eviction', 'node-lifecycle']);

type Ask = (ref: ObjectRef, world: WhyNotWorld, asked: (c: SimController) => boolean) => WhyNot[];

/** The timeline's events after `now` up to `until` (inclusive: the sync at `until` runs after that instant's events), scales left out. */
export function eventsUntil(
  events: readonly Scenario['events'][number][],
  timeOf: (at: TimeSpec) => Micros,
  host: Pick<ControllerHost, 'now' | 'cluster'>,
  until: Micros,
): TimelineEvent[] {
  const out: TimelineEvent[] = [];
  for (const e of events) {
    const at = timeOf(e.at);
    if (at <= host.now || at > until || e.kind === 'scale') continue;
    if (e.kind === 'kubelet' || e.kind === 'condition' || e.kind === 'taint' || e.kind === 'untaint') {
      const nodes = resolveNodeTarget(host.cluster.nodes, e.target).found.map((n) => n.meta.name);
      out.push({ at, kind: e.kind === 'kubelet' && e.action === 'stop' && !e.only ? 'stop' : 'node', nodes, what: e.kind });
    } else if (e.kind === 'pod') out.push({ at, kind: 'pod', pod: e.pod.startsWith('Pod/') ? e.pod : `Pod/${e.pod}`, what: 'pod' });
    else if (e.kind === 'delete' && e.ref.startsWith('Pod/')) out.push({ at, kind: 'pod', pod: e.ref, what: 'delete' });
    else out.push({ at, kind: 'other', what: e.kind });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** The earliest time an answer names (certain, or under the timeline's kubelet stop alone: no earlier), Infinity for never, undefined for none. */
function earliest(ws: readonly WhyNot[]): Micros | undefined {
  if (ws.length && ws.every((w) => w.never)) return Infinity;
  let min: Micros | undefined;
  for (const w of ws) {
    if (w.never) continue;
    // a time under the stop, "and its zone's rate and queue let it through at once" or not: the outcome comes then or later
    const t = w.wouldFireAt ?? (w.conditional?.if.startsWith(TIMELINE_STOPS_KUBELET) ? w.conditional.at : undefined);
    if (t === undefined) return undefined;
    const at = parseTimestamp(t)!;
    if (min === undefined || at < min) min = at;
  }
  return min;
}

/** When the node goes Unknown: certain, or under the timeline's stop alone; Infinity when it does not, undefined when no time is certain. */
function unknownAt(ws: readonly WhyNot[]): Micros | undefined {
  const w = ws.find((x) => x.outcome === 'NodeStatusUnknown');
  if (!w) return undefined;
  if (w.never) return Infinity;
  const t = w.wouldFireAt ?? (w.conditional && /^the timeline stops the kubelet at [^,]*$/.test(w.conditional.if) ? w.conditional.at : undefined);
  return t === undefined ? undefined : parseTimestamp(t);
}

/**
 * WhyNotWorld.podAt: the pod as it will be at `at`, its node failing now or stopped by the timeline
 * before then; undefined when it may be deleted by then (taint-eviction runs before the ReplicaSet
 * controller at one instant) or a time it needs is not certain.
 */
export function podAtOf(host: ControllerHost, world: WhyNotWorld, ask: Ask): NonNullable<WhyNotWorld['podAt']> {
  return (pod, at) => {
    const ref = podRef(pod.meta.namespace, pod.meta.name);
    const key = `podAt:${ref}@${at}`;
    const memo = world.memo?.get(key) as PodRecord | null | undefined;
    if (memo !== undefined) return memo ?? undefined;
    const out = read(host, world, ask, pod, ref, at);
    world.memo?.set(key, out ?? null);
    return out;
  };
}

function read(host: ControllerHost, world: WhyNotWorld, ask: Ask, pod: PodRecord, ref: ObjectRef, at: Micros): PodRecord | undefined {
  if (!pod.nodeName || !host.cluster.nodes.has(pod.nodeName)) return undefined;
  const deletion = earliest(ask(ref, world, (c) => DELETING.has(c.name)).filter((w) => w.outcome && DELETIONS.has(w.outcome)));
  if (deletion === undefined || deletion <= at) return undefined;
  const ready = pod.conditions.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return pod;
  // MarkPodsNotReady runs at the pass that turns the node's Ready from True (monitorNodeHealth: observed True, current
  // not): a node whose Ready is not True now (a kubelet that posted False, a node Unknown already) leaves its pods as they are
  const nodeReady = host.cluster.nodes.get(pod.nodeName)!.conditions.find((c) => c.type === 'Ready')?.status;
  if (nodeReady !== 'True') return pod;
  const unknown = unknownAt(ask(`Node/${pod.nodeName}`, world, (c) => c.name === 'node-lifecycle'));
  if (unknown === undefined) return undefined;
  if (unknown > at) return pod;
  // the pass that sets the node's Ready to Unknown marks its pods not ready (both containers' and the pod's)
  const conditions = pod.conditions.map((c) =>
    c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False' as const, lastTransitionTime: unknown } : c,
  );
  return { ...pod, conditions };
}
