/**
 * The taint eviction controller: v1.12's NoExecuteTaintManager (inside the
 * node lifecycle controller) and v1.29+'s taint-eviction-controller, which
 * decide the same things (see behaviour.ts for what differs by version).
 *
 * How upstream works, and how it is reproduced:
 * - Informer events only queue work: `NodeUpdated` queues a node when its
 *   NoExecute taints changed (or it was added/deleted), `PodUpdated` queues a
 *   pod when its nodeName or tolerations changed (or it was added/deleted).
 *   Workers handle node updates before pod updates. Here `onNodeEvent` /
 *   `onPodEvent` queue, and `wake` at the same instant handles the queues
 *   (nodes first), then the timers that are due.
 * - `handleNodeUpdate` records the node's NoExecute taints (`taintedNodes`) and
 *   runs `processPodOnNode` for each pod on it (in namespace/name order here;
 *   upstream's order is the informer index's), or cancels every pod's work when
 *   no NoExecute taint is left. `handlePodUpdate` cancels the work of a deleted
 *   pod and runs `processPodOnNode` for a pod on a node in `taintedNodes`.
 * - `processPodOnNode` (decide.ts) deletes at once, schedules a TimedWorker at
 *   now + min(tolerationSeconds), keeps an existing one, or cancels.
 * - A TimedWorker is a timer in one priority queue (timerQueue.ts); nothing is
 *   visited per 100 ms pass. When it fires, `deletePodHandler` tries up to 5
 *   times, 10 ms apart (1.26+: after patching the DisruptionTarget condition);
 *   each injected failure is an ApiCallFailed decision of the host, and after
 *   the 5th the work item is dropped (upstream deletes it from the queue), so
 *   only the next node or pod update can evict the pod.
 *
 * Simplifications, said where they matter:
 * - Upstream's "now" moves on between two events; the simulation's does not.
 *   processPodOnNode keeps an existing work item when `CreatedAt + min` is
 *   before `now + min`, which upstream is always true for a work item created
 *   by an earlier event, so an existing work item is always kept here.
 * - A work item whose delete is in progress (the 10 ms retry window) ignores
 *   cancellations and new decisions; upstream can, in that window, start a
 *   second delete loop.
 *
 * A work item's state is its pod eviction machine's (machine.ts): it is written only from
 * the transition the machine answers (`send`), and what the machine refuses is not done.
 */
import type { NodeBefore, PodBefore, SimController, WatchType } from '../controller';
import type { ControllerHost } from '../controllerHost';
import { explainTaintEvictionWhyNot, type TaintEvictionMemory } from './whyNot';
import type { Micros, Duration } from '../../model/time';
import { formatDuration, formatTime, ms } from '../../model/time';
import type { NodeRecord, ObjectRef, PodCondition, PodRecord, Taint } from '../../model/types';
import { nodeRef, podRef } from '../../model/types';
import { taintText, taintsWithEffect, tolerationText } from '../../model/tolerations';
import type { Check, MachineTransition } from '../../trace/decision';
import type { Explanation, MachineView } from '../../simulation/api';
import { TimerQueue, type Timer } from './timerQueue';
import type { GaveUp, PodItem, Saved, Shared, TimerKind, Work } from './work';
import {
  podEvictionAccepts,
  podEvictionMachineDefinition,
  podEvictionTransition,
  podMachineId,
  type PodEvictionEventType,
  type PodEvictionState,
} from './machine';
import { decidePodOnNode, reconstructCreatedAt, type PodDecision } from './decide';
import { taintManagerBehaviour, taintManagerRuns, type TaintManagerBehaviour } from './behaviour';
import { sameNoExecuteTaints, sameTolerations } from './semanticEqual';
import { becauseWithGuards } from '../../machines/guardChecks';
import { rootSnapshotTaints, taintFact } from './snapshotTaints';

/** deletePodHandler: attempts per work item, and the sleep after each failed one. */
export const DELETE_ATTEMPTS = 5;
export const DELETE_RETRY_INTERVAL: Duration = ms(10);

