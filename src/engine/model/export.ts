/**
 * Typed records -> Kubernetes objects, for the state export (spec 2.2).
 *
 * Each object is a copy of the record's `raw` object with the fields the
 * engine owns written back over it; everything else the user exported
 * (managedFields, images, annotations...) is kept as it was. Only the parts
 * of the object that change are copied (the object, its metadata, spec and
 * status mappings); the rest is shared with `raw`, so treat the result as
 * read-only. An unchanged record exports to an object deep-equal to `raw`
 * (plus `kind`/`apiVersion` when the input had none).
 *
 * Fields written back:
 * - every kind: kind, apiVersion (when missing), metadata.name/namespace/uid/
 *   labels/ownerReferences (when they differ from raw), creationTimestamp,
 *   deletionTimestamp;
 * - Node: spec.taints, spec.unschedulable, status.conditions;
 * - Pod: spec.nodeName, spec.tolerations, status.phase, status.conditions;
 * - ReplicaSet: spec.replicas, status (replicas, fullyLabeledReplicas,
 *   readyReplicas, availableReplicas, observedGeneration, terminatingReplicas
 *   where the controller keeps it, conditions);
 * - Lease: spec.holderIdentity, leaseDurationSeconds, renewTime (MicroTime).
 * Timestamps are written as Kubernetes writes them (metav1.Time in whole
 * seconds, MicroTime with six digits); the zero time is written as null.
 */
import type { ClusterState } from './cluster';
import { formatKubeTime, formatMicroTime, parseTimestamp, ZERO_TIME, type Micros } from './time';
import type { DaemonSetRecord, KObject, LeaseRecord, NodeRecord, ObjectMeta, ObjectRecord, PodRecord, ReplicaSetRecord, Taint, Toleration } from './types';

const API_VERSION: Record<ObjectRecord['kind'], string> = {
  Node: 'v1',
  Pod: 'v1',
  ReplicaSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  Lease: 'coordination.k8s.io/v1',
};

const isObject = (v: unknown): v is KObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): KObject => (isObject(v) ? { ...v } : {});

const kubeTime = (t: Micros): string | null => (t === ZERO_TIME ? null : formatKubeTime(t));

/**
 * Writes a timestamp field back. An undefined time removes the field (a null
 * stays null); the zero time is written as null, or left out when raw had no
 * such field; a string in raw that already means the same instant is kept as
 * written (an offset form, or fractional digits).
 */
function setTime(target: KObject, key: string, t: Micros | undefined, format: (t: Micros) => string | null = kubeTime): void {
  const before = target[key];
  if (t === undefined) {
    if (before !== undefined && before !== null) delete target[key];
    return;
  }
  if (t === ZERO_TIME) {
    if (before !== undefined) target[key] = null;
    return;
  }
  if (typeof before === 'string' && parseTimestamp(before) === t) return;
  target[key] = format(t);
}

