/**
 * `processPodOnNode` with its side effects: decide.ts says what to do (delete at once, schedule a
 * TimedWorker at CreatedAt + min(tolerationSeconds), keep, cancel, or leave alone) and with which
 * checks; this writes it through the pod's eviction machine and records the decision, citing the
 * decisions behind the node's taints (the snapshot's root when none stands for one).
 */
import type { ControllerHost } from '../controllerHost';
import type { Micros } from '../../model/time';
import { formatDuration, formatTime } from '../../model/time';
import { type PodRecord, type Taint, nodeRef, podRef } from '../../model/types';
import { taintText, tolerationText } from '../../model/tolerations';
import type { Check } from '../../trace/decision';
import { becauseWithGuards } from '../../machines/guardChecks';
import { cancelWorkWithEvent } from './cancelWorkWithEvent';
import { decidePodOnNode, reconstructCreatedAt, type PodDecision } from './decide';
import { beginDelete } from './deletePodHandler';
import { rootSnapshotTaints, taintFact } from './snapshotTaints';
import { type TaintEvictionState, uniq } from './state';
import type { PodItem, Shared, Work } from './work';

/**
 * `key` is the pod's `namespace/name`: the key it was found under in `cluster.pods` or
 * `cluster.podsByNode` (the same string is passed on, so that every map here hashes a
 * string whose hash is already known instead of a fresh one per map).
 */
export function processPodOnNode(
  te: TaintEvictionState,
  host: ControllerHost,
  key: string,
  pod: PodRecord,
  nodeName: string,
  taints: Taint[],
  reconstructed: boolean,
  caller: string,
  shared?: Shared,
  update?: PodItem,
): void {
  const existing = te.work.get(key);
  const d = decidePodOnNode({
    taints,
    tolerations: pod.tolerations,
    existing: existing?.state === 'scheduled' || existing?.state === 'deleting' ? existing.state : 'none',
    cancelsWhenToleratedForever: te.b.cancelsWhenToleratedForever,
    taintTexts: shared?.taintTexts,
  });
  if (d.kind === 'keep' || d.kind === 'leave') return; // nothing changes; "why not" explains it
  const ref = podRef(pod.meta.namespace, pod.meta.name);
  const podTrigger = shared ? undefined : podUpdateTrigger(host, pod, nodeName, update);
  const trigger: Check = shared?.trigger ?? podTrigger!.check;
  const taintSeqs = taintCauses(host, nodeName, taints, d, shared);
  const podCauses = podTrigger?.causes ?? [];
  // `because` leads with the decisive check, then the others in the order they were evaluated, then what triggered it.
  switch (d.kind) {
    case 'cancel':
      cancelWorkWithEvent(te, host, key, [...decisiveLast(d.checks), trigger], [...taintSeqs, ...podCauses], caller);
      return;
    case 'evictNow': {
      const because = [...decisiveLast(d.checks), trigger];
      const causes = [...taintSeqs, ...podCauses];
      let w = existing;
      if (w && w.state === 'scheduled') {
        if (w.timer) te.timers.cancel(w.timer);
        w.timer = undefined;
        because.push({ rule: 'the deletion scheduled earlier is replaced by an immediate one', values: { scheduledFor: formatTime(w.fireAt) } });
        if (w.scheduledSeq !== undefined) causes.push(w.scheduledSeq);
      }
      if (!w) {
        w = newWork(key, pod, nodeName, host.now, host.now);
        te.work.set(key, w);
      }
      w.because = because;
      w.causes = uniq(causes);
      w.fireAt = host.now;
      w.reason =
        d.reason === 'untolerated'
          ? `it does not tolerate the NoExecute taint ${d.untolerated ? taintText(d.untolerated) : ''} of ${nodeName}`
          : `its toleration of the NoExecute taints of ${nodeName} is 0s`;
      beginDelete(te, host, w, 'EVICT_NOW');
      return;
    }
    case 'schedule': {
      let createdAt = host.now;
      const because: Check[] = [...d.checks];
      let min = d.min;
      if (reconstructed) {
        const r = reconstructCreatedAt(taints, d.used, pod.meta.creationTimestamp, host.controllerStartTime);
        if (r) {
          createdAt = r.createdAt;
          min = r.min;
          because.push(...r.checks);
        }
      }
      because.push(trigger);
      const fireAt = createdAt + min;
      const w = newWork(key, pod, nodeName, createdAt, fireAt);
      const t = te.send(w, 'SCHEDULE');
      if (!t) return;
      // each text once: the instants alternate below, and a decision keeps every one of them
      const createdText = formatTime(createdAt),
        fireText = formatTime(fireAt),
        minText = formatDuration(min);
      w.min = min;
      because.unshift({
        rule: 'deletion scheduled at CreatedAt + min(tolerationSeconds)',
        values: { createdAt: createdText, tolerationSeconds: minText, deadline: fireText },
      });
      w.because = because;
      w.causes = uniq([...taintSeqs, ...podCauses]);
      const seq = host.decide({
        controller: 'taint-eviction',
        action: 'PodEvictionScheduled',
        object: ref,
        summary: `Pod ${key} will be deleted at ${fireText} (tolerates the NoExecute taints of ${nodeName} for ${minText})`,
        because: becauseWithGuards(because, t),
        causes: w.causes,
        machine: t,
        source: te.source('processPodOnNode'),
        details: { node: nodeName, deadline: fireText, createdAt: createdText },
      });
      w.scheduledSeq = seq;
      w.lastTransition = { ...t, seq };
      host.remember(ref, 'evictionScheduled', seq);
      te.work.set(key, w);
      te.gaveUp.delete(key);
      te.setTimer(w, fireAt, 'fire');
      return;
    }
  }
}