export interface TaintEvictionOptions {
  /**
   * Throw when a pod eviction machine refuses an event the controller sends (the simulation's
   * checking mode, the fuzzer and the test rigs): without it the refused event is not acted on.
   */
  strictMachines?: boolean;
}

export class TaintEvictionController implements SimController {
  readonly name = 'taint-eviction' as const;

  constructor(private readonly options: TaintEvictionOptions = {}) {}

  private runs = false;
  private memory: 'reconstructed' | 'fresh' = 'fresh';
  private tm: TaintManagerBehaviour | undefined;
  /** the version's taint manager behaviour; set by start/restore, before any work can exist */
  private get b(): TaintManagerBehaviour {
    if (!this.tm) throw new Error('taint eviction controller used before start()');
    return this.tm;
  }
  /** `source` texts of decisions (`<upstream file>: <function>`), one string each per behaviour (see useBehaviour) */
  private sources = new Map<string, string>();
  private source(fn: string): string {
    let s = this.sources.get(fn);
    if (s === undefined) this.sources.set(fn, (s = `${this.b.file}: ${fn}`));
    return s;
  }
  private useBehaviour(host: ControllerHost): void {
    this.tm = taintManagerBehaviour(host);
    this.sources.clear();
  }
  /** node name -> its NoExecute taints, as last handled (upstream `taintedNodes`) */
  private taintedNodes = new Map<string, Taint[]>();
  /** queued node updates, deduplicated as a workqueue does; `initial` = from the informers' initial list */
  private nodeQueue = new Map<string, { name: string; initial: boolean }>();
  private podQueue = new Map<string, PodItem>();
  private queuedSince: Micros | undefined;
  /** pod key -> its work item (upstream TimedWorkerQueue.workers) */
  private work = new Map<string, Work>();
  private timers = new TimerQueue<TimerKind>();
  /** pods whose delete attempts all failed, for "why not" */
  private gaveUp = new Map<string, GaveUp>();

  start(host: ControllerHost, memory: 'reconstructed' | 'fresh'): void {
    this.memory = memory;
    this.useBehaviour(host);
    this.runs = taintManagerRuns(host).runs;
    if (!this.runs) return;
    // The informers' initial list: every node is an add. Nodes without a
    // NoExecute taint change nothing (no work to cancel yet), so only the
    // tainted ones are queued; pods' initial adds find their work already
    // decided by their node's, so they are not queued either.
    const names = [...host.cluster.nodes.keys()].sort();
    for (const name of names) {
      const node = host.cluster.nodes.get(name)!;
      if (taintsWithEffect(node.taints, 'NoExecute').length) this.queueNode(host, name, true);
    }
  }

  /**
   * Kubelets' plain posts change heartbeat times only, never a taint (the host announces every
   * other change of a node as an update of its own, and checkpointChecks.heartbeats verifies
   * that): onNodeEvent would find the NoExecute taints unchanged for each and return.
   */
  onNodeHeartbeats(): void {}

  onNodeEvent(host: ControllerHost, type: WatchType, node: NodeRecord, before?: NodeBefore): void {
    if (!this.runs) return;
    if (type === 'updated' && before && sameNoExecuteTaints(before.taints, node.taints)) return;
    this.queueNode(host, node.meta.name, false);
  }

  onPodEvent(host: ControllerHost, type: WatchType, pod: PodRecord, before?: PodBefore): void {
    if (!this.runs) return;
    if (type === 'updated' && before && (before.nodeName ?? '') === (pod.nodeName ?? '') && sameTolerations(before.tolerations, pod.tolerations)) return;
    const item: PodItem = { namespace: pod.meta.namespace, name: pod.meta.name, nodeName: pod.nodeName ?? '' };
    if (type === 'added') item.change = 'added';
    else if (type === 'updated') {
      const from = before?.nodeName ?? '';
      if (from !== item.nodeName) {
        item.change = 'bound';
        if (from) item.fromNode = from;
      } else item.change = 'tolerations';
    }
    const k = `${item.namespace}/${item.name}|${item.nodeName}`;
    const queued = this.podQueue.get(k);
    // a workqueue keeps one item per key; the binding says more than a later toleration change
    if (!queued) this.podQueue.set(k, item);
    else if (queued.change === 'tolerations' && item.change === 'bound') this.podQueue.set(k, item);
    this.queuedSince ??= host.now;
  }

