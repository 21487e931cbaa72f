/**
 * replica_set.go syncReplicaSet: expectations satisfied? -> claimPods (claimPods.ts) ->
 * manageReplicas (manageReplicas.ts) -> calculateStatus / updateReplicaSetStatus
 * (updateReplicaSetStatus.ts) -> requeue after minReadySeconds.
 */
import type { ControllerHost } from '../controllerHost';
import type { ObjectRef } from '../../model/types';
import type { MachineTransition } from '../../trace/decision';
import { becauseWithGuards } from '../../machines/guardChecks';
import { replicaSetRef } from '../../model/types';
import { formatDuration, formatTime, MICROS_PER_SECOND, type Micros } from '../../model/time';
import { EXPECTATIONS_TIMEOUT } from './machine';
import { specReplicas } from './podUtil';
import { MAX_LISTED, type Entry } from './entry';
import type { ReplicaSetCore } from './core';

import { claimPods, verifyCounted } from './claimPods';
import { manageReplicas } from './manageReplicas';
import { terminatingPods, updateStatus } from './updateReplicaSetStatus';

/** Returns the error message when the sync failed (the key is then rate-limited). */
export function syncReplicaSet(rsc: ReplicaSetCore, host: ControllerHost, entry: Entry): string | undefined {
  const rs = host.cluster.replicaSets.get(entry.key);
  if (!rs || rs.meta.uid !== entry.uid) {
    rsc.update(entry, { type: 'DELETE_EXPECTATIONS' });
    return undefined;
  }
  const check = rsc.check(rs, entry);
  if (!check.manageable) return undefined;
  const ref = (entry.ref ??= replicaSetRef(rs.meta.namespace, rs.meta.name));

  // SatisfiedExpectations (an expired record counts as satisfied)
  const asked: { notMet: MachineTransition | null } = { notMet: null };
  const expiredAt = expireIfDue(rsc, host, entry, asked);
  const needsSync = !rsc.expectationsPending(entry);
  if (!needsSync) reportPending(rsc, host, entry, ref, asked.notMet);
  else if (entry.lastPending !== undefined) {
    rsc.markChanged(entry);
    entry.lastPending = undefined;
  }

  const claimed = claimPods(rsc, host, rs, check, ref, entry);
  if (claimed.error !== undefined) return claimed.error;
  let filteredPods = claimed.pods;

  let manageErr: string | undefined;
  // what was counted while claiming still holds unless manageReplicas created or deleted pods
  let { terminating, counted } = claimed;
  if (needsSync && rs.meta.deletionTimestamp === undefined) {
    const diff = claimed.count - specReplicas(rs);
    if (diff !== 0) terminating = undefined;
    if (diff > 0 || (diff < 0 && filteredPods)) {
      counted = undefined;
      // the claimed pods before manageReplicas changes any: the ones to rank, and the list calculateStatus counts
      filteredPods ??= rsc.claimedList(rs.meta.uid, claimed.tally!);
      manageErr = manageReplicas(rsc, host, entry, rs, claimed.count, filteredPods, ref, expiredAt);
    } else if (diff < 0) {
      // Creating pods: calculateStatus counts the claimed pods as they are after manageReplicas. Those
      // are the counts made while claiming unless one of them changed (its event reaches the tally at
      // once); the tally lists them just before the first does.
      const tally = claimed.tally!;
      const listed = rsc.verify ? rsc.claimedList(rs.meta.uid, tally) : undefined;
      const joined = tally.watch(() => {
        filteredPods = rsc.claimedList(rs.meta.uid, tally, joined);
        counted = undefined;
      });
      try {
        manageErr = manageReplicas(rsc, host, entry, rs, claimed.count, undefined, ref, expiredAt);
      } finally {
        tally.close();
      }
      if (listed) verifyCounted(rsc, host, rs, listed, filteredPods, counted);
    } else {
      manageErr = manageReplicas(rsc, host, entry, rs, claimed.count, filteredPods, ref, expiredAt);
    }
  }

  const statusErr = updateStatus(
    rsc,
    host,
    entry,
    rs,
    claimed.count,
    filteredPods,
    manageErr,
    ref,
    terminatingPods(rsc, host, rs, check, terminating),
    counted,
  );
  if (statusErr !== undefined) return statusErr;
  // "Resync the ReplicaSet after MinReadySeconds as a last line of defense to guard against clock-skew."
  // Upstream's sync runs a little after the pod turned ready, so this lands just after the pod
  // becomes available (IsPodAvailable compares strictly); the simulation's sync takes no time,
  // so it adds 1 µs to keep that order.
  const replicas = specReplicas(rs);
  if (manageErr === undefined && rs.minReadySeconds > 0 && rs.status.readyReplicas === replicas && rs.status.availableReplicas !== replicas) {
    rsc.update(entry, { type: 'ENQUEUE_AFTER', at: host.now + rs.minReadySeconds * MICROS_PER_SECOND + 1 });
  }
  return manageErr;
}

