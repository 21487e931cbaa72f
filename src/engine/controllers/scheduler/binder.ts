/**
 * The simplified binder (controller `scheduler`, spec section 3) and the
 * simplified kubelet start of the pods it binds (issue 3 item 4). Neither is
 * kube-scheduler or the kubelet; every decision says so.
 *
 * Binding: every active pod without spec.nodeName (snapshot pods too) is bound
 * to the feasible node with the best least-allocated score, ties by name in
 * natural order (fit.ts says what is and is not modelled; nodeIndex.ts how the
 * node is found without a look at every node). A pod that fits nowhere gets a
 * `PodUnschedulable`, in kube-scheduler's words and counts (reasons.ts), at
 * each attempt. It is tried again as kube-scheduler's queue moves its
 * unschedulable pods (schedulingQueue.ts says when, per version): on a cluster
 * event that may make it fit (a node is added, turns Ready, is uncordoned, or
 * its taints, labels or allocatable change; a pod bound to a node leaves it;
 * the pod's own tolerations change), after its backoff, or by the leftover
 * flush.
 *
 * Start: a pod this binder bound becomes Running and Ready
 * `kubelet.podStartupDelay` after binding (default 0 s), provided its node is
 * Ready then. The kubelet's state is not visible to controllers, so "the
 * node's kubelet is running" is read as "the node's Ready condition is True";
 * a pod whose node is not Ready at that time starts when the node next turns
 * Ready, after the delay again. Pods from the snapshot that are already bound
 * are taken as they are.
 */
import type { ControllerHost } from '../controllerHost';
import type { NodeBefore, PodBefore, PodsReadyBatch, RestoreFrom, SimController, WatchType } from '../controller';
import type { Explanation, MachineView } from '../../simulation/api';
import type { Check } from '../../trace/decision';
import type { NodeRecord, ObjectRef, PodRecord } from '../../model/types';
import { podRef } from '../../model/types';
import { formatDuration, type Micros } from '../../model/time';
import { isPodActive } from '../replicaSet/podUtil';
import { misfitReasons, naturalCompare, nodeReadyStatus, placementReason, resourceMisfit, SIMPLIFICATION } from './fit';
import { NodeIndex, type NodeEntry, type Placement } from './nodeIndex';
import { NodeIndexBuild } from './nodeIndexBuild';
import { fitErrorMessage, wordingFor, type Reason, type Wording } from './reasons';
import { podRequests } from './resources';
import { requiredPlacement } from './nodeAffinity';
import { NodeUsage, podMove } from './nodeUsage';
import { allocatableKey, allocatableOf, allocatableRestored, anyReadyTrue, sameFilterTaints, sameJson, sameLabels } from './nodeChanges';
import { scheduledCondition, setCondition } from './podConditions';
import { binderGuardChecks, binderMayAnswer, boundPodWhyNot, pendingPodWhyNot } from './whyNot';
import { dueAfterMove, leftoverAt, nextTry, queueRulesFor, type QueueRules, type Waiting } from './schedulingQueue';

const SOURCE = 'simplified binder (stands in for kube-scheduler; spec section 3)';
const KUBELET_SOURCE = 'simplified kubelet start (stands in for the kubelet; issue 3 item 4)';
/** nodes listed by name in a decision; the rest are counted */
const MAX_LISTED_NODES = 20;
/** pods tried between two questions to shouldYield (each costs a clock read in the host) */
const YIELD_EVERY = 64;

interface Start {
  at: Micros;
  node: string;
}

interface Saved {
  waiting: [string, Waiting][];
  origin: Micros;
  minor: number;
  starts: [string, Start][];
  waitingForNode: [string, string][];
}

/**
 * A restore that put back at most this share of the pods takes the node index over (patching it
 * costs about 2 µs a pod put back, making it again about 40 ms at 150,000 pods and 5,000 nodes).
 */
const TAKE_OVER_SHARE = 0.1;

