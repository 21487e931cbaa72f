/**
 * tryUpdateNodeHealth (1.13+) / tryUpdateNodeStatus (1.12), pkg/controller/nodelifecycle/node_lifecycle_controller.go: the probe
 * and transition timestamps, and Ready etc. set to Unknown once probe + grace
 * has passed. nextHealth is the pure part (what the new health entry and the
 * working conditions are); tryUpdateNodeHealth writes them.
 */
import { type Duration, type Micros, formatDuration, formatTime } from '../../model/time';
import { type LeaseRecord, type NodeCondition, type NodeRecord, nodeRef } from '../../model/types';
import { copyNodeConditions, nodeCondition } from '../../model/records';
import type { Check } from '../../trace/decision';
import type { ControllerHost } from '../controllerHost';
import { probeExpired } from './guards';
import { type Health, NODE_HEALTH_UPDATE_ATTEMPTS, NodeLifecycleState, type PassContext, RETRY_SLEEP_TIME, copyCond, pushMap, sameCondition } from './state';
import { findCondition } from './taints';
import { NodeHealthData } from './nodeHealthData';

/** The Ready condition before (observed) and after (current) the update; setUnknownSeq when it set Unknown. */
export interface HealthUpdate {
  ok: boolean;
  observed: NodeCondition;
  current: NodeCondition | null;
  setUnknownSeq?: number;
}

/** What nextHealth reads: the node, the entry saved for it, its Lease. */
export interface HealthInput {
  now: Micros;
  node: NodeRecord;
  saved: Health | undefined;
  /** the node's Lease (read only when readsLeases) */
  lease: LeaseRecord | undefined;
  readsLeases: boolean;
  /** 1.12's tryUpdateNodeStatus: a node without Ready starts again from its creationTimestamp */
  legacy: boolean;
  nodeMonitorGracePeriod: Duration;
  nodeStartupGracePeriod: Duration;
}

/** The new health entry (not yet saved), the Ready observed and the grace period that applies. */
export interface NextHealth {
  h: Health;
  /** the saved status follows the node's (the entry was (re)created from it: Go's status = &node.Status) */
  followsWork: boolean;
  observed: NodeCondition;
  grace: Duration;
  /** the node's own Ready condition (undefined: it has none) */
  ready: NodeCondition | undefined;
}

/**
 * tryUpdateNodeHealth's bookkeeping, pure: the health entry from the saved one and the node's
 * heartbeat ("Missing timestamp", "Creating timestamp entry for newly observed Node", a new
 * heartbeat), and "always update the probe time if the node lease is renewed". The saved entry is
 * never edited (a copy or a new one is returned).
 */
export function nextHealth(i: HealthInput): NextHealth {
  const { now, node } = i;
  const readyW = findCondition(node.conditions, 'Ready');
  let h = i.saved;
  let observed: NodeCondition;
  let grace: Duration;
  let followsWork = false;
  if (!readyW) {
    observed = nodeCondition('Ready', 'Unknown', node.meta.creationTimestamp, node.meta.creationTimestamp, undefined, undefined);
    grace = i.nodeStartupGracePeriod;
    if (h && !i.legacy) {
      h = h.copy();
    } else {
      h = new NodeHealthData(node.meta.creationTimestamp, node.meta.creationTimestamp, null, false, undefined);
    }
    followsWork = true;
  } else {
    observed = { ...readyW };
    grace = i.nodeMonitorGracePeriod;
  }
  const savedReady = followsWork ? null : h ? h.savedReady : null;
  const saved = h;
  if (!h) {
    // "Missing timestamp for Node. Assuming now as a timestamp."
    h = new NodeHealthData(now, now, null, false, undefined);
    followsWork = true;
  } else if (!followsWork && savedReady === null && readyW) {
    // "Creating timestamp entry for newly observed Node"
    h = new NodeHealthData(now, now, null, false, undefined);
    followsWork = true;
  } else if (!followsWork && savedReady && readyW && savedReady.lastHeartbeatTime !== readyW.lastHeartbeatTime) {
    const transition = savedReady.lastTransitionTime !== readyW.lastTransitionTime ? now : h.readyTransition;
    h = new NodeHealthData(now, transition, null, false, undefined);
    followsWork = true;
  } else {
    h = h.copy();
  }
  const observedLease = i.lease;
  if (i.readsLeases && observedLease && (saved === undefined || saved.leaseIsNews(observedLease))) {
    h.saveLease(observedLease.renewTime);
    h.probe = now;
  }
  return { h, followsWork, observed, grace, ready: readyW };
}

/**
 * The conditions set to Unknown once probe + grace has passed, pure: a copy of the node's with each
 * of `types` Unknown (added as never posted when missing), and what changed, in words.
 */
export function conditionsSetUnknown(node: NodeRecord, types: readonly string[], now: Micros): { work: NodeCondition[]; changed: string[] } {
  const work = copyNodeConditions(node.conditions);
  const changed: string[] = [];
  for (const type of types) {
    const c = findCondition(work, type);
    if (!c) {
      work.push(nodeCondition(type, 'Unknown', node.meta.creationTimestamp, now, 'NodeStatusNeverUpdated', 'Kubelet never posted node status.'));
      changed.push(`${type}=Unknown (never posted)`);
    } else if (c.status !== 'Unknown') {
      changed.push(`${type}=Unknown (was ${c.status})`);
      c.status = 'Unknown';
      c.reason = 'NodeStatusUnknown';
      c.message = 'Kubelet stopped posting node status.';
      c.lastTransitionTime = now;
    }
  }
  return { work, changed };
}

