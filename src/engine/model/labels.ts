/**
 * Label selectors, matched as `metav1.LabelSelectorAsSelector` builds them
 * (k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go) and `labels.Selector.Matches`
 * evaluates them:
 *
 * - a nil (undefined/null) selector matches nothing (`labels.Nothing()`);
 * - an empty selector (no matchLabels, no matchExpressions) matches everything;
 * - matchLabels `k: v` is the requirement `k = v`;
 * - matchExpressions: `In` (the label is present and its value is in `values`),
 *   `NotIn` (the label is absent, or its value is not in `values`), `Exists`
 *   (present), `DoesNotExist` (absent). All requirements must hold (AND).
 * - A selector that LabelSelectorAsSelector rejects (unknown operator, In/NotIn
 *   without values, Exists/DoesNotExist with values, invalid label key or value)
 *   matches nothing here; `compileSelector` returns the error so callers can
 *   report it, as the ReplicaSet controller does ("error converting pod selector").
 *
 * Public API:
 *   matchesSelector(selector, labels): boolean
 *   compileSelector(selector): CompiledSelector  (compile once, match many pods)
 *   selectorError(selector): string | undefined
 *   formatSelector(selector): string  (as labels.Selector.String(): "a=b,c in (d,e)")
 */
import type { LabelSelector, LabelSelectorRequirement } from './types';

export interface CompiledSelector {
  /** true when the selector matches the labels */
  matches(labels: Record<string, string> | undefined): boolean;
  /** why LabelSelectorAsSelector would reject the selector; then matches() is always false */
  error?: string;
  /** 'nothing' for nil or invalid, 'everything' for empty, 'some' otherwise */
  kind: 'nothing' | 'everything' | 'some';
}

type Req = { key: string; op: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values: Set<string> };

const NOTHING: CompiledSelector = { kind: 'nothing', matches: () => false };
const EVERYTHING: CompiledSelector = { kind: 'everything', matches: () => true };

// validation.IsQualifiedName: optional DNS-1123 subdomain prefix + '/', name of
// at most 63 chars: alphanumerics, '-', '_', '.', starting and ending alphanumeric.
const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function keyError(key: string): string | undefined {
  const parts = key.split('/');
  let name = key;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) return `invalid label key "${key}": prefix part must be non-empty`;
    if (prefix.length > 253 || !DNS1123_SUBDOMAIN_RE.test(prefix)) {
      return `invalid label key "${key}": prefix part must be a lowercase RFC 1123 subdomain`;
    }
  } else if (parts.length > 2) {
    return `invalid label key "${key}": a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'`;
  }
  if (name.length === 0) return `invalid label key "${key}": name part must be non-empty`;
  if (name.length > 63) return `invalid label key "${key}": name part must be no more than 63 characters`;
  if (!NAME_RE.test(name)) {
    return `invalid label key "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`;
  }
  return undefined;
}

function valueError(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `invalid label value for "${key}": ${JSON.stringify(value)} is not a string`;
  if (value === '') return undefined;
  if (value.length > 63) return `invalid label value "${value}" for "${key}": must be no more than 63 characters`;
  if (!NAME_RE.test(value)) {
    return `invalid label value "${value}" for "${key}": must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`;
  }
  return undefined;
}

function requirement(e: LabelSelectorRequirement): Req | string {
  if (!e || typeof e !== 'object') return 'matchExpressions entry is not an object';
  const key = (e as { key?: unknown }).key;
  if (typeof key !== 'string') return 'matchExpressions entry has no key';
  const kErr = keyError(key);
  if (kErr) return kErr;
  const values = (e as { values?: unknown }).values;
  if (values !== undefined && values !== null && !Array.isArray(values)) return `values of "${key}" is not a list`;
  const vals = (values ?? []) as unknown[];
  const op = (e as { operator?: unknown }).operator;
  switch (op) {
    case 'In':
    case 'NotIn':
      if (vals.length === 0) return `for 'in', 'notin' operators, values set can't be empty (key "${key}")`;
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (vals.length !== 0) return `values set must be empty for exists and does not exist (key "${key}")`;
      break;
    default:
      return `${JSON.stringify(op)} is not a valid label selector operator`;
  }
  for (const v of vals) {
    const vErr = valueError(key, v);
    if (vErr) return vErr;
  }
  return { key, op, values: new Set(vals as string[]) };
}

