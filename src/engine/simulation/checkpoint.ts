/**
 * Copies of the world for checkpoints: every record's mutable parts are
 * copied; `raw` (the object as exported, never mutated in place by the
 * engine: changes make a new object), labels, annotations and parsed specs
 * that nothing mutates (selectors, templates) are shared. Kept copies (the
 * checkpoints', the host's `before` of each pod) also share what did not
 * change with earlier kept copies and the snapshot's records: a pod's
 * conditions but Ready, a node whose heartbeat times alone changed.
 */
import type { ClusterState } from '../model/cluster';
import { PodMap } from '../model/podOrder';
import {
  copyLease,
  copyMeta,
  copyReplicaSet,
  copyReplicaSetStatus,
  copyNodeConditions,
  copyPod,
  copyPodCondition,
  copyTaints,
  nodeRecord,
} from '../model/records';
import type { Micros } from '../model/time';
import type {
  ConditionStatus,
  DaemonSetRecord,
  LeaseRecord,
  NodeRecord,
  ObjectMeta,
  PodCondition,
  PodRecord,
  ReplicaSetRecord,
  ReplicaSetStatus,
} from '../model/types';

/**
 * Checking modes (tests: SimulationOptions.checks): compare what a fast path of the checkpoints
 * assumes with the slow path, and throw on a difference (heartbeats: CheckpointStore.heartbeatCopy;
 * replicaSetStatus: CheckpointStore.statusCopy;
 * pods: DirtyPods.take; index: the pod index a restore puts back, against the one replayed
 * from the snapshot; facts: the causes memory a restore puts back, against the one made from every log).
 */
export interface CheckpointChecks {
  heartbeats?: boolean;
  pods?: boolean;
  index?: boolean;
  facts?: boolean;
  /** podOrder: the pod map's order owed by a restore (podOrder.ts), made good at once, against the eager one */
  podOrder?: boolean;
  /** replicaSetStatus: a ReplicaSet kept as its status alone (CheckpointStore.statusCopy) equals its base but for the status */
  replicaSetStatus?: boolean;
}

// labels and annotations are shared: nothing in the engine changes them in place (apply and patch make new records)
function meta<M extends ObjectMeta>(m: M): M {
  return copyMeta(
    m,
    m.ownerReferences.map((o) => ({ ...o })),
  );
}

// A Node's and a Lease's metadata is never changed in place (apply and patch make new records; a
// kubelet changes only conditions and renewTime), and every checkpoint copies all nodes and leases
// (heartbeats touch each of them): their metadata is shared.
export function cloneNode(n: NodeRecord): NodeRecord {
  return nodeRecord(n.meta, copyNodeConditions(n.conditions), copyTaints(n.taints), n.unschedulable, n.raw);
}

/**
 * A checkpoint's node whose only change since `of` (an earlier checkpoint's copy or the snapshot's
 * record, neither ever edited) is its conditions' heartbeat times. Every running kubelet writes
 * lastHeartbeatTime into its node's conditions in place, so every checkpoint would otherwise copy
 * every node: 5,000 at 5,000 nodes, while a handful changed anything else.
 */
export class NodeHeartbeats {
  constructor(
    readonly of: NodeRecord,
    readonly times: number[],
  ) {}
}

/** The heartbeat times of `n`'s conditions when they are all that differs from `base`; else undefined. */
export function heartbeatsSince(n: NodeRecord, base: NodeRecord): number[] | undefined {
  const conds = n.conditions,
    was = base.conditions;
  if (conds.length !== was.length || n.taints.length !== base.taints.length) return undefined;
  if (!sameFields(n, base, 'conditions', 'taints')) return undefined;
  for (let i = 0; i < n.taints.length; i++) if (!sameFields(n.taints[i], base.taints[i])) return undefined;
  const times = new Array<number>(conds.length);
  for (let i = 0; i < conds.length; i++) {
    if (!sameFields(conds[i], was[i], 'lastHeartbeatTime')) return undefined;
    times[i] = conds[i].lastHeartbeatTime;
  }
  return times;
}