/** The decisions about the node's taints this decision rests on (TaintAdded, usually). */
function taintCauses(host: ControllerHost, nodeName: string, taints: Taint[], d: PodDecision, shared?: Shared): number[] {
  const relevant = d.kind === 'evictNow' && d.untolerated ? [d.untolerated] : taints;
  const cacheKey = relevant.length === 1 ? taintFact(relevant[0]) : '*';
  const cached = shared?.causes.get(cacheKey);
  if (cached) return cached;
  const ref = nodeRef(nodeName);
  const out: number[] = [];
  for (const t of relevant) {
    let s = host.recall(ref, taintFact(t));
    // no decision of the run stands for the taint: it was in the snapshot, and gets its root now
    if (s === undefined) {
      rootSnapshotTaints(host, nodeName, taints);
      s = host.recall(ref, taintFact(t));
    }
    if (s !== undefined) out.push(s);
  }
  const r = uniq(out);
  shared?.causes.set(cacheKey, r);
  return r;
}

function newWork(key: string, pod: PodRecord, nodeName: string, createdAt: Micros, fireAt: Micros): Work {
  return {
    key,
    namespace: pod.meta.namespace,
    name: pod.meta.name,
    nodeName,
    state: 'idle',
    createdAt,
    fireAt,
    causes: [],
    because: [],
    attempts: 0,
  };
}

/** The decisive check of a decision is its last one: put it first. */
function decisiveLast(checks: Check[]): Check[] {
  return checks.length < 2 ? checks.slice() : [checks[checks.length - 1], ...checks.slice(0, -1)];
}

/** The check that says which pod update is handled, and the decision that made it (the binding, the apply or patch). */
function podUpdateTrigger(host: ControllerHost, pod: PodRecord, nodeName: string, item: PodItem | undefined): { check: Check; causes: number[] } {
  const ref = podRef(pod.meta.namespace, pod.meta.name);
  // the latest decision that wrote the pod's spec: the binder's PodBound or the world's apply/patch
  const bound = host.recall(ref, 'bound'),
    applied = host.recall(ref, 'applied');
  const latest = bound === undefined ? applied : applied === undefined ? bound : Math.max(bound, applied);
  const causes = latest !== undefined ? [latest] : [];
  const tolerations = pod.tolerations.map(tolerationText);
  switch (item?.change) {
    case 'added':
      return {
        check: { rule: 'the pod appeared already bound to the node (PodUpdated: a new pod with spec.nodeName)', values: { node: nodeName, tolerations } },
        causes,
      };
    case 'bound':
      return {
        check: {
          rule: 'the pod was bound to the node (PodUpdated: spec.nodeName changed)',
          values: { node: nodeName, was: item.fromNode ?? 'none', tolerations },
        },
        causes,
      };
    case 'tolerations':
      return { check: { rule: "the pod's tolerations changed (PodUpdated: spec.tolerations changed)", values: { node: nodeName, tolerations } }, causes };
    default:
      return { check: { rule: 'the pod was bound to the node or its tolerations changed', values: { node: nodeName, tolerations } }, causes };
  }
}
