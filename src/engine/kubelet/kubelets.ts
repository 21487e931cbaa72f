/**
 * The simulated kubelets (spec 1.3): one per Node, posting node status and
 * renewing the node's Lease on a virtual clock.
 *
 * Rules (spec 1.3, "Kubelets"):
 * - At the start of the simulation (or when a Node is applied mid-run), a
 *   kubelet is running when the node's Ready lastHeartbeatTime, or its
 *   Lease's renewTime, is within nodeMonitorGracePeriod of that instant;
 *   otherwise (stale, or no Ready condition) it is stopped.
 * - A running kubelet posts its conditions, unchanged, every
 *   nodeStatusUpdateFrequency (U). When Leases are the heartbeat (the NodeLease
 *   gate, on by default from 1.13) it posts an unchanged status only every
 *   nodeStatusReportFrequency (R), i.e. at the first U tick at least R after
 *   its last post (period P = ceil(R/U)·U), and renews its Lease every
 *   leaseRenewInterval (L), creating the Lease if it is missing.
 * - A kubelet running at start posts first at start + P (Lease at start + L);
 *   one started by an event posts (and renews) at that instant, then every
 *   interval after it.
 * - Whenever the node's conditions in the API differ from what the kubelet
 *   would post (e.g. the controller set them to Unknown while only the Lease
 *   had stopped), it posts at its next U tick (a "repost"), as the real
 *   kubelet's tryUpdateNodeStatus compares with the node it fetched.
 * - A kubelet posting Ready=False leaves the pods alone.
 * - At one instant the scenario's events come before the posts due then: a
 *   kubelet stopped at T does not post at T (simulation.ts calls
 *   `materialise(T - 1)`, applies the events, then `materialise(T)`).
 *
 * What a kubelet "would post" at start: the node's kubelet-owned conditions
 * (Ready and the pressure conditions) as in the snapshot, except that a
 * status of Unknown (which only the controller writes) becomes what a live
 * kubelet reports: Ready=True, pressure=False.
 *
 * Design (performance, issue 5): at 5,000 nodes a posting schedule with one
 * timer per kubelet and interval would mean 500 timer events per simulated
 * second. Instead a running kubelet's plain posts are *derived*: its last
 * plain post at time t is anchor + floor((t - anchor) / P) · P. The
 * simulation calls `materialise(t)` at the start of every instant it
 * processes; that writes the derived heartbeat (and Lease renewTime) into the
 * records of the kubelets that have posted since, and does nothing at all
 * until the earliest due post (`nextPlainPost`), so 100 ms passes cost
 * nothing here. Plain posts change only heartbeat times: they are not
 * announced to the controllers (no informer noise per heartbeat) and not
 * recorded as decisions; controllers read the fresh heartbeat from the
 * records at their monitor pass. Posts that change a condition's status,
 * reason or message, and Lease creations, are announced (`KubeletHooks`).
 * Reposts are real timed items in a heap (rare: only after someone else
 * changed the node's conditions).
 */
import type { Micros, Duration } from '../model/time';
import type { ClusterState } from '../model/cluster';
import type { LeaseRecord, NodeRecord } from '../model/types';
import type { NodeBefore } from '../controllers/controller';
import { MinHeap } from '../simulation/heap';
import { copyNodeConditions, copyTaints, nodeCondition } from '../model/records';
import { keysSharedWith } from '../model/sharedKeys';
import { sameNodes, saveStates, statesFrom, writeStates, type SavedKubelets } from './checkpoint';
import { kubeletState, NEVER, UNKNOWN, type KubeletState } from './state';

export type { KubeletState } from './state';
import { conditionOf, desiredFromNode, differs, KUBELET_REASONS, startDesired, type PostedCondition } from './nodestatus';
import { kubeletLease } from './nodelease';