/**
 * Equal as JSON text (key order included, undefined members ignored), compared without
 * building the text and without recursion: a stack overflow must never decide a result.
 * @internal exported for its test
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      if (typeof x === 'number' && typeof y === 'number' && !Number.isFinite(x) && !Number.isFinite(y)) continue; // both print as null
      return false;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i] ?? null, ys[i] ?? null]);
      continue;
    }
    const xo = x as Record<string, unknown>,
      yo = y as Record<string, unknown>;
    const xk = Object.keys(xo).filter((k) => xo[k] !== undefined && typeof xo[k] !== 'function');
    const yk = Object.keys(yo).filter((k) => yo[k] !== undefined && typeof yo[k] !== 'function');
    if (xk.length !== yk.length) return false;
    for (let i = 0; i < xk.length; i++) {
      if (xk[i] !== yk[i]) return false;
      stack.push([xo[xk[i]], yo[yk[i]]]);
    }
  }
  return true;
}

function writeMeta(out: KObject, meta: ObjectMeta, generatedUid: boolean): void {
  const md = obj(out.metadata);
  md.name = meta.name;
  if (meta.namespace !== undefined) md.namespace = meta.namespace;
  if (!generatedUid || md.uid !== undefined) md.uid = meta.uid;
  if (md.labels !== undefined || Object.keys(meta.labels).length) {
    if (!sameJson(md.labels, meta.labels)) md.labels = meta.labels;
  }
  if (md.ownerReferences !== undefined || meta.ownerReferences.length) {
    if (!sameJson(md.ownerReferences, meta.ownerReferences)) md.ownerReferences = meta.ownerReferences;
  }
  if (md.creationTimestamp !== undefined || meta.creationTimestamp !== ZERO_TIME) setTime(md, 'creationTimestamp', meta.creationTimestamp);
  setTime(md, 'deletionTimestamp', meta.deletionTimestamp);
  out.metadata = md;
}

function base(record: ObjectRecord): KObject {
  const out: KObject = { ...record.raw };
  out.apiVersion ??= API_VERSION[record.kind];
  out.kind ??= record.kind;
  writeMeta(out, record.meta, record.meta.uid.startsWith('generated:'));
  return out;
}

function taintObject(t: Taint, before: unknown): KObject {
  const o: KObject = isObject(before) ? { ...before } : {};
  o.key = t.key;
  if (t.value !== undefined) o.value = t.value;
  else delete o.value;
  o.effect = t.effect;
  if (t.timeAdded !== undefined) setTime(o, 'timeAdded', t.timeAdded);
  else delete o.timeAdded;
  return o;
}

function tolerationObject(t: Toleration, before: unknown): KObject {
  const o: KObject = isObject(before) ? { ...before } : {};
  const put = (k: keyof Toleration) => {
    if (t[k] !== undefined) o[k] = t[k];
    else if (o[k] !== '' && o[k] !== null) delete o[k];
  };
  put('key');
  put('operator');
  put('value');
  put('effect');
  put('tolerationSeconds');
  return o;
}

/** Finds the raw element that a typed one came from (same position and same identity), for copying its other fields. */
function matching(rawList: unknown, i: number, same: (o: KObject) => boolean): unknown {
  if (!Array.isArray(rawList)) return undefined;
  const at = rawList[i];
  if (isObject(at) && same(at)) return at;
  return rawList.find((o) => isObject(o) && same(o));
}

/** A condition written over the raw condition of the same type (keeping fields such as lastProbeTime). */
function conditionObject(
  c: { type: string; status: string; reason?: string; message?: string; lastTransitionTime: Micros; lastHeartbeatTime?: Micros },
  rawConds: unknown,
  i: number,
): KObject {
  const o: KObject = { ...(matching(rawConds, i, (r) => r.type === c.type) as KObject | undefined) };
  o.type = c.type;
  o.status = c.status;
  if (c.lastHeartbeatTime !== undefined) setTime(o, 'lastHeartbeatTime', c.lastHeartbeatTime);
  setTime(o, 'lastTransitionTime', c.lastTransitionTime);
  if (c.reason !== undefined) o.reason = c.reason;
  else delete o.reason;
  if (c.message !== undefined) o.message = c.message;
  else delete o.message;
  return o;
}

export function exportNode(n: NodeRecord): KObject {
  const out = base(n);
  const spec = obj(n.raw.spec);
  const rawTaints = spec.taints;
  if (n.taints.length || rawTaints !== undefined) {
    spec.taints = n.taints.map((t, i) =>
      taintObject(
        t,
        matching(rawTaints, i, (o) => o.key === t.key && o.effect === t.effect),
      ),
    );
    if (!n.taints.length && rawTaints === undefined) delete spec.taints;
  }
  if (n.unschedulable || spec.unschedulable !== undefined) spec.unschedulable = n.unschedulable;
  if (Object.keys(spec).length || n.raw.spec !== undefined) out.spec = spec;
  const status = obj(n.raw.status);
  const rawConds = status.conditions;
  if (n.conditions.length || rawConds !== undefined) {
    status.conditions = n.conditions.map((c, i) => conditionObject(c, rawConds, i));
  }
  if (Object.keys(status).length || n.raw.status !== undefined) out.status = status;
  return out;
}

