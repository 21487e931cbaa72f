/**
 * kube-scheduler's own words for why a node was filtered out, and the
 * message of its FitError (`(*FitError).Error`, pkg/scheduler/framework):
 * `0/N nodes are available: ` then `COUNT REASON` for every reason, sorted as
 * strings (`sort.Strings` over the histogram's lines, so `1111 node(s)…`
 * comes before `2222 Insufficient cpu`), joined by `, `, and a final `.`;
 * with no node at all, `no nodes available to schedule pods`
 * (`ErrNoNodesAvailable`). The preemption part (`preemption: 0/N nodes are
 * available: …`) is not written: the binder does not preempt.
 *
 * The words changed over the versions; one table per reason gives, from which
 * minor version on, which words.
 */
import type { Taint } from '../../model/types';

export type Reason = string;

interface Since<T> {
  from: number;
  value: T;
}

function pick<T>(table: readonly Since<T>[], minor: number): T {
  let out = table[0]!.value;
  for (const row of table) if (minor >= row.from) out = row.value;
  return out;
}

/**
 * TaintToleration's Filter reason:
 * - `ErrReasonNotMatch` before #87250 (v1.18), no taint named;
 * - v1.18: the first untolerated taint's key and value, `node(s) had taint {K: V}, that the pod didn't tolerate`;
 * - `node(s) had untolerated taint {K: V}` (v1.26 shows it; taken from v1.25);
 * - #134740 (v1.35, cherry-picked to v1.34 patch releases): no key or value, `node(s) had untolerated taint(s)`.
 */
const TAINT: readonly Since<(t: Taint) => string>[] = [
  { from: 12, value: () => "node(s) had taints that the pod didn't tolerate" },
  { from: 18, value: (t) => `node(s) had taint {${t.key}: ${t.value ?? ''}}, that the pod didn't tolerate` },
  { from: 25, value: (t) => `node(s) had untolerated taint {${t.key}: ${t.value ?? ''}}` },
  { from: 35, value: () => 'node(s) had untolerated taint(s)' },
];

/** NodeAffinity's Filter reason (the MatchNodeSelector predicate's before the framework). */
const AFFINITY: readonly Since<string>[] = [
  { from: 12, value: "node(s) didn't match node selector" },
  { from: 21, value: "node(s) didn't match Pod's node affinity/selector" },
];

export interface Wording {
  taint(t: Taint): Reason;
  affinity: Reason;
  /** NodeUnschedulable's `ErrReasonUnschedulable` */
  unschedulable: Reason;
  /**
   * kube-scheduler has no Ready filter since TaintNodesByCondition (it relies on the not-ready and
   * unreachable NoSchedule taints); the binder also skips a not-Ready node that has no such taint
   * yet, in the words of 1.12's CheckNodeCondition predicate (`ErrNodeNotReady`).
   */
  notReady: Reason;
  /** NodeResourcesFit's reasons (`fitsRequest`) */
  tooManyPods: Reason;
  insufficientCpu: Reason;
  insufficientMemory: Reason;
}

const cache = new Map<number, Wording>();

export function wordingFor(minor: number): Wording {
  let w = cache.get(minor);
  if (!w) {
    w = {
      taint: pick(TAINT, minor),
      affinity: pick(AFFINITY, minor),
      unschedulable: 'node(s) were unschedulable',
      notReady: 'node(s) were not ready',
      tooManyPods: 'Too many pods',
      insufficientCpu: 'Insufficient cpu',
      insufficientMemory: 'Insufficient memory',
    };
    cache.set(minor, w);
  }
  return w;
}

/** `(*FitError).Error()` for a histogram of reasons over `total` nodes. */
export function fitErrorMessage(total: number, reasons: ReadonlyMap<Reason, number> | Record<Reason, number>): string {
  if (total === 0) return 'no nodes available to schedule pods';
  const entries = reasons instanceof Map ? [...reasons] : Object.entries(reasons);
  const lines = entries
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return lines.length ? `0/${total} nodes are available: ${lines.join(', ')}.` : `0/${total} nodes are available:`;
}
