/**
 * A why-not that names a time through a stopped kubelet (the node's Unknown, its NoExecute taint,
 * its pods' deletions) read against the timeline's next event about that kubelet: a `kubelet: start`
 * posts Ready True at once, and the monitor pass that reads it (tryUpdateNodeHealth) moves
 * probeTimestamp, so the node never goes Unknown; once Unknown, that pass takes it out of its zone's
 * queue (markNodeAsReachable / cancelPodEviction) and removes the taint, and the taint eviction
 * controller cancels the pods' deletions. A pass at the same instant as the named time runs before
 * the zone queue's Try and before the taint eviction's timer, so that instant counts too. Another
 * event about the node (a `condition`, a Lease-only start) before the time leaves no time to name.
 */
import { formatTime, parseTimestamp } from '../model/time';
import { withoutTime, type WhyNot, type WhyNotCheck, type WhyNotOutcome, type WhyNotWorld } from '../trace/whyNot';
import { TIMELINE_STOPS_KUBELET } from '../controllers/nodeLifecycle/whyNotStatusUnknown';

const THROUGH_KUBELET = new Set<WhyNotOutcome>([
  'NodeStatusUnknown',
  'NodeTaintedNoExecute',
  'NodePodsEvicted',
  'PodDeletedByTaintEviction',
  'PodDeletedByPodEviction',
]);

/**
 * `w` for the node `node`, with the timeline's restart of its kubelet read: unchanged when no event
 * about the kubelet comes by the named time; `never` (with `neverIf`) when a start does; without a
 * time when another event does.
 */
export function readKubeletResume(w: WhyNot, node: string, world: WhyNotWorld): WhyNot {
  if (!w.outcome || !THROUGH_KUBELET.has(w.outcome)) return w;
  // a certain time reads the kubelet stopped now; a conditional one the timeline's stop of a running one
  const stopped = w.conditional?.if.startsWith(TIMELINE_STOPS_KUBELET) ? w.conditional.if : undefined;
  const named = w.wouldFireAt ?? (stopped ? w.conditional!.at : undefined);
  if (named === undefined) return w;
  const r = world.resumesAt?.(node);
  if (!r || (w.wouldFireAt !== undefined) !== (r.stoppedAt === undefined)) return w;
  const at = parseTimestamp(named)!;
  if (r.at > at) return w;
  // a start the timeline follows with another stop (or any event about the kubelet) prevents nothing for sure: no time then
  const prevents = r.start && r.seenAt !== undefined && r.seenAt <= at && !r.again;
  const event = r.start
    ? `the timeline starts the kubelet again at ${formatTime(r.at)}`
    : `the timeline changes the kubelet or conditions at ${formatTime(r.at)}`;
  const check: WhyNotCheck = {
    guard: 'kubeletStaysStopped',
    upstream:
      'tryUpdateNodeHealth (node_lifecycle_controller.go): a post moves probeTimestamp; the pass that reads Ready True takes the node out of its zone queue',
    holds: false,
    rule: prevents ? `the kubelet stays stopped until then: ${event}` : `${event}, before the time named (${named}): no time is certain`,
    values: {
      ...(r.stoppedAt !== undefined ? { timelineStopsItAt: formatTime(r.stoppedAt) } : {}),
      [r.start ? 'timelineStartsItAt' : 'timelineEventAt']: formatTime(r.at),
      ...(r.seenAt !== undefined ? { passReadingIt: formatTime(r.seenAt) } : {}),
      namedBefore: formatTime(at),
    },
  };
  // an answer left with no time says why (the event that may change it); a `never` says it in its neverIf
  const rest = withoutTime(w, check, !prevents);
  if (!prevents) return rest;
  const neverIf = r.stoppedAt !== undefined ? `the timeline stops the kubelet at ${formatTime(r.stoppedAt)} and starts it again at ${formatTime(r.at)}` : event;
  return { ...rest, never: true, neverIf };
}
