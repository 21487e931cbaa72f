/**
 * Taint-based evictions (pkg/controller/nodelifecycle/node_lifecycle_controller.go): processTaintBaseEviction (and 1.12's inline
 * equivalent), markNodeForTainting, markNodeAsReachable and the per-item work
 * of doNoExecuteTaintingPass. Which NoExecute taint a Ready status calls for,
 * and which is its opposite, is one table (taints.ts: NO_EXECUTE_FOR_READY).
 * Every write is asked of the node's machine first (nodeMachines.ts).
 */
import { recordTaintPatch } from './taintDecisions';
import { type Micros, formatTime } from '../../model/time';
import { type ConditionStatus, type NodeRecord, type Taint, nodeRef, zoneRef } from '../../model/types';
import { zoneKeyOf } from '../../model/zones';
import type { Check, MachineTransition } from '../../trace/decision';
import type { ControllerHost } from '../controllerHost';
import { chooseTaintBasedEviction } from './processTaintBaseEviction';
import { RateLimitedTimedQueue, effectiveRate } from './rateLimitedQueue';
import { NodeLifecycleState, RETRY_NO_READY, showRate } from './state';
import { queuedInOtherZone, releasedByZoneLeft, zoneLeftHolds } from './zoneQueues';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE, findCondition, noExecuteFor, swapTaints, taintExists, taintText } from './taints';

/** processTaintBaseEviction (and 1.12's inline equivalent). */
export function processTaintBaseEviction(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord, status: ConditionStatus): void {
  const row = noExecuteFor(status);
  // the branch is the machine's answer (processTaintBaseEviction.ts); its guards lead the because of what follows
  const choice = chooseTaintBasedEviction(status, row !== undefined && taintExists(node.taints, row.opposite));
  if (choice.branch === 'markNodeAsReachable') markNodeAsReachable(nlc, host, node, 'Ready is True', choice.because);
  else if (!row) throw new Error(`node lifecycle: processTaintBaseEviction chose ${choice.branch} for Ready ${status}`);
  else if (choice.branch === 'swapTaint') instantSwap(nlc, host, node, row.taint, row.opposite, status, choice.because);
  else markNodeForTainting(nlc, host, node, status, choice.because);
}

/** "We want to update the taint straight away if Node is already tainted with the opposite taint". */
export function instantSwap(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  node: NodeRecord,
  add: Taint,
  remove: Taint,
  status: ConditionStatus,
  choice: readonly Check[] = [],
): void {
  const ref = nodeRef(node.meta.name);
  const answer = nlc.askNode(node.meta.name, { type: 'TAINT_SWAPPED' }, choice);
  if (!answer) return;
  if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref, answer.transition)) {
    nlc.dirty.add(node.meta.name);
    return;
  }
  const r = swapTaints(node.taints, [add], [remove], host.now);
  host.setNodeTaints(node, r.taints);
  const tr = nlc.commitNode(answer);
  const because: Check[] = [
    { rule: `Ready condition is ${status}`, values: { Ready: status } },
    { rule: 'the node already carries the opposite NoExecute taint: swapped at once, without the zone queue', values: { had: taintText(remove) } },
  ];
  const cause = nlc.causes(host.recall(ref, 'ready-status'));
  recordTaintPatch(nlc, host, ref, r, {
    because,
    cause,
    machine: tr,
    source: nlc.src('processTaintBaseEviction'),
    summary: (t, change) =>
      change === 'removed' ? `Removed taint ${taintText(t)} (swapped for ${taintText(add)})` : `Added taint ${taintText(t)} (swapped for ${taintText(remove)})`,
  });
}

