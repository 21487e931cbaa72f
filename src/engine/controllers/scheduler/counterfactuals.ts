/**
 * The inputs a pending pod's why-not may name as the one that, changed, lets the binder place it:
 * the same pod without its placement constraints or without its resource requests. The binder's
 * why-not runs its filters on the changed pod to say so, and the property test runs the scenario
 * with the changed pod: one definition of the change for both.
 */
import type { KObject, PodRecord } from '../../model/types';

const specOf = (pod: PodRecord): KObject => (pod.raw.spec && typeof pod.raw.spec === 'object' ? (pod.raw.spec as KObject) : {});

/** the pod without nodeSelector and affinity (a new record; the filters read `raw.spec`) */
export function withoutPlacement(pod: PodRecord): PodRecord {
  const { nodeSelector: _s, affinity: _a, ...spec } = specOf(pod);
  return { ...pod, raw: { ...pod.raw, spec } };
}

/** the pod without resource requests, overhead or init containers' requests (a new record) */
export function withoutRequests(pod: PodRecord): PodRecord {
  const { overhead: _o, ...spec } = specOf(pod);
  const strip = (list: unknown): unknown =>
    Array.isArray(list) ? list.map((c) => (c && typeof c === 'object' ? { ...(c as KObject), resources: {} } : c)) : list;
  const out: KObject = { ...spec, containers: strip(spec.containers) };
  if (spec.initContainers !== undefined) out.initContainers = strip(spec.initContainers);
  return { ...pod, raw: { ...pod.raw, spec: out } };
}
