/**
 * What a partial export leaves dangling (spec 1.4, issue 13): pods bound to
 * nodes the snapshot does not hold, and ReplicaSets that report replicas none
 * of whose pods are in it. Both change what the simulation does (no controller
 * acts on the first; the ReplicaSet controller replaces the second's pods at
 * its first sync), so each is named in a warning before pass 0, at the
 * object's position when the loader knows it.
 */
import type { ClusterState } from '../model/cluster';
import { nsKey } from '../model/types';
import type { Problem, SourcePosition } from '../problems';

/** Warnings listed one by one; the rest are counted in one more. */
export const MAX_DANGLING_WARNINGS = 20;
/** Pod names listed per missing node. */
const MAX_NAMES = 5;

/** Where the loader found an object (`Pod`, `ns/name`), when it knows. */
export type PositionOf = (kind: 'Pod' | 'ReplicaSet', key: string) => SourcePosition | undefined;

export function danglingReferences(cluster: ClusterState, positionOf: PositionOf): Problem[] {
  return [...podsOnMissingNodes(cluster, positionOf), ...replicaSetsWithoutPods(cluster, positionOf)];
}

function withPosition(p: Problem, position: SourcePosition | undefined): Problem {
  return position ? { ...p, position } : p;
}

function names(keys: readonly string[]): string {
  const shown = keys.slice(0, MAX_NAMES).join(', ');
  return keys.length > MAX_NAMES ? `${shown} and ${keys.length - MAX_NAMES} more` : shown;
}

/** One warning per missing node (in name order), naming its pods. */
export function podsOnMissingNodes(cluster: ClusterState, positionOf: PositionOf): Problem[] {
  const missing = [...cluster.podsByNode.keys()].filter((n) => n !== '' && !cluster.nodes.has(n)).sort();
  const out: Problem[] = [];
  for (const node of missing.slice(0, MAX_DANGLING_WARNINGS)) {
    const pods = [...cluster.podsByNode.get(node)!].sort();
    out.push(
      withPosition(
        {
          code: 'pods-on-missing-nodes',
          severity: 'warning',
          message: `${pods.length === 1 ? 'Pod' : `${pods.length} pods`} ${names(pods)} ${pods.length === 1 ? 'is' : 'are'} bound to Node ${node}, which is not in the snapshot: no simulated controller acts on ${pods.length === 1 ? 'it' : 'them'} (if the node is really gone, the pod garbage collector, which is not simulated, would delete ${pods.length === 1 ? 'it' : 'them'}; if the export left it out, export the node too)`,
        },
        positionOf('Pod', pods[0]),
      ),
    );
  }
  if (missing.length > MAX_DANGLING_WARNINGS) {
    const rest = missing.slice(MAX_DANGLING_WARNINGS);
    const count = rest.reduce((n, node) => n + cluster.podsByNode.get(node)!.size, 0);
    out.push({
      code: 'pods-on-missing-nodes',
      severity: 'warning',
      message: `${count} more pod(s) are bound to ${rest.length} more node(s) not in the snapshot (${names(rest)})`,
    });
  }
  return out;
}

/**
 * ReplicaSets whose status.replicas is above 0 and none of whose pods (pods with an ownerReference
 * to the ReplicaSet: same namespace and name, and uid when both give one) is in the snapshot.
 */
export function replicaSetsWithoutPods(cluster: ClusterState, positionOf: PositionOf): Problem[] {
  if (!cluster.replicaSets.size) return [];
  const owned = new Map<string, Set<string>>();
  // the pods of one ReplicaSet come together in an export and share one ownerReferences list
  // (snapshot/share.ts): a pod with the list and namespace of the pod before it owns nothing new
  let lastRefs: unknown, lastNamespace: string | undefined;
  for (const pod of cluster.pods.values()) {
    const refs = pod.meta.ownerReferences;
    if (refs === lastRefs && pod.meta.namespace === lastNamespace) continue;
    lastRefs = refs;
    lastNamespace = pod.meta.namespace;
    for (const ref of refs) {
      if (ref.kind !== 'ReplicaSet') continue;
      const key = nsKey(pod.meta.namespace, ref.name);
      let uids = owned.get(key);
      if (!uids) owned.set(key, (uids = new Set()));
      uids.add(ref.uid ?? '');
    }
  }
  const empty: string[] = [];
  for (const [key, rs] of cluster.replicaSets) {
    if (!(rs.status.replicas > 0)) continue;
    const uids = owned.get(key);
    const mine = uids && (!rs.meta.uid || uids.has(rs.meta.uid) || uids.has(''));
    if (!mine) empty.push(key);
  }
  empty.sort();
  const out: Problem[] = [];
  for (const key of empty.slice(0, MAX_DANGLING_WARNINGS)) {
    const rs = cluster.replicaSets.get(key)!;
    const n = rs.status.replicas;
    out.push(
      withPosition(
        {
          code: 'replicaset-pods-missing',
          severity: 'warning',
          message: `ReplicaSet ${key} reports ${n} replica${n === 1 ? '' : 's'} (status.replicas) but the snapshot holds none of its pods: the ReplicaSet controller creates ${rs.replicas ?? 1} new pod${(rs.replicas ?? 1) === 1 ? '' : 's'} at its first sync (export its pods too: kubectl get pods -n ${rs.meta.namespace} -o yaml)`,
        },
        positionOf('ReplicaSet', key),
      ),
    );
  }
  if (empty.length > MAX_DANGLING_WARNINGS) {
    const rest = empty.slice(MAX_DANGLING_WARNINGS);
    out.push({
      code: 'replicaset-pods-missing',
      severity: 'warning',
      message: `${rest.length} more ReplicaSet(s) report replicas none of whose pods is in the snapshot (${names(rest)})`,
    });
  }
  return out;
}