export interface SimplifiedBinderOptions {
  /**
   * checking mode (tests: SimulationOptions.checks.nodeIndexRebuild): an index taken over on a restore,
   * or made in slices (prepareSlice), is compared with one made anew; a difference throws
   */
  checkRestoredIndex?: boolean;
}

export class SimplifiedBinder implements SimController {
  readonly name = 'scheduler' as const;

  constructor(private readonly options: SimplifiedBinderOptions = {}) {}

  /** pods waiting to be bound, by key, with their place in the scheduling queue */
  private waiting = new Map<string, Waiting>();
  /** when the binder started: the leftover flush runs every 30 s from then */
  private origin: Micros = 0;
  private minor = 0;
  private rules: QueueRules = queueRulesFor(0);
  /** the pods a wake was trying when it yielded, in its order: the next wake tries them first */
  private untried: PodRecord[] | null = null;
  /** the earliest next try of a waiting pod (undefined: to be worked out again) */
  private nextDue: Micros | null | undefined = null;
  /** pods this binder bound, by start time (inserted in time order: now + a fixed delay) */
  private starts = new Map<string, Start>();
  /** bound pods whose node was not Ready when they were due to start */
  private waitingForNode = new Map<string, string>();
  /**
   * Nodes by feasibility class and room (nodeIndex.ts); built when a pod first waits, then kept
   * from the announcements (and dropped on a restore: it is derived from the cluster alone).
   */
  private index: NodeIndex | null = null;
  /** the index being made in slices (prepareSlice), while nothing changes; dropped on any change announced */
  private building: NodeIndexBuild | null = null;
  /** until the index is made, its pod sums by node (nodeUsage.ts) from start's walk on; null: the index walks the pods */
  private usage: NodeUsage | null = null;
  /** each node's allocatable as last announced (what NodeBefore does not carry) */
  private allocSeen = new Map<string, string>();

  private seeAllocatable(host: ControllerHost): void {
    this.allocSeen = allocatableOf(host.cluster.nodes);
  }

  private setVersion(minor: number): void {
    this.minor = minor;
    this.rules = queueRulesFor(minor);
  }

  private enqueue(key: string, now: Micros): void {
    this.waiting.set(key, { attempts: 0, last: now, due: now });
    this.nextDue = undefined;
  }

  start(host: ControllerHost, _memory?: 'reconstructed' | 'fresh'): void {
    this.origin = host.now;
    this.setVersion(host.behaviour.version.minor);
    this.seeAllocatable(host);
    const keys: string[] = [];
    const unstarted: string[] = [];
    const usage = (this.usage = new NodeUsage());
    for (const [key, pod] of host.cluster.pods) {
      usage.count(pod);
      if (!isPodActive(pod)) continue;
      if (!pod.nodeName) keys.push(key);
      // after a restart: pods this binder bound (the trace remembers it) that have not started yet
      else if (pod.phase === 'Pending' && host.recall(podRef(pod.meta.namespace, pod.meta.name), 'bound') !== undefined) unstarted.push(key);
    }
    keys.sort();
    for (const k of keys) this.enqueue(k, host.now);
    for (const k of unstarted.sort()) this.starts.set(k, { at: host.now + host.kubelet.podStartupDelay, node: host.cluster.pods.get(k)!.nodeName! });
  }

  /**
   * A Ready-only batch's pods stay bound to its node: with no pod waiting or starting (most of the
   * time), one that kept its phase changes nothing here (onPodEvent's early return); any other is
   * told as one update.
   */
  onPodsReadyChanged(host: ControllerHost, batch: PodsReadyBatch): void {
    const idle = this.waiting.size === 0 && this.starts.size === 0 && this.waitingForNode.size === 0;
    for (let i = 0; i < batch.count; i++) {
      const pod = batch.pods[i];
      if (!idle || batch.before[i].phase !== pod.phase) this.onPodEvent(host, 'updated', pod, batch.before[i]);
    }
  }

