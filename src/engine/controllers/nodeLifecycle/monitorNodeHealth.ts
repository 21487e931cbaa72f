/**
 * monitorNodeHealth (1.12: monitorNodeStatus, pkg/controller/nodelifecycle/node_lifecycle_controller.go): classifyNodes, the
 * evaluation of each node (tryUpdateNodeHealth with its retries, then
 * processTaintBaseEviction or processNoTaintBaseEviction and MarkPodsNotReady),
 * then handleDisruption.
 *
 * A pass evaluates in full only the nodes with news (node and Lease events,
 * the controller's own writes), whose grace period ran out, that are not
 * Ready, or that wait for a retry; for the others fastPaths.ts applies what
 * the full evaluation would, and options.evaluateEveryNode turns that off
 * (test/engine/controllers/nodeLifecycle/lazyPasses.test.ts compares the two).
 */
import { type Micros, formatDuration } from '../../model/time';
import { type NodeRecord, nodeRef, zoneRef } from '../../model/types';
import { zoneKeyOf } from '../../model/zones';
import type { ControllerHost } from '../controllerHost';
import { disruptionExclusion } from './disruption';
import { leaseOnly, leaseOnlySuffices, readyFastPath, requeueSettled, unchangedUnknown } from './fastPaths';
import { handleDisruption } from './handleDisruption';
import type { ReadyStatus } from './machines';
import { cancelPodEviction, markPodsNotReady, processNoTaintBaseEviction, processPod } from './podEviction';
import { reconstruct } from './reconstruct';
import { NOT_ARMED, type Slot } from './slots';
import { NODE_HEALTH_UPDATE_ATTEMPTS, NodeLifecycleState, type PassContext, byName, pushMap } from './state';
import { markNodeAsReachable, processTaintBaseEviction } from './taintBasedEviction';
import { type HealthUpdate, tryUpdateNodeHealth } from './tryUpdateNodeHealth';

/** Nodes evaluated (or registered) between two questions to shouldYield (a node going Unknown with its 30 pods is about 0.7 ms at 5,000 nodes). */
const YIELD_EVERY = 8;

/**
 * One monitor pass, a generator the controller's wake runs: it yields (its rest kept, nlc.cut) when the wake's
 * shouldYield (nlc.ask) says so, inside the first pass's reconstruction and registrations and inside its walk
 * over the nodes, so that the decisions are those of a pass never cut.
 */
