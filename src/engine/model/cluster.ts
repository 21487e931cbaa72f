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
