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
import {
  EMPTY,
  at,
  bool,
  conditionStatus,
  count,
  ignore,
  isObject,
  list,
  meant,
  mapping,
  optionalTime,
  str,
  stringMap,
  time,
  typeName,
  type ConvertReport,
  type FieldPath,
  type Seg,
} from './convertFields';
import { validateObject } from './validateObjects';
import { leaseRecord, nodeCondition, replicaSetRecord, replicaSetStatus, taint, nodeRecord, objectMeta, podCondition, podRecord } from './records';
import type {
  ConditionStatus,
  DaemonSetRecord,
  EngineKind,
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

const ROOT: FieldPath = [];
const P_METADATA: FieldPath = ['metadata'];
const P_SPEC: FieldPath = ['spec'];
const P_STATUS: FieldPath = ['status'];
const P_OWNERS: FieldPath = ['metadata', 'ownerReferences'];
const P_TAINTS: FieldPath = ['spec', 'taints'];
const P_TOLERATIONS: FieldPath = ['spec', 'tolerations'];
const P_STATUS_CONDITIONS: FieldPath = ['status', 'conditions'];
const P_CONTAINER_STATUSES: FieldPath = ['status', 'containerStatuses'];

export { ENGINE_KINDS, type EngineKind } from './types';

export const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
export const CONDITION_STATUSES: readonly ConditionStatus[] = ['True', 'False', 'Unknown'];
export const POD_PHASES: readonly PodPhase[] = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];
const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

// ---------------------------------------------------------------------------

function isOwnerReference(r: unknown): r is OwnerReference {
  return (
    isObject(r) &&
    typeof r.kind === 'string' &&
    r.kind !== '' &&
    typeof r.name === 'string' &&
    r.name !== '' &&
    typeof r.uid === 'string' &&
    typeof r.apiVersion === 'string' &&
    (r.controller === undefined || typeof r.controller === 'boolean') &&
    (r.blockOwnerDeletion === undefined || typeof r.blockOwnerDeletion === 'boolean')
  );
}

/**
 * The last owner-reference list and tolerations list found well formed. Neighbours in an export bring
 * the very same list (the loader shares equal parts: snapshot/share.ts), and raw trees are never
 * changed in place, so the same list is not checked again (as validateObjects.ts's lastValid).
 */
const lastClean: { owners?: unknown[]; tolerations?: unknown[] } = {};

/** Owner references: the raw list by reference when every entry is well formed, else a checked copy. */
function ownerReferences(v: unknown, report: ConvertReport): OwnerReference[] {
  const items = list(v, report, P_OWNERS);
  if (items === lastClean.owners) return items as OwnerReference[];
  let clean = true;
  for (let i = 0; i < items.length && clean; i++) clean = isOwnerReference(items[i]);
  if (clean) {
    lastClean.owners = items;
    return items as OwnerReference[];
  }
  const out: OwnerReference[] = [];
  for (let i = 0; i < items.length; i++) {
    const r = items[i];
    if (!isObject(r)) {
      report(at(P_OWNERS, i), 'wrong-type', 'error', `expected an owner reference mapping, found ${typeName(r)}; left out`);
      continue;
    }
    const kind = str(r.kind, report, P_OWNERS, i, 'kind');
    const name = str(r.name, report, P_OWNERS, i, 'name');
    if (!kind || !name) {
      report(at(P_OWNERS, i), 'missing-field', 'error', 'an owner reference needs kind and name; left out');
      continue;
    }
    const ref: OwnerReference = {
      apiVersion: str(r.apiVersion, report, P_OWNERS, i, 'apiVersion') ?? '',
      kind,
      name,
      uid: str(r.uid, report, P_OWNERS, i, 'uid') ?? '',
    };
    const controller = bool(r.controller, report, P_OWNERS, i, 'controller');
    if (controller !== undefined) ref.controller = controller;
    const block = bool(r.blockOwnerDeletion, report, P_OWNERS, i, 'blockOwnerDeletion');
    if (block !== undefined) ref.blockOwnerDeletion = block;
    out.push(ref);
  }
  return out;
}

