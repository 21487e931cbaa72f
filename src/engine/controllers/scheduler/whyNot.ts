/**
 * The simplified binder's "why not bound (yet)" for a pending pod, as data (trace/whyNot.ts):
 * the checks the binder makes before binding, each the binder's own call. Its filters
 * (`NodeIndex.place`, fit.ts) decide whether some node fits; when none does, they are called
 * again on the pod with one input changed (counterfactuals.ts) to name the input that blocks it.
 */
import type { Micros } from '../../model/time';
import { formatDuration, formatTime } from '../../model/time';
import type { ControllerHost } from '../controllerHost';
import { isPodActive } from '../replicaSet/podUtil';
import { nodeReadyStatus } from './fit';
import type { ObjectRef, PodRecord } from '../../model/types';
import { whyNotFrom, type Counterfactual, type WhyNot, type WhyNotCheck } from '../../trace/whyNot';
import type { NodeIndex, Placement } from './nodeIndex';
import type { Check } from '../../trace/decision';
import { fitErrorMessage, type Wording } from './reasons';
import { withoutPlacement, withoutRequests } from './counterfactuals';

const WHAT = 'bound to a node (simplified binder)';
const FILTERS = 'findNodesThatFitPod / RunFilterPlugins (simplified binder, not kube-scheduler)';

const PENDING: WhyNotCheck = {
  guard: 'podPending',
  upstream: 'scheduleOne (an active pod without spec.nodeName)',
  holds: true,
  rule: 'the pod is active and not bound to a node',
};

/** findNodesThatFitPod's answer for a placement: the node that fits best, or the reasons none does. */
export function fitCheck(placed: Placement, total: number): WhyNotCheck {
  if (placed.best)
    return {
      guard: 'findNodesThatFitPod',
      upstream: FILTERS,
      holds: true,
      rule: `${placed.best.name} fits (least allocated, score ${placed.score})`,
      values: { node: placed.best.name, score: placed.score, feasible: placed.feasible },
    };
  return {
    guard: 'findNodesThatFitPod',
    upstream: FILTERS,
    holds: false,
    rule: 'some node passes every filter',
    unmet: fitErrorMessage(total, placed.reasons),
    values: Object.fromEntries(placed.reasons),
  };
}

/**
 * The guards a binder decision (PodBound, PodUnschedulable) passed through, as its `because` lists
 * them after its own checks: the same checks, in the same words, as the why-not of a pending pod.
 */
export function binderGuardChecks(placed: Placement, total: number): Check[] {
  return [PENDING, fitCheck(placed, total)].map((c) => ({
    rule: `guard ${c.guard}: ${c.holds ? c.rule : `${c.rule}: not so, ${c.unmet}`} (${c.upstream})`,
    values: { [c.guard]: c.holds, ...c.values },
  }));
}

/** `retryAt`: when the binder next tries this pod (schedulingQueue.ts `nextTry`; null: it waits for a change of a node or pod). */
export function pendingPodWhyNot(ref: ObjectRef, pod: PodRecord, index: NodeIndex, w: Wording, retryAt: Micros | null): WhyNot {
  const placed = index.place(pod, w);
  const path: WhyNotCheck[] = [PENDING, fitCheck(placed, index.size)];
  if (placed.best) {
    path.push({
      guard: 'retried',
      upstream: 'the scheduling queue (schedulingQueue.ts: moved by a cluster event that may make it fit, after its backoff, or by the leftover flush)',
      holds: false,
      rule: 'the binder tries the pod again',
      unmet: retryAt !== null ? 'the binder tries it again then' : 'the binder tried the pod and waits for a change of a node or a pod',
      ...(retryAt !== null ? { values: { nextPass: formatTime(retryAt) } } : {}),
    });
    return whyNotFrom(WHAT, 'PodBound', ref, path, retryAt !== null ? { wouldFireAt: formatTime(retryAt) } : {});
  }
  return whyNotFrom(WHAT, 'PodBound', ref, path, blockingInput(ref, pod, index, w));
}

/** the input that, changed, lets some node pass the filters: the filters are asked of the changed pod */
function blockingInput(ref: ObjectRef, pod: PodRecord, index: NodeIndex, w: Wording): { counterfactual?: Counterfactual } {
  if (index.place(withoutPlacement(pod), w).best)
    return { counterfactual: { kind: 'dropPlacement', pod: ref, description: 'the pod without its nodeSelector and required node affinity' } };
  if (index.place(withoutRequests(pod), w).best)
    return { counterfactual: { kind: 'dropRequests', pod: ref, description: 'the pod without its resource requests' } };
  return {};
}

/**
 * A bound pod's why-not: its simplified kubelet start, due at `start.at`, or waiting for its node (`waitingFor`) to be Ready.
 */
export function boundPodWhyNot(host: ControllerHost, start: { at: Micros } | undefined, waitingFor: string | undefined): WhyNot[] {
  const out: WhyNot[] = [];
  if (start) {
    out.push({
      what: 'Running and Ready (simplified kubelet start)',
      check: { rule: 'podStartupDelay has not elapsed since binding', values: { podStartupDelay: formatDuration(host.kubelet.podStartupDelay) } },
      wouldFireAt: formatTime(start.at),
    });
  }
  if (waitingFor) {
    const node = host.cluster.nodes.get(waitingFor);
    out.push({
      what: 'Running and Ready (simplified kubelet start)',
      check: {
        rule: 'its node is not Ready (read as: its kubelet is not running)',
        values: { node: waitingFor, ready: node ? nodeReadyStatus(node) : 'node gone' },
      },
    });
  }
  return out;
}

/**
 * Whether the binder, restored from `saved` onto the records `host` holds, may answer about `object` (SimController
 * whyNotAfterRestore): a pending pod reads its node index, which the restore makes; a bound one only its start or wait
 * for its node, both in `saved` as they are restored. False where its why-not would be none.
 */
export function binderMayAnswer(object: ObjectRef, host: ControllerHost, saved: { starts: [string, unknown][]; waitingForNode: [string, string][] }): boolean {
  const [kind, ns, name] = object.split('/');
  if (kind !== 'Pod' || !ns || !name) return false;
  const key = `${ns}/${name}`;
  const pod = host.cluster.pods.get(key);
  if (!pod) return false;
  if (!pod.nodeName && isPodActive(pod)) return true;
  return saved.starts.some(([k]) => k === key) || saved.waitingForNode.some(([k]) => k === key);
}