/** markNodeForTainting: into the zone's rate-limited tainting queue. */
export function markNodeForTainting(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  node: NodeRecord,
  status: ConditionStatus,
  choice: readonly Check[] = [],
): void {
  const name = node.meta.name;
  nlc.slots.unsettle(name);
  const zone = nlc.tracks.get(name)?.zone ?? zoneKeyOf(node);
  nlc.addPodEvictorForNewZone(zone);
  const q = nlc.queues.get(zone)!;
  const own = noExecuteFor(status)!.taint;
  const ownTaint = taintExists(node.taints, own);
  const removesUntainted = nlc.rules.requeuesUntaintedNodes;
  // the machine chooses from what upstream reads: queued, nothing to do (Add refuses), or refused
  const answer = nlc.askNode(
    name,
    { type: 'MARK_NODE_FOR_TAINTING', queuedHere: q.isQueued(name), inZoneSet: q.has(name), ownTaint, removesUntainted, ...zoneLeftHolds(nlc, name, zone) },
    choice,
  );
  if (!answer) return;
  // upstream's queue calls, whatever the answer: 1.19+ removes a node without its taint, then Add
  if (removesUntainted && !ownTaint) q.remove(name);
  const added = q.add(name, node.meta.uid, host.now);
  if (answer.stays) return;
  // the machine answered "queued" only where Add takes the node, or it waits in this queue already
  if (!added && !q.isQueued(name)) throw new Error(`node lifecycle: the machine queued ${name} for tainting but the queue of ${zone} refused it`);
  const ref = nodeRef(name);
  const tr = nlc.commitNode(answer);
  const zoneState = nlc.zoneActors.get(zone)?.state() ?? 'Initial';
  const seq = nlc.decide(host, {
    action: 'NodeQueuedForTainting',
    object: ref,
    summary: `Node is ${status === 'False' ? 'NotReady' : 'unresponsive'}: added to the taint queue of ${zoneRef(zone)}`,
    because: [
      { rule: `Ready condition is ${status}`, values: { Ready: status } },
      // carrying it already: Add looks only at this zone's set (a node that changed zone, or a taint someone else put there)
      ownTaint
        ? {
            rule: `the node carries ${taintText(own)}, but this zone's queue does not hold it: Add puts it there`,
            values: { taints: node.taints.map(taintText) },
          }
        : { rule: `the node does not carry ${taintText(own)} yet`, values: { taints: node.taints.map(taintText) } },
      {
        rule: "the zone queue releases nodes at the zone's eviction rate (token bucket, burst 1)",
        values: { zone: zoneRef(zone), zoneState, rate: showRate(effectiveRate(q.limiter)), queued: q.length },
      },
    ],
    causes: nlc.causes(host.recall(ref, 'ready-status')),
    machine: tr,
    source: nlc.src(nlc.rules.legacyStatusFunctions ? nlc.monitorFn : 'processTaintBaseEviction'),
  });
  host.remember(ref, 'queued', seq);
}

/** what markNodeAsReachable removes, in its order (RemoveTaintOffNode of each) */
const REACHABLE_REMOVES = [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE];
const NONE: readonly Taint[] = [];