export interface KubeletSettings {
  /** nodeStatusUpdateFrequency */
  updateFrequency: Duration;
  /** nodeStatusReportFrequency (used only when leases are on) */
  reportFrequency: Duration;
  /** leaseRenewInterval */
  leaseRenewInterval: Duration;
  /** the NodeLease gate: the kubelet renews a Lease and reports unchanged status only every reportFrequency */
  leases: boolean;
  /** nodeMonitorGracePeriod: how fresh a heartbeat must be for the kubelet to count as running */
  gracePeriod: Duration;
  /** Lease spec.leaseDurationSeconds the kubelet writes (40 s, as the kubelet's default) */
  leaseDurationSeconds?: number;
  /**
   * checking mode (tests: SimulationOptions.checks.kubeletDue): materialise checks that a kubelet it
   * passes over (KubeletState.due) has nothing due, as the full computation says, and throws if not
   */
  checkDue?: boolean;
}

/** What the simulation hears from the kubelets. */
export interface KubeletHooks {
  /** a post changed the node's conditions beyond heartbeat times */
  nodeStatusChanged(node: NodeRecord, before: NodeBefore, why: 'repost' | 'start' | 'condition'): void;
  leaseCreated(lease: LeaseRecord): void;
  /**
   * The plain posts of one instant, which wrote new heartbeat times and nothing else, at once
   * (the first `count` records of `batch`; the array is reused afterwards), announced before that
   * instant's renewals: without Leases (1.12) every kubelet posts every 10 s on one grid, the
   * same nodes in the same order (see leasesRenewed).
   */
  heartbeats?(batch: readonly NodeRecord[], count: number): void;
  /** an existing Lease was renewed */
  leaseRenewed?(lease: LeaseRecord): void;
  /**
   * The plain renewals of one instant, at once (the first `count` records of
   * `batch`; the array is reused afterwards). When given, `materialise`
   * announces its renewals this way instead of one `leaseRenewed` each: the
   * same Leases renew together every interval, and a consumer can recognise
   * the batch instead of looking each Lease up (simulation/batchMemo.ts).
   */
  leasesRenewed?(batch: readonly LeaseRecord[], count: number): void;
  /**
   * a full post (a start, a condition) wrote only heartbeat times: a plain post, as `heartbeats`
   * announces the periodic ones; the record changed all the same, and checkpoints must know it
   */
  touched?(node: NodeRecord): void;
}

export interface KubeletView {
  node: string;
  status: boolean;
  lease: boolean;
  desired: PostedCondition[];
  lastPost?: Micros;
  nextPost?: Micros;
  nextRenew?: Micros;
}

export class Kubelets {
  private states = new Map<string, KubeletState>();
  private reposts = new MinHeap<string>();
  /** no plain post or renewal is due before this time */
  private nextPlain: Micros = NEVER;
  /** the nodes posted by one `materialise`, for `heartbeats` (reused) */
  private beats: NodeRecord[] = [];
  private beatCount = 0;
  /** the Leases renewed by one `materialise`, for `leasesRenewed` (reused) */
  private renewed: LeaseRecord[] = [];
  private renewedCount = 0;
  readonly period: Duration;

  constructor(
    private cluster: ClusterState,
    readonly settings: KubeletSettings,
    private hooks: KubeletHooks,
  ) {
    const u = Math.max(1, settings.updateFrequency);
    this.period = settings.leases ? Math.max(1, Math.ceil(settings.reportFrequency / u)) * u : u;
  }

  /** The kubelet rule at start: every node in the cluster gets a kubelet, running or stopped. */
  init(startTime: Micros): void {
    for (const node of this.cluster.nodes.values()) this.addNode(node, startTime, false);
  }