export function exportPod(p: PodRecord): KObject {
  const out = base(p);
  const spec = obj(p.raw.spec);
  if (p.nodeName !== undefined) spec.nodeName = p.nodeName;
  else if (spec.nodeName) delete spec.nodeName;
  const rawTols = spec.tolerations;
  if (p.tolerations.length || rawTols !== undefined) {
    spec.tolerations = p.tolerations.map((t, i) =>
      tolerationObject(
        t,
        matching(rawTols, i, (o) => (o.key ?? undefined) === t.key && (o.effect || undefined) === t.effect),
      ),
    );
  }
  out.spec = spec;
  const status = obj(p.raw.status);
  if (status.phase !== undefined || p.phase !== 'Pending' || p.raw.status === undefined) status.phase = p.phase;
  if (p.statusReason !== undefined) {
    status.reason = p.statusReason;
    status.message = p.statusMessage ?? '';
  }
  const rawConds = status.conditions;
  if (p.conditions.length || rawConds !== undefined) {
    status.conditions = p.conditions.map((c, i) => conditionObject(c, rawConds, i));
  }
  out.status = status;
  return out;
}

export function exportReplicaSet(r: ReplicaSetRecord): KObject {
  const out = base(r);
  const spec = obj(r.raw.spec);
  if (r.replicas !== undefined) spec.replicas = r.replicas;
  out.spec = spec;
  const status = obj(r.raw.status);
  const s = r.status;
  status.replicas = s.replicas;
  // the API omits zero counts (omitempty); keep them omitted when they were
  for (const k of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) {
    if (s[k] !== 0 || status[k] !== undefined) status[k] = s[k];
  }
  // terminatingReplicas exists only where its gate is on (DeploymentReplicaSetTerminatingReplicas)
  if (s.terminatingReplicas !== undefined) status.terminatingReplicas = s.terminatingReplicas;
  const rawConds = status.conditions;
  if (s.conditions.length || rawConds !== undefined) {
    status.conditions = s.conditions.map((c, i) => conditionObject(c, rawConds, i));
    if (!s.conditions.length && rawConds === undefined) delete status.conditions;
  }
  out.status = status;
  return out;
}

export function exportDaemonSet(d: DaemonSetRecord): KObject {
  return base(d);
}

export function exportLease(l: LeaseRecord): KObject {
  const out = base(l);
  const spec = obj(l.raw.spec);
  if (l.holderIdentity !== undefined) spec.holderIdentity = l.holderIdentity;
  if (l.leaseDurationSeconds !== undefined) spec.leaseDurationSeconds = l.leaseDurationSeconds;
  if (l.renewTime !== undefined) setTime(spec, 'renewTime', l.renewTime, formatMicroTime);
  out.spec = spec;
  return out;
}

export function exportRecord(r: ObjectRecord): KObject {
  switch (r.kind) {
    case 'Node':
      return exportNode(r);
    case 'Pod':
      return exportPod(r);
    case 'ReplicaSet':
      return exportReplicaSet(r);
    case 'DaemonSet':
      return exportDaemonSet(r);
    case 'Lease':
      return exportLease(r);
  }
}

export interface ExportOptions {
  /** also list the objects of kinds the engine does not use (default false) */
  includeIgnored?: boolean;
}

const byKey = <T>(m: Map<string, T>): T[] => [...m.keys()].sort().map((k) => m.get(k)!);

/**
 * The cluster as a `kind: List`: Nodes, Pods, ReplicaSets, DaemonSets, Leases,
 * each sorted by name (namespace/name), so the same state always prints the same.
 */
export function exportCluster(cluster: ClusterState, options: ExportOptions = {}): { apiVersion: 'v1'; kind: 'List'; items: KObject[] } {
  const items: KObject[] = [];
  for (const n of byKey(cluster.nodes)) items.push(exportNode(n));
  for (const p of byKey(cluster.pods)) items.push(exportPod(p));
  for (const r of byKey(cluster.replicaSets)) items.push(exportReplicaSet(r));
  for (const d of byKey(cluster.daemonSets)) items.push(exportDaemonSet(d));
  for (const l of byKey(cluster.leases)) items.push(exportLease(l));
  if (options.includeIgnored) items.push(...cluster.ignored);
  return { apiVersion: 'v1', kind: 'List', items };
}
