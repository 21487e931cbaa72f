/**
 * Raw Kubernetes objects (as parsed from JSON/YAML) -> typed records.
 *
 * Only the fields the engine reads are checked and converted; every record
 * keeps the object it came from by reference (`raw`), so nothing is copied
 * and nothing the user exported is lost. Problems are reported through a
 * callback with the path of the offending field, relative to the object; the
 * loader turns paths into file positions only when there is something to
 * report. A converter returns undefined only when the object cannot be used
 * at all (no `metadata.name`).
 *
 * Conventions, as the API server and Go's JSON decoding have them:
 * - a missing or null timestamp is the zero time (ZERO_TIME);
 * - a missing `metadata.namespace` is `default`;
 * - a missing `metadata.uid` gets a deterministic stand-in (`generated:<Kind>/<key>`)
 *   so that owner references made in the run can point at the object;
 * - a value of the wrong type is an error and the field is left out (or, for
 *   a condition status that is not True/False/Unknown, taken as Unknown, as
 *   the controllers treat anything that is not True or False).
 */
import type { Severity } from '../problems';
import { parseTimestamp, ZERO_TIME, type Micros } from './time';
import type {
  ConditionStatus,
  DaemonSetRecord,
  KObject,
  LabelSelector,
  LabelSelectorRequirement,
  LeaseRecord,
  NodeCondition,
  NodeRecord,
  ObjectMeta,
  ObjectRecord,
  OwnerReference,
  PodCondition,
  PodPhase,
  PodRecord,
  ReplicaSetRecord,
  ReplicaSetStatus,
  Taint,
  TaintEffect,
  Toleration,
} from './types';

export type FieldPath = (string | number)[];

/** Receives a problem with the path of the field, relative to the object. */
export type ConvertReport = (path: FieldPath, code: string, severity: Severity, message: string) => void;

const ignore: ConvertReport = () => {};

export const ENGINE_KINDS = ['Node', 'Pod', 'ReplicaSet', 'DaemonSet', 'Lease'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

export const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
export const CONDITION_STATUSES: readonly ConditionStatus[] = ['True', 'False', 'Unknown'];
export const POD_PHASES: readonly PodPhase[] = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];
const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

const isObject = (v: unknown): v is KObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}

// ---------------------------------------------------------------------------
// Timestamps: a cache and a fast path for the common `YYYY-MM-DDTHH:MM:SSZ`
// form, because a big snapshot holds hundreds of thousands of them, most of
// them repeated.

const timeCache = new Map<string, Micros | undefined>();
const TIME_CACHE_LIMIT = 50_000;

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000;
}

function fastTimestamp(s: string): Micros | undefined {
  if (s.length === 20 && s.charCodeAt(19) === 0x5a /* Z */ && s.charCodeAt(4) === 0x2d && s.charCodeAt(7) === 0x2d && s.charCodeAt(10) === 0x54 && s.charCodeAt(13) === 0x3a && s.charCodeAt(16) === 0x3a) {
    const y = digit(s, 0) * 1000 + digit(s, 1) * 100 + digit(s, 2) * 10 + digit(s, 3);
    const mo = digit(s, 5) * 10 + digit(s, 6);
    const d = digit(s, 8) * 10 + digit(s, 9);
    const h = digit(s, 11) * 10 + digit(s, 12);
    const mi = digit(s, 14) * 10 + digit(s, 15);
    const se = digit(s, 17) * 10 + digit(s, 18);
    // Date.UTC maps years 0-99 to 1900+: leave early years (Go's zero time) to parseTimestamp.
    if (y >= 1000 && mo >= 1 && mo <= 12 && d >= 1 && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && se >= 0 && se <= 59) {
      const t = Date.UTC(y, mo - 1, d, h, mi, se);
      // reject days past the month's end (Date.UTC would roll them over)
      if (new Date(t).getUTCDate() === d) return t * 1000;
      return undefined;
    }
  }
  return parseTimestamp(s);
}

/** Parses a metav1.Time / MicroTime string, with a cache. */
export function parseKubeTime(s: string): Micros | undefined {
  let t = timeCache.get(s);
  if (t === undefined && !timeCache.has(s)) {
    t = fastTimestamp(s);
    if (timeCache.size >= TIME_CACHE_LIMIT) timeCache.clear();
    timeCache.set(s, t);
  }
  return t;
}