/** markNodeAsReachable: removes the not-ready/unreachable NoExecute taints and the queue entry. */
export function markNodeAsReachable(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord, why: string, choice: readonly Check[] = []): boolean {
  const name = node.meta.name;
  nlc.slots.unsettle(name);
  const ref = nodeRef(name);
  const zone = nlc.tracks.get(name)?.zone ?? zoneKeyOf(node);
  const q = nlc.queues.get(zone);
  const wasQueued = q?.isQueued(name) ?? false;
  // a Ready node carries neither, nearly always: no array made for it
  const taints =
    node.taints.length && REACHABLE_REMOVES.some((t) => taintExists(node.taints, t)) ? REACHABLE_REMOVES.filter((t) => taintExists(node.taints, t)) : NONE;
  // the machine chooses from what upstream removes: the taints, the queue entry, or nothing to do
  const answer = nlc.askNode(name, { type: 'MARK_NODE_AS_REACHABLE', noExecuteTaints: taints.length, queuedHere: wasQueued }, choice);
  if (!answer) return false;
  if (answer.stays) return q?.remove(name) ?? false;
  let tr: MachineTransition | null = null;
  let decided = false;
  for (const t of taints) {
    if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref, answer.transition)) {
      nlc.dirty.add(name);
      return false;
    }
    const r = swapTaints(node.taints, [], [t], host.now);
    host.setNodeTaints(node, r.taints);
    tr ??= nlc.commitNode(answer);
    for (const g of r.removed) {
      nlc.decide(host, {
        action: 'TaintRemoved',
        object: ref,
        summary: `Removed taint ${taintText(g)}`,
        because: [{ rule: `markNodeAsReachable: ${why}`, values: { Ready: findCondition(node.conditions, 'Ready')?.status ?? 'none' } }],
        causes: nlc.causes(host.recall(ref, 'ready-status'), host.recall(ref, 'heartbeat'), host.recall(ref, `taint:${g.key}:${g.effect}`)),
        machine: tr,
        source: nlc.src('markNodeAsReachable'),
      });
      decided = true;
    }
  }
  const removed = q?.remove(name) ?? false;
  tr ??= nlc.commitNode(answer);
  if (wasQueued && !decided) {
    nlc.decide(host, {
      action: 'EvictionCancelled',
      object: ref,
      summary: `Removed from the taint queue of ${zoneRef(zone)} before it was tainted`,
      because: [{ rule: `markNodeAsReachable: ${why}`, values: { Ready: findCondition(node.conditions, 'Ready')?.status ?? 'none' } }],
      causes: nlc.causes(host.recall(ref, 'ready-status'), host.recall(ref, 'queued')),
      machine: tr,
      source: nlc.src('markNodeAsReachable'),
    });
  }
  return removed;
}

export function taintItem(nlc: NodeLifecycleState, host: ControllerHost, zone: string, q: RateLimitedTimedQueue, item: { value: string; addedAt: Micros }) {
  nlc.slots.unsettle(item.value);
  const node = host.cluster.nodes.get(item.value);
  if (!node) return { ok: true } as const;
  const ready = findCondition(node.conditions, 'Ready');
  if (!ready) return { ok: false, wait: RETRY_NO_READY } as const;
  const row = noExecuteFor(ready.status);
  if (!row) {
    // "Node was in a taint queue, but it's ready now. Ignoring taint request."
    if (nlc.evictionState(item.value) === 'queuedForTainting') nlc.sendNode(item.value, { type: 'DEQUEUED', ...queuedInOtherZone(nlc, item.value, zone) });
    return { ok: true } as const;
  }
  const { taint: add, opposite } = row;
  const ref = nodeRef(item.value);
  const answer = nlc.askNode(item.value, { type: 'TAINT_PASS', ...releasedByZoneLeft(nlc, item.value, zone) });
  // refused: nothing is written, and the entry is dropped as a done one would be
  if (!answer) return { ok: true } as const;
  if (!host.apiCall('node-lifecycle', 'patch', 'nodes', ref, answer.transition)) return { ok: false, wait: 0 } as const;
  const r = swapTaints(node.taints, [add], [opposite], host.now);
  host.setNodeTaints(node, r.taints);
  nlc.enqueueNode(item.value, host.now);
  const tr = nlc.commitNode(answer);
  const because: Check[] = [
    { rule: `Ready condition is ${ready.status}`, values: { Ready: ready.status } },
    {
      rule: 'zone eviction queue released the node',
      values: { zone: zoneRef(zone), rate: showRate(effectiveRate(q.limiter)), queuedAt: formatTime(item.addedAt) },
    },
  ];
  const cause = nlc.causes(host.recall(ref, 'queued'));
  recordTaintPatch(nlc, host, ref, r, {
    because,
    cause,
    machine: tr,
    source: nlc.src('doNoExecuteTaintingPass'),
    summary: (t, change) =>
      change === 'added'
        ? `Added taint ${taintText(t)}`
        : change === 'refreshed'
          ? `Re-added taint ${taintText(t)} (timeAdded refreshed)`
          : `Removed taint ${taintText(t)} (replaced by ${taintText(add)})`,
  });
  return { ok: true } as const;
}