  onPodEvent(host: ControllerHost, type: WatchType, pod: PodRecord, before?: PodBefore): void {
    const move = podMove(type, pod, before);
    if (move) {
      this.building = null;
      if (this.index) this.index.podMoved(move.was, move.now, pod, move.reqWas);
      else this.usage?.moved(move.was, move.now, pod, move.reqWas);
      // a pod leaving a node frees room there: the waiting pods are moved (AssignedPodDelete)
      if (move.was !== undefined && move.was !== move.now && this.waiting.size) this.moveAll(host.now);
    }
    const gone = type === 'deleted' || !isPodActive(pod);
    // A gone or bound pod only leaves these three; when all are empty (most of the hour: every
    // pod event of MarkPodsNotReady, of the evictions) there is nothing to look up.
    if ((gone || pod.nodeName) && this.waiting.size === 0 && this.starts.size === 0 && this.waitingForNode.size === 0) return;
    const key = `${pod.meta.namespace}/${pod.meta.name}`;
    if (gone) {
      this.forget(key);
      return;
    }
    if (pod.nodeName) {
      if (this.waiting.delete(key)) this.nextDue = undefined;
      const s = this.starts.get(key) ?? (this.waitingForNode.has(key) ? { node: this.waitingForNode.get(key)! } : undefined);
      if (s && s.node !== pod.nodeName) {
        this.starts.delete(key);
        this.waitingForNode.delete(key);
      }
      return;
    }
    const w = this.waiting.get(key);
    if (!w) this.enqueue(key, host.now);
    // an update of the pod's own spec may make it fit (isPodUpdated): it is moved
    else if (before !== undefined && !sameJson(before.tolerations, pod.tolerations)) this.move(w, host.now);
  }

  /** Moves a parked pod, to be tried at once or when its backoff ends. */
  private move(w: Waiting, now: Micros): void {
    if (w.due !== null) return;
    w.due = dueAfterMove(this.rules, w, now);
    this.nextDue = undefined;
  }

  private moveAll(now: Micros): void {
    for (const w of this.waiting.values()) this.move(w, now);
  }

  /**
   * Kubelets' plain posts change heartbeat times only (the host announces every other change of a
   * node as an update of its own, and SimulationOptions.checks.heartbeats verifies that): onNodeEvent
   * would find unschedulable, Ready and the taints unchanged for each and return.
   */
  onNodeHeartbeats(): void {}

  onNodeEvent(host: ControllerHost, type: WatchType, node: NodeRecord, before?: NodeBefore): void {
    const readyNow = nodeReadyStatus(node) === 'True';
    // Only a change of what the filters read may make a waiting pod fit (nodeSchedulingPropertiesChanged:
    // Ready, an uncordon, NoSchedule/NoExecute taints, labels, allocatable; a deletion never). Worked out from the
    // announcement alone, never from the index, whose presence depends on history (it is built
    // at the first waiting pod and dropped on a restore): a step back must decide as the run did.
    const name = node.meta.name;
    const alloc = type === 'deleted' ? undefined : allocatableKey(node);
    const changed =
      type === 'added' ||
      (type === 'updated' && !before) ||
      (type === 'updated' &&
        before !== undefined &&
        (alloc !== this.allocSeen.get(name) ||
          // nodeSpecUnschedulableChanged: only an uncordon may make a pod fit
          (before.unschedulable && !node.unschedulable) ||
          anyReadyTrue(before.conditions) !== readyNow ||
          !sameFilterTaints(before.taints, node.taints) ||
          // nodeLabelsChanged: any label, a node's own hostname too (a nodeSelector may name it)
          !sameLabels(before.labels, node.meta.labels)));
    if (alloc === undefined) this.allocSeen.delete(name);
    else this.allocSeen.set(name, alloc);
    this.building = null;
    if (this.index) {
      if (type === 'deleted') this.index.nodeDeleted(name);
      else this.index.nodeChanged(node, host.cluster);
    }
    if (changed && this.waiting.size) {
      if (!this.rules.preCheckNode) this.moveAll(host.now);
      else this.moveFitting(host, node);
    }
    if (type !== 'deleted' && readyNow && this.waitingForNode.size && (!before || !anyReadyTrue(before.conditions))) {
      const delay = host.kubelet.podStartupDelay;
      for (const [key, name] of [...this.waitingForNode]) {
        if (name !== node.meta.name) continue;
        this.waitingForNode.delete(key);
        this.starts.set(key, { at: host.now + delay, node: name });
      }
    }
  }