/** A timestamp field: missing/null -> ZERO_TIME; a bad value is an error and also ZERO_TIME. */
function time(v: unknown, path: FieldPath, report: ConvertReport): Micros {
  if (v === undefined || v === null) return ZERO_TIME;
  if (typeof v === 'string') {
    const t = parseKubeTime(v);
    if (t !== undefined) return t;
  }
  report(path, 'bad-timestamp', 'error', `expected an RFC3339 timestamp (e.g. 2026-01-01T00:00:00Z), found ${typeName(v)}; taken as the zero time`);
  return ZERO_TIME;
}

/** An optional timestamp field: missing/null -> undefined. */
function optionalTime(v: unknown, path: FieldPath, report: ConvertReport): Micros | undefined {
  if (v === undefined || v === null) return undefined;
  const t = time(v, path, report);
  return t === ZERO_TIME && typeof v === 'string' && parseKubeTime(v) === undefined ? undefined : t;
}

function str(v: unknown, path: FieldPath, report: ConvertReport): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  report(path, 'wrong-type', 'error', `expected a string, found ${typeName(v)}`);
  return undefined;
}

function bool(v: unknown, path: FieldPath, report: ConvertReport): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  report(path, 'wrong-type', 'error', `expected true or false, found ${typeName(v)}`);
  return undefined;
}

function int(v: unknown, path: FieldPath, report: ConvertReport, min = -Infinity): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= min) return v;
  report(path, 'wrong-type', 'error', `expected ${min === 0 ? 'a whole number of 0 or more' : 'a whole number'}, found ${typeName(v)}`);
  return undefined;
}

function list(v: unknown, path: FieldPath, report: ConvertReport): unknown[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  report(path, 'wrong-type', 'error', `expected a list, found ${typeName(v)}`);
  return [];
}

function mapping(v: unknown, path: FieldPath, report: ConvertReport): KObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (isObject(v)) return v;
  report(path, 'wrong-type', 'error', `expected a mapping, found ${typeName(v)}`);
  return undefined;
}

const EMPTY: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** A map of strings (labels, annotations), kept by reference when valid. */
function stringMap(v: unknown, path: FieldPath, report: ConvertReport): Record<string, string> {
  const m = mapping(v, path, report);
  if (!m) return {};
  for (const k in m) {
    if (typeof m[k] !== 'string') {
      report([...path, k], 'wrong-type', 'error', `expected a string, found ${typeName(m[k])}; left out`);
      const copy: Record<string, string> = {};
      for (const k2 in m) if (typeof m[k2] === 'string') copy[k2] = m[k2] as string;
      return copy;
    }
  }
  return m as Record<string, string>;
}

function conditionStatus(v: unknown, path: FieldPath, report: ConvertReport): ConditionStatus {
  if (v === 'True' || v === 'False' || v === 'Unknown') return v;
  report(path, 'bad-condition-status', 'error', `expected a condition status of True, False or Unknown, found ${v === undefined ? 'none' : typeName(v)}; taken as Unknown`);
  return 'Unknown';
}

// ---------------------------------------------------------------------------

function ownerReferences(v: unknown, path: FieldPath, report: ConvertReport): OwnerReference[] {
  const out: OwnerReference[] = [];
  const items = list(v, path, report);
  for (let i = 0; i < items.length; i++) {
    const r = items[i];
    const p = [...path, i];
    if (!isObject(r)) { report(p, 'wrong-type', 'error', `expected an owner reference mapping, found ${typeName(r)}; left out`); continue; }
    const kind = str(r.kind, [...p, 'kind'], report);
    const name = str(r.name, [...p, 'name'], report);
    if (!kind || !name) { report(p, 'missing-field', 'error', 'an owner reference needs kind and name; left out'); continue; }
    const ref: OwnerReference = { apiVersion: str(r.apiVersion, [...p, 'apiVersion'], report) ?? '', kind, name, uid: str(r.uid, [...p, 'uid'], report) ?? '' };
    const controller = bool(r.controller, [...p, 'controller'], report);
    if (controller !== undefined) ref.controller = controller;
    const block = bool(r.blockOwnerDeletion, [...p, 'blockOwnerDeletion'], report);
    if (block !== undefined) ref.blockOwnerDeletion = block;
    out.push(ref);
  }
  return out;
}