  /**
   * A node appeared (at start, or applied mid-run at `now`): its kubelet runs
   * when the node's heartbeat or Lease is within the grace period of now.
   */
  addNode(node: NodeRecord, now: Micros, announce = true): KubeletState {
    const name = node.meta.name;
    const ready = node.conditions.find((c) => c.type === 'Ready');
    const renew = this.cluster.leases.get(name)?.renewTime;
    const latest = Math.max(ready ? ready.lastHeartbeatTime : -NEVER, renew ?? -NEVER);
    const running = ready !== undefined && now - latest <= this.settings.gracePeriod;
    const st = kubeletState(name, running, running, desiredFromNode(node), now, now, now, now, undefined, undefined);
    this.states.set(name, st);
    if (running) this.nextPlain = Math.min(this.nextPlain, now + Math.min(this.period, this.renewInterval()));
    if (running && announce) this.conditionsChanged(name, now);
    else if (running) this.checkDiffers(st, node, now);
    return st;
  }

  removeNode(name: string): void {
    this.states.delete(name);
  }

  /** The node's Lease record was replaced or deleted by someone other than its kubelet. */
  forgetLease(name: string): void {
    const st = this.states.get(name);
    if (st) st.leaseRecord = undefined;
  }

  get(name: string): KubeletState | undefined {
    return this.states.get(name);
  }

  isRunning(name: string): boolean {
    return this.states.get(name)?.status ?? false;
  }

  /** `kubelet: start`: resumes posting at once (Ready=True, pressure False unless `conditions` says otherwise). */
  start(name: string, now: Micros, only: 'status' | 'lease' | undefined, conditions?: Record<string, string>): { changed: boolean } {
    const node = this.cluster.nodes.get(name);
    const st = this.states.get(name);
    if (!node || !st) return { changed: false };
    let changed = false;
    if (only !== 'lease') {
      st.desired = startDesired(node, st.desired, conditions);
      st.status = true;
      st.repostAt = undefined;
      changed = this.post(st, node, now, 'start');
      st.anchor = now;
    }
    if (only !== 'status') {
      st.lease = true;
      if (this.settings.leases) this.renew(st, now);
      st.leaseAnchor = now;
    }
    st.due = UNKNOWN;
    this.nextPlain = Math.min(this.nextPlain, now + Math.min(this.period, this.renewInterval()));
    return { changed };
  }

  /** `kubelet: stop`: stops status posts and Lease renewals (or one of them, with `only`). */
  stop(name: string, only: 'status' | 'lease' | undefined): void {
    const st = this.states.get(name);
    if (!st) return;
    if (only !== 'lease') {
      st.status = false;
      st.repostAt = undefined;
    }
    if (only !== 'status') st.lease = false;
    st.due = UNKNOWN;
  }

  /**
   * `condition`: posted by the kubelet at that instant (heartbeat = now;
   * transition = now when the status changed); it stays in what the kubelet
   * posts. On a stopped kubelet it is one post and the kubelet stays stopped.
   */
  postCondition(name: string, now: Micros, cond: PostedCondition): { changed: boolean } {
    const node = this.cluster.nodes.get(name);
    const st = this.states.get(name);
    if (!node || !st) return { changed: false };
    const reasons = KUBELET_REASONS[cond.type]?.[cond.status];
    const posted: PostedCondition = {
      type: cond.type,
      status: cond.status,
      reason: cond.reason ?? reasons?.[0],
      message: cond.message ?? reasons?.[1],
    };
    // a new list, never an edit in place: checkpoints share the list (see save)
    const i = st.desired.findIndex((d) => d.type === cond.type);
    const desired = st.desired.slice();
    if (i >= 0) desired[i] = posted;
    else desired.push(posted);
    st.desired = desired;
    const changed = this.post(st, node, now, 'condition');
    if (st.status) {
      st.anchor = now;
      st.repostAt = undefined;
    }
    return { changed };
  }

  /**
   * Someone other than the kubelet changed the node's conditions (the
   * controller's UpdateStatus, an apply or patch): if a running kubelet would
   * post something different, it posts at its next tick.
   */
  conditionsChanged(name: string, now: Micros): void {
    const st = this.states.get(name);
    const node = this.cluster.nodes.get(name);
    if (!st || !node) return;
    this.checkDiffers(st, node, now);
  }

