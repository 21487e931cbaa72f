/**
 * Validation as the API server would do it, before an object reaches a controller:
 * names by DNS-1123, label and taint keys and values by the API's own rules, the
 * numeric fields within the types the API gives them (replicas an int32 >= 0,
 * tolerationSeconds an int64, the pod-deletion-cost annotation an int32), and our own
 * limits on nesting depth and string length (limits.ts). An object that breaks one is
 * left out with a positioned error, as `kubectl apply` would have been refused.
 *
 * Mirrors k8s.io/apimachinery/pkg/util/validation (IsDNS1123Subdomain, IsDNS1123Label,
 * IsQualifiedName, IsValidLabelValue), apimachinery's ValidateAnnotations (256 KiB) and
 * pkg/apis/core/validation's checks of taints, tolerations and pod-deletion-cost.
 */
import type { EngineKind } from './types';
import {
  INT32_MAX,
  INT32_MIN,
  MAX_REPLICAS,
  INT64_LIMIT,
  MAX_ANNOTATIONS_BYTES,
  MAX_NESTING_DEPTH,
  MAX_STRING_LENGTH,
  describeViolation,
  findLimitViolation,
} from './limits';
import type { Severity } from '../problems';

export type FieldPath = (string | number)[];
export type ValidationReport = (path: FieldPath, code: string, severity: Severity, message: string) => void;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** IsDNS1123Label: at most 63 characters, lower case alphanumerics and '-'. */
export function dns1123LabelError(s: string): string | undefined {
  if (s.length > 63) return 'must be no more than 63 characters';
  if (!DNS1123_LABEL.test(s)) return "must consist of lower case alphanumeric characters or '-', and start and end with an alphanumeric character";
  return undefined;
}

/** IsDNS1123Subdomain: at most 253 characters, dot-separated DNS-1123 labels. */
export function dns1123SubdomainError(s: string): string | undefined {
  if (s.length > 253) return 'must be no more than 253 characters';
  if (!isDns1123Subdomain(s)) {
    return "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

const DOT = 0x2e,
  DASH = 0x2d;

/** Upstream's dns1123SubdomainFmt, checked label by label in one pass over the characters (no backtracking, no allocation). */
function isDns1123Subdomain(s: string): boolean {
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : DOT;
    if (c === DOT) {
      if (i === start || s.charCodeAt(start) === DASH || s.charCodeAt(i - 1) === DASH) return false;
      start = i + 1;
    } else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === DASH)) return false;
  }
  return true;
}