/** `metadata`, or undefined when the object has no usable name. */
export function toObjectMeta(kind: string, raw: KObject, namespaced: boolean, report: ConvertReport = ignore): ObjectMeta | undefined {
  const md = mapping(raw.metadata, report, P_METADATA);
  if (!md) {
    report(raw.metadata === undefined ? ROOT : P_METADATA, 'missing-field', 'error', `a ${kind} needs metadata.name; the object is left out`);
    return undefined;
  }
  const name = str(md.name, report, P_METADATA, 'name');
  if (!name) {
    report(md.name === undefined ? P_METADATA : at(P_METADATA, 'name'), 'missing-field', 'error', `a ${kind} needs metadata.name; the object is left out`);
    return undefined;
  }
  let namespace: string | undefined;
  if (namespaced) namespace = str(md.namespace, report, P_METADATA, 'namespace') || 'default';
  const uid = str(md.uid, report, P_METADATA, 'uid');
  return objectMeta(
    name,
    namespace,
    uid || `generated:${kind}/${namespace ? `${namespace}/${name}` : name}`,
    md.labels === undefined ? {} : stringMap(md.labels, report, P_METADATA, 'labels'),
    md.annotations === undefined ? EMPTY : stringMap(md.annotations, report, P_METADATA, 'annotations'),
    md.ownerReferences === undefined ? [] : ownerReferences(md.ownerReferences, report),
    time(md.creationTimestamp, report, P_METADATA, 'creationTimestamp'),
    optionalTime(md.deletionTimestamp, report, P_METADATA, 'deletionTimestamp'),
    count(md.generation, report, P_METADATA, 'generation'),
  );
}

function taintEffect(v: unknown, report: ConvertReport, what: string, base: FieldPath, a?: Seg): TaintEffect | undefined | false {
  if (v === 'NoSchedule' || v === 'PreferNoSchedule' || v === 'NoExecute') return v;
  if (v === undefined || v === null || v === '') return undefined;
  report(
    at(base, a, 'effect'),
    'bad-taint-effect',
    'error',
    `expected a taint effect of NoSchedule, PreferNoSchedule or NoExecute, found ${typeName(v)}${meant(v, TAINT_EFFECTS)}; the ${what} is left out`,
  );
  return false;
}

/** A taint at `base[a]` (e.g. spec.taints[3]); undefined (with a problem) when it is unusable. */
export function toTaint(t: unknown, base: FieldPath, report: ConvertReport = ignore, a?: Seg): Taint | undefined {
  if (!isObject(t)) {
    report(at(base, a), 'wrong-type', 'error', `expected a taint mapping, found ${typeName(t)}; left out`);
    return undefined;
  }
  const key = str(t.key, report, base, a, 'key');
  if (!key) {
    report(t.key === undefined ? at(base, a) : at(base, a, 'key'), 'missing-field', 'error', 'a taint needs a key; left out');
    return undefined;
  }
  const effect = taintEffect(t.effect, report, 'taint', base, a);
  if (effect === false) return undefined;
  if (effect === undefined) {
    report(
      t.effect === undefined ? at(base, a) : at(base, a, 'effect'),
      'missing-field',
      'error',
      'a taint needs an effect (NoSchedule, PreferNoSchedule or NoExecute); left out',
    );
    return undefined;
  }
  return taint(key, effect, str(t.value, report, base, a, 'value'), optionalTime(t.timeAdded, report, base, a, 'timeAdded'));
}

/**
 * A toleration exactly as the Toleration type has it (no empty strings, known
 * operator and effect, whole tolerationSeconds): kept by reference, not copied.
 */