  private checkDiffers(st: KubeletState, node: NodeRecord, now: Micros): void {
    if (!st.status || st.repostAt !== undefined) return;
    if (!differs(node, st.desired)) return;
    const u = Math.max(1, this.settings.updateFrequency);
    const at = st.anchor + (Math.floor((now - st.anchor) / u) + 1) * u;
    st.repostAt = at;
    this.reposts.push(at, st.node);
  }

  /** The earliest pending repost. */
  nextDue(): Micros | undefined {
    for (;;) {
      const top = this.reposts.peek();
      if (!top) return undefined;
      const st = this.states.get(top.value);
      if (st && st.repostAt === top.time) return top.time;
      this.reposts.pop();
    }
  }

  /** Reposts due at or before now (the simulation calls this at the start of an instant, after `materialise`). */
  runDue(now: Micros): void {
    for (;;) {
      const t = this.nextDue();
      if (t === undefined || t > now) return;
      const item = this.reposts.pop()!;
      const st = this.states.get(item.value)!;
      st.repostAt = undefined;
      const node = this.cluster.nodes.get(st.node);
      if (!node || !st.status) continue;
      this.post(st, node, t, 'repost');
      st.anchor = t;
    }
  }

  /**
   * Writes the derived plain posts and Lease renewals due at or before now
   * into the records. Cheap when nothing is due (one comparison).
   */
  materialise(now: Micros): void {
    if (now < this.nextPlain) return;
    let next = NEVER;
    const p = this.period,
      l = this.renewInterval();
    const batch = this.hooks.leasesRenewed !== undefined;
    const leases = this.settings.leases;
    const checkDue = this.settings.checkDue === true;
    for (const st of this.states.values()) {
      // nothing due for this kubelet before st.due (see KubeletState.due), and what the loop below
      // would give `next` for it is st.due itself: times only grow between two resets of it
      const due = st.due!;
      if (now < due) {
        if (checkDue) checkNothingDue(st, now, p, l, leases, due);
        if (due < next) next = due;
        continue;
      }
      // the next grid times this loop kept are true while nothing reset the due time since
      const known = due !== UNKNOWN;
      let stDue = NEVER,
        nextPost = NEVER,
        nextRenew = NEVER;
      // the grid points by the two small functions, the check apart: one function with the check's message was
      // too large to be inlined under the command line's inlining budget (cli/runOptions.ts), and each call boxed
      // the times passed and returned, ~65 MB of the hour's ~670 at 5,000 nodes (bench/README.md "hour22")
      if (st.status) {
        const pt = known ? gridPoint(now, st.nextPost, p, st.anchor) : lastGridPoint(now, st.anchor, p);
        if (checkDue) checkGridPoint(st, 'post', pt, now, p, st.anchor);
        if (pt > st.lastPost) {
          const node = this.cluster.nodes.get(st.node);
          if (node) this.heartbeat(st, node, pt);
        }
        stDue = nextPost = pt + p;
      }
      if (st.lease && leases) {
        const lt = known ? gridPoint(now, st.nextRenew, l, st.leaseAnchor) : lastGridPoint(now, st.leaseAnchor, l);
        if (checkDue) checkGridPoint(st, 'renewal', lt, now, l, st.leaseAnchor);
        if (lt > st.lastRenew) this.renew(st, lt, batch);
        nextRenew = lt + l;
        stDue = Math.min(stDue, nextRenew);
      }
      st.due = stDue;
      st.nextPost = nextPost;
      st.nextRenew = nextRenew;
      next = Math.min(next, stDue);
    }
    this.nextPlain = next;
    // Announced after the loop: for each node its status post still comes first; the order among
    // different nodes' announcements is not something a controller may depend on (informers do not order them).
    if (this.beatCount > 0) {
      const count = this.beatCount;
      this.beatCount = 0;
      this.hooks.heartbeats?.(this.beats, count);
    }
    if (batch && this.renewedCount > 0) {
      const count = this.renewedCount;
      this.renewedCount = 0;
      this.hooks.leasesRenewed!(this.renewed, count);
    }
  }