  /** preCheckForNode: only the parked pods that would pass the filters on this node are moved. */
  private moveFitting(host: ControllerHost, node: NodeRecord): void {
    const e = this.nodeIndex(host).entry(node.meta.name);
    if (!e) return;
    const w = wordingFor(this.minor);
    for (const [key, q] of this.waiting) {
      if (q.due !== null) continue;
      const pod = host.cluster.pods.get(key);
      if (pod && nodeReasons(pod, e, w).length === 0) this.move(q, host.now);
    }
  }

  private forget(key: string): void {
    if (this.waiting.delete(key)) this.nextDue = undefined;
    this.starts.delete(key);
    this.waitingForNode.delete(key);
  }

  /** The earliest next try of a waiting pod (a look at each only after something changed). */
  private earliestTry(): Micros | null {
    if (this.nextDue !== undefined) return this.nextDue;
    let min: Micros | null = null;
    for (const w of this.waiting.values()) {
      const t = nextTry(this.rules, this.origin, w);
      if (t !== null && (min === null || t < min)) min = t;
    }
    this.nextDue = min;
    return min;
  }

  nextWake(): Micros | undefined {
    let min: Micros | undefined = this.earliestTry() ?? undefined;
    const first = this.starts.values().next();
    if (!first.done && (min === undefined || first.value.at < min)) min = first.value.at;
    return min;
  }

  wake(host: ControllerHost, shouldYield?: () => boolean): boolean {
    if (this.untried) {
      const rest = this.untried;
      this.untried = null;
      if (this.tryPods(host, rest, shouldYield)) return true;
    } else {
      const due = this.earliestTry();
      if (due !== null && due <= host.now && this.bindPending(host, shouldYield)) return true;
    }
    for (const [key, s] of this.starts) {
      if (s.at > host.now) break;
      this.starts.delete(key);
      this.startPod(host, key, s);
    }
    return false;
  }

  /** The node index, built at the first placement otherwise (whose presence decides nothing: see onNodeEvent). */
  prepare(host: ControllerHost): void {
    this.nodeIndex(host);
  }

  /** prepare, a slice at a time (NodeIndexBuild); true while work is left. */
  prepareSlice(host: ControllerHost, more: () => boolean): boolean {
    if (this.index) return false;
    if (this.building?.cluster !== host.cluster) this.building = new NodeIndexBuild(host.cluster, this.usage ?? undefined);
    const made = this.building.slice(more);
    if (made === undefined) return true;
    this.made(made, host);
    return false;
  }

  private nodeIndex(host: ControllerHost): NodeIndex {
    if (!this.index)
      // a build under way is of the cluster as it is (any change drops it): finished, not begun again
      this.made(this.building?.cluster === host.cluster ? this.building.finish() : new NodeIndex(host.cluster, this.usage ?? undefined), host);
    return this.index!;
  }

  /** The index made (in slices, or from the sums kept): kept from here on, and the sums it holds now dropped. */
  private made(made: NodeIndex, host: ControllerHost): void {
    if (this.options.checkRestoredIndex && made.text() !== new NodeIndex(host.cluster).text())
      throw new Error('scheduler: the node index made in slices or from the pod sums kept differs from one made from every pod');
    this.index = made;
    this.building = null;
    this.usage = null;
  }