/** `metadata`, or undefined when the object has no usable name. */
export function toObjectMeta(kind: string, raw: KObject, namespaced: boolean, report: ConvertReport = ignore): ObjectMeta | undefined {
  const md = mapping(raw.metadata, ['metadata'], report);
  if (!md) {
    report(['metadata'], 'missing-field', 'error', `a ${kind} needs metadata.name; the object is left out`);
    return undefined;
  }
  const name = str(md.name, ['metadata', 'name'], report);
  if (!name) {
    report(md.name === undefined ? ['metadata'] : ['metadata', 'name'], 'missing-field', 'error', `a ${kind} needs metadata.name; the object is left out`);
    return undefined;
  }
  let namespace: string | undefined;
  if (namespaced) namespace = str(md.namespace, ['metadata', 'namespace'], report) || 'default';
  const key = namespace ? `${namespace}/${name}` : name;
  const meta: ObjectMeta = {
    name,
    uid: str(md.uid, ['metadata', 'uid'], report) || `generated:${kind}/${key}`,
    labels: md.labels === undefined ? {} : stringMap(md.labels, ['metadata', 'labels'], report),
    annotations: md.annotations === undefined ? EMPTY : stringMap(md.annotations, ['metadata', 'annotations'], report),
    ownerReferences: md.ownerReferences === undefined ? [] : ownerReferences(md.ownerReferences, ['metadata', 'ownerReferences'], report),
    creationTimestamp: time(md.creationTimestamp, ['metadata', 'creationTimestamp'], report),
  };
  if (namespace !== undefined) meta.namespace = namespace;
  const del = optionalTime(md.deletionTimestamp, ['metadata', 'deletionTimestamp'], report);
  if (del !== undefined) meta.deletionTimestamp = del;
  const gen = int(md.generation, ['metadata', 'generation'], report);
  if (gen !== undefined) meta.generation = gen;
  return meta;
}

function taintEffect(v: unknown, path: FieldPath, report: ConvertReport, what: string): TaintEffect | undefined | false {
  if (v === undefined || v === null || v === '') return undefined;
  if (v === 'NoSchedule' || v === 'PreferNoSchedule' || v === 'NoExecute') return v;
  report(path, 'bad-taint-effect', 'error', `expected a taint effect of NoSchedule, PreferNoSchedule or NoExecute, found ${typeName(v)}; the ${what} is left out`);
  return false;
}

export function toTaint(t: unknown, path: FieldPath, report: ConvertReport = ignore): Taint | undefined {
  if (!isObject(t)) { report(path, 'wrong-type', 'error', `expected a taint mapping, found ${typeName(t)}; left out`); return undefined; }
  const key = str(t.key, [...path, 'key'], report);
  if (!key) { report(t.key === undefined ? path : [...path, 'key'], 'missing-field', 'error', 'a taint needs a key; left out'); return undefined; }
  const effect = taintEffect(t.effect, [...path, 'effect'], report, 'taint');
  if (effect === false) return undefined;
  if (effect === undefined) { report(t.effect === undefined ? path : [...path, 'effect'], 'missing-field', 'error', 'a taint needs an effect (NoSchedule, PreferNoSchedule or NoExecute); left out'); return undefined; }
  const taint: Taint = { key, effect };
  const value = str(t.value, [...path, 'value'], report);
  if (value !== undefined) taint.value = value;
  const added = optionalTime(t.timeAdded, [...path, 'timeAdded'], report);
  if (added !== undefined) taint.timeAdded = added;
  return taint;
}

