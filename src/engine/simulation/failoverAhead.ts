/**
 * A why-not asked before the timeline's failover of kube-controller-manager, whose time is at or after it: nothing is
 * decided until the new leader acquires the lease, and its controllers start with empty memory, so the time is the new
 * leader's for the same outcome (newLeader.ts works it out), conditional on the failover.
 */
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import type { ObjectRef } from '../model/types';
import { withoutTime, type WhyNot, type WhyNotCheck } from '../trace/whyNot';

/**
 * An answer given before the timeline's failover at `failoverAt` whose time is at or after it: the new leader's time for
 * the same outcome, conditional on the failover, or no time when the new leader names none (or was not worked out).
 * Undefined when the failover does not come by the answer's time (the answer stands).
 */
export function acrossFailover(w: WhyNot, ref: ObjectRef, failoverAt: Micros, leaderAt: Micros, leader: () => WhyNot[] | undefined): WhyNot | undefined {
  const named = w.wouldFireAt ?? w.conditional?.at;
  if (!w.outcome || named === undefined || parseTimestamp(named)! < failoverAt) return undefined;
  const event = `the timeline fails kube-controller-manager over at ${formatTime(failoverAt)} (the new leader leads from ${formatTime(leaderAt)})`;
  const object = w.object ?? ref;
  const l = leader()?.find((x) => x.outcome === w.outcome && (x.object ?? ref) === object);
  const at = l?.wouldFireAt ?? l?.conditional?.at;
  const check: WhyNotCheck = {
    guard: 'noFailoverBefore',
    upstream:
      'leaderelection: nothing is decided until the new leader acquires the lease; NewNodeLifecycleController / NewTaintEvictionController start with empty memory',
    holds: false,
    rule: `${event}, by the time named without it (${named})${at === undefined ? ': no time is certain' : `: the new leader's answer then`}`,
    values: { timelineFailsOverAt: formatTime(failoverAt), newLeaderAt: formatTime(leaderAt), namedWithoutIt: named },
  };
  if (!l || at === undefined) return withoutTime(w, check, true);
  return {
    ...withoutTime(l, check, true),
    what: w.what,
    conditional: { if: l.conditional ? `${event}, and ${l.conditional.if}` : event, at },
  };
}
