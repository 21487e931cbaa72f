/**
 * The monitor pass's shortcuts (design/performance-notes.md): nodes whose full
 * evaluation would write nothing and decide nothing, handled as plain data.
 * Each checks the node's machine (nodeMachines.ts) and applies only what the
 * full evaluation would apply in that state; any other case returns false and
 * the node is evaluated in full. They never move a machine: the lazy-versus-
 * eager tests (lazyPasses.test.ts) run every timeline both ways, with the
 * machines strict, and require the same decisions, memory and machine states
 * second by second.
 */
import { copyNodeCondition } from '../../model/records';
import { type NodeRecord, nodeRef } from '../../model/types';
import type { ControllerHost } from '../controllerHost';
import { RateLimitedTimedQueue } from './rateLimitedQueue';
import type { Slot } from './slots';
import { type Health, NodeLifecycleState, type PassContext, pushMap } from './state';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE, findCondition, taintExists } from './taints';

/**
 * A node the controller already set to Unknown, with no news since: the
 * same heartbeat and Lease as the saved status, probe + grace long past, no
 * retry, its machine already in Unknown. Evaluating it (as upstream does on
 * every pass) writes nothing and decides nothing: tryUpdateNodeHealth finds
 * Ready already Unknown, processTaintBaseEviction finds the node tainted and
 * in the queue's set, or (1.19+) untainted and waiting, which only Removes
 * and Adds it again at now; on the pod-eviction path, see
 * unchangedUnknownEvictionPath. That one effect is applied here; any other
 * case returns false and the node is evaluated in full. At 5,000 nodes with a
 * zone down this is most of the pass (issue 5); every check is live, so a
 * change the controller was not told about (a plain kubelet post) is seen.
 */
export function unchangedUnknown(nlc: NodeLifecycleState, host: ControllerHost, name: string): boolean {
  if (nlc.retry.has(name) || nlc.dirty.has(name)) return false;
  const t = nlc.tracks.get(name);
  const h = nlc.health.get(name);
  const node = host.cluster.nodes.get(name);
  // the machine in Unknown, and evaluated: the Ready status the controller last saw is Unknown
  if (!t || !h || !node || !t.evaluated || nlc.nodes.ready(name) !== 'Unknown' || !h.savedReady || !nlc.known.has(name)) return false;
  const ready = findCondition(node.conditions, 'Ready');
  const saved = h.savedReady;
  if (!ready || ready.status !== 'Unknown' || saved.status !== 'Unknown') return false;
  if (ready.lastHeartbeatTime !== saved.lastHeartbeatTime || ready.lastTransitionTime !== saved.lastTransitionTime) return false;
  if (!(host.now > h.probe + host.config.nodeMonitorGracePeriod)) return false;
  if (nlc.rules.readsLeases) {
    const lease = host.cluster.leases.get(name);
    if (h.leaseIsNews(lease)) return false;
  }
  // t.zone is the node's zone: its labels cannot have changed without a node event (dirty)
  const q = nlc.queues.get(t.zone);
  if (!q) return false;
  if (!nlc.rules.taintBasedEvictions) return unchangedUnknownEvictionPath(nlc, host, name, h, q);
  if (taintExists(node.taints, NOT_READY_NO_EXECUTE)) return false;
  if (taintExists(node.taints, UNREACHABLE_NO_EXECUTE) || !nlc.rules.requeuesUntaintedNodes) {
    if (!q.has(name)) return false;
    nlc.slots.settle(name, 'tainted');
    return true;
  }
  if (!q.requeue(name, node.meta.uid, host.now)) return false;
  nlc.slots.settle(name, 'waiting');
  return true;
}

/**
 * unchangedUnknown on the pod-eviction path (no taint-based evictions, as in
 * 1.12): processNoTaintBaseEviction with Ready Unknown does nothing before
 * probe + podEvictionTimeout, and after it evictPods only Adds the node to its
 * zone queue, which does nothing once the node is in the queue's set (queued,
 * or evicted and not yet cancelled). That set is left only through
 * cancelPodEviction or an eviction (evictItem), which unsettle the node. In
 * nodeEvictionMap (1.17+) the node must already be toBeEvicted (evictPods
 * would write that) and not evicted (evictPods then deletes the pods that
 * arrived since).
 */
