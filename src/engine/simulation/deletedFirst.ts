/**
 * A pod's deletion answers read against each other: the pod is deleted once, so a path that names a time after
 * another path's deletion never comes. Each controller's answer is right about that controller alone, but read alone
 * the later one names a time the pod does not live to (the hunt's outage-1.12 seed 1020: node-b1's kubelet stopped and
 * node-b1 tainted example.com/maint:NoExecute at +2m00s; the pod eviction said "if the timeline stops the kubelet at
 * +2m00s: at +6m55s", while the taint eviction deleted the pod at +2m00s).
 *
 * The earlier path is read as it stands only when nothing but the timeline's own events decide it: certain, or under
 * one event of the timeline alone ("if the timeline taints Node/N … at S"), not under a bound ("…, and its zone's rate
 * … let it through at once") or another object's deletion. Answers at the same instant are left alone: which
 * controller comes first then is not read here.
 */
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import { withoutTime, type WhyNot, type WhyNotCheck } from '../trace/whyNot';
import { POD_DELETIONS } from './deleteAhead';

/** The pod's answers, each later deletion made "never" when another path deletes the pod first. */
export function readDeletedFirst(answers: readonly WhyNot[]): WhyNot[] {
  let first: { at: Micros; w: WhyNot } | undefined;
  for (const w of answers) {
    const at = firmTime(w);
    if (at !== undefined && (first === undefined || at < first.at)) first = { at, w };
  }
  if (first === undefined) return [...answers];
  const by = first;
  return answers.map((w) => {
    if (w === by.w || !timedPodDeletion(w)) return w;
    const named = w.wouldFireAt ?? w.conditional?.at;
    if (named === undefined || parseTimestamp(named)! <= by.at) return w;
    const at = formatTime(by.at);
    const check: WhyNotCheck = {
      guard: 'noOtherDeletionBefore',
      upstream: 'a pod is deleted once: no controller deletes a pod that is gone',
      holds: false,
      rule: `the pod is deleted first: ${by.w.what} at ${at}${by.w.conditional ? ` (if ${by.w.conditional.if})` : ''}, before the time named (${named}): this deletion never comes`,
      values: { deletedFirstAt: at, deletedFirstBy: by.w.what, namedWithoutIt: named },
    };
    const never = { ...withoutTime(w, check, true), never: true };
    return by.w.conditional ? { ...never, neverIf: `${by.w.conditional.if}: ${by.w.what} at ${at} comes first` } : never;
  });
}

/** The time of a pod deletion that nothing but the timeline's own events decide. */
function firmTime(w: WhyNot): Micros | undefined {
  if (!timedPodDeletion(w)) return undefined;
  if (w.wouldFireAt !== undefined) return parseTimestamp(w.wouldFireAt);
  return w.conditional && /^the timeline [^,]*$/.test(w.conditional.if) ? parseTimestamp(w.conditional.at) : undefined;
}

function timedPodDeletion(w: WhyNot): boolean {
  return w.outcome !== undefined && POD_DELETIONS.has(w.outcome) && !w.never && w.object?.startsWith('Pod/') === true;
}