  nextWake(): Micros | undefined {
    const t = this.timers.nextAt();
    if (this.queuedSince !== undefined) return t === undefined ? this.queuedSince : Math.min(t, this.queuedSince);
    return t;
  }

  wake(host: ControllerHost): void {
    if (!this.runs) return;
    // Node updates first, then pod updates (upstream's workers drain the node
    // channel before each pod update), then the timers due now.
    // Queues are taken out as a whole (what is added meanwhile waits for the next
    // turn, as in a workqueue), never item by item from the front of a Map.
    while (this.nodeQueue.size || this.podQueue.size) {
      this.drainNodes(host);
      if (!this.podQueue.size) continue;
      const pods = [...this.podQueue.values()];
      this.podQueue.clear();
      for (const p of pods) {
        if (this.nodeQueue.size) this.drainNodes(host);
        this.handlePodUpdate(host, p);
      }
    }
    this.queuedSince = undefined;
    for (let t = this.timers.popDue(host.now); t; t = this.timers.popDue(host.now)) this.handleTimer(host, t);
  }

  // ---- informer handlers ---------------------------------------------------

  private drainNodes(host: ControllerHost): void {
    while (this.nodeQueue.size) {
      const nodes = [...this.nodeQueue.values()];
      this.nodeQueue.clear();
      for (const n of nodes) this.handleNodeUpdate(host, n.name, n.initial);
    }
  }

  private queueNode(host: ControllerHost, name: string, initial: boolean): void {
    const prev = this.nodeQueue.get(name);
    this.nodeQueue.set(name, { name, initial: initial || (prev?.initial ?? false) });
    this.queuedSince ??= host.now;
  }

  /** `handleNodeUpdate` */
  private handleNodeUpdate(host: ControllerHost, name: string, initial: boolean): void {
    const node = host.cluster.nodes.get(name);
    const previous = this.taintedNodes.get(name) ?? [];
    if (!node) {
      // Node deleted: forget its taints; scheduled work of its pods stays (as upstream).
      this.taintedNodes.delete(name);
      return;
    }
    const taints = taintsWithEffect(node.taints, 'NoExecute').map((t) => ({ ...t }));
    if (taints.length === 0) this.taintedNodes.delete(name);
    else this.taintedNodes.set(name, taints);

    const keys = [...(host.cluster.podsByNode.get(name) ?? [])].sort();
    if (keys.length === 0) return;
    if (taints.length === 0) {
      const removed = previous.filter((p) => !taints.some((t) => t.key === p.key && t.effect === p.effect));
      const causes = removed.map((t) => host.recall(nodeRef(name), taintFact(t))).filter((s): s is number => s !== undefined);
      for (const key of keys) {
        // cancel() acts only where the machine accepts CANCEL: the checks are not built for the other pods
        const w = this.work.get(key);
        if (!w || !podEvictionAccepts(w.state, 'CANCEL')) continue;
        this.cancel(
          host,
          key,
          [{ rule: 'the node has no NoExecute taint left: every eviction on it is cancelled', values: { node: name, removedTaints: removed.map(taintText) } }],
          causes,
          'handleNodeUpdate',
        );
      }
      return;
    }
    // One text of the taints, one trigger check and one list of causes for every pod of the node.
    const shared: Shared = {
      taintTexts: taints.map(taintText),
      trigger: {
        rule: initial ? "the controller listed the node at start (informers' initial list)" : "the node's NoExecute taints changed",
        values: { node: name },
      },
      causes: new Map(),
    };
    for (const key of keys) {
      const pod = host.cluster.pods.get(key);
      if (!pod) continue;
      this.processPodOnNode(host, key, pod, name, taints, initial && this.memory === 'reconstructed', 'handleNodeUpdate', shared);
    }
  }