/** A live node from a checkpoint's: a copy, with the heartbeat times written in. */
export function nodeFrom(v: NodeRecord | NodeHeartbeats): NodeRecord {
  if (!(v instanceof NodeHeartbeats)) return cloneNode(v);
  const n = cloneNode(v.of);
  // heartbeatsSince checked that every condition has lastHeartbeatTime, in the same place
  for (let i = 0; i < v.times.length; i++) n.conditions[i].lastHeartbeatTime = v.times[i];
  return n;
}

/**
 * A live pod from a record nobody may edit (the snapshot's, a checkpoint's). Its tolerations and
 * owner references are replaced, never changed in place (apply makes a new record; adoption and
 * release write a new list): they are shared. Its metadata is edited (adoption writes the owner
 * references) and is copied.
 *
 * Of a pod's conditions only the Ready one is ever edited in place (by MarkPodsNotReady); every
 * other change writes a new list with a new condition (the binder, the taint manager's
 * DisruptionTarget, the world's pod events). So the others are shared, here and in what is kept
 * (frozenConditions). Copying every condition of every pod was 95 MB of a 5,000-node cluster's
 * 150,000 pods, at the start of every simulation. sharedCopies.test.ts fails when a run edits a
 * snapshot record, or a `before`, in place.
 */
export function clonePod(p: PodRecord): PodRecord {
  return copyPod(p, copyMeta(p.meta), liveConditions(p.conditions));
}

// slice, not map: a list without holes, as the loader's (see model/records.ts copyNodeConditions)
function liveConditions(conds: readonly PodCondition[]): PodCondition[] {
  const out = conds.slice();
  for (let i = 0; i < out.length; i++) if (out[i].type === 'Ready') out[i] = copyPodCondition(out[i]);
  return out;
}

/**
 * A checkpoint's pod whose only change since `of` (an earlier checkpoint's copy, never edited;
 * undefined: the snapshot's record under the pod's key, not looked up until read) is its Ready
 * condition's status and lastTransitionTime, as the host was told (updatePod's `ready`:
 * MarkPodsNotReady). The Unknown pass at 5,000 nodes marks 50,000 pods not ready: a copy of each
 * (frozenPod) was most of the checkpoint after it, and so of the next click.
 */
export class PodReady {
  constructor(
    readonly of: PodRecord | undefined,
    readonly status: ConditionStatus,
    readonly lastTransitionTime: Micros,
  ) {}
}

/** A pod as a checkpoint keeps it. */
export type KeptPod = PodRecord | PodReady;

/** A live pod from a checkpoint's (`snapshot`: the snapshot's pods, which a PodReady may be over): a copy (clonePod), with the Ready fields written in. */
export function podFrom(v: KeptPod, key: string, snapshot: ReadonlyMap<string, PodRecord>): PodRecord {
  if (!(v instanceof PodReady)) return clonePod(v);
  const p = clonePod(readyBase(v, key, snapshot));
  // clonePod copied the Ready condition: it is the live pod's own
  readyInto(p, v);
  return p;
}

function readyBase(v: PodReady, key: string, snapshot: ReadonlyMap<string, PodRecord>): PodRecord {
  const base = v.of ?? snapshot.get(key);
  if (base === undefined) throw new Error(`checkpoint: Pod ${key} kept as a Ready change over the snapshot's record is not in the snapshot`);
  return base;
}

/** The Ready fields of `v` written into the live pod `p`'s own Ready condition. */
function readyInto(p: PodRecord, v: PodReady): void {
  if (!readyWrittenInto(p, v)) throw new Error(`checkpoint: Pod ${p.meta.namespace}/${p.meta.name} kept as a Ready change has no Ready condition`);
}

/**
 * The Ready fields of `v` written into the live pod's own Ready condition, and nothing else: only for a pod whose other
 * fields are already `v`'s (handOff.ts: one the pass changed by Ready writes alone, where the target stands where the
 * pass began). The condition written, or undefined when it has none (nothing written).
 */
export function readyWrittenInto(live: PodRecord, v: PodReady): PodCondition | undefined {
  for (const c of live.conditions)
    if (c.type === 'Ready') {
      c.status = v.status;
      c.lastTransitionTime = v.lastTransitionTime;
      return c;
    }
  return undefined;
}