  /** The kubelets as the UI and explain show them. */
  views(): KubeletView[] {
    const out: KubeletView[] = [];
    for (const st of this.states.values()) out.push(this.viewOf(st));
    return out;
  }

  /** one node's kubelet (explain asks for one node: building all 5,000 views for it was O(nodes) per call) */
  view(node: string): KubeletView | undefined {
    const st = this.states.get(node);
    return st && this.viewOf(st);
  }

  private viewOf(st: KubeletState): KubeletView {
    return {
      node: st.node,
      status: st.status,
      lease: st.lease,
      desired: st.desired.map((d) => ({ ...d })),
      lastPost: st.posted ? st.lastPost : undefined,
      nextPost: st.status ? (st.repostAt ?? st.anchor + (Math.floor((st.lastPost - st.anchor) / this.period) + 1) * this.period) : undefined,
      nextRenew:
        st.lease && this.settings.leases
          ? st.leaseAnchor + (Math.floor((st.lastRenew - st.leaseAnchor) / this.renewInterval()) + 1) * this.renewInterval()
          : undefined,
    };
  }

  /** the node names of the last save, shared by the next one when they are the same */
  private savedNodes: readonly string[] = [];

  /**
   * The states in columns (see SavedKubelets): a checkpoint at 5,000 nodes held 5,000 state
   * objects, and every one had changed since the last (renewals), so none could be shared.
   */
  save(): unknown {
    const nodes = (this.savedNodes = keysSharedWith(this.savedNodes, this.states));
    return saveStates(
      this.states,
      nodes,
      this.reposts.save((v) => v),
      this.nextPlain,
    );
  }

  /** Restores a `save()`; `cluster` is the world the kubelets post into from now on (a restored copy). */
  restore(saved: unknown, cluster?: ClusterState): void {
    if (cluster) this.cluster = cluster;
    const s = saved as SavedKubelets;
    if (sameNodes(this.states, s.nodes)) writeStates(this.states, s);
    else this.states = statesFrom(s);
    this.reposts.restore(s.reposts, (v) => v);
    this.nextPlain = s.nextPlain;
  }

  private renewInterval(): Duration {
    return this.settings.leases ? Math.max(1, this.settings.leaseRenewInterval) : NEVER;
  }

  /** A plain post: heartbeats only (announced with the instant's others: see materialise). */
  private heartbeat(st: KubeletState, node: NodeRecord, t: Micros): void {
    for (const d of st.desired) {
      const c = conditionOf(node.conditions, d.type);
      if (c && c.status === d.status) c.lastHeartbeatTime = t;
    }
    st.lastPost = t;
    st.posted = true;
    this.beats[this.beatCount++] = node;
  }

  /** A full post of `desired` at t; announces the node when anything but heartbeat times changed. */
  private post(st: KubeletState, node: NodeRecord, t: Micros, why: 'repost' | 'start' | 'condition'): boolean {
    const before = nodeBefore(node);
    // the callers move the anchor too
    st.due = UNKNOWN;
    let changed = false;
    for (const d of st.desired) {
      const c = node.conditions.find((x) => x.type === d.type);
      if (!c) {
        node.conditions.push(nodeCondition(d.type, d.status, t, t, d.reason, d.message));
        changed = true;
        continue;
      }
      if (c.status !== d.status) {
        c.status = d.status;
        c.lastTransitionTime = t;
        changed = true;
      }
      if (d.reason !== undefined && c.reason !== d.reason) {
        c.reason = d.reason;
        changed = true;
      }
      if (d.message !== undefined && c.message !== d.message) {
        c.message = d.message;
        changed = true;
      }
      c.lastHeartbeatTime = t;
    }
    st.lastPost = t;
    st.posted = true;
    if (changed) this.hooks.nodeStatusChanged(node, before, why);
    else this.hooks.touched?.(node);
    return changed;
  }

