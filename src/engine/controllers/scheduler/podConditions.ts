/**
 * A pod's conditions as the scheduler writes them (podutil.UpdatePodCondition,
 * pkg/api/v1/pod/util.go): the transition time kept while the status stays.
 */
import type { PodCondition } from '../../model/types';

export function setCondition(conds: PodCondition[], c: PodCondition): PodCondition[] {
  const i = conds.findIndex((x) => x.type === c.type);
  if (i < 0) return [...conds, c];
  const old = conds[i]!;
  const next = { ...old, status: c.status, lastTransitionTime: old.status === c.status ? old.lastTransitionTime : c.lastTransitionTime };
  return conds.map((x, j) => (j === i ? next : x));
}

/**
 * The PodScheduled condition written with its reason and message (none when bound), the
 * transition time kept while the status stays; the same list when nothing changes.
 */
export function scheduledCondition(conds: PodCondition[], c: PodCondition): PodCondition[] {
  const i = conds.findIndex((x) => x.type === c.type);
  if (i < 0) return [...conds, c];
  const old = conds[i]!;
  if (old.status === c.status && old.reason === c.reason && old.message === c.message) return conds;
  const next: PodCondition = { type: c.type, status: c.status, lastTransitionTime: old.status === c.status ? old.lastTransitionTime : c.lastTransitionTime };
  if (c.reason !== undefined) next.reason = c.reason;
  if (c.message !== undefined) next.message = c.message;
  return conds.map((x, j) => (j === i ? next : x));
}
