/**
 * The taint manager's decision for one pod on one node, as pure functions:
 * `decidePodOnNode` is upstream's `processPodOnNode` (identical in v1.12's
 * NoExecuteTaintManager and v1.29+'s taint-eviction-controller, except where
 * `cancelsWhenToleratedForever` says otherwise), returning what to do and the
 * checks, with their values, that led there. The controller applies the
 * decision; nothing here touches the world.
 */
import type { Micros, Duration } from '../../model/time';
import { formatDuration, formatTime, isZeroTime } from '../../model/time';
import type { Taint, Toleration } from '../../model/types';
import { getMatchingTolerations, minTolerationTime, taintText, tolerationText } from '../../model/tolerations';
import type { Check } from '../../trace/decision';

/** What the controller holds for the pod: no work item, a timer waiting, or a delete in progress. */
export type ExistingWork = 'none' | 'scheduled' | 'deleting';

export type PodDecision =
  /** delete now: a taint is not tolerated, or the shortest toleration is <= 0 (AddWork(now, now)) */
  | { kind: 'evictNow'; reason: 'untolerated' | 'zeroToleration'; untolerated?: Taint; used: Toleration[]; cancelFirst: boolean; checks: Check[] }
  /** AddWork(now, now + min): delete at the deadline */
  | { kind: 'schedule'; min: Duration; used: Toleration[]; checks: Check[] }
  /** a work item already exists: upstream keeps it (its CreatedAt is earlier than now) */
  | { kind: 'keep'; reason: 'alreadyScheduled' | 'inProgress'; used: Toleration[]; min?: Duration; checks: Check[] }
  /** the pod tolerates every taint forever and its scheduled deletion is cancelled (1.19+) */
  | { kind: 'cancel'; used: Toleration[]; checks: Check[] }
  /** the pod tolerates every taint forever: nothing to do (before 1.19 a scheduled deletion stays) */
  | { kind: 'leave'; used: Toleration[]; keptScheduled: boolean; checks: Check[] };

export interface PodOnNodeInput {
  /** the node's NoExecute taints, in the node's order */
  taints: readonly Taint[];
  /** the pod's tolerations, in the pod's order */
  tolerations: readonly Toleration[];
  existing: ExistingWork;
  cancelsWhenToleratedForever: boolean;
  /** `taints` as text, when the caller already has it (one list shared by every pod of a node) */
  taintTexts?: string[];
}

const taintList = (taints: readonly Taint[]): string[] => taints.map(taintText);
const tolerationList = (ts: readonly Toleration[]): string[] => ts.map(tolerationText);

/** `processPodOnNode`, without the side effects. */
export function decidePodOnNode(input: PodOnNodeInput): PodDecision {
  const { taints, tolerations, existing } = input;
  const taintTexts = input.taintTexts ?? taintList(taints);
  const checks: Check[] = [];
  // Upstream cancels first when there is no taint at all, then goes on: with no
  // taints every taint is tolerated with no toleration used, the minimum of no
  // tolerations is 0, and the pod is deleted at once. The controller never
  // calls it that way (node updates without NoExecute taints only cancel, and
  // pod updates need a tainted node), but the function is ported as it is.
  const cancelledForNoTaints = taints.length === 0 && existing === 'scheduled';
  const m = getMatchingTolerations(taints, tolerations);
  if (!m.allTolerated) {
    checks.push({
      rule: 'a NoExecute taint on the node is not tolerated by the pod',
      values: { taint: m.untolerated ? taintText(m.untolerated) : undefined, noExecuteTaints: taintTexts, tolerations: tolerationList(tolerations) },
    });
    if (existing === 'deleting') return keepInProgress(checks, []);
    return { kind: 'evictNow', reason: 'untolerated', untolerated: m.untolerated, used: [], cancelFirst: existing === 'scheduled', checks };
  }
  const usedTexts = tolerationList(m.used);
  checks.push({
    rule: 'every NoExecute taint on the node is tolerated (first matching toleration per taint)',
    values: { noExecuteTaints: taintTexts, usedTolerations: usedTexts },
  });
  const min = minTolerationTime(m.used);
  if (min.forever) {
    checks.push({ rule: 'no used toleration has tolerationSeconds: the pod tolerates the taints forever', values: { usedTolerations: usedTexts.slice() } });
    if (existing === 'scheduled' && input.cancelsWhenToleratedForever) {
      checks.push({ rule: 'a pod that tolerates every taint forever has its scheduled deletion cancelled (1.19+)' });
      return { kind: 'cancel', used: m.used, checks };
    }
    if (existing === 'scheduled') {
      checks.push({
        rule: 'before 1.19 a scheduled deletion is not cancelled when the tolerations become infinite ("Scheduled deletion won\'t be cancelled if already scheduled")',
      });
    }
    return { kind: 'leave', used: m.used, keptScheduled: existing === 'scheduled', checks };
  }
  const usedSeconds: number[] = [];
  for (const t of m.used) if (t.tolerationSeconds !== undefined) usedSeconds.push(t.tolerationSeconds);
  checks.push({
    rule: 'the shortest tolerationSeconds among the used tolerations (<= 0 counts as 0)',
    values: { tolerationSeconds: usedSeconds, min: formatDuration(min.duration) },
  });
  if (existing === 'deleting') return keepInProgress(checks, m.used, min.duration);
  if (existing === 'scheduled' && !cancelledForNoTaints) {
    checks.push({ rule: 'a deletion is already scheduled: it is kept (its CreatedAt is earlier than now, so CreatedAt + min is before now + min)' });
    return { kind: 'keep', reason: 'alreadyScheduled', used: m.used, min: min.duration, checks };
  }
  if (min.duration <= 0) {
    checks.push({ rule: 'tolerationSeconds <= 0: the work is due at once (AddWork(now, now))' });
    return { kind: 'evictNow', reason: 'zeroToleration', used: m.used, cancelFirst: cancelledForNoTaints, checks };
  }
  return { kind: 'schedule', min: min.duration, used: m.used, checks };
}

