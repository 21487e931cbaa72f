/**
 * replica_set_utils.go calculateStatus / updateReplicaSetStatus as a sync ends them: the status
 * written (two attempts), and terminatingReplicas (DeploymentReplicaSetTerminatingReplicas).
 */
import type { ControllerHost } from '../controllerHost';
import type { Check, MachineTransition } from '../../trace/decision';
import type { ObjectRef, PodRecord, ReplicaSetRecord, ReplicaSetStatus } from '../../model/types';
import { formatTime } from '../../model/time';
import { isTerminating } from './podUtil';
import { calculateStatus, countsUnchanged, StatusCounter, statusChanges, statusFromCounts, statusNeedsUpdate } from './status';
import type { ReplicaSetCheck } from './validate';
import { exact, type Entry } from './entry';
import type { ReplicaSetCore } from './core';
import { attachGuards, becauseWithGuards } from '../../machines/guardChecks';
import {
  askUpdateReplicaSetStatus,
  statusGuardChecks,
  statusStep,
  statusTransition,
  statusTransitionId,
  updateStatusEvent,
} from './updateReplicaSetStatusMachine';
import type { TableStep } from '../../machines/table';

/**
 * DeploymentReplicaSetTerminatingReplicas: FilterTerminatingPods (deletionTimestamp set, not
 * terminal) then FilterClaimedPods (controlled by this ReplicaSet and matching its selector);
 * undefined when the gate is off.
 */
export function terminatingPods(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  rs: ReplicaSetRecord,
  check: ReplicaSetCheck,
  counted: number | undefined,
): number | undefined {
  const gate = host.config.featureGates.DeploymentReplicaSetTerminatingReplicas;
  if (!gate) return undefined;
  if (counted !== undefined) return counted;
  const tally = rsc.tallyFor(host, rs, check);
  if (tally && !rsc.verify) return tally.terminating;
  let n = 0;
  for (const p of rsc.podsIn(host, rsc.byOwner.get(rs.meta.uid))) {
    if (isTerminating(p) && check.selector.matches(p.meta.labels)) n++;
  }
  if (tally && tally.terminating !== n) {
    throw new Error(
      `replicaset ${rs.meta.namespace}/${rs.meta.name} at ${formatTime(host.now)}: running count of terminating pods ${tally.terminating}, every pod read ${n}`,
    );
  }
  return n;
}

