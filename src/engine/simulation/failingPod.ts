/**
 * The first pod (in the cluster's order) a ReplicaSet controls on a failing node, and that ReplicaSet: the
 * objects whose why chains to pod deletions through a node's taint and its zone queue (the panel warms them
 * in idle time). None while no node fails.
 */
import type { ClusterState } from '../model/cluster';
import { controllerOf } from '../controllers/replicaSet/podUtil';
import { nodeFails } from '../controllers/replicaSet/nodeFails';

export function podOnFailingNode(c: ClusterState): string[] {
  const failing = new Set<string>();
  for (const [name, n] of c.nodes) if (nodeFails(n)) failing.add(name);
  if (!failing.size) return [];
  for (const [key, pod] of c.pods) {
    if (!pod.nodeName || !failing.has(pod.nodeName)) continue;
    const owner = controllerOf(pod.meta);
    const rs = owner?.kind === 'ReplicaSet' ? `${pod.meta.namespace}/${owner.name}` : undefined;
    if (rs && c.replicaSets.has(rs)) return [`Pod/${key}`, `ReplicaSet/${rs}`];
  }
  return [];
}
