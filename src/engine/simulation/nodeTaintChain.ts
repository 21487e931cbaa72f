/**
 * A pod's wait for its node's NoExecute taint, chained to the node lifecycle controller's why-not of that taint (the
 * pod's time is the taint's plus what it tolerates), or to a NoExecute taint the timeline adds first; and the times so
 * chained read against the timeline's other NoExecute taints of the node (whyNotOfControllers' first readers).
 */
import type { NodeRecord, ObjectRef, PodRecord, Taint } from '../model/types';
import { nsKey } from '../model/types';
import { formatTime, parseTimestamp } from '../model/time';
import type { SimController } from '../controllers/controller';
import { withoutTime, type WhyNot, type WhyNotWorld } from '../trace/whyNot';
import { delayAfterTaint } from '../controllers/taintEviction/whyNot';
import { taintText } from '../model/tolerations';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE } from '../controllers/nodeLifecycle/taints';
import { KUBELET_STOPPED_NOW } from '../controllers/nodeLifecycle/whyNotStatusUnknown';
import { readKubeletResume } from './kubeletResumes';
import type { ControllerHost } from '../controllers/controllerHost';

/** what the chain reads of the simulation (explain.ts's Explainable has it) */
interface Chained {
  readonly host: ControllerHost;
}

/** A why-not's check chained to the one it waits for (`what` of it is held back): both rules, both checks' values. */
export function heldBackBy(w: WhyNot, via: WhyNot, what: string): WhyNot['check'] {
  return { rule: `${w.check.rule}; ${what} is held back: ${via.check.rule}`, values: { ...(w.check.values ?? {}), ...(via.check.values ?? {}) } };
}

export function chainToNodeTaint(sim: Chained, w: WhyNot, ref: ObjectRef, nodes: SimController, world: WhyNotWorld): WhyNot {
  const host = sim.host;
  const [, ns, name] = ref.split('/');
  const pod = host.cluster.pods.get(nsKey(ns, name));
  const node = pod?.nodeName ? host.cluster.nodes.get(pod.nodeName) : undefined;
  if (!pod || !node) return w;
  const own = nodes.whyNotOf!(host, node.meta.name, 'NodeTaintedNoExecute', world);
  const via = own && readKubeletResume(own, node.meta.name, world);
  const user = timelineTaint(sim, w, pod, node.meta.name, node.taints, via, world);
  if (user) return user;
  if (!via) return w;
  const ready = node.conditions.find((c) => c.type === 'Ready');
  // the taint the node will get: not-ready also when the time waits for the timeline's Ready=False on a node Ready now
  const notReady = ready?.status === 'False' || !!via.conditional?.if.startsWith('the timeline sets Ready to False at ');
  const taint = notReady ? NOT_READY_NO_EXECUTE : UNREACHABLE_NO_EXECUTE;
  const after = delayAfterTaint(host, pod, node.taints, taint);
  const shift = (t: string | undefined): string | undefined =>
    t === undefined || after.delay === undefined ? undefined : formatTime(parseTimestamp(t)! + after.delay);
  const fires = shift(via.wouldFireAt);
  const cond = via.conditional ? shift(via.conditional.at) : undefined;
  const never = via.never || after.delay === undefined;
  const check = heldBackBy(w, via, via.what);
  const chained: WhyNot = {
    ...w,
    check,
    via,
    path: [...(w.path ?? []), after.check],
    ...(never ? { never: true } : {}),
    ...(via.neverIf ? { neverIf: via.neverIf } : {}),
    ...(fires && !never ? { wouldFireAt: fires } : {}),
    ...(cond && !never && !fires ? { conditional: { if: via.conditional!.if, at: cond } } : {}),
    // one input changed must be enough: the node's, when the pod would go once the node is tainted; the pod's tolerations, when the node will be
    ...(after.delay !== undefined && via.counterfactual ? { counterfactual: via.counterfactual } : {}),
    ...(after.delay === undefined && via.wouldFireAt
      ? { counterfactual: { kind: 'dropTolerations' as const, pod: ref, description: 'the pod without its tolerations' } }
      : {}),
  };
  return never ? chained : readOtherTimelineTaint(sim, chained, pod, node, fires ?? cond, world);
}

/**
 * A time chained to the node lifecycle controller's taint, read against the timeline's own NoExecute taints of the node
 * that timelineTaint does not name (one at the instant of a condition or another taint): one the pod does not tolerate
 * for longer deletes it by then (the hunt's rs-deletion-cost seed 128: node-b1 set Ready=False and tainted
 * example.com/maint:NoExecute at +30s; the pod was said deleted at +5m30s under the not-ready taint, deleted at +30s).
 * No time then.
 */