export function unchangedUnknownEvictionPath(nlc: NodeLifecycleState, host: ControllerHost, name: string, h: Health, q: RateLimitedTimedQueue): boolean {
  if (!(host.now > h.probe + host.config.podEvictionTimeout)) {
    if (nlc.stats) nlc.stats.unknownSettled++;
    return true;
  }
  if (!q.has(name)) return false;
  // nodeEvictionMap's toBeEvicted is the machine's queuedForEviction
  if (nlc.rules.nodeEvictionMap && nlc.nodes.eviction(name) !== 'queuedForEviction') return false;
  nlc.slots.settle(name, 'queued');
  if (nlc.stats) nlc.stats.unknownSettled++;
  return true;
}

/** A node settled as 'waiting' (see settled): only its requeue is due. */
export function requeueSettled(nlc: NodeLifecycleState, host: ControllerHost, slot: Slot): boolean {
  const t = nlc.slotTrack(slot);
  const q = t && nlc.queues.get(t.zone);
  if (t && q) {
    if (slot.queuedIn === q && slot.queued !== undefined && q.requeueKept(slot.queued, t.uid, host.now)) return true;
    const item = q.requeueItem(slot.name, t.uid, host.now);
    if (item !== undefined) {
      slot.queued = item;
      slot.queuedIn = q;
      return true;
    }
  }
  slot.settled = undefined;
  return false;
}

/**
 * A Ready node whose only news is a Lease renewal, with no controller taint
 * and no queue entry: the real pass would only move its probeTimestamp.
 */
export function leaseOnlySuffices(nlc: NodeLifecycleState, host: ControllerHost, slot: Slot): boolean {
  const name = slot.name;
  const t = nlc.slotTrack(slot);
  const h = nlc.slotHealth(slot);
  if (!t || !h || !nlc.slotIsReady(slot, t)) return false;
  const node = host.cluster.nodes.get(name);
  if (!node || taintExists(node.taints, UNREACHABLE_NO_EXECUTE) || taintExists(node.taints, NOT_READY_NO_EXECUTE)) return false;
  if (nlc.queues.get(t.zone)?.has(name)) return false;
  slot.settled = 'quiet';
  return true;
}

/**
 * tryUpdateNodeHealth for a Ready, unchanged node whose Lease was renewed:
 * the saved status is kept, the probe moves to now (grace cannot have run
 * out), markNodeAsReachable finds nothing to remove. Plain data only.
 */
export function leaseOnly(nlc: NodeLifecycleState, host: ControllerHost, slot: Slot): void {
  if (!nlc.rules.readsLeases) return;
  const name = slot.name;
  const h = nlc.slotHealth(slot)!;
  const observed = slot.lease ?? host.cluster.leases.get(name);
  if (h.leaseIsNews(observed)) {
    h.saveLease(observed!.renewTime);
    h.probe = host.now;
    // one deadline entry for every node this pass renews (graceCohorts.ts), not one pop per node every 40 s
    nlc.cohorts.join(slot, h.probe + host.config.nodeMonitorGracePeriod);
  }
}

/**
 * evaluateNode for a node that posts Ready True, when the evaluation can only
 * renew its health entry: the node's machine is Ready and idle, it is not in
 * its zone queue's set, it carries neither NoExecute taint (taint-based
 * evictions) or is unmarked in nodeEvictionMap (the pod-eviction path, 1.17+),
 * and its grace cannot have run out. Two cases: a new heartbeat (a plain
 * status post, every 5 minutes per node with Leases: about 57,000
 * evaluations an hour at 5,000 nodes; every 10 s without them, as in 1.12:
 * 1.2 million), which re-creates the entry from the node (probe = now); and
 * the same heartbeat as the saved status (the first pass of a reconstructed
 * memory, a node event that was not a post, e.g. its taints), which keeps the
 * entry but for a renewed Lease. tryUpdateNodeHealth then writes no status,
 * and markNodeAsReachable (cancelPodEviction) finds nothing to remove: no API
 * call, no decision, no pod touched. Applied here as plain data, as
 * evaluateNode applies it; any other case returns false and the node is
 * evaluated in full. Off when every node is evaluated (the lazy-pass test
 * compares the two).
 */
