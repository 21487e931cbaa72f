/**
 * A pod's lineage: the ReplicaSet that made it, the PodsCreated decision
 * that did, and what that creation answered (its causes: the eviction or
 * deletion of the pod it replaces). The trace has the links (PodsCreated
 * cites the eviction); this finds them from the pod's side, where the
 * PodsCreated is not a decision about the pod itself.
 */
import type { Decision } from './decision';
import type { DecisionList } from './decisionLog';

/** Where a pod came from: the view's Why and `explain` show it for a replacement pod. */
export interface PodLineage {
  /** `ReplicaSet/NS/NAME` */
  replicaSet: string;
  /** the PodsCreated that made it, when that happened during the run */
  created?: Decision;
  /** the evictions and deletions the creation answered (from its causes) */
  answers: Decision[];
}

function byseq(trace: DecisionList, seq: number): Decision | undefined {
  const guess = seq > 0 ? trace.at(seq - 1) : undefined;
  return guess?.seq === seq ? guess : trace.find((d) => d.seq === seq);
}

/** `owner`: the pod's owning ReplicaSet as the cluster says, for pods that were not created during the run. */
export function podLineage(trace: DecisionList, ref: string, owner?: string): PodLineage | undefined {
  const parts = ref.split('/');
  if (parts[0] !== 'Pod' || parts.length !== 3) return undefined;
  const [, ns, name] = parts;
  for (let i = trace.length - 1; i >= 0; i--) {
    const d = trace.at(i)!;
    if (d.action !== 'PodsCreated' || !d.object.startsWith(`ReplicaSet/${ns}/`)) continue;
    const pods = d.details?.pods;
    if (!Array.isArray(pods) || !pods.includes(name)) continue;
    const answers = d.causes.map((s) => byseq(trace, s)).filter((c): c is Decision => c !== undefined);
    return { replicaSet: d.object, created: d, answers };
  }
  return owner ? { replicaSet: owner, answers: [] } : undefined;
}