/**
 * Whether two pods are the same record field for field, key order included (the state's JSON
 * follows it), sharing what a kept copy shares (checks.pods: a PodReady against the copy it stands for).
 */
export function samePod(a: PodRecord, b: PodRecord): boolean {
  if (!sameFields(a, b, 'meta', 'conditions') || !sameFields(a.meta, b.meta) || a.conditions.length !== b.conditions.length) return false;
  for (let i = 0; i < a.conditions.length; i++) if (!sameFields(a.conditions[i], b.conditions[i])) return false;
  return true;
}

/**
 * Writes `v` (a record nobody may edit, as clonePod takes, or a PodReady over one) into the live record `live` of the same
 * pod, so that `live` ends as clonePod(v) would be, and returns true; false (nothing written) unless
 * the two have the same keys in the same order (so the state's JSON is the same), the same node,
 * phase, `raw` and owner references. The restore keeps the live record then: the controllers'
 * indexes, which hold records and key them by owner and node, stay right without a look-up, and the
 * pod map keeps its entry. MarkPodsNotReady changes a pod's Ready condition alone: at 5,000 nodes,
 * 50,000 pods a restore to before an outage puts back, each a copy and an index update before.
 */
export function writePodInto(live: PodRecord, v: KeptPod, key = '', snapshot: ReadonlyMap<string, PodRecord> = new Map()): boolean {
  if (v instanceof PodReady) {
    if (!writePodInto(live, readyBase(v, key, snapshot))) return false;
    // the live Ready condition is the live pod's own (written into or copied by conditionsInto)
    readyInto(live, v);
    return true;
  }
  if (live === v) return false;
  if (live.nodeName !== v.nodeName || live.phase !== v.phase || live.raw !== v.raw || live.meta.ownerReferences !== v.meta.ownerReferences) return false;
  if (!sameKeys(live, v) || !sameKeys(live.meta, v.meta)) return false;
  const conds = conditionsInto(live.conditions, v.conditions);
  if (conds === undefined) return false;
  const l = live as unknown as Record<string, unknown>,
    w = v as unknown as Record<string, unknown>;
  for (const k in w) if (k !== 'meta' && k !== 'conditions') l[k] = w[k];
  const lm = live.meta as unknown as Record<string, unknown>,
    wm = v.meta as unknown as Record<string, unknown>;
  for (const k in wm) lm[k] = wm[k];
  live.conditions = conds;
  return true;
}

/**
 * `live` (a live pod's list: its own, never kept by a checkpoint) made what `liveConditions(v)`
 * would be: in place when the types are the same, in the same order, and the live Ready condition
 * has the same keys as `v`'s (it is written into, as MarkPodsNotReady writes it); else a new list
 * like clonePod's when the lengths differ, or undefined (the caller copies the whole pod).
 */
function conditionsInto(live: PodCondition[], v: readonly PodCondition[]): PodCondition[] | undefined {
  if (live.length !== v.length) return liveConditions(v);
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (live[i].type !== c.type) return liveConditions(v);
    // a live Ready that is the kept one (never so) or of another shape: the whole pod is copied
    if (c.type === 'Ready' && (live[i] === c || !sameKeys(live[i], c))) return undefined;
  }
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c.type !== 'Ready') live[i] = c;
    else if (live[i] !== c) Object.assign(live[i], c);
  }
  return live;
}

/** The same own keys in the same order (values aside). */
function sameKeys(a: object, b: object): boolean {
  // a key under undefined counts as absent: the record factories (model/records.ts) write every
  // optional key, and what is copied rather than written (a statusReason, a deletionTimestamp, a
  // Ready condition's reason set) is what a key more was before
  const x = a as Record<string, unknown>,
    y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) if (x[k] !== undefined) scratchKeys[n++] = k;
  let i = 0;
  for (const k in y) {
    if (y[k] === undefined) continue;
    if (i >= n || scratchKeys[i] !== k) return false;
    i++;
  }
  return i === n;
}

