/**
 * Taint eviction: v1.12's NoExecuteTaintManager and v1.29+'s
 * taint-eviction-controller (controller `taint-eviction` in the trace).
 *
 * Public API, for the simulation loop:
 *
 *   const c = createTaintEvictionController();   // a SimController
 *   c.start(host, 'reconstructed' | 'fresh');    // the informers' initial list
 *   c.onNodeEvent(host, type, node, before);     // queue: NoExecute taints changed / node added or deleted
 *   c.onPodEvent(host, type, pod, before);       // queue: nodeName or tolerations changed / pod added or deleted
 *   c.nextWake();                                // earliest of: queued updates (the instant they came), timers
 *   c.wake(host);                                // node updates, then pod updates, then timers due at host.now
 *   c.machines(); c.whyNot(host, 'Pod/ns/name'); c.save(); c.restore(saved, host);
 *
 * Construct it for every version; whether it acts is decided at `start` from
 * the host (`taintManagerRuns`): 1.29+ when `taint-eviction-controller` is in
 * `host.config.controllers`; before, when `nodelifecycle` runs and (before
 * 1.27) `host.config.enableTaintManager` is true. A disabled controller queues
 * nothing, decides nothing, and says why in `whyNot`.
 *
 * Decisions: `PodEvictionScheduled` (deadline in `details.deadline`),
 * `PodEvictionCancelled`, `PodEvicted` (after `host.apiCall(..., 'delete',
 * 'pods', ...)`, then `host.deletePod`; 1.26+ first `'patch'` for the
 * DisruptionTarget condition, then `host.updatePod`). Injected API failures are
 * retried 10 ms apart, 5 attempts in all, as deletePodHandler does.
 *
 * Facts read with `host.recall`: `(Node/X, 'taint:KEY:EFFECT')` (the decision
 * that added, or last changed, that taint), `(Pod/ns/n, 'deleted')`, and, when
 * present, `(Pod/ns/n, 'bound')` / `(Pod/ns/n, 'applied')` (the latest is the pod update's cause). Facts written
 * with `host.remember`: `(Pod/ns/n, 'evictionScheduled')` and
 * `(Pod/ns/n, 'deleted')`.
 *
 * Within one instant the controller needs to be woken after the node lifecycle
 * controller has tainted nodes: its `nextWake()` returns the instant an update
 * was queued, so the loop's "repeat while work is due now" picks it up.
 */
import { TaintEvictionController } from './controller';
import type { TaintEvictionOptions } from './state';

export { TaintEvictionController } from './controller';
export type { TaintEvictionOptions } from './state';
export { DELETE_ATTEMPTS, DELETE_RETRY_INTERVAL, withDisruptionTarget } from './deletePodHandler';
export { taintFact, rootSnapshotTaints, SNAPSHOT_TAINTS_ASSUMPTION } from './snapshotTaints';
export { sameTaints, sameNoExecuteTaints, sameTolerations } from './semanticEqual';
export { decidePodOnNode, reconstructCreatedAt, type PodDecision, type ExistingWork } from './decide';
export { taintManagerBehaviour, taintManagerRuns, separateController, type TaintManagerBehaviour } from './behaviour';
export { podEvictionMachine, podEvictionMachineDefinition, podEvictionTransition } from './machine';

export function createTaintEvictionController(options: TaintEvictionOptions = {}): TaintEvictionController {
  return new TaintEvictionController(options);
}
