/**
 * doNodeProcessingPassWorker (pkg/controller/nodelifecycle/node_lifecycle_controller.go) and 1.12's doFixDeprecatedTaintKeyPass:
 * the informer work noted since the last wake (node adds and updates), run at
 * the same instant: the NoSchedule taints the conditions call for, the OS/arch
 * labels (reconcileNodeLabels), then the pods newly bound (processPod,
 * podEviction.ts).
 */
import { recordTaintPatch } from './taintDecisions';
import { type NodeRecord, nodeRef } from '../../model/types';
import type { Check } from '../../trace/decision';
import type { ControllerHost } from '../controllerHost';
import { askNodeLabels, askNoScheduleTaints } from './doNodeProcessingPassMachines';
import { askFixDeprecatedTaintKey } from './doFixDeprecatedTaintKeyPassMachine';
import { labelsInStep, labelsToReconcile } from './labels';
import { processPod } from './podEviction';
import { NodeLifecycleState } from './state';
import { deprecatedTaintFix, noScheduleTaintDiff, noScheduleTaintsUpToDate, swapTaints, taintText } from './taints';

/** Nodes (or pods) processPending takes between two questions to the wake's shouldYield (nlc.ask). */
const YIELD_EVERY = 16;

/**
 * The node and pod updates noted since the last call, in name order; a generator the controller's wake
 * runs, which yields (its rest kept) when nlc.ask says so: 1,667 nodes' NoSchedule taints after the pass
 * in which a zone's nodes go Unknown, 5,000 nodes' at the first pass at 5,000 nodes.
 */
export function* processPending(nlc: NodeLifecycleState, host: ControllerHost): Generator<void, void, void> {
  if (nlc.pendingAt === null || nlc.pendingAt > host.now) return;
  const nodes = [...nlc.pendingNodes].sort();
  const pods = [...nlc.pendingPods].sort();
  nlc.pendingNodes.clear();
  nlc.pendingPods.clear();
  nlc.pendingAt = null;
  let n = 0;
  for (const name of nodes) {
    if (++n % YIELD_EVERY === 0 && nlc.ask?.()) yield;
    const node = host.cluster.nodes.get(name);
    if (!node) continue;
    if (host.behaviour.fixesDeprecatedTaintKeys) doFixDeprecatedTaintKeyPass(nlc, host, node);
    if (nlc.rules.taintNodesByCondition) doNoScheduleTaintingPass(nlc, host, node);
    // doNodeProcessingPassWorker: the labels after the NoSchedule taints, on every node add and update
    if (nlc.rules.labelsSourceOfTruth !== 'none') reconcileNodeLabels(nlc, host, node);
  }
  for (const key of pods) {
    if (++n % YIELD_EVERY === 0 && nlc.ask?.()) yield;
    processPod(nlc, host, key);
  }
}

/**
 * reconcileNodeLabels: the OS/arch labels of the other spelling follow the source of truth
 * (labels.ts). A failed patch is logged upstream and not requeued ("TODO: Add nodeName back to
 * the queue"): the node's next update tries again.
 */
export function reconcileNodeLabels(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord): void {
  const truth = nlc.rules.labelsSourceOfTruth;
  if (labelsInStep(node.meta.labels, truth)) return;
  const { updates, checks } = labelsToReconcile(node.meta.labels, truth);
  const keys = Object.keys(updates);
  const tr = askNodeLabels(node.meta.name, { type: 'RECONCILE_LABELS', labelsToUpdate: updates });
  if (!tr) return;
  const ref = nodeRef(node.meta.name);
  if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref, tr)) return;
  host.setNodeLabels(node, { ...node.meta.labels, ...updates });
  nlc.decide(host, {
    action: 'NodeLabelsReconciled',
    object: ref,
    summary: `Set label${keys.length === 1 ? '' : 's'} ${keys.map((k) => `${k}=${updates[k]}`).join(', ')} (kept in step with the ${truth} OS/arch labels)`,
    because: [
      ...checks,
      {
        rule: `reconcileNodeLabels: the ${truth === 'stable' ? 'stable (kubernetes.io/) OS/arch labels are the source of truth (1.19+)' : 'beta (beta.kubernetes.io/) OS/arch labels are the source of truth (1.14-1.18)'}`,
        values: { sourceOfTruth: truth },
      },
    ],
    causes: nlc.causes(host.recall(ref, 'applied'), host.recall(ref, 'created')),
    machine: tr,
    source: nlc.src('reconcileNodeLabels'),
    details: { labels: updates },
  });
}

/** doNoScheduleTaintingPass: the NoSchedule taints the conditions (and spec.unschedulable) call for. */
export function doNoScheduleTaintingPass(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord): void {
  if (noScheduleTaintsUpToDate(node, nlc.rules.minor)) return;
  const { toAdd, toRemove } = noScheduleTaintDiff(node, nlc.rules.minor);
  const tr = askNoScheduleTaints(node.meta.name, { type: 'NO_SCHEDULE_PASS', taintsToAdd: toAdd.map(taintText), taintsToDel: toRemove.map(taintText) });
  if (!tr) return;
  const ref = nodeRef(node.meta.name);
  // failures are logged upstream and not requeued ("TODO: Add nodeName back to the queue")
  if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref, tr)) return;
  const r = swapTaints(node.taints, toAdd, toRemove, host.now);
  host.setNodeTaints(node, r.taints);
  const conditions = Object.fromEntries(node.conditions.map((c) => [c.type, c.status]));
  const because: Check[] = [
    {
      rule: 'TaintNodesByCondition: each node condition maps to a NoSchedule taint (Ready False -> not-ready, Unknown -> unreachable, pressure True -> its taint), spec.unschedulable -> unschedulable',
      values: { conditions, unschedulable: node.unschedulable },
    },
  ];
  const cause = nlc.causes(host.recall(ref, 'ready-status'), host.recall(ref, 'heartbeat'));
  recordTaintPatch(nlc, host, ref, r, {
    because,
    cause,
    machine: tr,
    source: nlc.src('doNoScheduleTaintingPass'),
    summary: (t, change) => `${change === 'removed' ? 'Removed' : 'Added'} taint ${taintText(t)}`,
  });
}

/** doFixDeprecatedTaintKeyPass (1.12): node.alpha.kubernetes.io/notReady|unreachable -> node.kubernetes.io/not-ready|unreachable. */
export function doFixDeprecatedTaintKeyPass(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord): void {
  const { toAdd, toRemove } = deprecatedTaintFix(node);
  if (!toAdd.length && !toRemove.length) return;
  const tr = askFixDeprecatedTaintKey(node.meta.name, {
    type: 'FIX_DEPRECATED_TAINT_KEYS',
    taintsToAdd: toAdd.map(taintText),
    taintsToDel: toRemove.map(taintText),
  });
  if (!tr) return;
  const ref = nodeRef(node.meta.name);
  if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref, tr)) return;
  const r = swapTaints(node.taints, toAdd, toRemove, host.now);
  host.setNodeTaints(node, r.taints);
  const because: Check[] = [{ rule: 'deprecated taint keys are replaced by their node.kubernetes.io/ names', values: { deprecated: toRemove.map(taintText) } }];
  recordTaintPatch(nlc, host, ref, r, {
    because,
    machine: tr,
    source: nlc.src('doFixDeprecatedTaintKeyPass'),
    summary: (t, change) => (change === 'removed' ? `Removed deprecated taint ${taintText(t)}` : `Added taint ${taintText(t)}`),
  });
}
