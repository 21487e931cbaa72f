/**
 * The node lifecycle controller of kube-controller-manager, 1.12 … 1.37 (the table in versions/ says what changed when), as
 * xstate machines over the simulated clock.
 *
 * Public API
 *   createNodeLifecycleController(options?) -> NodeLifecycleController (a SimController)
 *   NodeLifecycleController
 *     start(host, memory)        informers' initial list; memory 'reconstructed' | 'fresh' (spec 1.4)
 *     onNodeEvent / onLeaseEvent / onPodEvent   informer events (notes work, never acts at once)
 *     isMonitorPassDue(now)      true when a monitor pass is due at `now`
 *     nextWake() / wake(host)    the monitor pass, informer work, the 100 ms tainting/eviction pass
 *     zones(host), machines(), save(), restore(saved, host)
 *     whyNot(host, ref, world?)  why not (yet), as data (whyNot.ts); `world` says which kubelets post
 *     whyNotOf(host, node, outcome, world?)   the node's taint or eviction, for a pod's why-not to chain to
 *   Pure pieces, also used by tests and other shells:
 *     RateLimitedTimedQueue, token bucket helpers   (rateLimitedQueue.ts)
 *     computeZoneState, reducedQPS, healthyQPS, isMasterNodeName, disruptionExclusion (disruption.ts)
 *     CONDITION_TAINTS, noScheduleTaintDiff, swapTaints (taints.ts)
 *     labelsToReconcile, labelsInStep (labels.ts): reconcileNodeLabels (1.14+)
 *     nodeHealthMachine, zoneMachine, monitorMachine (machines.ts): the machines decide. The
 *       controller asks a node's machine before each write and writes what it answers
 *       (nodeMachines.ts; options.strictMachines throws on a refusal), and takes each zone's state
 *       and limiter from its zone machine's transition (zoneMachines.ts)
 *     noExecuteFor / NO_EXECUTE_FOR_READY (taints.ts): the NoExecute taint a Ready status calls for
 *     nextHealth, conditionsSetUnknown (tryUpdateNodeHealth.ts): tryUpdateNodeHealth's pure part
 *     probeExpired, podEvictionTimeoutElapsed, zoneLimiterQPS, zoneStateByGuards, deletePodsDeletes
 *       (guards.ts): the checks the controller decides with and whyNot.ts explains with
 *     rulesOf (versionRules.ts): node-lifecycle details by version
 *
 * Agreement with the simulation (simulation/simulation.ts):
 * - Monitor passes run at controllerStartTime + k × nodeMonitorPeriod. The
 *   simulation advances `host.pass` when a pass is due at T and wakes this
 *   controller; `wake` runs the pass when `now >= nextMonitorAt` (the same
 *   schedule; `isMonitorPassDue(T)` answers it) and only once per instant.
 * - Within one instant `wake` does, in order: informer work noted since the
 *   last wake (doNoScheduleTaintingPass, reconcileNodeLabels, 1.12's deprecated-key fix, processPod),
 *   the monitor pass, then the 100 ms tainting/eviction pass when T is on the
 *   grid controllerStartTime + j × 100 ms and a zone queue has a token. What
 *   its own writes trigger is informer work at the same instant: `nextWake()`
 *   returns T again and the simulation's round loop calls `wake` again.
 * - `nextWake()` skips empty 100 ms passes: it returns the first grid instant
 *   at which some zone's token bucket would let Try take a token.
 * - A restart (or failover) constructs a new instance; its memory is empty.
 *   `memory: 'reconstructed'` is honoured only at the simulation's start.
 * - Facts for causes: see the comment at the top of controller.ts, which also
 *   lists the files named after upstream's functions.
 *
 * Upstream sources read (kubernetes/kubernetes through the search tool):
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go at the stored
 * commit 003e86297d18 (1.33 era: SeparateTaintEvictionController, component-
 * helpers GetZoneKey, observedReadyCondition in processTaintBaseEviction), a
 * 1.11/1.12-era copy (monitorNodeStatus, tryUpdateNodeStatus,
 * doFixDeprecatedTaintKeyPass, zonePodEvictor, system.IsMasterNode), a
 * 1.20-era copy (nodeEvictionMap, processPod, nodesToRetry, LegacyNodeRoleBehavior),
 * scheduler/rate_limited_queue.go at 18e0ba763c88 (glog era, same semantics
 * since), CHANGELOG-1.34 (#120816: the unreachable taint in the same pass) and
 * the PR threads #89059/#96876 (taint reconcile), #81167, #84445, #74442 and
 * #91046 (label reconcile, and its source of truth flipped in 1.19).
 *
 * Deliberate simplifications (each visible in the trace or the README):
 * - Go map iteration orders (zones, nodes in a pass) are replaced by name order;
 *   handleDisruption drops every zone without nodes in the same pass.
 * - A failed status update is tried again at once, up to 6 attempts in the
 *   pass (upstream sleeps 20 ms between them); after the last the node sits
 *   out that pass, as upstream.
 * - Not modelled: cloud-provider node deletion and shutdown taints, the
 *   workqueue backoff of processPod (retried at the next monitor pass instead).
 * - 1.12's tainting pass dereferences a missing Ready condition (a crash
 *   upstream); here it retries after 50 ms as later versions do.
 */
import { NodeLifecycleController, type NodeLifecycleOptions } from './controller';

export { NodeLifecycleController, NODE_EVICTION_PERIOD, NODE_HEALTH_UPDATE_ATTEMPTS, type NodeLifecycleOptions, type SavedNodeLifecycle } from './controller';
export { RateLimitedTimedQueue, newBucket, tryAccept, wouldAllow, nextAllowedOnGrid, effectiveRate, limiterQPS } from './rateLimitedQueue';
export { computeZoneState, reducedQPS, healthyQPS, isMasterNodeName, disruptionExclusion, LABEL_EXCLUDE_DISRUPTION } from './disruption';
export { CONDITION_TAINTS, conditionTaintsOf, noScheduleTaintDiff, swapTaints, TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE } from './taints';
export { nodeHealthMachine, zoneMachine, monitorMachine } from './machines';
export { rulesOf, type NodeLifecycleRules } from './versionRules';
export { labelsToReconcile, labelsInStep, type LabelSourceOfTruth } from './labels';

/** The factory the simulation's wiring calls at every (re)start of kube-controller-manager. */
export function createNodeLifecycleController(options: NodeLifecycleOptions = {}): NodeLifecycleController {
  return new NodeLifecycleController(options);
}