/** `filteredPods`: the `active` claimed pods, listed whenever they are not `counted` */
export function updateStatus(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  entry: Entry,
  rs: ReplicaSetRecord,
  active: number,
  filteredPods: PodRecord[] | undefined,
  manageErr: string | undefined,
  ref: ObjectRef,
  terminating: number | undefined,
  counted?: StatusCounter,
): string | undefined {
  const unchanged = counted !== undefined && manageErr === undefined && countsUnchanged(rs, active, terminating, counted);
  if (unchanged && !rsc.verify) return undefined;
  const next = counted
    ? statusFromCounts(rs, active, manageErr, host.now, terminating, counted)
    : calculateStatus(rs, filteredPods!, manageErr, host.now, terminating);
  // nearly every sync writes nothing: statusNeedsUpdate answers that without building the machine's
  // question, and in verification the machine is asked as well and must agree
  if (unchanged && statusNeedsUpdate(rs, next))
    throw new Error(`replicaset ${entry.key}: countsUnchanged says nothing to write, statusNeedsUpdate writes ${JSON.stringify(next)}`);
  if (!statusNeedsUpdate(rs, next)) {
    if (rsc.verify && askUpdateReplicaSetStatus(entry.key, updateStatusEvent(rs, next)))
      throw new Error(`replicaset ${entry.key}: statusNeedsUpdate says nothing to write, the updateReplicaSetStatus machine updates`);
    return undefined;
  }
  const step = statusStep(rs, next);
  if (!step) throw new Error(`replicaset ${entry.key}: statusNeedsUpdate says write, the updateReplicaSetStatus machine finds nothing that differs`);
  // what explains the write is made when read (45,000 writes in the outage hour at 5,000 nodes, nearly
  // none read), by one object a write for the machine's guard checks and the decision's own checks
  const write = new StatusWrite(rs.status, next, rs.meta.generation ?? 0, rs.minReadySeconds, step);
  const machine = (write.machine = attachGuards(statusTransition((entry.statusId ??= statusTransitionId(entry.key)), step), write));
  next.observedGeneration = rs.meta.generation ?? 0;
  // statusUpdateRetries = 1: two attempts
  let ok = false;
  for (let attempt = 0; attempt <= 1 && !ok; attempt++) ok = host.apiCall('replicaset', 'update', 'replicasets', ref, machine);
  if (!ok) return `update replicasets ${entry.key} status failed (injected fault)`;
  rs.status = next;
  // the entry's key: a string every map keyed by ReplicaSet has hashed already (9,373 status writes in one pass at 5,000 nodes)
  // its echo, if the host announces the write now, is owed rather than added (statusEcho.ts)
  rsc.echoes.writing = entry;
  try {
    host.updateReplicaSetStatus?.(rs, entry.key);
  } finally {
    rsc.echoes.writing = undefined;
  }
  const failure = failureOf(next);
  const d = {
    controller: 'replicaset' as const,
    action: 'ReplicaSetStatusUpdated' as const,
    object: ref,
    summary: rsc.text(
      `Status: ${next.replicas} replicas, ${next.readyReplicas} ready, ${next.availableReplicas} available${failure ? ` (ReplicaFailure: ${failure.reason})` : ''}`,
    ),
    causes: entry.lastManageSeq ? [entry.lastManageSeq] : [],
    machine,
    source: 'replicaset: syncReplicaSet -> calculateStatus / updateReplicaSetStatus (pkg/controller/replicaset/replica_set_utils.go)',
    // a status is never changed once written (the next write replaces it): without conditions to
    // show with text times, the trace keeps the written status itself
    details: {
      status:
        next.conditions.length === 0
          ? next
          : { ...next, conditions: next.conditions.map((c) => ({ ...c, lastTransitionTime: formatTime(c.lastTransitionTime) })) },
    },
  };
  // no fact remembered: no decision cites a status write (a fact per write was a list entry per ReplicaSet and three
  // log slots per write that every checkpoint kept and every restore replayed, 31,093 writes in the outage hour)
  if (host.decideExplainedLater) host.decideExplainedLater(d, write);
  else host.decide({ ...d, because: write.explain() });
  return undefined;
}

const failureOf = (s: ReplicaSetStatus) => s.conditions.find((c) => c.type === 'ReplicaFailure');

/**
 * One status write, from the statuses before and after it (a write replaces a status and never
 * edits it) and the generation: what makes the machine's guard checks (the transition's) and the
 * decision's own checks when either is first read.
 */
class StatusWrite {
  machine: MachineTransition | undefined = undefined;

  constructor(
    private readonly prev: ReplicaSetStatus,
    private readonly next: ReplicaSetStatus,
    private readonly generation: number,
    private readonly minReadySeconds: number,
    private readonly step: TableStep,
  ) {}

  guardChecks(): readonly Check[] {
    return statusGuardChecks(this.step, this.prev, this.next, this.generation);
  }

  /** The checks of a status write: the counts written, the fields changed, the failure, then the machine's guards. */
  explain(): Check[] {
    const { prev, next } = this;
    const because: Check[] = [
      {
        rule: 'status counts the active pods this ReplicaSet owns (calculateStatus)',
        values: {
          replicas: next.replicas,
          fullyLabeledReplicas: next.fullyLabeledReplicas,
          readyReplicas: next.readyReplicas,
          availableReplicas: next.availableReplicas,
          minReadySeconds: this.minReadySeconds,
          ...(next.terminatingReplicas !== undefined ? { terminatingReplicas: next.terminatingReplicas } : {}),
        },
      },
    ];
    const changes = statusChanges(prev, next);
    if (Object.keys(changes).length) because.push({ rule: 'changed fields', values: changes });
    const failure = failureOf(next);
    if (failure)
      because.push({ rule: 'manageReplicas failed: ReplicaFailure condition set', values: { reason: failure.reason ?? '', message: failure.message ?? '' } });
    return becauseWithGuards(exact(because), this.machine);
  }
}