/** Compiles a selector once; matching is then a few map look-ups per pod. */
export function compileSelector(selector: LabelSelector | null | undefined): CompiledSelector {
  if (selector === undefined || selector === null) return NOTHING;
  if (typeof selector !== 'object' || Array.isArray(selector)) {
    return { ...NOTHING, error: 'selector is not an object' };
  }
  const reqs: Req[] = [];
  const ml = selector.matchLabels;
  if (ml !== undefined && ml !== null) {
    if (typeof ml !== 'object' || Array.isArray(ml)) return { ...NOTHING, error: 'matchLabels is not a map' };
    for (const [k, v] of Object.entries(ml)) {
      const err = keyError(k) ?? valueError(k, v);
      if (err) return { ...NOTHING, error: err };
      reqs.push({ key: k, op: 'In', values: new Set([v]) });
    }
  }
  const me = selector.matchExpressions;
  if (me !== undefined && me !== null) {
    if (!Array.isArray(me)) return { ...NOTHING, error: 'matchExpressions is not a list' };
    for (const e of me) {
      const r = requirement(e);
      if (typeof r === 'string') return { ...NOTHING, error: r };
      reqs.push(r);
    }
  }
  if (reqs.length === 0) return EVERYTHING;
  // `k = v` (matchLabels, or In with one value), the usual requirement, as one comparison:
  // `l[k] === v` for a string v holds exactly when l has its own k with the value v, since
  // Object.prototype holds no string (a key it does hold, such as `constructor`, is then not equal).
  // The requirements are a conjunction without side effects, so testing these first changes no answer.
  const eqKeys: string[] = [],
    eqValues: string[] = [];
  const rest: Req[] = [];
  for (const r of reqs) {
    const only = r.op === 'In' && r.values.size === 1 ? r.values.values().next().value : undefined;
    if (typeof only === 'string') {
      eqKeys.push(r.key);
      eqValues.push(only);
    } else rest.push(r);
  }
  return {
    kind: 'some',
    matches(labels) {
      const l = labels ?? NO_LABELS;
      for (let i = 0; i < eqKeys.length; i++) if (l[eqKeys[i]!] !== eqValues[i]) return false;
      for (const r of rest) {
        const has = Object.prototype.hasOwnProperty.call(l, r.key);
        switch (r.op) {
          case 'In':
            if (!has || !r.values.has(l[r.key]!)) return false;
            break;
          case 'NotIn':
            if (has && r.values.has(l[r.key]!)) return false;
            break;
          case 'Exists':
            if (!has) return false;
            break;
          case 'DoesNotExist':
            if (has) return false;
            break;
        }
      }
      return true;
    },
  };
}

const NO_LABELS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** true when `labels` satisfy `selector` (nil matches nothing, empty matches everything). */
export function matchesSelector(selector: LabelSelector | null | undefined, labels: Record<string, string> | undefined): boolean {
  return compileSelector(selector).matches(labels);
}

/** The reason LabelSelectorAsSelector would reject the selector, if any. */
export function selectorError(selector: LabelSelector | null | undefined): string | undefined {
  return compileSelector(selector).error;
}

/** The selector as `labels.Selector.String()` prints it (requirements sorted by key). */
export function formatSelector(selector: LabelSelector | null | undefined): string {
  if (selector === undefined || selector === null) return '<none>';
  const parts: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) parts.push({ key: k, text: `${k}=${v}` });
  for (const e of selector.matchExpressions ?? []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    const text =
      e.operator === 'In' ? `${e.key} in (${vals})` : e.operator === 'NotIn' ? `${e.key} notin (${vals})` : e.operator === 'Exists' ? e.key : `!${e.key}`;
    parts.push({ key: e.key, text });
  }
  parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return parts.map((p) => p.text).join(',');
}
