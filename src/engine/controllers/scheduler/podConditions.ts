/**
 * A pod's conditions as the scheduler writes them (podutil.UpdatePodCondition,
 * pkg/api/v1/pod/util.go): the transition time kept while the status stays.
 */
import type { PodCondition } from '../../model/types';
import { copyPodCondition, podCondition } from '../../model/records';

export function setCondition(conds: PodCondition[], c: PodCondition): PodCondition[] {
  const i = conds.findIndex((x) => x.type === c.type);
  if (i < 0) return [...conds, copyPodCondition(c)];
  const old = conds[i]!;
  const next = podCondition(old.type, c.status, old.status === c.status ? old.lastTransitionTime : c.lastTransitionTime, old.reason, old.message);
  return withAt(conds, i, next);
}

/**
 * The PodScheduled condition written with its reason and message (none when bound), the
 * transition time kept while the status stays; the same list when nothing changes.
 */
export function scheduledCondition(conds: PodCondition[], c: PodCondition): PodCondition[] {
  const i = conds.findIndex((x) => x.type === c.type);
  if (i < 0) return [...conds, copyPodCondition(c)];
  const old = conds[i]!;
  if (old.status === c.status && old.reason === c.reason && old.message === c.message) return conds;
  const next = podCondition(c.type, c.status, old.status === c.status ? old.lastTransitionTime : c.lastTransitionTime, c.reason, c.message);
  return withAt(conds, i, next);
}

// slice, not map: a list without holes, as the loader's (see model/records.ts copyNodeConditions)
function withAt(conds: PodCondition[], i: number, c: PodCondition): PodCondition[] {
  const out = conds.slice();
  out[i] = c;
  return out;
}