export function readyFastPath(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord, slot: Slot, ctx: PassContext): boolean {
  if (nlc.options.evaluateEveryNode) return false;
  const taintBased = nlc.rules.taintBasedEvictions;
  const name = slot.name;
  const t = nlc.slotTrack(slot);
  const h = nlc.slotHealth(slot);
  if (!t || !h) return false;
  const saved = h.savedReady;
  const ready = findCondition(node.conditions, 'Ready');
  if (!saved || !ready || ready.status !== 'True') return false;
  const taints = node.taints;
  // markNodeAsReachable would remove these (taint-based evictions; the pod-eviction path leaves taints alone)
  if (taintBased && (taintExists(taints, UNREACHABLE_NO_EXECUTE) || taintExists(taints, NOT_READY_NO_EXECUTE))) return false;
  // in the zone queue's set: markNodeAsReachable or cancelPodEviction would remove it
  const q = nlc.queues.get(t.zone);
  if (q && (q.has(name) || q.isQueued(name))) return false;
  // the machine idle (nothing to cancel: also nodeEvictionMap's unmarked, 1.17+ without taint-based evictions)
  const v = nlc.nodes.get(name)?.stateValue as { ready?: string; eviction?: string } | undefined;
  if ((v?.ready ?? 'NotObserved') !== 'True' || (v?.eviction ?? 'idle') !== 'idle') return false;
  // tryUpdateNodeHealth: the heartbeat, then the Lease ("always update the probe time if the node lease is renewed")
  const now = host.now;
  const heartbeat = ready.lastHeartbeatTime !== saved.lastHeartbeatTime;
  const observed = nlc.rules.readsLeases ? host.cluster.leases.get(name) : undefined;
  const renewed = h.leaseIsNews(observed);
  const grace = host.config.nodeMonitorGracePeriod;
  if (now > (heartbeat || renewed ? now : h.probe) + grace) return false;
  // The new entry is written into the old one: nothing else holds a health entry (checkpoints copy them
  // into columns, restore makes new ones), and the map and the slot already point at it.
  if (heartbeat) {
    // "the heartbeat changed": a new entry from the node, the saved status follows the node's
    h.readyTransition = saved.lastTransitionTime !== ready.lastTransitionTime ? now : h.readyTransition;
    h.probe = now;
    h.savedReady = copyNodeCondition(ready);
    if (renewed) h.saveLease(observed!.renewTime);
    else h.forgetLease();
    if (nlc.stats) nlc.stats.plainPosts++;
  } else {
    // the same heartbeat: the entry as it was
    if (renewed) {
      h.saveLease(observed!.renewTime);
      h.probe = now;
    }
    if (nlc.stats) nlc.stats.unchangedReady++;
  }
  // evaluateNode: Ready is True; settle
  // the machine's Ready is True (above): it was the current Ready already when the node had been evaluated
  const before = t.evaluated;
  t.evaluated = true;
  nlc.settle(host, slot);
  // an entry that forgot the saved Lease: the next pass takes the Lease as news (see evaluateNode)
  if (nlc.rules.readsLeases && !h.hasLease && host.cluster.leases.has(name)) nlc.slots.noteNews(slot);
  if (!before) {
    const seq = host.recall(nodeRef(name), 'ready-status');
    if (seq !== undefined) pushMap(ctx.readyChanges, t.zone, seq);
  }
  // markNodeAsReachable (or cancelPodEviction): nothing to remove, nothing queued, machine idle; nodesToRetry
  // (the observed Ready is True)
  if (nlc.rules.retriesMarkPodsNotReady) nlc.retry.delete(name);
  return true;
}