export function toToleration(t: unknown, path: FieldPath, report: ConvertReport = ignore): Toleration | undefined {
  if (!isObject(t)) { report(path, 'wrong-type', 'error', `expected a toleration mapping, found ${typeName(t)}; left out`); return undefined; }
  const tol: Toleration = {};
  const key = str(t.key, [...path, 'key'], report);
  if (key) tol.key = key;
  if (t.operator !== undefined && t.operator !== null && t.operator !== '') {
    if (t.operator !== 'Exists' && t.operator !== 'Equal') {
      report([...path, 'operator'], 'bad-toleration-operator', 'error', `expected a toleration operator of Exists or Equal, found ${typeName(t.operator)}; the toleration is left out`);
      return undefined;
    }
    tol.operator = t.operator;
  }
  const value = str(t.value, [...path, 'value'], report);
  if (value !== undefined) tol.value = value;
  const effect = taintEffect(t.effect, [...path, 'effect'], report, 'toleration');
  if (effect === false) return undefined;
  if (effect) tol.effect = effect;
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) {
    if (typeof t.tolerationSeconds !== 'number' || !Number.isInteger(t.tolerationSeconds)) {
      report([...path, 'tolerationSeconds'], 'wrong-type', 'error', `expected tolerationSeconds as a whole number of seconds, found ${typeName(t.tolerationSeconds)}; the toleration is left out`);
      return undefined;
    }
    tol.tolerationSeconds = t.tolerationSeconds;
  }
  return tol;
}

function nodeConditions(v: unknown, path: FieldPath, report: ConvertReport): NodeCondition[] {
  const out: NodeCondition[] = [];
  const items = list(v, path, report);
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    const p = [...path, i];
    if (!isObject(c)) { report(p, 'wrong-type', 'error', `expected a condition mapping, found ${typeName(c)}; left out`); continue; }
    const type = str(c.type, [...p, 'type'], report);
    if (!type) { report(p, 'missing-field', 'error', 'a condition needs a type; left out'); continue; }
    const cond: NodeCondition = {
      type,
      status: conditionStatus(c.status, [...p, 'status'], report),
      lastHeartbeatTime: time(c.lastHeartbeatTime, [...p, 'lastHeartbeatTime'], report),
      lastTransitionTime: time(c.lastTransitionTime, [...p, 'lastTransitionTime'], report),
    };
    const reason = str(c.reason, [...p, 'reason'], report);
    if (reason !== undefined) cond.reason = reason;
    const message = str(c.message, [...p, 'message'], report);
    if (message !== undefined) cond.message = message;
    out.push(cond);
  }
  return out;
}

export function toNodeRecord(raw: KObject, report: ConvertReport = ignore): NodeRecord | undefined {
  const meta = toObjectMeta('Node', raw, false, report);
  if (!meta) return undefined;
  const spec = mapping(raw.spec, ['spec'], report);
  const status = mapping(raw.status, ['status'], report);
  const taints: Taint[] = [];
  if (spec && spec.taints !== undefined) {
    const items = list(spec.taints, ['spec', 'taints'], report);
    for (let i = 0; i < items.length; i++) {
      const t = toTaint(items[i], ['spec', 'taints', i], report);
      if (t) taints.push(t);
    }
  }
  return {
    kind: 'Node',
    meta,
    conditions: status ? nodeConditions(status.conditions, ['status', 'conditions'], report) : [],
    taints,
    unschedulable: (spec && bool(spec.unschedulable, ['spec', 'unschedulable'], report)) ?? false,
    raw,
  };
}

function podConditions(v: unknown, path: FieldPath, report: ConvertReport): PodCondition[] {
  const out: PodCondition[] = [];
  const items = list(v, path, report);
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    if (!isObject(c)) { report([...path, i], 'wrong-type', 'error', `expected a condition mapping, found ${typeName(c)}; left out`); continue; }
    const type = typeof c.type === 'string' ? c.type : str(c.type, [...path, i, 'type'], report);
    if (!type) { report([...path, i], 'missing-field', 'error', 'a condition needs a type; left out'); continue; }
    const cond: PodCondition = {
      type,
      status: conditionStatus(c.status, [...path, i, 'status'], report),
      lastTransitionTime: time(c.lastTransitionTime, [...path, i, 'lastTransitionTime'], report),
    };
    if (typeof c.reason === 'string') cond.reason = c.reason;
    if (typeof c.message === 'string') cond.message = c.message;
    out.push(cond);
  }
  return out;
}