/** IsQualifiedName: an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
export function qualifiedNameError(s: string): string | undefined {
  const slash = s.indexOf('/');
  let name = s;
  if (slash !== -1) {
    if (s.indexOf('/', slash + 1) !== -1)
      return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'";
    if (slash === 0) return 'prefix part must be non-empty';
    const prefix = dns1123SubdomainError(s.slice(0, slash));
    if (prefix) return `prefix part ${prefix}`;
    name = s.slice(slash + 1);
  }
  if (!name) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!QUALIFIED_NAME_PART.test(name))
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** IsValidLabelValue: empty, or at most 63 characters of the qualified name's alphabet. */
export function labelValueError(s: string): string | undefined {
  if (s.length > 63) return 'must be no more than 63 characters';
  if (!LABEL_VALUE.test(s))
    return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The last labels mapping and tolerations list found valid, the last namespace found valid (a
 * namespace's objects come together in an export), and the last object of each kind
 * found within the limits. Neighbouring objects of an export share
 * equal parts (snapshot/share.ts), so most objects bring the very mapping or list their neighbour
 * brought, and raw trees are never changed in place: the same one is not checked again.
 */
const lastValid: { labels?: object; tolerations?: object; namespace?: string; withinLimits: Partial<Record<EngineKind, object>> } = { withinLimits: {} };

/**
 * Checks one object; reports each violation at its field and returns false when the
 * object must be left out. Fields of the wrong type are left to the converter, which
 * reports them in its own words. `withinLimits`: the caller found the object within the
 * limits already (the loader, while sharing it: snapshot/share.ts), so its tree is not walked again.
 */
export function validateObject(kind: EngineKind, raw: Record<string, unknown>, report: ValidationReport, withinLimits = false): boolean {
  const limit = withinLimits ? undefined : findLimitViolation(raw, MAX_NESTING_DEPTH, MAX_STRING_LENGTH, lastValid.withinLimits[kind]);
  if (limit) {
    report(limit.path.slice(0, 4), limit.kind, 'error', `this ${kind} ${describeViolation(limit)}; it is left out`);
    return false;
  }
  lastValid.withinLimits[kind] = raw;
  let ok = true;
  const md = raw.metadata;
  if (isRecord(md)) {
    if (typeof md.name === 'string' && md.name !== '') {
      const e = dns1123SubdomainError(md.name);
      if (e) ok = fail(report, kind, ['metadata', 'name'], 'invalid-name', `metadata.name ${quote(md.name)} is not a valid name: ${e}`);
    }
    if (typeof md.namespace === 'string' && md.namespace !== '' && md.namespace !== lastValid.namespace) {
      const e = dns1123LabelError(md.namespace);
      if (e) ok = fail(report, kind, ['metadata', 'namespace'], 'invalid-name', `metadata.namespace ${quote(md.namespace)} is not a valid namespace: ${e}`);
      else lastValid.namespace = md.namespace;
    }
    if (isRecord(md.labels) && md.labels !== lastValid.labels) {
      let good = true;
      for (const k in md.labels) {
        const ke = qualifiedNameError(k);
        if (ke) good = fail(report, kind, ['metadata', 'labels', k], 'invalid-label', `label key ${quote(k)} is not valid: ${ke}`);
        const v = md.labels[k];
        if (typeof v === 'string') {
          const ve = labelValueError(v);
          if (ve) good = fail(report, kind, ['metadata', 'labels', k], 'invalid-label', `the value of label ${quote(k)} is not valid: ${ve}`);
        }
      }
      if (good) lastValid.labels = md.labels;
      else ok = false;
    }
    if (isRecord(md.annotations)) {
      let bytes = 0;
      for (const k in md.annotations) {
        const v = md.annotations[k];
        bytes += k.length + (typeof v === 'string' ? v.length : 0);
      }
      if (bytes > MAX_ANNOTATIONS_BYTES)
        ok = fail(
          report,
          kind,
          ['metadata', 'annotations'],
          'annotations-too-long',
          `the annotations take ${bytes} bytes; the API server allows ${MAX_ANNOTATIONS_BYTES}`,
        );
      const cost = md.annotations[DELETION_COST];
      if (kind === 'Pod' && cost !== undefined && !validDeletionCost(cost)) {
        ok = fail(
          report,
          kind,
          ['metadata', 'annotations', DELETION_COST],
          'invalid-deletion-cost',
          `${DELETION_COST} ${quote(String(cost))} is not a 32-bit integer (from ${INT32_MIN} to ${INT32_MAX})`,
        );
      }
    }
  }
  const spec = raw.spec;
  if (isRecord(spec)) {
    if (kind === 'Node' && Array.isArray(spec.taints)) {
      for (let i = 0; i < spec.taints.length; i++) {
        const t: unknown = spec.taints[i];
        if (!isRecord(t)) continue;
        if (typeof t.key === 'string') {
          const e = qualifiedNameError(t.key);
          if (e) ok = fail(report, kind, ['spec', 'taints', i, 'key'], 'invalid-taint', `taint key ${quote(t.key)} is not valid: ${e}`);
        }
        if (typeof t.value === 'string') {
          const e = labelValueError(t.value);
          if (e) ok = fail(report, kind, ['spec', 'taints', i, 'value'], 'invalid-taint', `taint value ${quote(t.value)} is not valid: ${e}`);
        }
      }
    }
    if (kind === 'Pod' && Array.isArray(spec.tolerations) && spec.tolerations !== lastValid.tolerations) {
      let good = true;
      for (let i = 0; i < spec.tolerations.length; i++) {
        const t: unknown = spec.tolerations[i];
        if (!isRecord(t)) continue;
        if (typeof t.key === 'string' && t.key !== '') {
          const e = qualifiedNameError(t.key);
          if (e) good = fail(report, kind, ['spec', 'tolerations', i, 'key'], 'invalid-toleration', `toleration key ${quote(t.key)} is not valid: ${e}`);
        }
        const s = t.tolerationSeconds;
        if (typeof s === 'number' && !(Number.isFinite(s) && Math.abs(s) <= INT64_LIMIT)) {
          good = fail(report, kind, ['spec', 'tolerations', i, 'tolerationSeconds'], 'out-of-range', `tolerationSeconds ${s} is outside an int64`);
        }
      }
      if (good) lastValid.tolerations = spec.tolerations;
      else ok = false;
    }
    if (kind === 'ReplicaSet' && typeof spec.replicas === 'number') {
      const r = spec.replicas;
      if (!(Number.isInteger(r) && r >= 0 && r <= INT32_MAX))
        ok = fail(report, kind, ['spec', 'replicas'], 'out-of-range', `spec.replicas ${r} must be a whole number from 0 to ${INT32_MAX} (an int32)`);
      else if (r > MAX_REPLICAS)
        ok = fail(
          report,
          kind,
          ['spec', 'replicas'],
          'too-many-replicas',
          `spec.replicas ${r}: the simulation runs ReplicaSets of up to ${MAX_REPLICAS} replicas (every replica is a pod it simulates)`,
        );
    }
  }
  return ok;
}

/** Reports a violation that leaves the object out; false, for `ok`. */
function fail(report: ValidationReport, kind: EngineKind, path: FieldPath, code: string, message: string): false {
  report(path, code, 'error', `${message}; the ${kind} is left out`);
  return false;
}

/** GetDeletionCostFromPodAnnotations' parse: an int32 in decimal, no spaces. */
function validDeletionCost(v: unknown): boolean {
  if (typeof v !== 'string' || !/^[-+]?[0-9]{1,10}$/.test(v)) return false;
  const n = Number(v);
  return n >= INT32_MIN && n <= INT32_MAX;
}

/** A value quoted for a message, cut short: a hostile 3 MB name is not echoed whole. */
function quote(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);
}
