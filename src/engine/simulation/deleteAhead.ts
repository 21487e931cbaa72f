/**
 * A pod's deletion by a controller read against the timeline's `delete` of that very pod: the pod is
 * gone at the event (graceful termination is not modelled), and the timeline's events at an instant
 * apply before the controllers' timers and passes, so a deletion named at or after it never comes.
 * The answer is "never, if the timeline deletes it first" (the hunt's notready-then-unknown seed 103:
 * toleration-forever said deleted by the taint eviction at +3m00s under the timeline's taint at
 * +3m00s, which the timeline deleted at that instant first).
 */
import { formatTime, parseTimestamp } from '../model/time';
import { withoutTime, type WhyNot, type WhyNotCheck, type WhyNotOutcome, type WhyNotWorld } from '../trace/whyNot';

export const POD_DELETIONS = new Set<WhyNotOutcome>(['PodDeletedByTaintEviction', 'PodDeletedByPodEviction', 'PodDeletedByScaleDown']);

/** `w` unchanged, or "never" when the timeline deletes its pod by the time it names. */
export function readTimelineDelete(w: WhyNot, world: WhyNotWorld): WhyNot {
  if (!w.outcome || !POD_DELETIONS.has(w.outcome) || w.never || !w.object?.startsWith('Pod/')) return w;
  const named = w.wouldFireAt ?? w.conditional?.at;
  const deleted = named !== undefined ? world.deletedAt?.(w.object) : undefined;
  if (deleted === undefined || parseTimestamp(named!)! < deleted) return w;
  const at = formatTime(deleted);
  const check: WhyNotCheck = {
    guard: 'noTimelineDeleteBefore',
    upstream: 'the timeline deletes the pod (DELETE Pod): no controller deletes a pod that is gone',
    holds: false,
    rule: `the timeline deletes ${w.object} at ${at}, by the time named (${named}): the deletion never comes`,
    values: { timelineDeletesAt: at, namedWithoutIt: named },
  };
  return { ...withoutTime(w, check), never: true, neverIf: `the timeline deletes the pod at ${at}, first` };
}
