/**
 * Taints the node lifecycle controller owns, as literal tables, and the
 * pure taint-list operations it uses (pkg/util/taints, controller_utils.go
 * SwapNodeControllerTaint / AddOrUpdateTaintOnNode / RemoveTaintOffNode).
 */
import type { ConditionStatus, NodeCondition, NodeRecord, Taint } from '../../model/types';
import type { Micros } from '../../model/time';
import { copyTaint, copyTaints, taint } from '../../model/records';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const DEPRECATED_TAINT_NOT_READY = 'node.alpha.kubernetes.io/notReady';
export const DEPRECATED_TAINT_UNREACHABLE = 'node.alpha.kubernetes.io/unreachable';

export const NOT_READY_NO_EXECUTE: Taint = { key: TAINT_NOT_READY, effect: 'NoExecute' };
export const UNREACHABLE_NO_EXECUTE: Taint = { key: TAINT_UNREACHABLE, effect: 'NoExecute' };

/**
 * The NoExecute taint a not-Ready status calls for, and its opposite (which processTaintBaseEviction
 * swaps away at once, and doNoExecuteTaintingPass removes as it adds): the one table of
 * processTaintBaseEviction, markNodeForTainting, doNoExecuteTaintingPass and a reconstructed memory.
 */
export const NO_EXECUTE_FOR_READY: Readonly<Record<'False' | 'Unknown', { readonly taint: Taint; readonly opposite: Taint }>> = {
  False: { taint: NOT_READY_NO_EXECUTE, opposite: UNREACHABLE_NO_EXECUTE },
  Unknown: { taint: UNREACHABLE_NO_EXECUTE, opposite: NOT_READY_NO_EXECUTE },
};

/** NO_EXECUTE_FOR_READY's row for a Ready status; undefined for True (no NoExecute taint). */
export function noExecuteFor(status: ConditionStatus): { readonly taint: Taint; readonly opposite: Taint } | undefined {
  return status === 'False' || status === 'Unknown' ? NO_EXECUTE_FOR_READY[status] : undefined;
}

export interface ConditionTaint {
  condition: string;
  status: ConditionStatus;
  key: string;
  /** last minor version that has the row (OutOfDisk left with the condition) */
  untilMinor?: number;
}

/** nodeConditionToTaintKeyStatusMap: which condition status becomes which NoSchedule taint. */
export const CONDITION_TAINTS: readonly ConditionTaint[] = [
  { condition: 'Ready', status: 'False', key: TAINT_NOT_READY },
  { condition: 'Ready', status: 'Unknown', key: TAINT_UNREACHABLE },
  { condition: 'MemoryPressure', status: 'True', key: 'node.kubernetes.io/memory-pressure' },
  { condition: 'OutOfDisk', status: 'True', key: 'node.kubernetes.io/out-of-disk', untilMinor: 12 },
  { condition: 'DiskPressure', status: 'True', key: 'node.kubernetes.io/disk-pressure' },
  { condition: 'NetworkUnavailable', status: 'True', key: 'node.kubernetes.io/network-unavailable' },
  { condition: 'PIDPressure', status: 'True', key: 'node.kubernetes.io/pid-pressure' },
];

export function conditionTaintsOf(minor: number): ConditionTaint[] {
  return CONDITION_TAINTS.filter((r) => r.untilMinor === undefined || minor <= r.untilMinor);
}

/** Taint.MatchTaint: same key and effect. */
export const matchTaint = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

// Plain loops: these run for every node on every monitor pass (issue 5).
export function taintExists(taints: readonly Taint[], t: Taint): boolean {
  for (let i = 0; i < taints.length; i++) if (taints[i].key === t.key && taints[i].effect === t.effect) return true;
  return false;
}

/** The first condition of the type: a node's or a pod's (a loop: it runs per node and per pod). */
export function findCondition<C extends { readonly type: string }>(conditions: readonly C[], type: string): C | undefined {
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return conditions[i];
  return undefined;
}

/**
 * doNoScheduleTaintingPass's computation: the NoSchedule taints the node's
 * conditions and spec.unschedulable call for, compared with the condition
 * taints it has (TaintSetDiff).
 */
