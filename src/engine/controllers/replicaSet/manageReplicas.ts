/**
 * replica_set.go manageReplicas: create the missing pods in slow-start batches
 * (slowStartBatch), or delete the surplus ranked by getPodsToDelete (ranking.ts), with the
 * expectations set before the API calls.
 */
import type { ControllerHost } from '../controllerHost';
import type { Check } from '../../trace/decision';
import { becauseWithGuards } from '../../machines/guardChecks';
import type { ObjectRef, PodRecord, ReplicaSetRecord } from '../../model/types';
import { podRef } from '../../model/types';
import { formatDuration, formatTime, type Micros } from '../../model/time';
import { generateName, generateUid, podNamePrefix } from '../../model/podNames';
import { EXPECTATIONS_TIMEOUT } from './machine';
import { controllerOf, specReplicas } from './podUtil';
import { getPodsToDelete, type RankingSettings } from './ranking';
import { podFromTemplate } from './podTemplate';
import { exact, MAX_LISTED, nsOf, SOURCE, type Entry, type KeptBySync } from './entry';
import type { ReplicaSetCore } from './core';
/** controller.SlowStartInitialBatchSize */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;
/**
 * ActivePodsWithRanks (doubled-up pods ranked first) arrived with
 * kubernetes/kubernetes#80004, released in 1.17; before, controller.ActivePods.
 */
export const RANKS_DOUBLED_UP_SINCE_MINOR = 17;
/** made once: a template literal is a new string (a tree of pieces) each time it is evaluated */
const SLOW_START_RULE = `slow start: batches of ${SLOW_START_INITIAL_BATCH_SIZE}, 2, 4, … doubling, stopping after the first batch with a failure`;

/** `filteredPods`: the `active` claimed pods, listed whenever their number is not spec.replicas */
export function manageReplicas(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  entry: Entry,
  rs: ReplicaSetRecord,
  active: number,
  filteredPods: PodRecord[] | undefined,
  ref: ObjectRef,
  expiredAt: Micros | undefined,
): string | undefined {
  const replicas = specReplicas(rs);
  const diff = active - replicas;
  const burst = host.config.burstReplicas;
  const base: Check[] = [];
  if (expiredAt !== undefined) {
    base.push({
      rule: 'expectations set more than 5m0s ago count as satisfied (ExpectationsTimeout)',
      values: { setAt: formatTime(expiredAt), timeout: formatDuration(EXPECTATIONS_TIMEOUT) },
    });
  }
  if (diff < 0) return createPods(rsc, host, entry, rs, active, replicas, Math.min(-diff, burst), ref, base);
  if (entry.removed.length > 0) {
    rsc.markChanged(entry);
    entry.removed = [];
  }
  if (diff > 0) return deletePods(rsc, host, entry, rs, filteredPods!, replicas, Math.min(diff, burst), ref, base);
  return undefined;
}

export function scaleCause(rsc: ReplicaSetCore, host: ControllerHost, entry: Entry, ref: ObjectRef): number[] {
  const out: number[] = [];
  for (const fact of ['scaled', 'applied', 'created']) {
    const seq = host.recall(ref, fact);
    if (seq !== undefined && seq > entry.lastManageSeq) out.push(seq);
  }
  return out;
}

