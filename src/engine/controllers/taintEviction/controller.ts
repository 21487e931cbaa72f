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
 * the transition the machine answers (`send`, state.ts), and what the machine refuses is not done.
 *
 * This file is the informers' side and the controller's interface (queues, wake, views,
 * checkpoints); upstream's functions are in the files named after them: handleNodeUpdate.ts,
 * handlePodUpdate.ts, processPodOnNode.ts, cancelWorkWithEvent.ts, deletePodHandler.ts.
 */
import type { NodeBefore, PodBefore, PodsReadyBatch, SimController, WatchType } from '../controller';
import type { ControllerHost } from '../controllerHost';
import { explainTaintEvictionWhyNot, type TaintEvictionMemory } from './whyNot';
import type { Micros } from '../../model/time';
import type { NodeRecord, ObjectRef, PodRecord } from '../../model/types';
import { taintsWithEffect } from '../../model/tolerations';
import type { Explanation, MachineView } from '../../simulation/api';
import { TimerQueue } from './timerQueue';
import type { PodItem, Saved, TimerKind, Work } from './work';
import { podEvictionMachineDefinition, podMachineId } from './machine';
import { taintManagerRuns, type TaintManagerBehaviour } from './behaviour';
import { sameNoExecuteTaints, sameTolerations } from './semanticEqual';
import { TaintEvictionState, type TaintEvictionOptions } from './state';
import { handleNodeUpdate } from './handleNodeUpdate';
import { handlePodUpdate } from './handlePodUpdate';
import { handleTimer } from './deletePodHandler';

export class TaintEvictionController implements SimController {
  readonly name = 'taint-eviction' as const;
  private readonly te: TaintEvictionState;

  constructor(options: TaintEvictionOptions = {}) {
    this.te = new TaintEvictionState(options);
  }

  start(host: ControllerHost, memory: 'reconstructed' | 'fresh'): void {
    const te = this.te;
    te.memory = memory;
    te.useBehaviour(host);
    te.runs = taintManagerRuns(host).runs;
    if (!te.runs) return;
    // The informers' initial list: every node is an add. Nodes without a
    // NoExecute taint change nothing (no work to cancel yet), so only the
    // tainted ones are queued; pods' initial adds find their work already
    // decided by their node's, so they are not queued either.
    const names = [...host.cluster.nodes.keys()].sort();
    for (const name of names) {
      const node = host.cluster.nodes.get(name)!;
      if (taintsWithEffect(node.taints, 'NoExecute').length) te.queueNode(host, name, true);
    }
  }

  /**
   * Kubelets' plain posts change heartbeat times only, never a taint (the host announces every
   * other change of a node as an update of its own, and SimulationOptions.checks.heartbeats verifies
   * that): onNodeEvent would find the NoExecute taints unchanged for each and return.
   */
  onNodeHeartbeats(): void {}

  onNodeEvent(host: ControllerHost, type: WatchType, node: NodeRecord, before?: NodeBefore): void {
    if (!this.te.runs) return;
    if (type === 'updated' && before && sameNoExecuteTaints(before.taints, node.taints)) return;
    this.te.queueNode(host, node.meta.name, false);
  }

  /**
   * The taint manager's PodUpdated queues a pod whose node or tolerations changed: the pods of a
   * Ready-only batch stay on its node, and tolerations are replaced, never edited, so the same
   * object is the same tolerations (any other pod is told as one update).
   */
  onPodsReadyChanged(host: ControllerHost, batch: PodsReadyBatch): void {
    if (!this.te.runs) return;
    for (let i = 0; i < batch.count; i++) {
      const pod = batch.pods[i];
      if (batch.before[i].tolerations !== pod.tolerations) this.onPodEvent(host, 'updated', pod, batch.before[i]);
    }
  }

  onPodEvent(host: ControllerHost, type: WatchType, pod: PodRecord, before?: PodBefore): void {
    const te = this.te;
    if (!te.runs) return;
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
    const queued = te.podQueue.get(k);
    // a workqueue keeps one item per key; the binding says more than a later toleration change
    if (!queued) te.podQueue.set(k, item);
    else if (queued.change === 'tolerations' && item.change === 'bound') te.podQueue.set(k, item);
    te.queuedSince ??= host.now;
  }

  nextWake(): Micros | undefined {
    const te = this.te;
    const t = te.timers.nextAt();
    if (te.queuedSince !== undefined) return t === undefined ? te.queuedSince : Math.min(t, te.queuedSince);
    return t;
  }