function keepInProgress(checks: Check[], used: Toleration[], min?: Duration): PodDecision {
  checks.push({ rule: 'a delete of this pod is already in progress (AddWork skips an existing work item)' });
  return { kind: 'keep', reason: 'inProgress', used, min, checks };
}

export interface ReconstructedTiming {
  /** when the controller would have created the work item had it been running all along */
  createdAt: Micros;
  /** the shortest tolerationSeconds among the taints seen by then: the work item fires at createdAt + min */
  min: Duration;
  /** the checks behind it (assumptions included), for `because` */
  checks: Check[];
}

/**
 * `controllerMemory: reconstructed` (spec 1.4): the taint-eviction timer a
 * controller running all along would hold for a pod that tolerates its node's
 * NoExecute taints for a finite time. It would have processed the pod when the
 * first taint that makes the minimum finite was added (its timeAdded), or when
 * the pod arrived on the node if that was later (its creationTimestamp; the
 * binding time is not exported), and kept that work item afterwards. A taint
 * without timeAdded is taken as seen at `fallback` (the controller's start),
 * which is said in the checks.
 */
export function reconstructCreatedAt(
  taints: readonly Taint[],
  used: readonly Toleration[],
  podCreated: Micros,
  fallback: Micros,
): ReconstructedTiming | undefined {
  const checks: Check[] = [];
  const seen = taints.map((t) => (t.timeAdded === undefined || isZeroTime(t.timeAdded) ? fallback : t.timeAdded));
  const missing = taints.filter((t) => t.timeAdded === undefined || isZeroTime(t.timeAdded));
  if (missing.length) {
    checks.push({
      rule: 'assumed: a taint without timeAdded was first seen when the controller started',
      values: { taints: taintList(missing), assumedSeenAt: formatTime(fallback) },
    });
  }
  const arrival = isZeroTime(podCreated) ? undefined : podCreated;
  const instants = [...new Set(seen)].sort((a, b) => a - b);
  for (const instant of instants) {
    const at = arrival !== undefined && arrival > instant ? arrival : instant;
    // At `at` the controller sees every taint added by then (all of them, if the pod came later).
    const prefix: Toleration[] = [];
    for (let i = 0; i < taints.length; i++) if (seen[i] <= at && used[i]) prefix.push(used[i]);
    const min = minTolerationTime(prefix);
    if (min.forever || prefix.length === 0) continue;
    checks.push({
      rule: "reconstructed: the work item was created when the controller first saw a taint the pod tolerates for a limited time (the later of its timeAdded and the pod's creation)",
      values: { createdAt: formatTime(at), taintsSeenBy: taintList(taints.filter((_, i) => seen[i] <= at)), min: formatDuration(min.duration) },
    });
    return { createdAt: at, min: min.duration, checks };
  }
  return undefined;
}