  /** `handlePodUpdate` */
  private handlePodUpdate(host: ControllerHost, item: PodItem): void {
    const key = `${item.namespace}/${item.name}`;
    const pod = host.cluster.pods.get(key);
    if (!pod) {
      // cancel() acts only where the machine accepts CANCEL (an evicted pod's work is gone already): no look-up for the others
      const w = this.work.get(key);
      if (!w || !podEvictionAccepts(w.state, 'CANCEL')) return;
      const deleted = host.recall(podRef(item.namespace, item.name), 'deleted');
      this.cancel(host, key, [{ rule: 'the pod was deleted' }], deleted !== undefined ? [deleted] : [], 'handlePodUpdate');
      return;
    }
    // Keyed by the node at the time of the event: a stale item is not ours to process.
    if ((pod.nodeName ?? '') !== item.nodeName) return;
    if (!pod.nodeName) return;
    const taints = this.taintedNodes.get(pod.nodeName);
    if (!taints) return;
    this.processPodOnNode(host, key, pod, pod.nodeName, taints, false, 'handlePodUpdate', undefined, item);
  }

  /** The check that says which pod update is handled, and the decision that made it (the binding, the apply or patch). */
  private podUpdateTrigger(host: ControllerHost, pod: PodRecord, nodeName: string, item: PodItem | undefined): { check: Check; causes: number[] } {
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

  // ---- processPodOnNode ----------------------------------------------------

  /**
   * `key` is the pod's `namespace/name`: the key it was found under in `cluster.pods` or
   * `cluster.podsByNode` (the same string is passed on, so that every map here hashes a
   * string whose hash is already known instead of a fresh one per map).
   */
  private processPodOnNode(
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
    const existing = this.work.get(key);
    const d = decidePodOnNode({
      taints,
      tolerations: pod.tolerations,
      existing: existing?.state === 'scheduled' || existing?.state === 'deleting' ? existing.state : 'none',
      cancelsWhenToleratedForever: this.b.cancelsWhenToleratedForever,
      taintTexts: shared?.taintTexts,
    });
    if (d.kind === 'keep' || d.kind === 'leave') return; // nothing changes; "why not" explains it
    const ref = podRef(pod.meta.namespace, pod.meta.name);
    const podTrigger = shared ? undefined : this.podUpdateTrigger(host, pod, nodeName, update);
    const trigger: Check = shared?.trigger ?? podTrigger!.check;
    const taintCauses = this.taintCauses(host, nodeName, taints, d, shared);
    const podCauses = podTrigger?.causes ?? [];
    // `because` leads with the decisive check, then the others in the order they were evaluated, then what triggered it.
    switch (d.kind) {
      case 'cancel':
        this.cancel(host, key, [...decisiveLast(d.checks), trigger], [...taintCauses, ...podCauses], caller);
        return;
      case 'evictNow': {
        const because = [...decisiveLast(d.checks), trigger];
        const causes = [...taintCauses, ...podCauses];
        let w = existing;
        if (w && w.state === 'scheduled') {
          if (w.timer) this.timers.cancel(w.timer);
          w.timer = undefined;
          because.push({ rule: 'the deletion scheduled earlier is replaced by an immediate one', values: { scheduledFor: formatTime(w.fireAt) } });
          if (w.scheduledSeq !== undefined) causes.push(w.scheduledSeq);
        }
        if (!w) {
          w = this.newWork(key, pod, nodeName, host.now, host.now);
          this.work.set(key, w);
        }
        w.because = because;
        w.causes = uniq(causes);
        w.fireAt = host.now;
        w.reason =
          d.reason === 'untolerated'
            ? `it does not tolerate the NoExecute taint ${d.untolerated ? taintText(d.untolerated) : ''} of ${nodeName}`
            : `its toleration of the NoExecute taints of ${nodeName} is 0s`;
        this.beginDelete(host, w, 'EVICT_NOW');
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
        const w = this.newWork(key, pod, nodeName, createdAt, fireAt);
        const t = this.send(w, 'SCHEDULE');
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
        w.causes = uniq([...taintCauses, ...podCauses]);
        const seq = host.decide({
          controller: 'taint-eviction',
          action: 'PodEvictionScheduled',
          object: ref,
          summary: `Pod ${key} will be deleted at ${fireText} (tolerates the NoExecute taints of ${nodeName} for ${minText})`,
          because: becauseWithGuards(because, t),
          causes: w.causes,
          machine: t,
          source: this.source('processPodOnNode'),
          details: { node: nodeName, deadline: fireText, createdAt: createdText },
        });
        w.scheduledSeq = seq;
        w.lastTransition = { ...t, seq };
        host.remember(ref, 'evictionScheduled', seq);
        this.work.set(key, w);
        this.gaveUp.delete(key);
        this.setTimer(w, fireAt, 'fire');
        return;
      }
    }
  }

  /** The decisions about the node's taints this decision rests on (TaintAdded, usually). */
  private taintCauses(host: ControllerHost, nodeName: string, taints: Taint[], d: PodDecision, shared?: Shared): number[] {
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

  private newWork(key: string, pod: PodRecord, nodeName: string, createdAt: Micros, fireAt: Micros): Work {
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

  /** `cancelWorkWithEvent`: a PodEvictionCancelled only when a timer was waiting (upstream emits the event only then). */
  private cancel(host: ControllerHost, key: string, because: Check[], causes: number[], caller: string): void {
    const w = this.work.get(key);
    if (!w) return;
    const t = this.send(w, 'CANCEL');
    if (!t) return;
    if (w.timer) this.timers.cancel(w.timer);
    this.work.delete(key);
    const ref = podRef(w.namespace, w.name);
    host.decide({
      controller: 'taint-eviction',
      action: 'PodEvictionCancelled',
      object: ref,
      summary: `Cancelled the deletion of pod ${key} that was scheduled for ${formatTime(w.fireAt)}`,
      because: becauseWithGuards([...because, { rule: 'a deletion was scheduled', values: { deadline: formatTime(w.fireAt), node: w.nodeName } }], t),
      causes: uniq([...(w.scheduledSeq !== undefined ? [w.scheduledSeq] : []), ...causes]),
      machine: t,
      source: this.source(`${caller} -> cancelWorkWithEvent`),
    });
  }

  // ---- the timed worker and deletePodHandler ----------------------------------

  private setTimer(w: Work, at: Micros, kind: TimerKind): void {
    if (w.timer) this.timers.cancel(w.timer);
    w.timer = this.timers.add(at, w.key, kind);
    w.timerKind = kind;
  }

  private handleTimer(host: ControllerHost, t: Timer<TimerKind>): void {
    const w = this.work.get(t.key);
    if (!w || w.timer !== t) return; // stale
    w.timer = undefined;
    w.timerKind = undefined;
    switch (t.payload) {
      case 'fire': {
        // a timer fires only for scheduled work (an immediate deletion cancels it): the machine's DEADLINE is the check
        const t = this.send(w, 'DEADLINE');
        if (!t) return;
        w.because = [{ rule: 'the deadline was reached: the timed worker fires', values: { deadline: formatTime(w.fireAt) } }, ...w.because];
        w.reason = `its toleration of the NoExecute taints of ${w.nodeName} ran out at ${formatTime(w.fireAt)}`;
        if (w.scheduledSeq !== undefined) w.causes = uniq([w.scheduledSeq, ...w.causes]);
        this.startDelete(host, w, t);
        return;
      }
      case 'retry':
        if (w.state === 'deleting') this.attemptDelete(host, w);
        return;
      case 'giveUp': {
        if (!this.send(w, 'GIVE_UP')) return;
        this.work.delete(w.key);
        this.gaveUp.set(w.key, { at: host.now, nodeName: w.nodeName });
        return;
      }
    }
  }

  /**
   * The work item's machine takes `event`, and the state it answers is the work item's. Null, and
   * nothing written, when the machine does not accept the event in the work item's state; with
   * strictMachines a refusal throws (the controller sent what its machine does not allow).
   */
  private send(w: Work, event: PodEvictionEventType): MachineTransition | null {
    const t = podEvictionTransition(w.state, event, podMachineId(w.namespace, w.name));
    if (t) w.state = t.to as PodEvictionState;
    else if (this.options.strictMachines) throw new Error(`taint eviction: the pod eviction machine of ${w.key} in ${w.state} refuses ${event}`);
    return t;
  }

  private beginDelete(host: ControllerHost, w: Work, event: 'EVICT_NOW'): void {
    const t = this.send(w, event);
    if (t) this.startDelete(host, w, t);
  }

  /** deletePodHandler starts: the machine took EVICT_NOW or DEADLINE. */
  private startDelete(host: ControllerHost, w: Work, t: MachineTransition): void {
    w.attempts = 0;
    w.startTransition = t;
    w.lastTransition = t;
    this.gaveUp.delete(w.key);
    this.attemptDelete(host, w);
  }

  /** One try of deletePodHandler's loop (1.26+: addConditionAndDeletePod). */
  private attemptDelete(host: ControllerHost, w: Work): void {
    const pod = host.cluster.pods.get(w.key);
    if (!pod) {
      // Gone already (deleted by someone else in the retry window): nothing left to do.
      this.send(w, 'DELETED');
      this.work.delete(w.key);
      return;
    }
    const ref = podRef(w.namespace, w.name);
    if (this.b.patchesDisruptionTarget) {
      const u = withDisruptionTarget(pod.conditions, host.now);
      if (u.updated) {
        if (!host.apiCall('taint-eviction', 'patch', 'pods', ref)) return this.failedAttempt(host, w);
        pod.conditions = u.conditions;
        host.updatePod(pod);
      }
    }
    if (!host.apiCall('taint-eviction', 'delete', 'pods', ref)) return this.failedAttempt(host, w);
    const deleted = this.send(w, 'DELETED');
    const because: Check[] = [...w.because];
    if (w.attempts > 0)
      because.push({ rule: 'the delete succeeded after failed attempts (deletePodHandler tries 5 times, 10 ms apart)', values: { attempt: w.attempts + 1 } });
    if (this.b.patchesDisruptionTarget) because.push({ rule: 'the pod got the DisruptionTarget condition first (reason DeletionByTaintManager)' });
    const seq = host.decide({
      controller: 'taint-eviction',
      action: 'PodEvicted',
      object: ref,
      summary: `Deleted pod ${w.key}: ${w.reason ?? `NoExecute taints of ${w.nodeName}`}`,
      because: becauseWithGuards(because, w.startTransition ?? deleted),
      causes: w.causes,
      machine: w.startTransition ?? deleted,
      source: this.source('deletePodHandler'),
      details: { node: w.nodeName },
    });
    host.remember(ref, 'deleted', seq);
    this.work.delete(w.key);
    host.deletePod(pod);
  }

  private failedAttempt(host: ControllerHost, w: Work): void {
    w.attempts++;
    this.setTimer(w, host.now + DELETE_RETRY_INTERVAL, w.attempts < DELETE_ATTEMPTS ? 'retry' : 'giveUp');
  }

  // ---- views ---------------------------------------------------------------

  machines(): MachineView[] {
    const out: MachineView[] = [];
    for (const key of [...this.work.keys()].sort()) {
      const w = this.work.get(key)!;
      out.push({ id: podMachineId(w.namespace, w.name), state: w.state, definition: podEvictionMachineDefinition, lastTransition: w.lastTransition });
    }
    return out;
  }

  whyNot(host: ControllerHost, object: ObjectRef): Explanation['whyNot'] {
    return explainTaintEvictionWhyNot(this, host, object);
  }

  /** @internal read by whyNot.ts */
  workOf(key: string): ReturnType<TaintEvictionMemory['workOf']> {
    const w = this.work.get(key);
    if (!w || (w.state !== 'scheduled' && w.state !== 'deleting')) return undefined;
    return {
      state: w.state,
      createdAt: w.createdAt,
      fireAt: w.fireAt,
      min: w.min,
      attempts: w.attempts,
      retryAt: w.timerKind === 'retry' ? w.timer?.at : undefined,
    };
  }
  /** @internal read by whyNot.ts */
  gaveUpOf(key: string): { at: Micros } | undefined {
    return this.gaveUp.get(key);
  }
  /** @internal whyNot may be asked of a controller that never started */
  behaviourOr(host: ControllerHost): TaintManagerBehaviour {
    return this.tm ?? taintManagerBehaviour(host);
  }

  // ---- checkpoints ---------------------------------------------------------

  // Checkpoints copy work items shallowly: their lists (`because`, `causes`),
  // checks and transitions are replaced, never changed in place, once a work item
  // holds them (the trace holds the same lists), so a saved item and the live one
  // may share them. A deep copy of every pending eviction per checkpoint (50,000 at
  // 5,000 nodes) was the bulk of this controller's checkpoint cost.
  save(): unknown {
    const s: Saved = {
      runs: this.runs,
      memory: this.memory,
      taintedNodes: [...this.taintedNodes].map(([k, v]) => [k, v.slice()]),
      nodeQueue: [...this.nodeQueue.values()].map((n) => ({ ...n })),
      podQueue: [...this.podQueue.values()].map((p) => ({ ...p })),
      queuedSince: this.queuedSince,
      work: [...this.work.values()].map((w) => {
        const { timer, ...rest } = w;
        return { ...rest, timerAt: timer?.at };
      }),
      gaveUp: [...this.gaveUp].map(([k, v]) => [k, { ...v }]),
    };
    return s;
  }

  restore(saved: unknown, host: ControllerHost): void {
    const s = saved as Saved;
    this.useBehaviour(host);
    this.runs = s.runs;
    this.memory = s.memory;
    this.taintedNodes = new Map(s.taintedNodes.map(([k, v]) => [k, v.slice()]));
    this.nodeQueue = new Map(s.nodeQueue.map((n) => [n.name, { ...n }]));
    this.podQueue = new Map(s.podQueue.map((p) => [`${p.namespace}/${p.name}|${p.nodeName}`, { ...p }]));
    this.queuedSince = s.queuedSince;
    this.timers = new TimerQueue<TimerKind>();
    this.work = new Map();
    for (const sw of s.work) {
      const { timerAt, ...rest } = sw;
      const w: Work = { ...rest };
      this.work.set(w.key, w);
      if (timerAt !== undefined && w.timerKind) w.timer = this.timers.add(timerAt, w.key, w.timerKind);
    }
    this.gaveUp = new Map(s.gaveUp.map(([k, v]) => [k, { ...v }]));
  }
}

/** `apipod.UpdatePodCondition` with DisruptionTarget=True, reason DeletionByTaintManager. */
export function withDisruptionTarget(conditions: readonly PodCondition[], now: Micros): { conditions: PodCondition[]; updated: boolean } {
  const next: PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'DeletionByTaintManager',
    message: 'Taint manager: deleting due to NoExecute taint',
    lastTransitionTime: now,
  };
  const i = conditions.findIndex((c) => c.type === 'DisruptionTarget');
  if (i < 0) return { conditions: [...conditions, next], updated: true };
  const old = conditions[i];
  if (old.status === next.status) next.lastTransitionTime = old.lastTransitionTime;
  const equal = old.status === next.status && old.reason === next.reason && old.message === next.message && old.lastTransitionTime === next.lastTransitionTime;
  const out = [...conditions];
  out[i] = next;
  return { conditions: out, updated: !equal };
}

/** The decisive check of a decision is its last one: put it first. */
function decisiveLast(checks: Check[]): Check[] {
  return checks.length < 2 ? checks.slice() : [checks[checks.length - 1], ...checks.slice(0, -1)];
}

function uniq(xs: number[]): number[] {
  if (xs.length < 2) return xs.slice();
  return [...new Set(xs)].sort((a, b) => a - b);
}