export function noScheduleTaintDiff(node: NodeRecord, minor: number): { toAdd: Taint[]; toRemove: Taint[]; wanted: Taint[] } {
  const table = conditionTaintsOf(minor);
  const wanted: Taint[] = [];
  for (const c of node.conditions) {
    const row = table.find((r) => r.condition === c.type && r.status === c.status);
    if (row) wanted.push({ key: row.key, effect: 'NoSchedule' });
  }
  if (node.unschedulable) wanted.push({ key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' });
  const ownKeys = new Set(table.map((r) => r.key));
  const have = node.taints.filter((t) => t.effect === 'NoSchedule' && (t.key === TAINT_UNSCHEDULABLE || ownKeys.has(t.key)));
  const toAdd = wanted.filter((w) => !have.some((h) => matchTaint(h, w)));
  const toRemove = have.filter((h) => !wanted.some((w) => matchTaint(h, w)));
  return { toAdd, toRemove, wanted };
}

const ownKeysByMinor = new Map<number, { table: ConditionTaint[]; ownKeys: Set<string> }>();

/** The first row of the table for the condition's type and status (as noScheduleTaintDiff's find). */
function rowKey(table: readonly ConditionTaint[], c: NodeCondition): string | undefined {
  for (let i = 0; i < table.length; i++) {
    const r = table[i];
    if (r.condition === c.type && r.status === c.status) return r.key;
  }
  return undefined;
}

/**
 * True when noScheduleTaintDiff would find nothing to add or remove, without
 * building its lists: every node update (each kubelet heartbeat) runs the
 * NoSchedule pass, and nearly always finds the taints as they should be.
 */
export function noScheduleTaintsUpToDate(node: NodeRecord, minor: number): boolean {
  let info = ownKeysByMinor.get(minor);
  if (!info) {
    const table = conditionTaintsOf(minor);
    ownKeysByMinor.set(minor, (info = { table, ownKeys: new Set(table.map((r) => r.key)) }));
  }
  // plain loops and no closure: this runs on every node event (each kubelet status post)
  const table = info.table;
  const ownKeys = info.ownKeys;
  const taints = node.taints;
  const conditions = node.conditions;
  for (let i = 0; i < conditions.length; i++) {
    const key = rowKey(table, conditions[i]);
    if (key !== undefined && !hasNoSchedule(taints, key)) return false;
  }
  if (node.unschedulable && !hasNoSchedule(taints, TAINT_UNSCHEDULABLE)) return false;
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i];
    if (t.effect !== 'NoSchedule') continue;
    if (t.key === TAINT_UNSCHEDULABLE) {
      if (!node.unschedulable) return false;
      continue;
    }
    if (!ownKeys.has(t.key)) continue;
    let wanted = false;
    for (let j = 0; j < conditions.length; j++)
      if (rowKey(table, conditions[j]) === t.key) {
        wanted = true;
        break;
      }
    if (!wanted) return false;
  }
  return true;
}

function hasNoSchedule(taints: readonly Taint[], key: string): boolean {
  for (let i = 0; i < taints.length; i++) if (taints[i].key === key && taints[i].effect === 'NoSchedule') return true;
  return false;
}

/** doFixDeprecatedTaintKeyPass (1.12): the deprecated not-ready/unreachable keys and their replacements. */
export function deprecatedTaintFix(node: NodeRecord): { toAdd: Taint[]; toRemove: Taint[] } {
  const toAdd: Taint[] = [];
  const toRemove: Taint[] = [];
  for (const t of node.taints) {
    const key = t.key === DEPRECATED_TAINT_NOT_READY ? TAINT_NOT_READY : t.key === DEPRECATED_TAINT_UNREACHABLE ? TAINT_UNREACHABLE : undefined;
    if (!key) continue;
    toRemove.push(copyTaint(t));
    toAdd.push(taint(key, t.effect, t.value, t.timeAdded));
  }
  return { toAdd, toRemove };
}

export interface SwapResult {
  taints: Taint[];
  /** taints newly on the node */
  added: Taint[];
  /** taints already there (same key and effect) whose value or timeAdded was replaced */
  refreshed: Taint[];
  removed: Taint[];
  changed: boolean;
}

/**
 * SwapNodeControllerTaint's effect on a taint list: every taint to add gets
 * timeAdded = now and is added or replaces the one with the same key and
 * effect (AddOrUpdateTaint: kept in place when equal), then every taint
 * matching one to remove is deleted.
 */
export function swapTaints(current: readonly Taint[], toAdd: readonly Taint[], toRemove: readonly Taint[], now: Micros): SwapResult {
  let taints = copyTaints(current);
  const added: Taint[] = [];
  const refreshed: Taint[] = [];
  for (const a of toAdd) {
    const t = taint(a.key, a.effect, a.value, now);
    const i = taints.findIndex((x) => matchTaint(x, t));
    if (i < 0) {
      taints.push(t);
      added.push(t);
    } else if (!sameTaint(taints[i], t)) {
      taints[i] = t;
      refreshed.push(t);
    }
  }
  const removed: Taint[] = [];
  for (const r of toRemove) {
    const gone = taints.filter((x) => matchTaint(x, r));
    if (gone.length) {
      removed.push(...gone);
      taints = taints.filter((x) => !matchTaint(x, r));
    }
  }
  return { taints, added, refreshed, removed, changed: added.length + refreshed.length + removed.length > 0 };
}

function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect && (a.value ?? '') === (b.value ?? '') && (a.timeAdded ?? null) === (b.timeAdded ?? null);
}

export const taintText = (t: Taint): string => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
