/**
 * reconcileNodeLabels (node_lifecycle_controller.go, 1.14+) as a pure
 * function: the OS and arch labels exist in a beta and a stable spelling,
 * and the controller keeps the secondary one in step with the primary one,
 * adding it when missing (`labelReconcileInfo`, ensureSecondaryExists: true).
 * Which spelling is the source of truth is the version's: the beta one in
 * 1.14–1.18 (kubernetes/kubernetes#74442), the stable one from 1.19
 * (kubernetes/kubernetes#91046).
 */
import type { Check } from '../../trace/decision';

/** the source of truth of the OS/arch labels, or none where the controller does not reconcile them */
export type LabelSourceOfTruth = 'none' | 'beta' | 'stable';

const PAIRS: readonly { stable: string; beta: string }[] = [
  { stable: 'kubernetes.io/os', beta: 'beta.kubernetes.io/os' },
  { stable: 'kubernetes.io/arch', beta: 'beta.kubernetes.io/arch' },
];

export interface LabelReconcile {
  /** label -> the value to write (AddOrUpdateLabelsOnNode); empty when nothing is to change */
  updates: Record<string, string>;
  /** one check per label written, with the values seen */
  checks: Check[];
}

/** `reconcileNodeLabels`' labelsToUpdate for a node's labels. */
export function labelsToReconcile(labels: Readonly<Record<string, string>>, truth: LabelSourceOfTruth): LabelReconcile {
  const updates: Record<string, string> = {};
  const checks: Check[] = [];
  if (truth === 'none') return { updates, checks };
  for (const pair of PAIRS) {
    const primary = truth === 'stable' ? pair.stable : pair.beta;
    const secondary = truth === 'stable' ? pair.beta : pair.stable;
    // "The primary label key does not exist ... Ignore this case."
    if (!Object.prototype.hasOwnProperty.call(labels, primary)) continue;
    const value = labels[primary];
    const has = Object.prototype.hasOwnProperty.call(labels, secondary);
    if (has && labels[secondary] === value) continue;
    updates[secondary] = value;
    checks.push({
      rule: has
        ? `${secondary} differs from ${primary}, the source of truth: it is set to match`
        : `${secondary} is missing: it is added from ${primary}, the source of truth`,
      values: { [primary]: value, [secondary]: has ? labels[secondary] : 'absent' },
    });
  }
  return { updates, checks };
}

/** Whether reconcileNodeLabels would write anything (the check a heartbeat makes, without building the update). */
export function labelsInStep(labels: Readonly<Record<string, string>>, truth: LabelSourceOfTruth): boolean {
  if (truth === 'none') return true;
  for (const pair of PAIRS) {
    const primary = truth === 'stable' ? pair.stable : pair.beta;
    const secondary = truth === 'stable' ? pair.beta : pair.stable;
    const value = labels[primary];
    if (value === undefined && !Object.prototype.hasOwnProperty.call(labels, primary)) continue;
    if (labels[secondary] !== value || !Object.prototype.hasOwnProperty.call(labels, secondary)) return false;
  }
  return true;
}