  private renew(st: KubeletState, t: Micros, batch = false): void {
    st.lastRenew = t;
    // materialise sets it again after renewing
    st.due = UNKNOWN;
    const existing = st.leaseRecord ?? (st.leaseRecord = this.cluster.leases.get(st.node));
    if (existing) {
      existing.renewTime = t;
      if (batch) this.renewed[this.renewedCount++] = existing;
      else this.hooks.leaseRenewed?.(existing);
      return;
    }
    const lease = kubeletLease(st.node, t, this.settings.leaseDurationSeconds ?? 40);
    this.cluster.leases.set(st.node, lease);
    st.leaseRecord = lease;
    this.hooks.leaseCreated(lease);
  }
}

/**
 * The grid point at or before now, anchor + floor((now - anchor) / P) · P (now is never before an
 * anchor), as now - (now - anchor) mod P: no product. The product k · P of two small whole numbers
 * outgrew the fast arithmetic it was compiled for some minutes into a run (k · 10 s in µs passes
 * 2^31 at k = 215), and each of the four such products had materialise's compiled code thrown away
 * once. Exact either way: integers below 2^53.
 */
function lastGridPoint(now: Micros, anchor: Micros, period: Duration): Micros {
  return now - ((now - anchor) % period);
}

/**
 * lastGridPoint from the next grid point after the last one materialise found (`next`, on the same
 * grid): that point or the one before it when now is within a period of it, as it is at every
 * renewal of a running kubelet; worked out from the anchor otherwise (NEVER: none was found).
 */
function gridPoint(now: Micros, next: Micros, period: Duration, anchor: Micros): Micros {
  if (now < next) return next - period <= now ? next - period : lastGridPoint(now, anchor, period);
  return now < next + period ? next : lastGridPoint(now, anchor, period);
}

/**
 * KubeletSettings.checkDue: the grid point materialise took (`at`: from the next one it kept while the
 * kubelet's timing did not move, else from the anchor) is the one worked out from the anchor.
 */
function checkGridPoint(st: KubeletState, timer: string, at: Micros, now: Micros, period: Duration, anchor: Micros): void {
  if (at !== lastGridPoint(now, anchor, period))
    throw new Error(`kubelet ${st.node}: ${timer} grid point ${at} kept, ${lastGridPoint(now, anchor, period)} worked out`);
}

/** KubeletSettings.checkDue: the next due time worked out in full equals the kept one, and nothing due was passed over. */
function checkNothingDue(st: KubeletState, now: Micros, p: Duration, l: Duration, leases: boolean, due: Micros): void {
  let slow = NEVER;
  if (st.status) {
    const k = Math.floor((now - st.anchor) / p);
    if (st.anchor + k * p > st.lastPost) throw new Error(`kubelet ${st.node}: a post due at ${now} was passed over`);
    slow = st.anchor + (k + 1) * p;
  }
  if (st.lease && leases) {
    const j = Math.floor((now - st.leaseAnchor) / l);
    if (st.leaseAnchor + j * l > st.lastRenew) throw new Error(`kubelet ${st.node}: a renewal due at ${now} was passed over`);
    slow = Math.min(slow, st.leaseAnchor + (j + 1) * l);
  }
  if (slow !== due) throw new Error(`kubelet ${st.node}: next due ${slow}, kept ${due}`);
}

/** The node as an informer's old object would show it (copies, so later mutations do not leak in). */
export function nodeBefore(node: NodeRecord): NodeBefore {
  return {
    taints: copyTaints(node.taints),
    conditions: copyNodeConditions(node.conditions),
    labels: { ...node.meta.labels },
    unschedulable: node.unschedulable,
  };
}