function isCleanToleration(t: unknown): boolean {
  if (!isObject(t)) return false;
  for (const k in t) {
    const v = t[k];
    switch (k) {
      case 'key':
      case 'value':
        if (typeof v !== 'string' || (k === 'key' && v === '')) return false;
        break;
      case 'operator':
        if (v !== 'Exists' && v !== 'Equal') return false;
        break;
      case 'effect':
        if (v !== 'NoExecute' && v !== 'NoSchedule' && v !== 'PreferNoSchedule') return false;
        break;
      case 'tolerationSeconds':
        if (typeof v !== 'number' || !Number.isInteger(v)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** A toleration at `base[a]`; undefined (with a problem) when it is unusable. */
export function toToleration(t: unknown, base: FieldPath, report: ConvertReport = ignore, a?: Seg): Toleration | undefined {
  if (!isObject(t)) {
    report(at(base, a), 'wrong-type', 'error', `expected a toleration mapping, found ${typeName(t)}; left out`);
    return undefined;
  }
  const tol: Toleration = {};
  const key = str(t.key, report, base, a, 'key');
  if (key) tol.key = key;
  const op = t.operator;
  if (op === 'Exists' || op === 'Equal') tol.operator = op;
  else if (op !== undefined && op !== null && op !== '') {
    report(
      at(base, a, 'operator'),
      'bad-toleration-operator',
      'error',
      `expected a toleration operator of Exists or Equal, found ${typeName(op)}${meant(op, ['Exists', 'Equal'])}; the toleration is left out`,
    );
    return undefined;
  }
  const value = str(t.value, report, base, a, 'value');
  if (value !== undefined) tol.value = value;
  const effect = taintEffect(t.effect, report, 'toleration', base, a);
  if (effect === false) return undefined;
  if (effect) tol.effect = effect;
  const secs = t.tolerationSeconds;
  if (secs !== undefined && secs !== null) {
    if (typeof secs !== 'number' || !Number.isInteger(secs)) {
      report(
        at(base, a, 'tolerationSeconds'),
        'wrong-type',
        'error',
        `expected tolerationSeconds as a whole number of seconds, found ${typeName(secs)}; the toleration is left out`,
      );
      return undefined;
    }
    tol.tolerationSeconds = secs;
  }
  return tol;
}

/**
 * A conditions list is made as a copy of the raw list, written over in place and cut to what was
 * kept: exactly as long as it is. A list grown by push from empty keeps room for 17 entries, and
 * every one of 150,000 pods keeps its list for the run (about 14 MB more).
 */
function nodeConditions(v: unknown, report: ConvertReport): NodeCondition[] {
  const P = P_STATUS_CONDITIONS;
  const items = list(v, report, P);
  const out = items.slice() as NodeCondition[];
  let n = 0;
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    if (!isObject(c)) {
      report(at(P, i), 'wrong-type', 'error', `expected a condition mapping, found ${typeName(c)}; left out`);
      continue;
    }
    const type = str(c.type, report, P, i, 'type');
    if (!type) {
      report(at(P, i), 'missing-field', 'error', 'a condition needs a type; left out');
      continue;
    }
    const cond = nodeCondition(
      type,
      conditionStatus(c.status, report, P, i, 'status'),
      time(c.lastHeartbeatTime, report, P, i, 'lastHeartbeatTime'),
      time(c.lastTransitionTime, report, P, i, 'lastTransitionTime'),
      str(c.reason, report, P, i, 'reason'),
      str(c.message, report, P, i, 'message'),
    );
    out[n++] = cond;
  }
  if (n !== out.length) out.length = n;
  return out;
}

export function toNodeRecord(raw: KObject, report: ConvertReport = ignore): NodeRecord | undefined {
  const meta = toObjectMeta('Node', raw, false, report);
  if (!meta) return undefined;
  const spec = mapping(raw.spec, report, P_SPEC);
  const status = mapping(raw.status, report, P_STATUS);
  const taints: Taint[] = [];
  if (spec && spec.taints !== undefined) {
    const items = list(spec.taints, report, P_TAINTS);
    for (let i = 0; i < items.length; i++) {
      const t = toTaint(items[i], P_TAINTS, report, i);
      if (t) taints.push(t);
    }
  }
  return nodeRecord(
    meta,
    status ? nodeConditions(status.conditions, report) : [],
    taints,
    (spec && bool(spec.unschedulable, report, P_SPEC, 'unschedulable')) ?? false,
    raw,
  );
}

/** Made as nodeConditions makes its list. */
function podConditions(v: unknown, report: ConvertReport): PodCondition[] {
  const P = P_STATUS_CONDITIONS;
  const items = list(v, report, P);
  const out = items.slice() as PodCondition[];
  let n = 0;
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    if (!isObject(c)) {
      report(at(P, i), 'wrong-type', 'error', `expected a condition mapping, found ${typeName(c)}; left out`);
      continue;
    }
    const type = str(c.type, report, P, i, 'type');
    if (!type) {
      report(at(P, i), 'missing-field', 'error', 'a condition needs a type; left out');
      continue;
    }
    const cond = podCondition(
      type,
      conditionStatus(c.status, report, P, i, 'status'),
      time(c.lastTransitionTime, report, P, i, 'lastTransitionTime'),
      typeof c.reason === 'string' ? c.reason : undefined,
      typeof c.message === 'string' ? c.message : undefined,
    );
    out[n++] = cond;
  }
  if (n !== out.length) out.length = n;
  return out;
}

export function toPodRecord(raw: KObject, report: ConvertReport = ignore): PodRecord | undefined {
  const meta = toObjectMeta('Pod', raw, true, report) as PodRecord['meta'] | undefined;
  if (!meta) return undefined;
  const spec = mapping(raw.spec, report, P_SPEC);
  const status = mapping(raw.status, report, P_STATUS);
  let tolerations: Toleration[] = [];
  let nodeName: string | undefined;
  if (spec) {
    nodeName = str(spec.nodeName, report, P_SPEC, 'nodeName') || undefined;
    if (spec.tolerations !== undefined) {
      const items = list(spec.tolerations, report, P_TOLERATIONS);
      if (items === lastClean.tolerations || items.every(isCleanToleration)) tolerations = lastClean.tolerations = items as Toleration[];
      else {
        tolerations = [];
        for (let i = 0; i < items.length; i++) {
          const t = toToleration(items[i], P_TOLERATIONS, report, i);
          if (t) tolerations.push(t);
        }
      }
    }
  }
  let phase: PodPhase = 'Pending';
  let conditions: PodCondition[] = [];
  let restartCount = 0;
  if (status) {
    const ph = status.phase;
    if (ph !== undefined && ph !== null) {
      if (ph === 'Running' || ph === 'Pending' || ph === 'Succeeded' || ph === 'Failed' || ph === 'Unknown') phase = ph;
      else {
        report(
          at(P_STATUS, 'phase'),
          'bad-pod-phase',
          'error',
          `expected a pod phase of ${POD_PHASES.join(', ')}, found ${typeName(ph)}${meant(ph, POD_PHASES)}; taken as Unknown`,
        );
        phase = 'Unknown';
      }
    }
    if (status.conditions !== undefined) conditions = podConditions(status.conditions, report);
    const cs = status.containerStatuses;
    if (Array.isArray(cs)) {
      for (let i = 0; i < cs.length; i++) {
        const c = cs[i];
        if (isObject(c) && c.restartCount !== undefined) restartCount += count(c.restartCount, report, P_CONTAINER_STATUSES, i, 'restartCount') ?? 0;
      }
    }
  }
  return podRecord(meta, nodeName || undefined, tolerations, phase, conditions, restartCount, undefined, undefined, raw);
}

/** A label selector at `base`; requirements that cannot be used are reported and left out. */
export function toLabelSelector(v: unknown, base: FieldPath, report: ConvertReport = ignore): LabelSelector | undefined {
  const m = mapping(v, report, base);
  if (!m) return undefined;
  const sel: LabelSelector = {};
  if (m.matchLabels !== undefined && m.matchLabels !== null) sel.matchLabels = stringMap(m.matchLabels, report, base, 'matchLabels');
  if (m.matchExpressions !== undefined && m.matchExpressions !== null) {
    const exprs: LabelSelectorRequirement[] = [];
    const P = at(base, 'matchExpressions');
    const items = list(m.matchExpressions, report, P);
    for (let i = 0; i < items.length; i++) {
      const e = items[i];
      if (!isObject(e)) {
        report(at(P, i), 'wrong-type', 'error', `expected a requirement mapping, found ${typeName(e)}`);
        continue;
      }
      const key = str(e.key, report, P, i, 'key');
      if (!key) {
        report(at(P, i), 'missing-field', 'error', 'a requirement needs a key');
        continue;
      }
      if (!(SELECTOR_OPERATORS as readonly unknown[]).includes(e.operator)) {
        report(
          e.operator === undefined ? at(P, i) : at(P, i, 'operator'),
          'bad-selector-operator',
          'error',
          `expected an operator of ${SELECTOR_OPERATORS.join(', ')}, found ${e.operator === undefined ? 'none' : typeName(e.operator)}${meant(e.operator, SELECTOR_OPERATORS)}`,
        );
        continue;
      }
      const req: LabelSelectorRequirement = { key, operator: e.operator as LabelSelectorRequirement['operator'] };
      if (e.values !== undefined && e.values !== null) {
        const vals = list(e.values, report, P, i);
        req.values = vals.filter((x): x is string => typeof x === 'string');
        if (req.values.length !== vals.length) report(at(P, i, 'values'), 'wrong-type', 'error', 'expected a list of strings');
      }
      exprs.push(req);
    }
    sel.matchExpressions = exprs;
  }
  return sel;
}

/** A count of a ReplicaSet's status, 0 when absent or wrong (a module function: under tsx's keepNames a closure per ReplicaSet costs a defineProperty). */
function statusCount(s: Record<string, unknown>, report: ConvertReport, k: string): number {
  return count(s[k], report, P_STATUS, k) ?? 0;
}

function toReplicaSetStatus(v: unknown, report: ConvertReport): ReplicaSetStatus {
  const s = mapping(v, report, P_STATUS) ?? {};
  const conditions: ReplicaSetStatus['conditions'] = [];
  const P = P_STATUS_CONDITIONS;
  const items = list(s.conditions, report, P);
  for (let i = 0; i < items.length; i++) {
    const c = items[i];
    if (!isObject(c) || typeof c.type !== 'string') {
      report(at(P, i), 'wrong-type', 'error', 'expected a condition with a type; left out');
      continue;
    }
    conditions.push(
      podCondition(
        c.type,
        conditionStatus(c.status, report, P, i, 'status'),
        time(c.lastTransitionTime, report, P, i, 'lastTransitionTime'),
        typeof c.reason === 'string' ? c.reason : undefined,
        typeof c.message === 'string' ? c.message : undefined,
      ),
    );
  }
  return replicaSetStatus(
    statusCount(s, report, 'replicas'),
    statusCount(s, report, 'fullyLabeledReplicas'),
    statusCount(s, report, 'readyReplicas'),
    statusCount(s, report, 'availableReplicas'),
    statusCount(s, report, 'observedGeneration'),
    conditions,
    undefined,
  );
}

export function toReplicaSetRecord(raw: KObject, report: ConvertReport = ignore): ReplicaSetRecord | undefined {
  const meta = toObjectMeta('ReplicaSet', raw, true, report) as ReplicaSetRecord['meta'] | undefined;
  if (!meta) return undefined;
  const spec = mapping(raw.spec, report, P_SPEC) ?? {};
  const minReadySeconds = count(spec.minReadySeconds, report, P_SPEC, 'minReadySeconds') ?? 0;
  const template = mapping(spec.template, report, P_SPEC, 'template') ?? {};
  const status = toReplicaSetStatus(raw.status, report);
  const replicas = count(spec.replicas, report, P_SPEC, 'replicas');
  let selector: LabelSelector | undefined;
  if (spec.selector !== undefined && spec.selector !== null) selector = toLabelSelector(spec.selector, at(P_SPEC, 'selector'), report);
  else report(raw.spec === undefined ? ROOT : P_SPEC, 'missing-field', 'warning', 'a ReplicaSet without spec.selector selects no pods');
  return replicaSetRecord(meta, minReadySeconds, template, status, raw, replicas, selector);
}

export function toDaemonSetRecord(raw: KObject, report: ConvertReport = ignore): DaemonSetRecord | undefined {
  const meta = toObjectMeta('DaemonSet', raw, true, report) as DaemonSetRecord['meta'] | undefined;
  if (!meta) return undefined;
  return { kind: 'DaemonSet', meta, raw };
}

export function toLeaseRecord(raw: KObject, report: ConvertReport = ignore): LeaseRecord | undefined {
  const meta = toObjectMeta('Lease', raw, true, report) as LeaseRecord['meta'] | undefined;
  if (!meta) return undefined;
  const spec = mapping(raw.spec, report, P_SPEC) ?? {};
  return leaseRecord(
    meta,
    str(spec.holderIdentity, report, P_SPEC, 'holderIdentity'),
    count(spec.leaseDurationSeconds, report, P_SPEC, 'leaseDurationSeconds'),
    optionalTime(spec.renewTime, report, P_SPEC, 'renewTime'),
    raw,
  );
}

const CONVERTERS: Record<EngineKind, (raw: KObject, report?: ConvertReport) => ObjectRecord | undefined> = {
  Node: toNodeRecord,
  Pod: toPodRecord,
  ReplicaSet: toReplicaSetRecord,
  DaemonSet: toDaemonSetRecord,
  Lease: toLeaseRecord,
};

export const isEngineKind = (kind: string): kind is EngineKind => Object.prototype.hasOwnProperty.call(CONVERTERS, kind);

/** Converts an object of a kind the engine uses; `withinLimits`: see validateObject. */
export function toRecord(kind: EngineKind, raw: KObject, report: ConvertReport = ignore, withinLimits = false): ObjectRecord | undefined {
  if (!validateObject(kind, raw, report, withinLimits)) return undefined;
  return CONVERTERS[kind](raw, report);
}
