/**
 * The simplified binder (controller `scheduler`) — a simplification of
 * kube-scheduler, named as one in every decision — and the simplified kubelet
 * start of the pods it binds.
 *
 * API (for the simulation loop; construct it only when the scenario has
 * `binder: simplified`, the default):
 *   createSimplifiedBinder() -> SimplifiedBinder (a SimController)
 *     start(host)              every active pod without spec.nodeName waits to be bound (snapshot pods too)
 *     onPodEvent / onNodeEvent new pods wait; a node added/removed or a change of a node's Ready status,
 *                              taints or spec.unschedulable retries every waiting pod at once
 *     nextWake() / wake(host)  binds (PodBound / PodUnschedulable once per pod until something changes),
 *                              then starts pods whose podStartupDelay has passed (PodStarted)
 *     whyNot(host, Pod/NS/N)   for an unbound pod, what blocked each node (readiness, cordon, taint);
 *                              for a bound pod not yet Running, the delay or the node's readiness
 *     save() / restore(saved)
 *
 * Facts: reads Pod `created` / `applied` (causes of PodBound); writes Pod
 * `bound` (PodBound) and `ready-status` (PodStarted).
 */
import { SimplifiedBinder } from './binder';

export { SimplifiedBinder } from './binder';
export { fits, fitText, nodeReadyStatus, SIMPLIFICATION, type FitResult } from './fit';

export function createSimplifiedBinder(): SimplifiedBinder {
  return new SimplifiedBinder();
}