export function* monitorPass(nlc: NodeLifecycleState, host: ControllerHost): Generator<void, void, void> {
  const now = host.now;
  const pass = nlc.monitor.send({ type: 'PASS_START' });
  const total = host.cluster.nodes.size;
  nlc.decide(host, {
    action: 'MonitorPass',
    object: 'ControllerManager/kube-controller-manager',
    summary: `Monitor pass over ${total} node${total === 1 ? '' : 's'}`,
    because: [
      { rule: 'monitorNodeHealth runs every nodeMonitorPeriod', values: { nodeMonitorPeriod: formatDuration(host.config.nodeMonitorPeriod), nodes: total } },
    ],
    machine: pass,
    source: nlc.src(nlc.monitorFn),
  });
  if (nlc.reconstructPending) yield* reconstruct(nlc, host, nlc.nodeNames(host));

  // classifyNodes (the full comparison only when a node was added or deleted)
  // this pass's stamp (Slot.mark, Slot.refreshed)
  const stamp = ++nlc.passStamp;
  for (const name of nlc.dirty) {
    const before = nlc.tracks.get(name)?.zone;
    const t = nlc.refreshTrack(host, name);
    if (t?.zone !== before) nlc.zonesMayBeMissing = true;
    if (t) nlc.slots.of(name).refreshed = stamp;
  }
  let added: string[] = [];
  let deleted: string[] = [];
  if (nlc.membershipChanged || nlc.known.size !== total) {
    const names = nlc.nodeNames(host);
    added = names.filter((n) => !nlc.known.has(n));
    deleted = [...nlc.known.keys()].filter((n) => !host.cluster.nodes.has(n)).sort();
    nlc.membershipChanged = false;
    nlc.zonesMayBeMissing = true;
  }
  if (nlc.zonesMayBeMissing) {
    const repZones = new Set<string>();
    for (const n of nlc.known.keys()) {
      if (!host.cluster.nodes.has(n)) continue;
      const z = nlc.trackFor(host, n).zone;
      if (!nlc.zoneActors.has(z)) repZones.add(z);
    }
    for (const z of [...repZones].sort()) nlc.addPodEvictorForNewZone(z);
    nlc.zonesMayBeMissing = false;
  }
  let n = 0;
  for (const name of added) {
    if (++n % YIELD_EVERY === 0 && nlc.ask?.()) yield;
    registerNode(nlc, host, host.cluster.nodes.get(name)!);
  }
  for (const name of deleted) {
    if (++n % YIELD_EVERY === 0 && nlc.ask?.()) yield;
    removeNode(nlc, host, name);
  }

  // the nodes the real pass would find something to do for (see the file comment): each slot once,
  // marked with this pass's stamp (Slot.mark)
  const grace = host.config.nodeMonitorGracePeriod;
  const full = nlc.full;
  full.length = 0;
  for (const n of nlc.dirty) nlc.markFull(nlc.slots.of(n), stamp);
  // heartbeats: the track is the one the last refresh made (a plain post changes nothing it is made
  // of, and every other change makes the node dirty); the dirty among them were refreshed above
  for (const slot of nlc.slots.takeBeats()) {
    slot.refreshed = stamp;
    nlc.markFull(slot, stamp);
  }
  for (const n of nlc.retry) nlc.markFull(nlc.slots.of(n), stamp);
  const settleInPlace = !nlc.options.evaluateEveryNode;
  for (const slot of nlc.watch.values()) {
    if (slot.mark === stamp) continue;
    // A node left Unknown with nothing new is settled in place (see unchangedUnknown)
    if (settleInPlace && !slot.news) {
      const settled = slot.settled;
      if (settled === 'tainted' || settled === 'queued') continue;
      if (settled === 'waiting' && requeueSettled(nlc, host, slot)) continue;
      if (settled === undefined && unchangedUnknown(nlc, host, slot.name)) continue;
    }
    nlc.markFull(slot, stamp);
  }
  if (nlc.options.evaluateEveryNode) for (const n of nlc.known.keys()) nlc.markFull(nlc.slots.of(n), stamp);
  // the renewals' cohorts first: a member whose probe moved since by another path is armed in the heap,
  // which the loop after pops if that deadline has passed too
  const cohorts = nlc.cohorts;
  for (let c = cohorts.popBefore(now); c; c = cohorts.popBefore(now)) {
    const members = cohorts.release(c, nlc.slots.all());
    for (let i = 0; i < members.length; i++) passDeadline(nlc, members[i], c.due, grace, stamp);
  }
  const deadlines = nlc.deadlines;
  for (let slot = deadlines.popBefore(now); slot; slot = deadlines.popBefore(now)) {
    const t = deadlines.poppedAt;
    if (slot.armed === t) slot.armed = NOT_ARMED;
    passDeadline(nlc, slot, t, grace, stamp);
  }
  if (nlc.options.verifyDeadlines) verifyDeadlines(nlc, host, now, stamp);
  // Lease-only news first: plain data, no decisions, so their order does not matter
  for (const slot of nlc.slots.takeNews()) {
    const name = slot.name;
    if (slot.mark === stamp) {
      /* evaluated in full below */
    } else if (slot.settled === 'quiet' || (host.cluster.nodes.has(name) && nlc.known.has(name) && leaseOnlySuffices(nlc, host, slot)))
      leaseOnly(nlc, host, slot);
    else nlc.markFull(slot, stamp);
    slot.lease = undefined;
  }
  const ctx: PassContext = { skipped: new Set(), readyChanges: new Map() };
  // in name order, as the set of names sorted was (names are unique: one slot per name)
  full.sort(byName);
  for (let next = evaluateFrom(nlc, host, 0, ctx); next >= 0; next = evaluateFrom(nlc, host, next, ctx)) yield;
  full.length = 0;
  for (const key of [...nlc.retryPods].sort()) {
    nlc.retryPods.delete(key);
    processPod(nlc, host, key);
  }
  handleDisruption(nlc, host, ctx);
  const end = nlc.monitor.send({ type: 'PASS_END' });
  if (end) nlc.transitions.set(end.id, end);
}

/** A deadline entry of the node armed for `t` came due: evaluate the node if its grace ran out, else arm its real deadline. */
function passDeadline(nlc: NodeLifecycleState, slot: Slot, t: Micros, grace: Micros, stamp: number): void {
  const h = nlc.slotHealth(slot);
  if (!h) return;
  const due = h.probe + grace;
  if (due === t) nlc.markFull(slot, stamp);
  // the probe moved since this entry was armed: arm the real deadline (popped in this loop if it has passed
  // too), unless a later renewal's cohort holds it
  else if (due > t && !nlc.cohorts.covers(slot, due)) {
    const track = nlc.slotTrack(slot);
    if (track && nlc.slotIsReady(slot, track)) nlc.armSlot(slot, due);
  }
}