  /** Tries the pods due; true when it yielded with some left (`untried`). */
  private bindPending(host: ControllerHost, shouldYield?: () => boolean): boolean {
    const pods: PodRecord[] = [];
    this.nextDue = undefined;
    for (const [key, q] of this.waiting) {
      const pod = host.cluster.pods.get(key);
      if (!pod || pod.nodeName || !isPodActive(pod)) {
        this.waiting.delete(key);
        continue;
      }
      // flushUnschedulablePodsLeftover: a pod parked too long is moved
      if (q.due === null) {
        const at = leftoverAt(this.rules, this.origin, q.last);
        if (at !== null && at <= host.now) q.due = dueAfterMove(this.rules, q, at);
      }
      if (q.due !== null && q.due <= host.now) pods.push(pod);
    }
    if (!pods.length) return false;
    // the scheduling queue's order (PrioritySort): higher spec.priority first, then oldest, then by name
    pods.sort(
      (a, b) =>
        priorityOf(b) - priorityOf(a) ||
        a.meta.creationTimestamp - b.meta.creationTimestamp ||
        (a.meta.namespace + '/' + a.meta.name < b.meta.namespace + '/' + b.meta.name ? -1 : 1),
    );
    return this.tryPods(host, pods, shouldYield);
  }

  private tryPods(host: ControllerHost, pods: PodRecord[], shouldYield?: () => boolean): boolean {
    // An index made from every pod (no sums kept: after a restore) is made a chunk at a time by a run that may yield, and the
    // pods tried once it is made (first at the next wake): at once, it was one piece of 130-150 ms at 5,000 nodes that a
    // caller's slice could not cut (a panel's idle work stepping a simulation on after a restore). From the sums (the first
    // placement of a run from its start) it is made at once: cut, it left the open's pass ahead part-done at the first click.
    if (!this.index && !this.usage && shouldYield && this.prepareSlice(host, () => !shouldYield())) {
      this.untried = pods;
      return true;
    }
    const index = this.nodeIndex(host);
    const w = wordingFor(host.behaviour.version.minor);
    for (let i = 0; i < pods.length; i++) {
      // between two pods, every YIELD_EVERY: what is left is tried first at the next wake
      if (i > 0 && i % YIELD_EVERY === 0 && shouldYield?.()) {
        this.untried = pods.slice(i);
        return true;
      }
      const pod = pods[i];
      const key = `${pod.meta.namespace}/${pod.meta.name}`;
      const ref = podRef(pod.meta.namespace, pod.meta.name);
      const q = this.waiting.get(key)!;
      q.attempts++;
      q.last = host.now;
      const placed = index.place(pod, w);
      const causes = [host.recall(ref, 'created'), host.recall(ref, 'applied')].filter((s): s is number => s !== undefined);
      const total = index.size;
      const node = placed.best;
      if (!node) {
        q.due = null;
        const message = fitErrorMessage(total, placed.reasons);
        // as kube-scheduler's handleSchedulingFailure: the pod's PodScheduled condition says why
        const conds = scheduledCondition(pod.conditions, {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message,
          lastTransitionTime: host.now,
        });
        if (conds !== pod.conditions) {
          pod.conditions = conds;
          host.updatePod(pod);
        }
        host.decide({
          controller: 'scheduler',
          action: 'PodUnschedulable',
          object: ref,
          summary: `${message} (simplified binder, not kube-scheduler)`,
          because: [
            { rule: `simplified binder, in kube-scheduler's words: ${message}`, values: Object.fromEntries(placed.reasons) },
            { rule: SIMPLIFICATION, values: { nodes: total, feasible: 0 } },
            ...binderGuardChecks(placed, total),
          ],
          causes,
          source: SOURCE,
          details: { message, reasons: Object.fromEntries(placed.reasons) },
        });
        continue;
      }
      const because = [...boundBecause(pod, node, placed, total), ...binderGuardChecks(placed, total)];
      this.waiting.delete(key);
      pod.nodeName = node.name;
      pod.conditions = scheduledCondition(pod.conditions, { type: 'PodScheduled', status: 'True', lastTransitionTime: host.now });
      host.updatePod(pod);
      const filtered = total - placed.feasible;
      const seq = host.decide({
        controller: 'scheduler',
        action: 'PodBound',
        object: ref,
        summary: `Bound to ${node.name}, the least allocated of ${placed.feasible} feasible node${placed.feasible === 1 ? '' : 's'} (score ${placed.score}; simplified binder, not kube-scheduler)`,
        because,
        causes,
        source: SOURCE,
        details: { node: node.name, score: placed.score, feasible: placed.feasible, filtered, reasons: Object.fromEntries(placed.reasons) },
      });
      host.remember(ref, 'bound', seq);
      this.starts.set(key, { at: host.now + host.kubelet.podStartupDelay, node: node.name });
    }
    return false;
  }

