/**
 * The simplified binder's filters and score (a simplification of
 * kube-scheduler, named as one wherever it is shown). A node is feasible for a
 * pod when it passes, in the default profile's order and stopping at the
 * first filter that fails (as `RunFilterPlugins`):
 *   1. NodeUnschedulable: not cordoned, unless the pod tolerates
 *      node.kubernetes.io/unschedulable:NoSchedule;
 *   2. TaintToleration: the pod tolerates every NoSchedule and NoExecute taint
 *      (`FindMatchingUntoleratedTaint`; PreferNoSchedule is only a score there
 *      and is ignored here);
 *   3. NodeAffinity: nodeSelector and required node affinity (nodeAffinity.ts);
 *   4. Ready: the node's Ready condition is True (see reasons.ts: not a
 *      filter of today's kube-scheduler, which relies on the taints);
 *   5. NodeResourcesFit (`fitsRequest`): pods on the node + 1 within
 *      allocatable pods, and the cpu and memory requests within allocatable
 *      minus the requests of the pods bound there (each reason it fails).
 * Among feasible nodes the score is NodeResourcesFit's LeastAllocated
 * (`leastResourceScorer`, cpu and memory weight 1 each) alone; the other
 * score plugins (balanced allocation, topology spread, image locality, …)
 * are not modelled, and ties go to the first node by name in natural order
 * where kube-scheduler picks one at random.
 * Ports, volumes, pod (anti-)affinity, topology spread constraints and
 * preemption are not modelled either.
 */
import type { NodeRecord, PodRecord, Taint } from '../../model/types';
import { toleratesTaint } from '../../model/tolerations';
import type { Allocatable, Requests } from './resources';
import { matchesPlacement, type RequiredPlacement } from './nodeAffinity';
import type { Reason, Wording } from './reasons';

export const SIMPLIFICATION =
  'simplified binder (not kube-scheduler): filters unschedulable, untolerated NoSchedule/NoExecute taints, nodeSelector and required node affinity, not Ready, and allocatable pods/cpu/memory against the requests of the pods bound there; scores by least allocated (cpu and memory, weight 1 each), ties by name; ports, volumes, pod affinity, spreading and preemption are not modelled';

export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** The requests of the pods the scheduler counts on a node (non-terminal pods bound there), and how many. */
export interface Usage {
  milliCpu: number;
  memory: number;
  nonZeroMilliCpu: number;
  nonZeroMemory: number;
  pods: number;
}

export const emptyUsage = (): Usage => ({ milliCpu: 0, memory: 0, nonZeroMilliCpu: 0, nonZeroMemory: 0, pods: 0 });

export function nodeReadyStatus(node: Pick<NodeRecord, 'conditions'>): string {
  for (const c of node.conditions) if (c.type === 'Ready') return c.status;
  return 'missing';
}

/** What the filters 1–4 read of a node: the same for every node of a class (index.ts). */
export interface NodeFacts {
  ready: boolean;
  unschedulable: boolean;
  /** NoSchedule and NoExecute taints, in the node's order */
  taints: readonly Taint[];
  labels: Record<string, string>;
}

export function nodeFacts(node: NodeRecord): NodeFacts {
  return {
    ready: nodeReadyStatus(node) === 'True',
    unschedulable: node.unschedulable,
    taints: node.taints.filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'),
    labels: node.meta.labels,
  };
}

/** The first of filters 1–4 that the node fails, in kube-scheduler's words, or undefined. */
export function placementReason(pod: PodRecord, placement: RequiredPlacement, facts: NodeFacts, nodeName: string, w: Wording): Reason | undefined {
  if (facts.unschedulable && !toleratesTaint(pod.tolerations, { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' })) return w.unschedulable;
  for (const t of facts.taints) if (!toleratesTaint(pod.tolerations, t)) return w.taint(t);
  if (!matchesPlacement(placement, facts.labels, nodeName)) return w.affinity;
  if (!facts.ready) return w.notReady;
  return undefined;
}

export const TOO_MANY_PODS = 1;
export const INSUFFICIENT_CPU = 2;
export const INSUFFICIENT_MEMORY = 4;

/** Filter 5 as a bit set of TOO_MANY_PODS, INSUFFICIENT_CPU, INSUFFICIENT_MEMORY (0: fits). */
export function resourceMisfit(req: Requests, alloc: Allocatable, used: Usage): number {
  let out = 0;
  if (used.pods + 1 > alloc.pods) out |= TOO_MANY_PODS;
  if (alloc.milliCpu !== undefined && req.milliCpu > 0 && req.milliCpu > alloc.milliCpu - used.milliCpu) out |= INSUFFICIENT_CPU;
  if (alloc.memory !== undefined && req.memory > 0 && req.memory > alloc.memory - used.memory) out |= INSUFFICIENT_MEMORY;
  return out;
}

/** The reasons of a misfit bit set, in fitsRequest's order. */
export function misfitReasons(mask: number, w: Wording): Reason[] {
  const out: Reason[] = [];
  if (mask & TOO_MANY_PODS) out.push(w.tooManyPods);
  if (mask & INSUFFICIENT_CPU) out.push(w.insufficientCpu);
  if (mask & INSUFFICIENT_MEMORY) out.push(w.insufficientMemory);
  return out;
}

const MAX_NODE_SCORE = 100;

/** `leastRequestedScore`: the share of the resource left after the pod, 0–100, rounded down. */
function leastRequested(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/**
 * NodeResourcesFit's LeastAllocated score of the node with the pod on it, from the non-zero
 * requests (`leastResourceScorer` with cpu and memory, weight 1 each: a resource the node has
 * none of, or does not report, is left out of the average; none left, 0).
 */
export function leastAllocatedScore(req: Requests, alloc: Allocatable, used: Usage): number {
  let sum = 0,
    weights = 0;
  if (alloc.milliCpu) {
    sum += leastRequested(used.nonZeroMilliCpu + req.nonZeroMilliCpu, alloc.milliCpu);
    weights++;
  }
  if (alloc.memory) {
    sum += leastRequested(used.nonZeroMemory + req.nonZeroMemory, alloc.memory);
    weights++;
  }
  return weights ? Math.floor(sum / weights) : 0;
}

/** Names compared as people sort them: runs of digits by their value (`n2` before `n10`), then as text. */
export function naturalCompare(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0,
    j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i),
      cb = b.charCodeAt(j);
    const da = ca >= 48 && ca <= 57,
      db = cb >= 48 && cb <= 57;
    if (da && db) {
      let ei = i,
        ej = j;
      while (ei < a.length && a.charCodeAt(ei) === 48) ei++;
      while (ej < b.length && b.charCodeAt(ej) === 48) ej++;
      let ki = ei,
        kj = ej;
      while (ki < a.length && a.charCodeAt(ki) >= 48 && a.charCodeAt(ki) <= 57) ki++;
      while (kj < b.length && b.charCodeAt(kj) >= 48 && b.charCodeAt(kj) <= 57) kj++;
      if (ki - ei !== kj - ej) return ki - ei - (kj - ej);
      for (let x = 0; x < ki - ei; x++) {
        const d = a.charCodeAt(ei + x) - b.charCodeAt(ej + x);
        if (d) return d;
      }
      i = ki;
      j = kj;
      continue;
    }
    if (ca !== cb) return ca - cb;
    i++;
    j++;
  }
  if (a.length - i !== b.length - j) return a.length - i - (b.length - j);
  // equal but for leading zeros: fall back to plain order so that the order stays total
  return a < b ? -1 : 1;
}