/**
 * options.verifyDeadlines, after the pass's deadline loops: every Ready node's grace deadline is still to
 * come and an entry no later than it is queued (the heap's or a cohort's), as arming each node's from its
 * probe anew would have it.
 */
function verifyDeadlines(nlc: NodeLifecycleState, host: ControllerHost, now: Micros, stamp: number): void {
  const grace = host.config.nodeMonitorGracePeriod;
  for (const name of nlc.known.keys()) {
    const slot = nlc.slots.get(name);
    const h = nlc.health.get(name);
    const t = nlc.tracks.get(name);
    if (!slot || !h || !t || !nlc.isReady(name, t) || slot.mark === stamp) continue;
    const due = h.probe + grace;
    const cohort = nlc.cohorts.dueOf(slot);
    const inCohort = cohort !== undefined && cohort <= due && cohort >= now;
    if (!(slot.armed <= due) && !inCohort) throw new Error(`grace deadline of ${name} (${due}) not armed: heap ${slot.armed}, cohort ${cohort}`);
  }
}

/** The walk over the nodes evaluated in full, from `from`: -1 once done, or the next to evaluate when nlc.ask cut it. */
function evaluateFrom(nlc: NodeLifecycleState, host: ControllerHost, from: number, ctx: PassContext): number {
  const full = nlc.full;
  for (let i = from; i < full.length; i++) {
    if (i > from && (i - from) % YIELD_EVERY === 0 && nlc.ask?.()) return i;
    const slot = full[i];
    const name = slot.name;
    const node = host.cluster.nodes.get(name);
    if (!node || !nlc.known.has(name)) continue;
    nlc.dirty.delete(name);
    slot.news = false;
    slot.lease = undefined;
    evaluateNode(nlc, host, node, ctx, slot);
  }
  return -1;
}

export function registerNode(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord): void {
  const name = node.meta.name;
  const ref = nodeRef(name);
  const inKnownNodeSet = nlc.known.has(name);
  nlc.known.set(name, node.meta.uid);
  nlc.refreshTrack(host, name);
  const t = nlc.tracks.get(name)!;
  nlc.nodes.renew(name);
  nlc.slots.forgetMachine(name);
  // the node health machine's registration: its guard is classifyNodes' check
  const added = nlc.sendNode(name, { type: 'NODE_ADDED', inKnownNodeSet });
  nlc.decide(host, {
    action: 'NodeRegistered',
    object: ref,
    summary: `Registered Node ${name} in Controller`,
    because: [
      {
        rule: 'classifyNodes: the node is not in knownNodeSet',
        values: { zone: zoneRef(t.zone), ...(t.excluded ? { excludedFromDisruption: t.excluded } : {}) },
      },
      ...(nlc.health.has(name)
        ? []
        : [
            {
              rule: 'no health data yet: the first evaluation takes now as probeTimestamp (nodeStartupGracePeriod from creationTimestamp when the node never posted Ready)',
            },
          ]),
    ],
    machine: added,
    source: nlc.src(nlc.monitorFn),
  });
  nlc.addPodEvictorForNewZone(t.zone);
  if (nlc.rules.taintBasedEvictions) markNodeAsReachable(nlc, host, node, 'the node was (re)registered by the controller');
  else cancelPodEviction(nlc, host, node, 'the node was (re)registered by the controller');
  nlc.dirty.add(name);
  if (!nlc.watch.has(name)) nlc.watch.set(name, nlc.slots.of(name));
}

export function removeNode(nlc: NodeLifecycleState, host: ControllerHost, name: string): void {
  // the node health machine's removal: its guard is classifyNodes' check; the machine is dropped after
  const deleted = nlc.sendNode(name, { type: 'NODE_DELETED', inNodeList: host.cluster.nodes.has(name) });
  nlc.slots.unsettle(name);
  nlc.known.delete(name);
  nlc.recount(name, undefined);
  nlc.setTrack(name, undefined);
  nlc.watch.delete(name);
  nlc.dirty.delete(name);
  nlc.slots.dropNews(name);
  nlc.decide(host, {
    action: 'NodeRemoved',
    object: nodeRef(name),
    summary: `Removing Node ${name} from Controller`,
    because: [{ rule: 'classifyNodes: the node is in knownNodeSet but no longer in the node list' }],
    causes: nlc.causes(host.recall(nodeRef(name), 'deleted')),
    machine: deleted,
    source: nlc.src(nlc.monitorFn),
  });
  nlc.nodes.delete(name);
  nlc.slots.forgetMachine(name);
  nlc.transitions.delete(`node/${name}`);
}

