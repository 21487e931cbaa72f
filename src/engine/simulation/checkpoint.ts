/**
 * Copies of the world for checkpoints: every record's mutable parts are
 * copied; `raw` (the object as exported, never mutated in place by the
 * engine: changes make a new object), labels, annotations and parsed specs
 * that nothing mutates (selectors, templates) are shared.
 */
import type { ClusterState } from '../model/cluster';
import type { DaemonSetRecord, LeaseRecord, NodeRecord, ObjectMeta, PodRecord, ReplicaSetRecord } from '../model/types';

// labels and annotations are shared: nothing in the engine changes them in place (apply and patch make new records)
function meta<M extends ObjectMeta>(m: M): M {
  return { ...m, ownerReferences: m.ownerReferences.map((o) => ({ ...o })) };
}

// A Node's and a Lease's metadata is never changed in place (apply and patch make new records; a
// kubelet changes only conditions and renewTime), and every checkpoint copies all nodes and leases
// (heartbeats touch each of them): their metadata is shared.
export function cloneNode(n: NodeRecord): NodeRecord {
  return { ...n, conditions: n.conditions.map((c) => ({ ...c })), taints: n.taints.map((t) => ({ ...t })) };
}

// A pod's tolerations and owner references are replaced, never changed in place (apply makes a new
// record; adoption and release write a new list): they are shared. Its conditions are edited in place
// (world events) and so are copied. Every pod an outage touches is copied at the next checkpoint.
export function clonePod(p: PodRecord): PodRecord {
  return { ...p, meta: { ...p.meta }, conditions: p.conditions.map((c) => ({ ...c })) };
}

export function cloneReplicaSet(r: ReplicaSetRecord): ReplicaSetRecord {
  return { ...r, meta: meta(r.meta), status: { ...r.status, conditions: r.status.conditions.map((c) => ({ ...c })) } };
}

export function cloneDaemonSet(d: DaemonSetRecord): DaemonSetRecord {
  return { ...d, meta: meta(d.meta) };
}

export function cloneLease(l: LeaseRecord): LeaseRecord {
  return { ...l };
}

export function copyMap<T>(m: Map<string, T>, f: (v: T) => T): Map<string, T> {
  const out = new Map<string, T>();
  for (const [k, v] of m) out.set(k, f(v));
  return out;
}

/** A copy of the cluster that shares nothing mutable with the original. */
export function cloneCluster(c: ClusterState): ClusterState {
  return {
    nodes: copyMap(c.nodes, cloneNode),
    pods: copyMap(c.pods, clonePod),
    replicaSets: copyMap(c.replicaSets, cloneReplicaSet),
    daemonSets: copyMap(c.daemonSets, cloneDaemonSet),
    leases: copyMap(c.leases, cloneLease),
    podsByNode: copyMap(c.podsByNode, (s) => new Set(s)),
    ignored: [...c.ignored],
  };
}
