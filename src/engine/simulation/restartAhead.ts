/**
 * A why-not of the node lifecycle or taint eviction controller that names a time at or after a
 * restart of kube-controller-manager the timeline holds: the new controllers start with empty
 * memory (monitorNodeHealth's first pass makes every node's probeTimestamp "now", the zone queues
 * and the taint eviction's scheduled deletions start over), so a time read from the memory of the
 * controller running now is not the run's. Such an answer keeps its checks and names no time, with
 * the restart as what makes it uncertain: a wrong time is worse than none.
 */
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import type { Scenario, TimeSpec } from '../snapshot/types';
import { withoutTime, type WhyNot, type WhyNotCheck, type WhyNotOutcome } from '../trace/whyNot';

const FROM_MEMORY = new Set<WhyNotOutcome>([
  'NodeStatusUnknown',
  'NodeTaintedNoExecute',
  'NodePodsEvicted',
  'PodDeletedByTaintEviction',
  'PodDeletedByPodEviction',
]);

/** The first restart of kube-controller-manager the timeline holds after `now`, or undefined. */
export function nextRestart(events: Scenario['events'], timeOf: (at: TimeSpec) => Micros, now: Micros): Micros | undefined {
  let first: Micros | undefined;
  for (const e of events) {
    if (e.kind !== 'restartControllerManager') continue;
    const t = timeOf(e.at);
    if (t > now && (first === undefined || t < first)) first = t;
  }
  return first;
}

/** `w` unchanged, or without its time when the restart at `restart` comes by it (the pass at that instant runs after it). */
export function readRestart(w: WhyNot, restart: Micros | undefined): WhyNot {
  if (restart === undefined || !w.outcome || !FROM_MEMORY.has(w.outcome)) return w;
  const named = w.wouldFireAt ?? w.conditional?.at;
  if (named === undefined || parseTimestamp(named)! < restart) return w;
  const check: WhyNotCheck = {
    guard: 'noRestartBefore',
    upstream: 'kube-controller-manager restart: NewNodeLifecycleController / NewTaintEvictionController start with empty maps and queues',
    holds: false,
    rule: `the timeline restarts kube-controller-manager at ${formatTime(restart)}, by the time read from the running controller's memory (${named}): no time is certain`,
    values: { timelineRestartsAt: formatTime(restart), namedWithoutIt: named },
  };
  return withoutTime(w, check, true);
}