  private startPod(host: ControllerHost, key: string, s: Start): void {
    const pod = host.cluster.pods.get(key);
    if (!pod || !isPodActive(pod) || pod.nodeName !== s.node) return;
    const node = host.cluster.nodes.get(s.node);
    if (!node) return;
    if (nodeReadyStatus(node) !== 'True') {
      this.waitingForNode.set(key, s.node);
      return;
    }
    const ref = podRef(pod.meta.namespace, pod.meta.name);
    pod.phase = 'Running';
    let conds = pod.conditions;
    for (const type of ['Initialized', 'ContainersReady', 'Ready']) conds = setCondition(conds, { type, status: 'True', lastTransitionTime: host.now });
    pod.conditions = conds;
    host.updatePod(pod);
    const bound = host.recall(ref, 'bound');
    const seq = host.decide({
      controller: 'scheduler',
      action: 'PodStarted',
      object: ref,
      summary: `Running and Ready on ${s.node} (simplified kubelet start, podStartupDelay ${formatDuration(host.kubelet.podStartupDelay)})`,
      because: [
        {
          rule: 'a pod bound by the simplified binder becomes Running and Ready podStartupDelay after binding, once its node is Ready (a simplification of the kubelet)',
          values: { node: s.node, podStartupDelay: formatDuration(host.kubelet.podStartupDelay), nodeReady: 'True' },
        },
      ],
      causes: bound !== undefined ? [bound] : [],
      source: KUBELET_SOURCE,
    });
    host.remember(ref, 'ready-status', seq);
  }

  machines(): MachineView[] {
    return [];
  }
  machine(): MachineView | undefined {
    return undefined;
  }
  machineAbout(): boolean {
    return false;
  }
  whyNotAbout(object: ObjectRef): boolean {
    return object.startsWith('Pod/');
  }
  whyNotAfterRestore(object: ObjectRef, host: ControllerHost, saved: unknown): boolean {
    return binderMayAnswer(object, host, saved as Saved);
  }

  whyNot(host: ControllerHost, object: ObjectRef): Explanation['whyNot'] {
    const [kind, ns, name] = object.split('/');
    if (kind !== 'Pod' || !ns || !name) return [];
    const key = `${ns}/${name}`;
    const pod = host.cluster.pods.get(key);
    if (!pod) return [];
    const out: Explanation['whyNot'] = [];
    if (!pod.nodeName && isPodActive(pod)) {
      const w = wordingFor(host.behaviour.version.minor);
      const index = this.nodeIndex(host);
      const q = this.waiting.get(key);
      const why = pendingPodWhyNot(object, pod, index, w, q ? nextTry(this.rules, this.origin, q) : null);
      out.push(why);
      if (why.blocking?.guard !== 'findNodesThatFitPod') return out;
      // the first nodes by name, each with its own reasons (one pod: a look at every node is fine here)
      const names = [...host.cluster.nodes.keys()].sort(naturalCompare);
      for (const n of names.slice(0, MAX_LISTED_NODES)) {
        const e = index.entry(n);
        if (e) out.push({ what: `bound to ${n} (simplified binder)`, check: { rule: nodeReasons(pod, e, w).join(', '), values: { node: n } } });
      }
      if (names.length > MAX_LISTED_NODES)
        out.push({
          what: `bound to one of ${names.length - MAX_LISTED_NODES} more nodes (simplified binder)`,
          check: { rule: 'these nodes do not fit either', values: { nodes: names.length - MAX_LISTED_NODES } },
        });
      return out;
    }
    out.push(...boundPodWhyNot(host, this.starts.get(key), this.waitingForNode.get(key)));
    return out;
  }

  save(): Saved {
    return {
      waiting: [...this.waiting].map(([k, v]) => [k, { ...v }]),
      origin: this.origin,
      minor: this.minor,
      starts: [...this.starts].map(([k, v]) => [k, { ...v }]),
      waitingForNode: [...this.waitingForNode],
    };
  }

