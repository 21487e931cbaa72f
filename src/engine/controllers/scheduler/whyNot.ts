/**
 * The simplified binder's "why not bound (yet)" for a pending pod, as data (trace/whyNot.ts):
 * the checks the binder makes before binding, each the binder's own call. Its filters
 * (`NodeIndex.place`, fit.ts) decide whether some node fits; when none does, they are called
 * again on the pod with one input changed (counterfactuals.ts) to name the input that blocks it.
 */
import type { Micros } from '../../model/time';
import { formatTime } from '../../model/time';
import type { ObjectRef, PodRecord } from '../../model/types';
import { whyNotFrom, type Counterfactual, type WhyNot, type WhyNotCheck } from '../../trace/whyNot';
import type { NodeIndex } from './nodeIndex';
import { fitErrorMessage, type Wording } from './reasons';
import { withoutPlacement, withoutRequests } from './counterfactuals';

const WHAT = 'bound to a node (simplified binder)';
const FILTERS = 'findNodesThatFitPod / RunFilterPlugins (simplified binder, not kube-scheduler)';

/** `retryAt`: when the binder next tries this pod (schedulingQueue.ts `nextTry`; null: it waits for a change of a node or pod). */
export function pendingPodWhyNot(ref: ObjectRef, pod: PodRecord, index: NodeIndex, w: Wording, retryAt: Micros | null): WhyNot {
  const path: WhyNotCheck[] = [
    { guard: 'podPending', upstream: 'scheduleOne (an active pod without spec.nodeName)', holds: true, rule: 'the pod is active and not bound to a node' },
  ];
  const placed = index.place(pod, w);
  if (placed.best) {
    path.push({
      guard: 'findNodesThatFitPod',
      upstream: FILTERS,
      holds: true,
      rule: `${placed.best.name} fits (least allocated, score ${placed.score})`,
      values: { node: placed.best.name, score: placed.score, feasible: placed.feasible },
    });
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
  const message = fitErrorMessage(index.size, placed.reasons);
  path.push({
    guard: 'findNodesThatFitPod',
    upstream: FILTERS,
    holds: false,
    rule: 'some node passes every filter',
    unmet: message,
    values: Object.fromEntries(placed.reasons),
  });
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