/**
 * A checkpoint's copy of a pod, never edited (restoring copies it again with clonePod): its
 * metadata is the snapshot record's when equal, and its conditions are frozenConditions' (with
 * `conds`, what the host last announced for the pod or the snapshot record's, as the earlier list).
 * Cloning every pod an outage touched in full cost a third of what the checkpoints of a one-hour
 * outage kept.
 */
export function frozenPod(p: PodRecord, pristine: PodRecord | undefined, conds: readonly PodCondition[] | undefined, made: { last?: object }): PodRecord {
  const meta = pristine !== undefined && sameFields(p.meta, pristine.meta) ? pristine.meta : copyMeta(p.meta);
  return copyPod(p, meta, frozenConditions(p.conditions, conds ?? pristine?.conditions, made));
}

/**
 * A checkpoint's copy of a ReplicaSet, never edited (restoring makes a record of it again with
 * replicaSetFrom). Its status is replaced whole by the controller (updateStatus builds a new
 * one), never edited in place: it is shared with the live record. Its metadata is the snapshot
 * record's when equal, else a copy.
 * Status updates dirty thousands of ReplicaSets between two checkpoints during an outage.
 */
export function frozenReplicaSet(r: ReplicaSetRecord, pristine: ReplicaSetRecord | undefined): ReplicaSetRecord {
  return copyReplicaSet(r, pristine !== undefined && sameMeta(r.meta, pristine.meta) ? pristine.meta : meta(r.meta), r.status);
}

/** sameFields for metadata, whose owner references a copy copies too (see meta). */
function sameMeta(a: ObjectMeta, b: ObjectMeta): boolean {
  if (!sameFields(a, b, 'ownerReferences')) return false;
  const x = a.ownerReferences,
    y = b.ownerReferences;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (!sameFields(x[i], y[i])) return false;
  return true;
}

/**
 * A checkpoint's ReplicaSet whose only change since `of` (an earlier checkpoint's copy or the
 * snapshot's record, neither ever edited) is its status, which the controller replaces whole and
 * never edits (shared, as frozenReplicaSet shares it). The Unknown pass at 5,000 nodes writes the
 * status of 9,371 ReplicaSets: a copy of each, its metadata compared, was a third of the checkpoint
 * after it once the pods were kept as PodReady.
 */
export class ReplicaSetStatusWrite {
  constructor(
    readonly of: ReplicaSetRecord,
    readonly status: ReplicaSetStatus,
  ) {}
}

/**
 * A live ReplicaSet from a checkpoint's: a record of its own, with the status written in (in its place: key order),
 * sharing the metadata and status, which are replaced whole and never edited in place (a status write makes a new
 * status, a scale new metadata: world.ts). A Reset over the outage at 5,000 nodes puts back 9,371 ReplicaSets: copying
 * each one's metadata, owner references, status and conditions was most of the ReplicaSets' rewind.
 */
export function replicaSetFrom(v: ReplicaSetRecord | ReplicaSetStatusWrite): ReplicaSetRecord {
  return v instanceof ReplicaSetStatusWrite ? copyReplicaSet(v.of, v.of.meta, v.status) : copyReplicaSet(v, v.meta, v.status);
}

/** Whether `r` equals `base` but for its status (checks.replicaSetStatus): the same fields, the metadata compared field by field. */
export function sameButStatus(r: ReplicaSetRecord, base: ReplicaSetRecord): boolean {
  return sameFields(r, base, 'status', 'meta') && sameMeta(r.meta, base.meta);
}

export function cloneReplicaSet(r: ReplicaSetRecord): ReplicaSetRecord {
  return withStatus(r, r.status);
}

/** A copy of `r` with a copy of `status` in its status's place (key order kept). */
function withStatus(r: ReplicaSetRecord, status: ReplicaSetStatus): ReplicaSetRecord {
  return copyReplicaSet(r, meta(r.meta), copyReplicaSetStatus(status));
}

export function cloneDaemonSet(d: DaemonSetRecord): DaemonSetRecord {
  return { ...d, meta: meta(d.meta) };
}

// sameFields' keys of `a`, reused: it runs for every condition of every pod announced
const scratchKeys: string[] = [];

/**
 * The same own keys, in the same order, with the same values (===) under them, except that the
 * values under `except` and `except2` may differ: an exact copy of a flat record such as a condition. The order
 * counts because a shared record is what a restored one is copied from, and the state's JSON
 * follows key order.
 */
