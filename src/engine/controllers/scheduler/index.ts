/**
 * The simplified binder (controller `scheduler`) — a simplification of
 * kube-scheduler, named as one in every decision — and the simplified kubelet
 * start of the pods it binds.
 *
 * API (for the simulation loop; construct it only when the scenario has
 * `binder: simplified`, the default):
 *   createSimplifiedBinder(options?) -> SimplifiedBinder (a SimController)
 *     start(host)              every active pod without spec.nodeName waits to be bound (snapshot pods too)
 *     onPodEvent / onNodeEvent new pods wait; a node added/removed, a change of a node's class (Ready,
 *                              cordon, taints, labels, allocatable) or a pod leaving a node retries
 *                              every waiting pod at once
 *     nextWake() / wake(host)  binds to the least allocated feasible node (PodBound), or PodUnschedulable
 *                              in kube-scheduler's words once per pod until something changes; then
 *                              starts pods whose podStartupDelay has passed (PodStarted)
 *     whyNot(host, Pod/NS/N)   for an unbound pod, outcome PodBound as data (whyNot.ts: the filters' answer, the
 *                              input that blocks it) and each of the first nodes' reasons;
 *                              for a bound pod not yet Running, the delay or the node's readiness
 *     save() / restore(saved)
 *
 * Facts: reads Pod `created` / `applied` (causes of PodBound); writes Pod
 * `bound` (PodBound) and `ready-status` (PodStarted).
 */
import { SimplifiedBinder, type SimplifiedBinderOptions } from './binder';

export { SimplifiedBinder, type SimplifiedBinderOptions } from './binder';
export { leastAllocatedScore, naturalCompare, nodeReadyStatus, placementReason, resourceMisfit, SIMPLIFICATION, type Usage } from './fit';
export { NodeIndex, type Placement } from './nodeIndex';
export { fitErrorMessage, wordingFor } from './reasons';
export { nodeAllocatable, podRequests } from './resources';
export { matchesPlacement, requiredPlacement } from './nodeAffinity';

export function createSimplifiedBinder(options: SimplifiedBinderOptions = {}): SimplifiedBinder {
  return new SimplifiedBinder(options);
}