/**
 * tryUpdateNodeHealth (1.13+) / tryUpdateNodeStatus (1.12): nextHealth, then, once probe + grace
 * has passed, the conditions set to Unknown and written (the node's machine asked first).
 * Returns the observed (before) and current (after) Ready.
 */
export function tryUpdateNodeHealth(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord, ctx: PassContext, failedAttempts = 0): HealthUpdate {
  const now = host.now;
  const name = node.meta.name;
  const ref = nodeRef(name);
  const cfg = host.config;
  const observedLease = nlc.rules.readsLeases ? host.cluster.leases.get(name) : undefined;
  const {
    h,
    followsWork,
    observed,
    grace,
    ready: readyW,
  } = nextHealth({
    now,
    node,
    saved: nlc.health.get(name),
    lease: observedLease,
    readsLeases: nlc.rules.readsLeases,
    legacy: nlc.rules.legacyStatusFunctions,
    nodeMonitorGracePeriod: cfg.nodeMonitorGracePeriod,
    nodeStartupGracePeriod: cfg.nodeStartupGracePeriod,
  });
  // The working copy of the conditions is made only when they are about to be set to Unknown: until
  // then it would equal node.conditions (a heartbeat's evaluation reads, it does not write).
  let work: NodeCondition[] = node.conditions;
  if (probeExpired(now, h.probe, grace)) {
    const set = conditionsSetUnknown(node, host.behaviour.conditionsSetUnknown, now);
    work = set.work;
    const changed = set.changed;
    const current = findCondition(work, 'Ready')!;
    // the machine answers before the write; a refusal writes nothing (and throws when strict)
    const answer = sameCondition(current, observed) ? null : nlc.askNode(name, { type: 'STATUS_UNKNOWN_SET' });
    if (answer) {
      if (!host.apiCall('node-lifecycle', 'update', 'nodes', ref, answer.transition)) {
        finishHealth(nlc, name, h, followsWork, work);
        return { ok: false, observed, current: copyCond(current) };
      }
      node.conditions = work;
      host.updateNodeStatus(node);
      const withLease = !nlc.rules.legacyStatusFunctions && observedLease !== undefined;
      nlc.setHealth(name, new NodeHealthData(h.probe, now, copyCond(current), withLease, observedLease?.renewTime));
      const tr = nlc.commitNode(answer);
      const neverPosted = !readyW;
      const because: Check[] = [
        {
          rule: `no heartbeat for longer than ${neverPosted ? 'nodeStartupGracePeriod (the kubelet never posted Ready)' : 'nodeMonitorGracePeriod'}: now > probeTimestamp + grace`,
          values: {
            now: formatTime(now),
            probeTimestamp: formatTime(h.probe),
            [neverPosted ? 'nodeStartupGracePeriod' : 'nodeMonitorGracePeriod']: formatDuration(grace),
            deadline: formatTime(h.probe + grace),
            ...(readyW ? { lastHeartbeatTime: formatTime(readyW.lastHeartbeatTime) } : {}),
            ...(nlc.rules.readsLeases ? { leaseRenewTime: observedLease?.renewTime !== undefined ? formatTime(observedLease.renewTime) : 'none' } : {}),
          },
        },
        { rule: 'conditions set to Unknown', values: { changed, reason: neverPosted ? 'NodeStatusNeverUpdated' : 'NodeStatusUnknown' } },
      ];
      if (failedAttempts > 0) {
        because.push({
          rule: `the status update succeeded after failed attempts in the same pass (${nlc.monitorFn} tries ${NODE_HEALTH_UPDATE_ATTEMPTS} times, ${formatDuration(RETRY_SLEEP_TIME)} apart)`,
          values: { attempt: failedAttempts + 1, failedAttempts },
        });
      }
      const seq = nlc.decide(host, {
        action: 'NodeStatusUnknown',
        object: ref,
        summary: neverPosted
          ? 'Kubelet never posted node status: Ready set to Unknown'
          : `Kubelet stopped posting node status: Ready ${observed.status} -> Unknown`,
        because,
        causes: nlc.causes(host.recall(ref, 'heartbeat')),
        machine: tr,
        source: nlc.src(nlc.healthFn),
      });
      host.remember(ref, 'ready-status', seq);
      pushMap(ctx.readyChanges, nlc.tracks.get(name)?.zone ?? '', seq);
      nlc.dirty.add(name);
      nlc.enqueueNode(name, now);
      return { ok: true, observed, current: copyCond(current), setUnknownSeq: seq };
    }
  }
  finishHealth(nlc, name, h, followsWork, work);
  return { ok: true, observed, current: copyCond(findCondition(work, 'Ready')) };
}

/** tryUpdateNodeHealth's last step (a method, not a closure made per call): the saved status, the entry. */
export function finishHealth(nlc: NodeLifecycleState, name: string, h: Health, followsWork: boolean, work: readonly NodeCondition[]): void {
  if (followsWork) h.savedReady = copyCond(findCondition(work, 'Ready'));
  nlc.setHealth(name, h);
}