export function createPods(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  entry: Entry,
  rs: ReplicaSetRecord,
  active: number,
  replicas: number,
  count: number,
  ref: ObjectRef,
  base: Check[],
): string | undefined {
  const ns = rs.meta.namespace;
  // ExpectCreations before any call
  const expectT = rsc.send(entry, { type: 'EXPECT', add: count, delKeys: [], now: host.now }, true);
  const created: PodRecord[] = [];
  let batches: number[] = [];
  let failed = 0;
  let failedBatch: number | undefined;
  let error: string | undefined;
  // slowStartBatch(count, SlowStartInitialBatchSize, createPod)
  let remaining = count;
  for (let batch = Math.min(remaining, SLOW_START_INITIAL_BATCH_SIZE); batch > 0; batch = Math.min(2 * batch, remaining)) {
    batches.push(batch);
    let batchFailures = 0;
    for (let i = 0; i < batch; i++) {
      const { name, uid } = nextName(rsc, host, entry, rs);
      if (!host.apiCall('replicaset', 'create', 'pods', podRef(ns, name), expectT)) {
        batchFailures++;
        error ??= `create pods ${ns}/${name} failed (injected fault)`;
        continue;
      }
      // nextName made the entry's naming for this ReplicaSet's name
      const pod = podFromTemplate(rs, name, uid, host.now, entry.naming!.prefix);
      created.push(pod);
      host.createPod(pod);
    }
    failed += batchFailures;
    if (batchFailures > 0) {
      failedBatch = batches.length;
      break;
    }
    remaining -= batch;
  }
  // "Any skipped pods that we never attempted to start shouldn't be expected."
  const skipped = count - created.length;
  if (skipped > 0) rsc.observe(entry, { type: 'CREATION_OBSERVED', count: skipped });

  rsc.markChanged(entry);
  const replacedPods = entry.removed.splice(0, Math.min(created.length, entry.removed.length));
  const causes = [
    ...replacedPods.map((r) => host.recall(podRef(nsOf(r.key), r.key.slice(r.key.indexOf('/') + 1)), r.fact)).filter((s): s is number => s !== undefined),
    ...scaleCause(rsc, host, entry, ref),
  ];
  if (created.length === 0) return error;
  const because: Check[] = [
    ...base,
    { rule: 'fewer active pods than spec.replicas: create the difference (manageReplicas)', values: { activePods: active, replicas, diff: replicas - active } },
  ];
  if (count < replicas - active)
    because.push({ rule: 'at most burstReplicas pods are created in one sync', values: { burstReplicas: host.config.burstReplicas, creating: count } });
  because.push({
    rule: SLOW_START_RULE,
    values: {
      batches: (batches = exact(batches)),
      created: created.length,
      ...(failedBatch !== undefined ? { failedBatch, failed, skipped: skipped - failed } : {}),
    },
  });
  if (replacedPods.length)
    because.push({ rule: 'pods of this ReplicaSet went away since the last sync', values: { pods: replacedPods.map((r) => r.key).slice(0, MAX_LISTED) } });
  const names = created.map((p) => p.meta.name);
  const seq = host.decide({
    controller: 'replicaset',
    action: 'PodsCreated',
    object: ref,
    summary: rsc.text(
      `Created ${created.length} pod(s) (need ${replicas}, had ${active}; slow-start batches ${batches.join(', ')}${failedBatch !== undefined ? `; batch ${failedBatch} failed, ${skipped} not created` : ''})`,
    ),
    because: becauseWithGuards(exact(because), expectT),
    causes,
    machine: expectT,
    source: `${SOURCE} manageReplicas -> slowStartBatch`,
    details: { pods: names, batches, ...(failedBatch !== undefined ? { failed, skipped } : {}) },
  });
  rsc.markChanged(entry);
  if (expectT) entry.lastTransition = { ...expectT, seq };
  entry.lastManageSeq = seq;
  for (const p of created) host.remember(podRef(ns, p.meta.name), 'created', seq);
  return error;
}

/** A fresh name for the next pod (generateName + 5 seeded characters; a taken name draws again). */
export function nextName(rsc: ReplicaSetCore, host: ControllerHost, entry: Entry, rs: ReplicaSetRecord): { name: string; uid: string } {
  // made once per entry: its uid is the ReplicaSet's (syncReplicaSet checks), and its name is checked here
  let naming = entry.naming;
  if (naming === undefined || naming.name !== rs.meta.name) {
    naming = entry.naming = { name: rs.meta.name, seed: `${rsc.options.seed ?? ''}${rs.meta.uid}`, prefix: podNamePrefix(rs.meta.name) };
  }
  const { seed, prefix } = naming;
  for (;;) {
    rsc.markChanged(entry);
    const n = entry.counter++;
    const name = generateName(prefix, seed, n);
    // a name in use, or used earlier in the run (after a restart the counter starts again), draws again
    const taken = host.cluster.pods.has(`${rs.meta.namespace}/${name}`) || host.recall(podRef(rs.meta.namespace, name), 'created') !== undefined;
    if (!taken) return { name, uid: generateUid(seed, n) };
  }
}

export function rankingSettings(rsc: ReplicaSetCore, host: ControllerHost): RankingSettings {
  const gates = host.config.featureGates;
  return {
    rankDoubledUp: host.behaviour.version.minor >= RANKS_DOUBLED_UP_SINCE_MINOR,
    podDeletionCost: gates.PodDeletionCost ?? host.behaviour.podDeletionCostDefault,
    logarithmicScaleDown: gates.LogarithmicScaleDown ?? host.behaviour.logarithmicScaleDownDefault,
    now: host.now,
  };
}

/** getIndirectlyRelatedPods: pods of every ReplicaSet with the same controller (none without one). */
export function relatedPods(rsc: ReplicaSetCore, host: ControllerHost, rs: ReplicaSetRecord): PodRecord[] {
  const owner = controllerOf(rs.meta);
  if (!owner) return [];
  const seen = new Set<string>();
  const out: PodRecord[] = [];
  for (const other of host.cluster.replicaSets.values()) {
    const o = controllerOf(other.meta);
    if (!o || o.uid !== owner.uid || other.meta.namespace !== rs.meta.namespace) continue;
    const sel = rsc.check(other).selector;
    for (const pod of host.cluster.pods.values()) {
      if (pod.meta.namespace !== rs.meta.namespace || seen.has(pod.meta.uid) || !sel.matches(pod.meta.labels)) continue;
      seen.add(pod.meta.uid);
      out.push(pod);
    }
  }
  return out;
}

