/**
 * Which why-not outcome a decision is: what a why-not names a time for ("would fire at"), read off the decision that
 * came. The why-not audit checks each answer against the decisions of the run forward by it, and the answers given
 * while a failover's new leader waits name the outcomes that leader decides as it starts by it.
 */
import type { Decision } from './decision';
import type { WhyNotOutcome } from './whyNot';

/** The outcome a decision is, and the object it is about, or undefined when no why-not names it. */
export function outcomeOf(d: Decision): { outcome: WhyNotOutcome; object: string } | undefined {
  if (d.action === 'NodeStatusUnknown') return { outcome: 'NodeStatusUnknown', object: d.object };
  if (d.controller === 'node-lifecycle' && d.action === 'TaintAdded' && d.summary.includes(':NoExecute'))
    return { outcome: 'NodeTaintedNoExecute', object: d.object };
  if (d.controller === 'taint-eviction' && d.action === 'PodEvicted') return { outcome: 'PodDeletedByTaintEviction', object: d.object };
  if (d.controller === 'node-lifecycle' && d.action === 'PodEvicted') return { outcome: 'PodDeletedByPodEviction', object: d.object };
  if (d.controller === 'replicaset' && d.action === 'PodsCreated') return { outcome: 'ReplicaSetPodsCreated', object: d.object };
  if (d.controller === 'scheduler' && d.action === 'PodBound') return { outcome: 'PodBound', object: d.object };
  return undefined;
}

/** Every outcome a decision is: a scale-down is the ReplicaSet's deletions and each deleted pod's. */
export function outcomesOf(d: Decision): { outcome: WhyNotOutcome; object: string }[] {
  if (d.controller === 'replicaset' && d.action === 'PodsDeleted') {
    const ns = d.object.split('/')[1];
    const pods = (d.details as { pods?: string[] } | undefined)?.pods ?? [];
    return [
      { outcome: 'ReplicaSetPodsDeleted', object: d.object },
      ...pods.map((name) => ({ outcome: 'PodDeletedByScaleDown' as const, object: `Pod/${ns}/${name}` })),
    ];
  }
  const o = outcomeOf(d);
  return o ? [o] : [];
}
