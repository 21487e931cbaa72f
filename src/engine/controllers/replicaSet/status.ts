/**
 * ReplicaSet status as the controller computes and writes it
 * (pkg/controller/replicaset/replica_set_utils.go calculateStatus,
 * updateReplicaSetStatus; podutil.IsPodAvailable).
 */
import type { ConditionStatus, PodRecord, ReplicaSetRecord, ReplicaSetStatus } from '../../model/types';
import { MICROS_PER_SECOND, isZeroTime, type Micros } from '../../model/time';
import { isPodReady, specReplicas } from './podUtil';
import { copyReplicaSetConditions, replicaSetStatus } from '../../model/records';

export const REPLICA_FAILURE = 'ReplicaFailure';

/**
 * podutil.IsPodAvailable: ready, and either minReadySeconds is 0 or the Ready
 * condition's lastTransitionTime + minReadySeconds is strictly before now.
 */
export function isPodAvailable(pod: PodRecord, minReadySeconds: number, now: Micros): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const c = pod.conditions.find((x) => x.type === 'Ready');
  if (!c || isZeroTime(c.lastTransitionTime)) return false;
  return c.lastTransitionTime + minReadySeconds * MICROS_PER_SECOND < now;
}

function readyCondition(pod: PodRecord): PodRecord['conditions'][number] | undefined {
  for (const c of pod.conditions) if (c.type === 'Ready') return c;
  return undefined;
}

/**
 * labels.Set(template.labels).AsSelectorPreValidated().Matches(pod labels);
 * the template's keys and values are listed once per status computation
 * (`templateKeys`/`templateValues`), not once per pod.
 */
function hasAllLabels(keys: readonly string[], values: readonly string[], labels: Record<string, string>): boolean {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (!Object.prototype.hasOwnProperty.call(labels, k) || labels[k] !== values[i]) return false;
  }
  return true;
}

export function templateLabels(rs: ReplicaSetRecord): Record<string, string> {
  return labelsOfTemplate(rs.template);
}