  wake(host: ControllerHost): void {
    const te = this.te;
    if (!te.runs) return;
    // Node updates first, then pod updates (upstream's workers drain the node
    // channel before each pod update), then the timers due now.
    // Queues are taken out as a whole (what is added meanwhile waits for the next
    // turn, as in a workqueue), never item by item from the front of a Map.
    while (te.nodeQueue.size || te.podQueue.size) {
      this.drainNodes(host);
      if (!te.podQueue.size) continue;
      const pods = [...te.podQueue.values()];
      te.podQueue.clear();
      for (const p of pods) {
        if (te.nodeQueue.size) this.drainNodes(host);
        handlePodUpdate(te, host, p);
      }
    }
    te.queuedSince = undefined;
    for (let t = te.timers.popDue(host.now); t; t = te.timers.popDue(host.now)) handleTimer(te, host, t);
  }

  private drainNodes(host: ControllerHost): void {
    const te = this.te;
    while (te.nodeQueue.size) {
      const nodes = [...te.nodeQueue.values()];
      te.nodeQueue.clear();
      for (const n of nodes) handleNodeUpdate(te, host, n.name, n.initial);
    }
  }

  // ---- views ---------------------------------------------------------------

  machines(): MachineView[] {
    const out: MachineView[] = [];
    for (const key of [...this.te.work.keys()].sort()) {
      const w = this.te.work.get(key)!;
      out.push({ id: podMachineId(w.namespace, w.name), state: w.state, definition: podEvictionMachineDefinition, lastTransition: w.lastTransition });
    }
    return out;
  }

  machine(id: string): MachineView | undefined {
    const w = id.startsWith('taint-eviction/') ? this.te.work.get(id.slice(15)) : undefined;
    if (w === undefined || podMachineId(w.namespace, w.name) !== id) return undefined;
    return { id, state: w.state, definition: podEvictionMachineDefinition, lastTransition: w.lastTransition };
  }

  whyNot(host: ControllerHost, object: ObjectRef): Explanation['whyNot'] {
    return explainTaintEvictionWhyNot(this, host, object);
  }

  /** @internal read by whyNot.ts */
  workOf(key: string): ReturnType<TaintEvictionMemory['workOf']> {
    const w = this.te.work.get(key);
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
    return this.te.gaveUp.get(key);
  }
  /** @internal whyNot may be asked of a controller that never started */
  behaviourOr(host: ControllerHost): TaintManagerBehaviour {
    return this.te.behaviourOr(host);
  }

  // ---- checkpoints ---------------------------------------------------------

  // Checkpoints copy work items shallowly: their lists (`because`, `causes`),
  // checks and transitions are replaced, never changed in place, once a work item
  // holds them (the trace holds the same lists), so a saved item and the live one
  // may share them. A deep copy of every pending eviction per checkpoint (50,000 at
  // 5,000 nodes) was the bulk of this controller's checkpoint cost.
  save(): unknown {
    const te = this.te;
    const s: Saved = {
      runs: te.runs,
      memory: te.memory,
      taintedNodes: [...te.taintedNodes].map(([k, v]) => [k, v.slice()]),
      nodeQueue: [...te.nodeQueue.values()].map((n) => ({ ...n })),
      podQueue: [...te.podQueue.values()].map((p) => ({ ...p })),
      queuedSince: te.queuedSince,
      work: [...te.work.values()].map((w) => {
        const { timer, ...rest } = w;
        return { ...rest, timerAt: timer?.at };
      }),
      gaveUp: [...te.gaveUp].map(([k, v]) => [k, { ...v }]),
    };
    return s;
  }

  restore(saved: unknown, host: ControllerHost): void {
    const s = saved as Saved;
    const te = this.te;
    te.useBehaviour(host);
    te.runs = s.runs;
    te.memory = s.memory;
    te.taintedNodes = new Map(s.taintedNodes.map(([k, v]) => [k, v.slice()]));
    te.nodeQueue = new Map(s.nodeQueue.map((n) => [n.name, { ...n }]));
    te.podQueue = new Map(s.podQueue.map((p) => [`${p.namespace}/${p.name}|${p.nodeName}`, { ...p }]));
    te.queuedSince = s.queuedSince;
    te.timers = new TimerQueue<TimerKind>();
    te.work = new Map();
    for (const sw of s.work) {
      const { timerAt, ...rest } = sw;
      const w: Work = { ...rest };
      te.work.set(w.key, w);
      if (timerAt !== undefined && w.timerKind) w.timer = te.timers.add(timerAt, w.key, w.timerKind);
    }
    te.gaveUp = new Map(s.gaveUp.map(([k, v]) => [k, { ...v }]));
  }
}