export function toPodRecord(raw: KObject, report: ConvertReport = ignore): PodRecord | undefined {
  const meta = toObjectMeta('Pod', raw, true, report) as PodRecord['meta'] | undefined;
  if (!meta) return undefined;
  const spec = mapping(raw.spec, ['spec'], report);
  const status = mapping(raw.status, ['status'], report);
  const tolerations: Toleration[] = [];
  let nodeName: string | undefined;
  if (spec) {
    nodeName = str(spec.nodeName, ['spec', 'nodeName'], report) || undefined;
    if (spec.tolerations !== undefined) {
      const items = list(spec.tolerations, ['spec', 'tolerations'], report);
      for (let i = 0; i < items.length; i++) {
        const t = toToleration(items[i], ['spec', 'tolerations', i], report);
        if (t) tolerations.push(t);
      }
    }
  }
  let phase: PodPhase = 'Pending';
  let conditions: PodCondition[] = [];
  let restartCount = 0;
  if (status) {
    if (status.phase !== undefined && status.phase !== null) {
      if ((POD_PHASES as readonly unknown[]).includes(status.phase)) phase = status.phase as PodPhase;
      else {
        report(['status', 'phase'], 'bad-pod-phase', 'error', `expected a pod phase of ${POD_PHASES.join(', ')}, found ${typeName(status.phase)}; taken as Unknown`);
        phase = 'Unknown';
      }
    }
    conditions = podConditions(status.conditions, ['status', 'conditions'], report);
    if (Array.isArray(status.containerStatuses)) {
      const cs = status.containerStatuses;
      for (let i = 0; i < cs.length; i++) {
        const c = cs[i];
        if (isObject(c) && c.restartCount !== undefined) restartCount += int(c.restartCount, ['status', 'containerStatuses', i, 'restartCount'], report, 0) ?? 0;
      }
    }
  }
  const rec: PodRecord = { kind: 'Pod', meta, tolerations, phase, conditions, restartCount, raw };
  if (nodeName) rec.nodeName = nodeName;
  return rec;
}

export function toLabelSelector(v: unknown, path: FieldPath, report: ConvertReport = ignore): LabelSelector | undefined {
  const m = mapping(v, path, report);
  if (!m) return undefined;
  const sel: LabelSelector = {};
  if (m.matchLabels !== undefined && m.matchLabels !== null) sel.matchLabels = stringMap(m.matchLabels, [...path, 'matchLabels'], report);
  if (m.matchExpressions !== undefined && m.matchExpressions !== null) {
    const exprs: LabelSelectorRequirement[] = [];
    const items = list(m.matchExpressions, [...path, 'matchExpressions'], report);
    for (let i = 0; i < items.length; i++) {
      const e = items[i];
      const p = [...path, 'matchExpressions', i];
      if (!isObject(e)) { report(p, 'wrong-type', 'error', `expected a requirement mapping, found ${typeName(e)}`); continue; }
      const key = str(e.key, [...p, 'key'], report);
      if (!key) { report(p, 'missing-field', 'error', 'a requirement needs a key'); continue; }
      if (!(SELECTOR_OPERATORS as readonly unknown[]).includes(e.operator)) {
        report([...p, 'operator'], 'bad-selector-operator', 'error', `expected an operator of ${SELECTOR_OPERATORS.join(', ')}, found ${e.operator === undefined ? 'none' : typeName(e.operator)}`);
        continue;
      }
      const req: LabelSelectorRequirement = { key, operator: e.operator as LabelSelectorRequirement['operator'] };
      if (e.values !== undefined && e.values !== null) {
        const vals = list(e.values, [...p, 'values'], report);
        req.values = vals.filter((x): x is string => typeof x === 'string');
        if (req.values.length !== vals.length) report([...p, 'values'], 'wrong-type', 'error', 'expected a list of strings');
      }
      exprs.push(req);
    }
    sel.matchExpressions = exprs;
  }
  return sel;
}

