/**
 * The TimedWorker firing and `deletePodHandler`: at the deadline the pod's eviction machine takes
 * DEADLINE (EVICT_NOW for an immediate deletion), then up to 5 delete attempts 10 ms apart (1.26+:
 * `addConditionAndDeletePod`, the DisruptionTarget condition patched first); each injected failure
 * is an ApiCallFailed of the host, and after the 5th the work item is dropped (GIVE_UP), so only
 * the next node or pod update can evict the pod.
 */
import type { ControllerHost } from '../controllerHost';
import type { Duration, Micros } from '../../model/time';
import { formatTime, ms } from '../../model/time';
import { type PodCondition, podRef } from '../../model/types';
import { podCondition } from '../../model/records';
import type { Check, MachineTransition } from '../../trace/decision';
import { becauseWithGuards } from '../../machines/guardChecks';
import type { TaintEvictionState } from './state';
import { uniq } from './state';
import type { Timer } from './timerQueue';
import type { TimerKind, Work } from './work';

/** deletePodHandler: attempts per work item, and the sleep after each failed one. */
export const DELETE_ATTEMPTS = 5;
export const DELETE_RETRY_INTERVAL: Duration = ms(10);

export function handleTimer(te: TaintEvictionState, host: ControllerHost, t: Timer<TimerKind>): void {
  const w = te.work.get(t.key);
  if (!w || w.timer !== t) return; // stale
  w.timer = undefined;
  w.timerKind = undefined;
  switch (t.payload) {
    case 'fire': {
      // a timer fires only for scheduled work (an immediate deletion cancels it): the machine's DEADLINE is the check
      const t = te.send(w, 'DEADLINE');
      if (!t) return;
      w.because = [{ rule: 'the deadline was reached: the timed worker fires', values: { deadline: formatTime(w.fireAt) } }, ...w.because];
      w.reason = `its toleration of the NoExecute taints of ${w.nodeName} ran out at ${formatTime(w.fireAt)}`;
      if (w.scheduledSeq !== undefined) w.causes = uniq([w.scheduledSeq, ...w.causes]);
      startDelete(te, host, w, t);
      return;
    }
    case 'retry':
      if (w.state === 'deleting') attemptDelete(te, host, w);
      return;
    case 'giveUp': {
      if (!te.send(w, 'GIVE_UP')) return;
      te.work.delete(w.key);
      te.gaveUp.set(w.key, { at: host.now, nodeName: w.nodeName });
      return;
    }
  }
}

export function beginDelete(te: TaintEvictionState, host: ControllerHost, w: Work, event: 'EVICT_NOW'): void {
  const t = te.send(w, event);
  if (t) startDelete(te, host, w, t);
}

/** deletePodHandler starts: the machine took EVICT_NOW or DEADLINE. */
function startDelete(te: TaintEvictionState, host: ControllerHost, w: Work, t: MachineTransition): void {
  w.attempts = 0;
  w.startTransition = t;
  w.lastTransition = t;
  te.gaveUp.delete(w.key);
  attemptDelete(te, host, w);
}

/** One try of deletePodHandler's loop (1.26+: addConditionAndDeletePod). */
function attemptDelete(te: TaintEvictionState, host: ControllerHost, w: Work): void {
  const pod = host.cluster.pods.get(w.key);
  if (!pod) {
    // Gone already (deleted by someone else in the retry window): nothing left to do.
    te.send(w, 'DELETED');
    te.work.delete(w.key);
    return;
  }
  const ref = podRef(w.namespace, w.name);
  if (te.b.patchesDisruptionTarget) {
    const u = withDisruptionTarget(pod.conditions, host.now);
    if (u.updated) {
      if (!host.apiCall('taint-eviction', 'patch', 'pods', ref, w.startTransition)) return failedAttempt(te, host, w);
      pod.conditions = u.conditions;
      host.updatePod(pod);
    }
  }
  if (!host.apiCall('taint-eviction', 'delete', 'pods', ref, w.startTransition)) return failedAttempt(te, host, w);
  const deleted = te.send(w, 'DELETED');
  const because: Check[] = [...w.because];
  if (w.attempts > 0)
    because.push({ rule: 'the delete succeeded after failed attempts (deletePodHandler tries 5 times, 10 ms apart)', values: { attempt: w.attempts + 1 } });
  if (te.b.patchesDisruptionTarget) because.push({ rule: 'the pod got the DisruptionTarget condition first (reason DeletionByTaintManager)' });
  const seq = host.decide({
    controller: 'taint-eviction',
    action: 'PodEvicted',
    object: ref,
    summary: `Deleted pod ${w.key}: ${w.reason ?? `NoExecute taints of ${w.nodeName}`}`,
    because: becauseWithGuards(because, w.startTransition ?? deleted),
    causes: w.causes,
    machine: w.startTransition ?? deleted,
    source: te.source('deletePodHandler'),
    details: { node: w.nodeName },
  });
  host.remember(ref, 'deleted', seq);
  te.work.delete(w.key);
  host.deletePod(pod);
}

function failedAttempt(te: TaintEvictionState, host: ControllerHost, w: Work): void {
  w.attempts++;
  te.setTimer(w, host.now + DELETE_RETRY_INTERVAL, w.attempts < DELETE_ATTEMPTS ? 'retry' : 'giveUp');
}

/** `apipod.UpdatePodCondition` with DisruptionTarget=True, reason DeletionByTaintManager. */
export function withDisruptionTarget(conditions: readonly PodCondition[], now: Micros): { conditions: PodCondition[]; updated: boolean } {
  const next = podCondition('DisruptionTarget', 'True', now, 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint');
  const i = conditions.findIndex((c) => c.type === 'DisruptionTarget');
  if (i < 0) return { conditions: [...conditions, next], updated: true };
  const old = conditions[i];
  if (old.status === next.status) next.lastTransitionTime = old.lastTransitionTime;
  const equal = old.status === next.status && old.reason === next.reason && old.message === next.message && old.lastTransitionTime === next.lastTransitionTime;
  const out = [...conditions];
  out[i] = next;
  return { conditions: out, updated: !equal };
}
