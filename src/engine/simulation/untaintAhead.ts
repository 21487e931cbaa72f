/**
 * A pod's deletion by the taint eviction controller read against the timeline's `untaint` of the
 * node: removing the NoExecute taint makes handleNodeUpdate run processPodOnNode again, and a pod
 * that tolerates what is left (or has nothing left to tolerate) has its deletion cancelled
 * (PodEvictionCancelled). The timeline's events at an instant apply before the controllers' timers,
 * so a removal at the very deadline cancels too. A removal that leaves a taint the pod does not
 * tolerate forever may move the deadline, and a taint written again after its removal may bring the
 * deletion back: no time is named then.
 */
import type { PodRecord, Taint } from '../model/types';
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import { taintText, taintsWithEffect } from '../model/tolerations';
import type { ControllerHost } from '../controllers/controllerHost';
import { evictsWith } from '../controllers/taintEviction/whyNot';
import type { WhyNot, WhyNotCheck, WhyNotWorld } from '../trace/whyNot';

// the taint's text is key[=value]:effect; keys and values hold neither '=' nor ':'
const TAINTED = /^the timeline taints Node\/\S+ with ([^\s=:]+)(?:=[^\s:]*)?:NoExecute at (\S+)$/;

export function readUntaint(w: WhyNot, host: ControllerHost, pod: PodRecord, node: string, world: WhyNotWorld): WhyNot {
  if (w.outcome !== 'PodDeletedByTaintEviction' || !world.untaintsAt) return w;
  const record = host.cluster.nodes.get(node);
  if (!record) return w;
  let taints: Taint[] = taintsWithEffect(record.taints, 'NoExecute');
  let at: Micros;
  let after: Micros | undefined;
  let taintedBy: string | undefined;
  if (w.wouldFireAt !== undefined) at = parseTimestamp(w.wouldFireAt)!;
  else {
    const m = w.conditional ? TAINTED.exec(w.conditional.if) : null;
    if (!m) return w;
    at = parseTimestamp(w.conditional!.at)!;
    after = parseTimestamp(m[2]!)!;
    taintedBy = w.conditional!.if;
    taints = [...taints, { key: m[1]!, effect: 'NoExecute' }];
  }
  // the first removal by then of a NoExecute taint the node has (or the timeline adds), after that taint
  let first: { at: Micros; again: boolean; taint: Taint } | undefined;
  for (const t of taints) {
    const u = world.untaintsAt(node, t.key, after);
    if (u && u.at <= at && (!first || u.at < first.at)) first = { ...u, taint: t };
  }
  if (!first) return w;
  const left = taints.filter((t) => t.key !== first!.taint.key);
  const cancels = !evictsWith(host, pod, left);
  const check: WhyNotCheck = {
    guard: 'taintStays',
    upstream: 'handleNodeUpdate -> processPodOnNode (taint_eviction.go): a pod that tolerates what is left has its deletion cancelled',
    holds: false,
    rule: `the taint stays until then: the timeline removes ${taintText(first.taint)} at ${formatTime(first.at)}`,
    values: {
      timelineRemoves: taintText(first.taint),
      timelineRemovesAt: formatTime(first.at),
      namedBefore: formatTime(at),
      taintsLeft: left.map(taintText),
      ...(first.again ? { timelineTaintsAgain: true } : {}),
    },
  };
  const rest: WhyNot = { ...w, path: [...(w.path ?? []), check] };
  delete rest.wouldFireAt;
  delete rest.conditional;
  delete rest.counterfactual;
  if (!cancels || first.again) return rest;
  const removes = `removes the taint ${first.taint.key} at ${formatTime(first.at)}`;
  return { ...rest, never: true, neverIf: taintedBy ? `${taintedBy} and ${removes}` : `the timeline ${removes}` };
}
