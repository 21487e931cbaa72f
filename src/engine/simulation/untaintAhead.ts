/**
 * A pod's deletion by the taint eviction controller read against the timeline's `untaint` of the
 * node: removing a NoExecute taint makes handleNodeUpdate run processPodOnNode again. With no
 * NoExecute taint left, or (1.19+) every one left tolerated forever, the deletion is cancelled
 * (PodEvictionCancelled); with one left tolerated for a while, the scheduled work is kept and its
 * deadline stands (upstream keeps a work item whose CreatedAt + min is before now + min, always so
 * for one made earlier; 1.12 keeps it under a forever toleration too). The timeline's events at an
 * instant apply before the controllers' timers, so a removal at the very deadline counts. No time
 * is named while the timeline adds a NoExecute taint or touches the node's kubelet or conditions on
 * the way (or, once cancelled, later), or the node is failing (its controller may taint it).
 */
import type { PodRecord, Taint } from '../model/types';
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import { taintText, taintsWithEffect } from '../model/tolerations';
import type { ControllerHost } from '../controllers/controllerHost';
import { scheduledUnder } from '../controllers/taintEviction/whyNot';
import { withoutTime, type WhyNot, type WhyNotCheck, type WhyNotWorld } from '../trace/whyNot';

type NodeEvent = ReturnType<NonNullable<WhyNotWorld['nodeEvents']>>[number];
const removes = (t: Taint, e: NodeEvent): boolean => t.key === e.taint!.key && (e.taint!.effect === undefined || e.taint!.effect === t.effect);

export function readUntaint(w: WhyNot, host: ControllerHost, pod: PodRecord, node: string, world: WhyNotWorld): WhyNot {
  if (w.outcome !== 'PodDeletedByTaintEviction' || !world.nodeEvents) return w;
  const record = host.cluster.nodes.get(node);
  if (!record) return w;
  let taints: Taint[] = taintsWithEffect(record.taints, 'NoExecute');
  let at: Micros;
  let tainted: { key: string; at: Micros } | undefined;
  let taintedBy: string | undefined;
  if (w.wouldFireAt !== undefined) at = parseTimestamp(w.wouldFireAt)!;
  else {
    // a time under the timeline's taint: the taint as data (timelineTaint in explain.ts), with the conditional it names
    const t = w.conditional ? w.timelineTaint : undefined;
    if (!t || t.node !== node) return w;
    at = parseTimestamp(w.conditional!.at)!;
    tainted = { key: t.key, at: t.atMicros };
    taintedBy = w.conditional!.if;
    taints = [...taints, { key: t.key, ...(t.value !== undefined ? { value: t.value } : {}), effect: 'NoExecute' }];
  }
  const events = world.nodeEvents(node);
  // a removal by then of a NoExecute taint the node has (or the timeline adds, after it): the answer stands without one
  const after = tainted?.at ?? -Infinity;
  if (!events.some((e) => e.kind === 'untaint' && e.at > after && e.at <= at && taints.some((t) => removes(t, e)))) return w;
  // the node's taints removal by removal up to the deadline: each runs processPodOnNode with what is left
  let left = taints;
  const gone: { taint: Taint; at: Micros }[] = [];
  let cancelled: Micros | undefined;
  let unsettled: string | undefined;
  const ready = record.conditions.find((c) => c.type === 'Ready')?.status;
  if (ready !== 'True' || world.kubelet(node)?.running === false)
    unsettled = `the node is failing (Ready=${ready ?? 'none'}): the node lifecycle controller may taint it`;
  for (const e of events) {
    if (unsettled || e.at > at) break;
    if (e.kind === 'kubelet') unsettled = `the timeline changes the node's kubelet or conditions at ${formatTime(e.at)}`;
    else if (e.kind === 'taint') {
      const named = tainted && e.at === tainted.at && e.taint!.key === tainted.key;
      if (e.taint!.effect === 'NoExecute' && !named) unsettled = `the timeline adds ${taintText(e.taint as Taint)} at ${formatTime(e.at)}`;
    } else if (e.at <= after) {
      if (left.some((t) => removes(t, e))) unsettled = `the timeline removes ${e.taint!.key} at ${formatTime(e.at)}, before it taints the node`;
    } else {
      const out = left.filter((t) => removes(t, e));
      if (!out.length) continue;
      left = left.filter((t) => !out.includes(t));
      gone.push(...out.map((taint) => ({ taint, at: e.at })));
      const next = scheduledUnder(host, pod, left);
      if (next === 'evictNow') unsettled = `what is left after ${formatTime(e.at)} is not tolerated`;
      else if (next === 'cancel') {
        cancelled = e.at;
        break;
      }
    }
  }
  // once cancelled, a NoExecute taint added later, or the node's kubelet or conditions changed, can bring the deletion back
  const again =
    cancelled !== undefined && !unsettled
      ? events.find((e) => e.at > cancelled! && (e.kind === 'kubelet' || (e.kind === 'taint' && e.taint!.effect === 'NoExecute')))
      : undefined;
  const first = gone[0];
  const check: WhyNotCheck = {
    guard: 'taintStays',
    upstream:
      'handleNodeUpdate -> processPodOnNode (taint_eviction.go): no taint left (or, 1.19+, every one tolerated forever) cancels the deletion; a scheduled one is kept otherwise',
    holds: false,
    rule: first
      ? `the taint stays until then: the timeline removes ${gone.map((g) => `${taintText(g.taint)} at ${formatTime(g.at)}`).join(' and ')}`
      : 'the taint stays until then',
    values: {
      ...(first ? { timelineRemoves: taintText(first.taint), timelineRemovesAt: formatTime(first.at) } : {}),
      namedBefore: formatTime(at),
      taintsLeft: left.map(taintText),
      ...(unsettled ? { unsettled } : {}),
      ...(cancelled !== undefined ? { cancelledAt: formatTime(cancelled) } : {}),
      ...(again ? { timelineTaintsAgain: true } : {}),
    },
  };
  // left with no time, the answer says why
  if (unsettled || again || !first) return withoutTime(w, check, true);
  const rest = withoutTime(w, check);
  const text = `removes ${[...new Map(gone.map((g) => [g.taint.key, g])).values()].map((g) => `the taint ${g.taint.key} at ${formatTime(g.at)}`).join(' and ')}`;
  const condition = taintedBy ? `${taintedBy} and ${text}` : `the timeline ${text}`;
  if (cancelled !== undefined) return { ...rest, never: true, neverIf: condition };
  // the scheduled deletion is kept: its deadline stands, with the removals or without them, so a certain time stays certain
  // (only one under the timeline's own taint keeps that taint's condition)
  return {
    ...rest,
    check: { rule: `${w.check.rule}; ${check.rule}: the deletion scheduled stays`, values: { ...w.check.values, ...check.values } },
    ...(taintedBy ? { conditional: { if: condition, at: formatTime(at) } } : { wouldFireAt: formatTime(at) }),
  };
}