function readOtherTimelineTaint(sim: Chained, w: WhyNot, pod: PodRecord, node: NodeRecord, named: string | undefined, world: WhyNotWorld): WhyNot {
  if (named === undefined) return w;
  const t = parseTimestamp(named)!;
  const first = (world.nodeEvents?.(node.meta.name) ?? []).find((e) => {
    if (e.kind !== 'taint' || e.taint?.effect !== 'NoExecute' || e.at > t) return false;
    const delay = delayAfterTaint(sim.host, pod, node.taints, e.taint as Taint).delay;
    return delay !== undefined && e.at + delay <= t;
  });
  if (!first) return w;
  const event = `the timeline taints Node/${node.meta.name} with ${taintText(first.taint as Taint)} at ${formatTime(first.at)}`;
  // a taint the pod does not tolerate at all deletes it then, whatever the node lifecycle controller's taint does later
  // (all-zones-down seed 3: node-c1 tainted example.com/maint:NoExecute at +4m after every kubelet stops at +30s: deleted
  // at +4m, no time said against the unreachable taint's +6m10s)
  // no other taint, untaint or condition of the node at that instant (the taint eviction reads them together)
  const alone = (world.nodeEvents?.(node.meta.name) ?? []).filter((e) => e.at === first.at && e.kind !== 'kubelet').length === 1;
  if (alone && delayAfterTaint(sim.host, pod, node.taints, first.taint as Taint).delay === 0) {
    const t = first.taint as Taint;
    const check = {
      guard: 'noTimelineTaintBefore',
      upstream: 'handleNodeUpdate / processPodOnNode (taint_eviction.go)',
      holds: false,
      rule: `${event}, which the pod does not tolerate: it is deleted then`,
      values: { timelineTaintsAt: formatTime(first.at), namedWithoutIt: named },
    };
    return {
      ...withoutTime(w, check, true),
      conditional: { if: event, at: formatTime(first.at) },
      timelineTaint: {
        node: node.meta.name,
        key: t.key,
        ...(t.value !== undefined ? { value: t.value } : {}),
        effect: 'NoExecute' as const,
        at: formatTime(first.at),
        atMicros: first.at,
      },
    };
  }
  return withoutTime(
    w,
    {
      guard: 'noTimelineTaintBefore',
      upstream: 'handleNodeUpdate / processPodOnNode (taint_eviction.go): every NoExecute taint of the node is read',
      holds: false,
      rule: `${event}, which the pod does not tolerate until ${named}: it may be deleted before, so no time is certain`,
      values: { timelineTaintsAt: formatTime(first.at), namedWithoutIt: named },
    },
    true,
  );
}

/**
 * A NoExecute taint the timeline adds to the pod's node before the node lifecycle controller's own
 * (or when that one has no time): the taint eviction controller deletes the pod then, or when its
 * toleration of it runs out. Named with the event as the condition.
 */
function timelineTaint(
  sim: Chained,
  w: WhyNot,
  pod: PodRecord,
  node: string,
  existing: readonly Taint[],
  via: WhyNot | undefined,
  world: WhyNotWorld,
): WhyNot | undefined {
  const t = world.taintsAt?.(node);
  if (!t) return undefined;
  const after = delayAfterTaint(sim.host, pod, existing, t.taint);
  if (after.delay === undefined) return undefined;
  // a what-if of the node's own taint ("if the kubelet stopped now") is no time the run comes to: the timeline's taint
  // is the node's first event (the hunt's one-node-stops seed 2: node-a3 tainted by the timeline at +1m, its pod said
  // to have no time against the what-if's +45s, deleted at +1m)
  const whatIf = via?.conditional?.if.startsWith(KUBELET_STOPPED_NOW) === true;
  const own = via?.wouldFireAt ?? (whatIf ? undefined : via?.conditional?.at);
  if (own !== undefined && parseTimestamp(own)! <= t.at) return undefined;
  const event = `the timeline taints Node/${node} with ${taintText(t.taint)} at ${formatTime(t.at)}`;
  const check = {
    rule: `${w.check.rule}; ${event}`,
    values: { ...(w.check.values ?? {}), timelineTaint: taintText(t.taint), timelineTaintsAt: formatTime(t.at) },
  };
  const timelineTaint = {
    node,
    key: t.taint.key,
    ...(t.taint.value !== undefined ? { value: t.taint.value } : {}),
    effect: 'NoExecute' as const,
    at: formatTime(t.at),
    atMicros: t.at,
  };
  return { ...w, check, path: [...(w.path ?? []), after.check], conditional: { if: event, at: formatTime(t.at + after.delay) }, timelineTaint };
}