export function sameFields(a: object, b: object, except?: string, except2?: string): boolean {
  const x = a as Record<string, unknown>,
    y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    if (x[k] !== y[k] && k !== except && k !== except2) return false;
    scratchKeys[n++] = k;
  }
  let i = 0;
  for (const k in y) {
    if (i >= n || scratchKeys[i] !== k) return false;
    i++;
  }
  return i === n;
}

/**
 * A pod's condition list for a record nobody edits (a checkpoint's pod, what the host last
 * announced for a pod). Only a pod's Ready condition is ever edited in place (see clonePod), so
 * every other condition of the live pod is shared as it is. The Ready condition is copied, unless
 * it equals the one at the same index of `prev` (such a list, or a snapshot record's: neither is
 * ever edited) or `made.last`, the previous copy (MarkPodsNotReady gives every pod of a node the
 * same Ready condition); `prev` itself is returned when every condition is its own. None of these
 * lists or conditions may ever be edited in place: restoring a checkpoint copies them into the
 * live records (clonePod), and the controllers only read a `before`.
 */
export function frozenConditions(conds: readonly PodCondition[], prev: readonly PodCondition[] | undefined, made: { last?: object }): PodCondition[] {
  const n = conds.length;
  let same = prev !== undefined && prev.length === n;
  // sized as the live list (push would reserve room for 16, and these lists are kept), and of its
  // kind (new Array(n) would have holes: another kind of list where pods' `before` are read)
  const out = conds.slice();
  for (let i = 0; i < n; i++) {
    const c = conds[i];
    const p = prev !== undefined && i < prev.length ? prev[i] : undefined;
    if (c.type !== 'Ready') {
      if (c !== p) same = false;
      continue;
    }
    if (p !== undefined && (c === p || sameFields(c, p))) {
      out[i] = p;
      continue;
    }
    same = false;
    const last = made.last as PodCondition | undefined;
    if (last !== undefined && sameFields(c, last)) {
      out[i] = last;
      continue;
    }
    const copy = copyPodCondition(c);
    made.last = copy;
    out[i] = copy;
  }
  return same ? (prev as PodCondition[]) : out;
}

export function cloneLease(l: LeaseRecord): LeaseRecord {
  return copyLease(l);
}

/**
 * A checkpoint's Lease whose only change since `of` (an earlier checkpoint's copy or the
 * snapshot's record, neither ever edited) is its renewTime: every running kubelet renews its
 * Lease in place every 10 s, so every checkpoint would otherwise copy every Lease.
 */
export class LeaseRenewal {
  constructor(
    readonly of: LeaseRecord,
    readonly renewTime: number | undefined,
  ) {}
}

/** A live Lease from a checkpoint's: a copy, with the renewal written in. */
export function leaseFrom(v: LeaseRecord | LeaseRenewal): LeaseRecord {
  if (!(v instanceof LeaseRenewal)) return cloneLease(v);
  // sameFields checked that the Lease had a renewTime where `of` has one
  const l = cloneLease(v.of);
  l.renewTime = v.renewTime;
  return l;
}

export function copyMap<T>(m: Map<string, T>, f: (v: T) => T): Map<string, T> {
  return copyInto(new Map<string, T>(), m, f);
}

function copyInto<T, M extends Map<string, T>>(out: M, m: Map<string, T>, f: (v: T) => T): M {
  for (const [k, v] of m) out.set(k, f(v));
  return out;
}

/** A copy of the cluster that shares nothing mutable with the original. */
export function cloneCluster(c: ClusterState): ClusterState {
  return {
    nodes: copyMap(c.nodes, cloneNode),
    pods: copyInto(new PodMap<PodRecord>(), c.pods, clonePod),
    replicaSets: copyMap(c.replicaSets, cloneReplicaSet),
    daemonSets: copyMap(c.daemonSets, cloneDaemonSet),
    leases: copyMap(c.leases, cloneLease),
    podsByNode: copyMap(c.podsByNode, (s) => new Set(s)),
    ignored: [...c.ignored],
  };
}