export function evaluateNode(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord, ctx: PassContext, slot: Slot): void {
  const name = node.meta.name;
  slot.settled = undefined;
  // A track refreshed at the start of this pass (the dirty nodes) is up to date: what it is made of (the
  // node's uid, name and labels) changes only by world events and node replacements, which come between
  // passes; the pass itself writes statuses and taints only. (options.verifyTracks checks it.)
  if (slot.refreshed !== nlc.passStamp) nlc.refreshTrack(host, name);
  else if (nlc.options.verifyTracks) verifyTrack(nlc, node);
  if (readyFastPath(nlc, host, node, slot, ctx)) return;
  const t = nlc.tracks.get(name)!;
  const r = updateNodeHealthWithRetries(nlc, host, node, ctx);
  if (!r.ok) {
    // "Update health of Node from Controller error, Skipping - no pods will be evicted": left out of
    // this pass (zone counts, tainting, pods), evaluated again next pass
    ctx.skipped.add(name);
    nlc.dirty.add(name);
    return;
  }
  const before = nlc.currentOf(name, t);
  // the machine's ready region follows the Ready the controller now sees (STATUS_UNKNOWN_SET was sent by the write)
  const seen = nlc.nodes.ready(name);
  if (r.current) {
    if (!r.setUnknownSeq && seen !== r.current.status) nlc.sendNode(name, { type: 'READY_OBSERVED', status: r.current.status as ReadyStatus });
  } else if (seen !== 'NotObserved') {
    nlc.sendNode(name, { type: 'READY_MISSING' });
  }
  t.evaluated = true;
  const current = nlc.currentOf(name, t);
  nlc.settle(host, slot);
  // A health entry re-created from a new heartbeat forgets the saved Lease, so the next pass takes the
  // (unchanged) Lease as news and moves the probe again: that pass must see this node.
  if (nlc.rules.readsLeases && nlc.health.get(name)?.hasLease === false && host.cluster.leases.has(name)) nlc.slots.addNews(name);
  if (before !== current && r.setUnknownSeq === undefined) {
    const seq = host.recall(nodeRef(name), 'ready-status');
    if (seq !== undefined) pushMap(ctx.readyChanges, t.zone, seq);
  }
  if (!r.current) return;
  if (nlc.rules.taintBasedEvictions) {
    const status = host.behaviour.unreachableTaintQueuedSamePass ? r.current.status : r.observed.status;
    processTaintBaseEviction(nlc, host, node, status);
  } else {
    processNoTaintBaseEviction(nlc, host, node, r.observed.status);
  }
  // MarkPodsNotReady when Ready leaves True (and its retry)
  const leftTrue = r.current.status !== 'True' && r.observed.status === 'True';
  if (nlc.rules.retriesMarkPodsNotReady) {
    const needsRetry = nlc.retry.has(name);
    if (leftTrue || (needsRetry && r.observed.status !== 'True')) {
      const keys: string[] = [];
      const pods = nlc.podsOn(host, name, keys);
      if (!markPodsNotReady(nlc, host, name, pods, nlc.rules.markOnlyChangedPods ? 'MarkPodsNotReady' : 'MarkAllPodsNotReady', keys)) {
        nlc.retry.add(name);
        return;
      }
    }
    nlc.retry.delete(name);
  } else if (leftTrue) {
    const keys: string[] = [];
    const pods = nlc.podsOn(host, name, keys);
    markPodsNotReady(nlc, host, name, pods, 'MarkAllPodsNotReady', keys);
  }
}

/** options.verifyTracks: the track refreshTrack would make now is the one kept. */
export function verifyTrack(nlc: NodeLifecycleState, node: NodeRecord): void {
  const t = nlc.tracks.get(node.meta.name);
  const zone = zoneKeyOf(node);
  const excluded = disruptionExclusion(node, nlc.rules);
  if (!t || t.uid !== node.meta.uid || t.zone !== zone || t.excluded !== excluded) {
    throw new Error(`node lifecycle: the track of ${node.meta.name} changed during the pass (${JSON.stringify({ t, uid: node.meta.uid, zone, excluded })})`);
  }
}

/**
 * monitorNodeHealth's (1.12: monitorNodeStatus's) retry loop around tryUpdateNodeHealth:
 * `wait.PollImmediate(retrySleepTime, retrySleepTime*NodeHealthUpdateRetry, ...)`, re-reading the
 * node after each failure (here the record itself: a failed write left it as it was). The
 * attempts are made at the pass's instant; upstream sleeps 20 ms between them.
 */
export function updateNodeHealthWithRetries(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord, ctx: PassContext): HealthUpdate {
  for (let failed = 0; ; failed++) {
    const r = tryUpdateNodeHealth(nlc, host, node, ctx, failed);
    if (r.ok || failed + 1 >= NODE_HEALTH_UPDATE_ATTEMPTS) return r;
  }
}
