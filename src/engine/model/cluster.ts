/**
 * The world the controllers act on: every object the engine uses, indexed the
 * way the controllers look things up (pods by node), plus every other object
 * of the input, kept and reported as ignored.
 */
import type { DaemonSetRecord, KObject, LeaseRecord, NodeRecord, PodRecord, ReplicaSetRecord } from './types';

export interface ClusterState {
  nodes: Map<string, NodeRecord>;
  /** by `namespace/name` */
  pods: Map<string, PodRecord>;
  /** by `namespace/name` */
  replicaSets: Map<string, ReplicaSetRecord>;
  /** by `namespace/name` */
  daemonSets: Map<string, DaemonSetRecord>;
  /** node Leases (namespace kube-node-lease) by node name */
  leases: Map<string, LeaseRecord>;
  /** pod keys by spec.nodeName; kept in step with `pods` by whoever mutates them */
  podsByNode: Map<string, Set<string>>;
  /** objects of kinds the engine does not use, kept for export */
  ignored: KObject[];
}

export function emptyCluster(): ClusterState {
  return {
    nodes: new Map(),
    pods: new Map(),
    replicaSets: new Map(),
    daemonSets: new Map(),
    leases: new Map(),
    podsByNode: new Map(),
    ignored: [],
  };
}

/**
 * A node's pod keys (a `podsByNode` set) in key order: the set as it is when it is in that order
 * already (pods indexed in snapshot order usually are; checking costs one comparison per key where
 * the sort costs several), else a sorted copy.
 */
export function nodeKeysInOrder(keys: Set<string>): Iterable<string> {
  let prev: string | undefined;
  for (const k of keys) {
    if (prev !== undefined && !(prev < k)) return [...keys].sort();
    prev = k;
  }
  return keys;
}