export function deletePods(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  entry: Entry,
  rs: ReplicaSetRecord,
  filteredPods: PodRecord[],
  replicas: number,
  count: number,
  ref: ObjectRef,
  base: Check[],
): string | undefined {
  const ns = rs.meta.namespace;
  // claimPods keeps the pods in no particular order; getPodsToDelete puts them by name first where the order matters
  const settings = rankingSettings(rsc, host);
  const related = settings.rankDoubledUp && count < filteredPods.length ? relatedPods(rsc, host, rs) : [];
  const choice = getPodsToDelete(filteredPods, related, count, settings, MAX_LISTED);
  const keys = choice.deleted.map((d) => `${ns}/${d.name}`);
  // ExpectDeletions(podKeys) before any call
  const expectT = rsc.send(entry, { type: 'EXPECT', add: 0, delKeys: keys, now: host.now }, true);
  const deleted: string[] = [];
  let error: string | undefined;
  for (const d of choice.deleted) {
    const key = `${ns}/${d.name}`;
    if (!host.apiCall('replicaset', 'delete', 'pods', podRef(ns, d.name), expectT)) {
      // "Decrement the expected number of deletes because the informer won't observe this deletion"
      rsc.observe(entry, { type: 'DELETION_OBSERVED', key });
      error ??= `delete pods ${key} failed (injected fault)`;
      continue;
    }
    rsc.deletingNow.add(key);
    try {
      host.deletePod(d.pod);
    } finally {
      rsc.deletingNow.delete(key);
    }
    deleted.push(d.name);
  }
  const because: Check[] = [
    ...base,
    {
      rule: 'more active pods than spec.replicas: delete the difference (manageReplicas)',
      values: { activePods: filteredPods.length, replicas, diff: filteredPods.length - replicas },
    },
  ];
  if (count < filteredPods.length - replicas)
    because.push({ rule: 'at most burstReplicas pods are deleted in one sync', values: { burstReplicas: host.config.burstReplicas, deleting: count } });
  const order = settings.rankDoubledUp ? 'controller.ActivePodsWithRanks' : 'controller.ActivePods';
  if (!choice.sorted) {
    because.push({
      rule: 'every active pod is deleted, so they are not ranked (getPodsToDelete)',
      values: { pods: choice.deleted.map((d) => d.name).slice(0, MAX_LISTED) },
    });
  } else {
    for (const d of choice.deleted) {
      const why = choice.whyDeleted.get(d.name)!;
      because.push({
        rule: `${d.name} before ${why.versus} (the first pod kept): ${why.text}`,
        values: { pod: d.name, kept: why.versus, ranking: why.rule, ...why.values },
      });
    }
  }
  const causes = scaleCause(rsc, host, entry, ref);
  if (deleted.length === 0) return error;
  const seq = host.decide({
    controller: 'replicaset',
    action: 'PodsDeleted',
    object: ref,
    summary: `Deleted ${deleted.length} pod(s) (need ${replicas}, had ${filteredPods.length}; ranked by ${order})`,
    because: becauseWithGuards(exact(because), expectT),
    causes,
    machine: expectT,
    source: `${SOURCE} manageReplicas -> getPodsToDelete (${order}, pkg/controller/controller_utils.go)`,
    details: { pods: exact(deleted), kept: choice.kept.map((k) => k.name).slice(0, MAX_LISTED), rules: rulesText(settings) },
  });
  rsc.markChanged(entry);
  if (expectT) entry.lastTransition = { ...expectT, seq };
  entry.lastManageSeq = seq;
  for (const name of deleted) {
    host.remember(podRef(ns, name), 'deleted', seq);
    rsc.kept.delete(`${ns}/${name}`);
  }
  if (choice.sorted) {
    const shared: KeptBySync = { rs: ref, seq, why: choice.whyKept };
    for (const k of choice.kept) rsc.kept.set(`${ns}/${k.name}`, shared);
  }
  return error;
}

function rulesText(s: RankingSettings): string[] {
  const out = ['unassigned < assigned', 'Pending < Unknown < Running', 'not ready < ready'];
  if (s.podDeletionCost) out.push('lower pod-deletion-cost first');
  if (s.rankDoubledUp) out.push('doubled up on a node first');
  out.push(s.logarithmicScaleDown ? 'ready for less time first (log2 buckets, then UID)' : 'ready for less time first');
  out.push('more restarts first');
  out.push(s.logarithmicScaleDown ? 'newer first (log2 buckets, then UID)' : 'newer first');
  return out;
}
