/**
 * The pod's required node placement: `spec.nodeSelector` and
 * `spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`,
 * matched as kube-scheduler's NodeAffinity filter does
 * (`nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`,
 * k8s.io/component-helpers/scheduling/corev1/nodeaffinity):
 * - every nodeSelector label must be on the node with that value;
 * - the nodeSelectorTerms are ORed; within a term, matchExpressions (on labels)
 *   and matchFields (only `metadata.name`) are ANDed; a term with neither
 *   matches no node, and so does an empty list of terms;
 * - In / NotIn / Exists / DoesNotExist as label selectors (NotIn and
 *   DoesNotExist match a node without the label); Gt / Lt compare the label's
 *   value and the one given value as integers (no label, or a value that is
 *   not an integer, does not match).
 */
import type { KObject, PodRecord } from '../../model/types';

export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values: string[];
}

export interface NodeSelectorTerm {
  matchExpressions: NodeSelectorRequirement[];
  matchFields: NodeSelectorRequirement[];
}

export interface RequiredPlacement {
  nodeSelector: Record<string, string>;
  /** undefined: the pod has no required node affinity */
  terms: NodeSelectorTerm[] | undefined;
  /** nothing is required: every node matches */
  none: boolean;
  /**
   * The requirement reads something that differs from node to node (the node's name, or a
   * label in PER_NODE_LABELS), so it cannot be decided once for a group of nodes.
   */
  perNode: boolean;
  /** a stable text of the requirement (equal requirements, equal keys) */
  key: string;
}

/** Labels every node has with a value of its own; grouping nodes ignores them. */
export const PER_NODE_LABELS: ReadonlySet<string> = new Set(['kubernetes.io/hostname']);

const obj = (v: unknown): KObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as KObject) : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function requirements(v: unknown): NodeSelectorRequirement[] {
  return list(v).map((r) => {
    const o = obj(r) ?? {};
    return { key: String(o.key ?? ''), operator: String(o.operator ?? ''), values: list(o.values).map(String) };
  });
}

const memo = new WeakMap<KObject, RequiredPlacement>();

/** The pod's required placement (cached per exported object: a pod's spec is replaced, never edited in place). */
export function requiredPlacement(pod: PodRecord): RequiredPlacement {
  let out = memo.get(pod.raw);
  if (!out) {
    out = parsePlacement(obj(pod.raw.spec) ?? {});
    memo.set(pod.raw, out);
  }
  return out;
}

function parsePlacement(spec: KObject): RequiredPlacement {
  const nodeSelector: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(spec.nodeSelector) ?? {})) nodeSelector[k] = String(v);
  const required = obj(obj(obj(spec.affinity)?.nodeAffinity)?.requiredDuringSchedulingIgnoredDuringExecution);
  const terms = required
    ? list(required.nodeSelectorTerms).map((t) => ({
        matchExpressions: requirements(obj(t)?.matchExpressions),
        matchFields: requirements(obj(t)?.matchFields),
      }))
    : undefined;
  const perNode =
    Object.keys(nodeSelector).some((k) => PER_NODE_LABELS.has(k)) ||
    (terms ?? []).some((t) => t.matchFields.length > 0 || t.matchExpressions.some((e) => PER_NODE_LABELS.has(e.key)));
  const none = Object.keys(nodeSelector).length === 0 && terms === undefined;
  const key = none ? '' : JSON.stringify([Object.entries(nodeSelector).sort(), terms ?? null]);
  return { nodeSelector, terms, none, perNode, key };
}

/** Whether a node with these labels and this name meets the pod's required placement. */
export function matchesPlacement(p: RequiredPlacement, labels: Record<string, string>, nodeName: string): boolean {
  if (p.none) return true;
  for (const k in p.nodeSelector) if (labels[k] !== p.nodeSelector[k]) return false;
  if (p.terms === undefined) return true;
  for (const t of p.terms) if (termMatches(t, labels, nodeName)) return true;
  return false;
}

function termMatches(t: NodeSelectorTerm, labels: Record<string, string>, nodeName: string): boolean {
  if (t.matchExpressions.length === 0 && t.matchFields.length === 0) return false;
  for (const r of t.matchExpressions) if (!requirementMatches(r, Object.prototype.hasOwnProperty.call(labels, r.key) ? labels[r.key] : undefined)) return false;
  for (const r of t.matchFields) {
    // metadata.name is the only field a nodeSelectorTerm may name (and only with In / NotIn)
    if (r.key !== 'metadata.name' || (r.operator !== 'In' && r.operator !== 'NotIn')) return false;
    if (!requirementMatches(r, nodeName)) return false;
  }
  return true;
}

/** One requirement against the node's value for its key (undefined: the node has no such label). */
export function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  switch (r.operator) {
    case 'In':
      return value !== undefined && r.values.includes(value);
    case 'NotIn':
      return value === undefined || !r.values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || r.values.length !== 1) return false;
      const have = integer(value),
        want = integer(r.values[0]!);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** strconv.ParseInt(s, 10, 64), as BigInt so that every int64 compares exactly. */
function integer(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v >= -(1n << 63n) && v < 1n << 63n ? v : undefined;
}

/**
 * The node's labels without the ones each node has a value of its own for, as text, in the
 * object's own order (nodes exported together list their labels in the same order; two nodes
 * whose labels differ only in order just fall in two groups). Joined, not appended to: the node
 * index keeps the text per labels object, and text built by `+=` is a rope of every piece (about
 * 2.3 KB a node of a dozen labels, 11.7 MB at 5,000 nodes, against a few hundred bytes flat).
 */
export function sharedLabelsText(labels: Record<string, string>): string {
  const parts: string[] = [];
  for (const k in labels) if (!PER_NODE_LABELS.has(k)) parts.push(JSON.stringify(k), ':', JSON.stringify(labels[k]), ',');
  return parts.join('');
}