function labelsOfTemplate(template: ReplicaSetRecord['template']): Record<string, string> {
  const md = template.metadata;
  const labels = md && typeof md === 'object' && !Array.isArray(md) ? (md as { labels?: unknown }).labels : undefined;
  const out: Record<string, string> = {};
  if (labels && typeof labels === 'object' && !Array.isArray(labels)) {
    for (const [k, v] of Object.entries(labels as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/**
 * calculateStatus's per-pod counts, pod by pod, so that the controller can
 * count while it claims the pods instead of walking them again.
 */
export class StatusCounter {
  fullyLabeled = 0;
  ready = 0;
  available = 0;
  /**
   * The template's labels, listed at the first pod counted: a sync that takes its counts from
   * the running counts (tally.ts) only sets the three numbers, and listing them was most of
   * its cost. The template read is the one the ReplicaSet had when the counter was made (kept):
   * nothing changes a template in place (a new template is a new object: see podTemplate.ts).
   */
  private keys: string[] | undefined = undefined;
  private values: string[] | undefined = undefined;
  private readonly minReady: number;
  private readonly template: ReplicaSetRecord['template'];

  constructor(
    rs: ReplicaSetRecord,
    private readonly now: Micros,
  ) {
    this.minReady = rs.minReadySeconds * MICROS_PER_SECOND;
    this.template = rs.template;
  }

  private templateValues(): string[] {
    if (this.values !== undefined) return this.values;
    const tmpl = labelsOfTemplate(this.template);
    const keys = (this.keys = Object.keys(tmpl));
    return (this.values = keys.map((k) => tmpl[k]!));
  }

  /** the pod carries every label of the template (fullyLabeledReplicas) */
  labelled(pod: PodRecord): boolean {
    const values = this.templateValues();
    return hasAllLabels(this.keys!, values, pod.meta.labels);
  }

  add(pod: PodRecord): void {
    const values = this.templateValues();
    if (hasAllLabels(this.keys!, values, pod.meta.labels)) this.fullyLabeled++;
    // isPodReady and isPodAvailable read the same (first) Ready condition: found once per pod
    const c = readyCondition(pod);
    if (c !== undefined && c.status === 'True') {
      this.ready++;
      if (this.minReady === 0 || (!isZeroTime(c.lastTransitionTime) && c.lastTransitionTime + this.minReady < this.now)) this.available++;
    }
  }
}

/**
 * calculateStatus(rs, filteredPods, manageReplicasErr); with the
 * DeploymentReplicaSetTerminatingReplicas gate (alpha 1.33, beta on 1.35) also
 * terminatingReplicas = the claimed pods being deleted (`terminating`; undefined when the gate is off).
 */
export function calculateStatus(
  rs: ReplicaSetRecord,
  filteredPods: readonly PodRecord[],
  manageReplicasErr: string | undefined,
  now: Micros,
  terminating?: number,
  counted?: StatusCounter,
): ReplicaSetStatus {
  // `counted`: the same pods already counted at this `now` (nothing changed them since)
  let counter = counted;
  if (!counter) {
    counter = new StatusCounter(rs, now);
    for (const pod of filteredPods) counter.add(pod);
  }
  return statusFromCounts(rs, filteredPods.length, manageReplicasErr, now, terminating, counter);
}

/**
 * The conditions of every status calculated without any (nearly all): one list for all, frozen, since
 * a status is replaced and never edited (a condition set or cleared makes a new list, below).
 */
const NO_CONDITIONS = Object.freeze([]) as unknown as ReplicaSetStatus['conditions'];

/** calculateStatus once the claimed pods (`claimed` of them) are counted */
export function statusFromCounts(
  rs: ReplicaSetRecord,
  claimed: number,
  manageReplicasErr: string | undefined,
  now: Micros,
  terminating: number | undefined,
  counter: StatusCounter,
): ReplicaSetStatus {
  const { fullyLabeled, ready, available } = counter;
  let conditions = rs.status.conditions.length === 0 ? NO_CONDITIONS : copyReplicaSetConditions(rs.status.conditions);
  const failure = conditions.find((c) => c.type === REPLICA_FAILURE);
  if (manageReplicasErr !== undefined && !failure) {
    const diff = claimed - specReplicas(rs);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    conditions = [...conditions, { type: REPLICA_FAILURE, status: 'True' as ConditionStatus, reason, message: manageReplicasErr, lastTransitionTime: now }];
  } else if (manageReplicasErr === undefined && failure) {
    conditions = conditions.filter((c) => c.type !== REPLICA_FAILURE);
  }
  return replicaSetStatus(claimed, fullyLabeled, ready, available, rs.status.observedGeneration, conditions, terminating);
}

/** The fields that differ, old -> new, for the trace. */
export function statusChanges(old: ReplicaSetStatus, next: ReplicaSetStatus): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration', 'terminatingReplicas'] as const) {
    if (old[k] !== next[k]) out[k] = { from: old[k], to: next[k] };
  }
  const oldFailure = old.conditions.find((c) => c.type === REPLICA_FAILURE);
  const newFailure = next.conditions.find((c) => c.type === REPLICA_FAILURE);
  if (!!oldFailure !== !!newFailure) {
    out[REPLICA_FAILURE] = {
      from: oldFailure ? `${oldFailure.status} (${oldFailure.reason ?? ''})` : 'absent',
      to: newFailure ? `${newFailure.status} (${newFailure.reason ?? ''})` : 'absent',
    };
  }
  return out;
}

/**
 * `statusNeedsUpdate(rs, statusFromCounts(rs, claimed, undefined, now, terminating, counter))` is false,
 * answered without making the status (most syncs write nothing: the echo of the controller's own
 * write, a pass's pods that changed nothing counted): with no manageReplicas error and no condition
 * on the ReplicaSet, the status calculated has none either, so it is the counts and the generation.
 */
export function countsUnchanged(rs: ReplicaSetRecord, claimed: number, terminating: number | undefined, counter: StatusCounter): boolean {
  const s = rs.status;
  return (
    s.conditions.length === 0 &&
    s.replicas === claimed &&
    s.fullyLabeledReplicas === counter.fullyLabeled &&
    s.readyReplicas === counter.ready &&
    s.availableReplicas === counter.available &&
    s.terminatingReplicas === terminating &&
    (rs.meta.generation ?? 0) === s.observedGeneration
  );
}

/**
 * updateReplicaSetStatus's short cut: nothing is written when the counts, the
 * conditions and observedGeneration (= metadata.generation) are unchanged.
 */
export function statusNeedsUpdate(rs: ReplicaSetRecord, next: ReplicaSetStatus): boolean {
  const s = rs.status;
  const generation = rs.meta.generation ?? 0;
  return !(
    s.replicas === next.replicas &&
    s.fullyLabeledReplicas === next.fullyLabeledReplicas &&
    s.readyReplicas === next.readyReplicas &&
    s.availableReplicas === next.availableReplicas &&
    s.terminatingReplicas === next.terminatingReplicas &&
    generation === s.observedGeneration &&
    // no conditions on either side (nearly every sync): both texts are "[]"
    ((s.conditions.length === 0 && next.conditions.length === 0) || JSON.stringify(s.conditions) === JSON.stringify(next.conditions))
  );
}
