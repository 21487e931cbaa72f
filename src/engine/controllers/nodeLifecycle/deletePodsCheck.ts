/**
 * DeletePods (pkg/controller/util/node) as a why-not check of the 1.12 pod eviction: a node whose
 * pods are gone (a scale-down, a delete) is still released from its zone's eviction queue, and its
 * release deletes and writes nothing, so "its pods evicted at T" would name a time when nothing
 * comes (the hunt's outage-1.12 seed 203: node-a2's one pod deleted by a scale to 9 at +3m, "would
 * fire at +5m35s" said until then).
 */
import type { ClusterState } from '../../model/cluster';
import type { NodeRecord } from '../../model/types';
import type { KubeletFacts, WhyNotCheck } from '../../trace/whyNot';
import { deletePodsDecides } from './guards';
import { repostOfReady } from './kubeletLapse';
import { findCondition } from './taints';
import { UTIL_FILE } from './state';

/**
 * The check that fails when DeletePods would find nothing to do on the node, as things stand; undefined
 * when it may. It holds only while the node is not Ready: the binder puts no new pod on such a node, and
 * the Ready its kubelet posts again (a start of the timeline, a kubelet that posts too seldom) cancels the
 * eviction, after which new pods may come.
 */
export function nothingForDeletePods(
  cluster: Pick<ClusterState, 'daemonSets' | 'pods' | 'podsByNode'>,
  node: NodeRecord,
  kubelet: KubeletFacts | undefined,
): WhyNotCheck | undefined {
  if (findCondition(node.conditions, 'Ready')?.status === 'True' || (kubelet && repostOfReady(kubelet) !== undefined)) return undefined;
  const pods = deletePodsDecides(cluster, node.meta.name);
  if (pods > 0) return undefined;
  return {
    guard: 'hasPodsToEvict',
    upstream: `DeletePods (${UTIL_FILE})`,
    holds: false,
    rule: 'a pod of the node for DeletePods to delete, or to mark NodeLost',
    unmet: 'no pod of the node left for DeletePods to delete or mark: its release from the eviction queue does nothing',
    values: { pods },
  };
}