  restore(saved: unknown, host?: ControllerHost, from?: RestoreFrom): void {
    const s = saved as Saved;
    this.untried = null;
    this.waiting = new Map(s.waiting.map(([k, v]) => [k, { ...v }]));
    this.origin = s.origin;
    this.setVersion(s.minor);
    this.nextDue = undefined;
    this.starts = new Map(s.starts.map(([k, v]) => [k, { ...v }]));
    this.waitingForNode = new Map(s.waitingForNode);
    this.building = null;
    // The index the binder that ran until now kept, made the restored cluster's (nodeIndex.ts), when
    // the restore put back few pods; else dropped, and made again when a pod waits (it may be never).
    const previous = from?.previous instanceof SimplifiedBinder ? from.previous : null;
    const live = previous?.index ?? null;
    const few = host !== undefined && from !== undefined && from.pods.size <= host.cluster.pods.size * TAKE_OVER_SHARE;
    this.index = live && few ? live.restoredTo(host.cluster, from.pods, from.nodes, this.options.checkRestoredIndex === true) : null;
    // without an index (a restore before the first placement), its pod sums the same way
    const sums = previous?.usage ?? null;
    this.usage = !this.index && sums && few ? sums.restoredTo(host.cluster, from.pods) : null;
    // the binder that ran until now is dropped after the restore: it must not keep (nor edit) the index or sums taken over
    if (previous) [previous.index, previous.usage] = [null, null];
    if (host && previous && from) {
      this.allocSeen = allocatableRestored(previous.allocSeen, host.cluster.nodes, from.nodes, this.options.checkRestoredIndex === true);
      previous.allocSeen = new Map();
    } else if (host) this.seeAllocatable(host);
  }
}

/** `spec.priority` as the Priority admission plugin sets it (0 when missing). */
function priorityOf(pod: PodRecord): number {
  const p = (pod.raw.spec as { priority?: unknown } | undefined)?.priority;
  return typeof p === 'number' && Number.isFinite(p) ? p : 0;
}

/** One node's reasons, in the filters' order (all of NodeResourcesFit's; the first of the others). */
function nodeReasons(pod: PodRecord, e: NodeEntry, w: Wording): Reason[] {
  const r = placementReason(pod, requiredPlacement(pod), e.facts, e.name, w);
  if (r) return [r];
  return misfitReasons(resourceMisfit(podRequests(pod), e.alloc, e.used), w);
}

/** Why the node was chosen: the simplification, its score and room, and what the other nodes failed. */
function boundBecause(pod: PodRecord, e: NodeEntry, placed: Placement, total: number): Check[] {
  const req = podRequests(pod);
  const a = e.alloc,
    u = e.used;
  const room: Record<string, unknown> = { node: e.name, score: placed.score, pods: `${u.pods + 1}/${a.pods}` };
  if (a.milliCpu !== undefined) room.cpuRequests = `${u.milliCpu + req.milliCpu}m/${a.milliCpu}m`;
  if (a.memory !== undefined) room.memoryRequests = `${u.memory + req.memory}/${a.memory}`;
  // the deciding check first: the text trace shows one line a decision with its first check
  const out: Check[] = [
    {
      rule: a.reported
        ? 'simplified binder: the feasible node with the highest least-allocated score (NodeResourcesFit LeastAllocated: the free share of cpu and memory after the pod, from requests with 100m/200Mi for containers without), ties by name in natural order'
        : 'simplified binder: the node reports no allocatable, so the kubelet default of 110 pods is assumed and cpu and memory are neither checked nor scored (score 0), ties by name in natural order',
      values: { ...room, feasible: placed.feasible },
    },
  ];
  const filtered = total - placed.feasible;
  if (filtered > 0) out.push({ rule: `${filtered} of ${total} nodes filtered out`, values: Object.fromEntries(placed.reasons) });
  out.push({ rule: SIMPLIFICATION, values: { nodes: total } });
  return out;
}