/**
 * SatisfiedExpectations asked of the machine (its SATISFIED_EXPECTATIONS event). `asked.notMet` receives its answer when the
 * expectations still hold manageReplicas back: the self transition whose guards (fulfilled, expired)
 * the ExpectationsPending decision records (reportPending).
 */
export function expireIfDue(rsc: ReplicaSetCore, host: ControllerHost, entry: Entry, asked: { notMet: MachineTransition | null }): Micros | undefined {
  if (!rsc.expectationsPending(entry)) return undefined;
  const c = rsc.ctx(entry);
  if (c.expectedAt === null) return undefined;
  const t = rsc.send(entry, { type: 'SATISFIED_EXPECTATIONS', now: host.now }, true);
  if (!t) return undefined;
  if (rsc.expectationsPending(entry)) {
    asked.notMet = t;
    return undefined;
  }
  rsc.markChanged(entry);
  entry.lastTransition = t;
  return c.expectedAt;
}

/** `notMet`: the machine's answer that kept the expectations pending (expireIfDue); its guards are listed after the decision's own check. */
export function reportPending(rsc: ReplicaSetCore, host: ControllerHost, entry: Entry, ref: ObjectRef, notMet: MachineTransition | null): void {
  const c = rsc.ctx(entry);
  const sig = `${c.add}|${c.del}|${c.expectedAt}`;
  if (entry.lastPending === sig) return;
  rsc.markChanged(entry);
  entry.lastPending = sig;
  const expiresAt = c.expectedAt === null ? undefined : c.expectedAt + EXPECTATIONS_TIMEOUT;
  const seq = host.decide({
    controller: 'replicaset',
    action: 'ExpectationsPending',
    object: ref,
    summary: rsc.text(`Waiting for ${Math.max(0, c.add)} pod creation(s) and ${Math.max(0, c.del)} deletion(s) to be observed before managing replicas`),
    because: becauseWithGuards(
      [
        {
          rule: 'SatisfiedExpectations is false: the informer has not yet seen every creation/deletion this controller made, and the expectations are not older than 5m0s',
          values: {
            outstandingAdds: c.add,
            outstandingDeletes: c.del,
            expectedDeletions: c.delKeys.slice(0, MAX_LISTED),
            expectationsSetAt: c.expectedAt === null ? null : formatTime(c.expectedAt),
            expireAt: expiresAt === undefined ? null : formatTime(expiresAt),
            timeout: formatDuration(EXPECTATIONS_TIMEOUT),
          },
        },
      ],
      notMet,
    ),
    causes: entry.lastManageSeq ? [entry.lastManageSeq] : [],
    machine: notMet,
    source: 'replicaset: syncReplicaSet -> expectations.SatisfiedExpectations (pkg/controller/controller_utils.go)',
  });
  rsc.markChanged(entry);
  if (notMet) entry.lastTransition = { ...notMet, seq };
}