function replicaSetStatus(v: unknown, report: ConvertReport): ReplicaSetStatus {
  const s = mapping(v, ['status'], report) ?? {};
  const n = (k: string) => int(s[k], ['status', k], report, 0) ?? 0;
  const conditions: ReplicaSetStatus['conditions'] = [];
  const items = list(s.conditions, ['status', 'conditions'], report);
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    if (!isObject(c) || typeof c.type !== 'string') { report(['status', 'conditions', i], 'wrong-type', 'error', 'expected a condition with a type; left out'); continue; }
    const cond: ReplicaSetStatus['conditions'][number] = {
      type: c.type,
      status: conditionStatus(c.status, ['status', 'conditions', i, 'status'], report),
      lastTransitionTime: time(c.lastTransitionTime, ['status', 'conditions', i, 'lastTransitionTime'], report),
    };
    if (typeof c.reason === 'string') cond.reason = c.reason;
    if (typeof c.message === 'string') cond.message = c.message;
    conditions.push(cond);
  }
  return {
    replicas: n('replicas'),
    fullyLabeledReplicas: n('fullyLabeledReplicas'),
    readyReplicas: n('readyReplicas'),
    availableReplicas: n('availableReplicas'),
    observedGeneration: n('observedGeneration'),
    conditions,
  };
}

export function toReplicaSetRecord(raw: KObject, report: ConvertReport = ignore): ReplicaSetRecord | undefined {
  const meta = toObjectMeta('ReplicaSet', raw, true, report) as ReplicaSetRecord['meta'] | undefined;
  if (!meta) return undefined;
  const spec = mapping(raw.spec, ['spec'], report) ?? {};
  const rec: ReplicaSetRecord = {
    kind: 'ReplicaSet',
    meta,
    minReadySeconds: int(spec.minReadySeconds, ['spec', 'minReadySeconds'], report, 0) ?? 0,
    template: mapping(spec.template, ['spec', 'template'], report) ?? {},
    status: replicaSetStatus(raw.status, report),
    raw,
  };
  const replicas = int(spec.replicas, ['spec', 'replicas'], report, 0);
  if (replicas !== undefined) rec.replicas = replicas;
  if (spec.selector !== undefined && spec.selector !== null) rec.selector = toLabelSelector(spec.selector, ['spec', 'selector'], report);
  else report(['spec'], 'missing-field', 'warning', 'a ReplicaSet without spec.selector selects no pods');
  return rec;
}

export function toDaemonSetRecord(raw: KObject, report: ConvertReport = ignore): DaemonSetRecord | undefined {
  const meta = toObjectMeta('DaemonSet', raw, true, report) as DaemonSetRecord['meta'] | undefined;
  if (!meta) return undefined;
  return { kind: 'DaemonSet', meta, raw };
}

export function toLeaseRecord(raw: KObject, report: ConvertReport = ignore): LeaseRecord | undefined {
  const meta = toObjectMeta('Lease', raw, true, report) as LeaseRecord['meta'] | undefined;
  if (!meta) return undefined;
  const spec = mapping(raw.spec, ['spec'], report) ?? {};
  const rec: LeaseRecord = { kind: 'Lease', meta, raw };
  const holder = str(spec.holderIdentity, ['spec', 'holderIdentity'], report);
  if (holder !== undefined) rec.holderIdentity = holder;
  const dur = int(spec.leaseDurationSeconds, ['spec', 'leaseDurationSeconds'], report, 0);
  if (dur !== undefined) rec.leaseDurationSeconds = dur;
  const renew = optionalTime(spec.renewTime, ['spec', 'renewTime'], report);
  if (renew !== undefined) rec.renewTime = renew;
  return rec;
}

const CONVERTERS: Record<EngineKind, (raw: KObject, report?: ConvertReport) => ObjectRecord | undefined> = {
  Node: toNodeRecord,
  Pod: toPodRecord,
  ReplicaSet: toReplicaSetRecord,
  DaemonSet: toDaemonSetRecord,
  Lease: toLeaseRecord,
};

export const isEngineKind = (kind: string): kind is EngineKind => Object.prototype.hasOwnProperty.call(CONVERTERS, kind);

/** Converts an object of a kind the engine uses. */
export function toRecord(kind: EngineKind, raw: KObject, report: ConvertReport = ignore): ObjectRecord | undefined {
  return CONVERTERS[kind](raw, report);
}
