/**
 * The simplified binder's node check (a simplification of kube-scheduler, not
 * a port of it): a node fits a pod when
 *   1. its Ready condition is True,
 *   2. it is not cordoned (spec.unschedulable), unless the pod tolerates
 *      node.kubernetes.io/unschedulable:NoSchedule (as the scheduler's
 *      NodeUnschedulable filter),
 *   3. the pod tolerates each of its NoSchedule and NoExecute taints
 *      (`TolerationsTolerateTaint`, as the TaintToleration filter).
 * Resources, affinity, ports, volumes and topology spread are not looked at.
 */
import type { NodeRecord, PodRecord, Taint } from '../../model/types';
import { taintText, toleratesTaint } from '../../model/tolerations';

export const SIMPLIFICATION =
  'simplified binder (not kube-scheduler): the first node by name that is Ready and whose NoSchedule/NoExecute taints the pod tolerates; resources, affinity and spreading are not modelled';

export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export type FitResult =
  | { fits: true }
  | { fits: false; reason: 'not-ready'; ready: string }
  | { fits: false; reason: 'unschedulable' }
  | { fits: false; reason: 'taint'; taint: string };

export function nodeReadyStatus(node: NodeRecord): string {
  for (const c of node.conditions) if (c.type === 'Ready') return c.status;
  return 'missing';
}

export function fits(pod: PodRecord, node: NodeRecord): FitResult {
  const ready = nodeReadyStatus(node);
  if (ready !== 'True') return { fits: false, reason: 'not-ready', ready };
  if (node.unschedulable && !toleratesTaint(pod.tolerations, { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' })) {
    return { fits: false, reason: 'unschedulable' };
  }
  for (const t of node.taints) {
    if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
    if (!toleratesTaint(pod.tolerations, t)) return { fits: false, reason: 'taint', taint: taintText(t as Taint) };
  }
  return { fits: true };
}

/** The check in words, for `because` and `whyNot`. */
export function fitText(r: FitResult): string {
  if (r.fits) return 'fits';
  switch (r.reason) {
    case 'not-ready': return `node is not Ready (Ready=${r.ready})`;
    case 'unschedulable': return 'node is cordoned (spec.unschedulable) and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule';
    case 'taint': return `the pod does not tolerate the taint ${r.taint}`;
  }
}
