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
import { saveStates, writeStates, type SavedKubelets } from './checkpoint';
import { KubeletColumns, KubeletState, LEASE, NEVER, NO_REPOST, POSTED, STATUS, UNKNOWN } from './state';

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
   * passes over (KubeletColumns.due) has nothing due, as the full computation says, and throws if not
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
  private cols = new KubeletColumns();
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
    const i = this.cols.put(name, running ? STATUS | LEASE : 0, desiredFromNode(node), now, now, now, now, NO_REPOST);
    if (running) this.nextPlain = Math.min(this.nextPlain, now + Math.min(this.period, this.renewInterval()));
    if (running && announce) this.conditionsChanged(name, now);
    else if (running) this.checkDiffers(i, node, now);
    return new KubeletState(this.cols, name);
  }

  removeNode(name: string): void {
    this.cols.remove(name);
  }

  /** The node's Lease record was replaced or deleted by someone other than its kubelet. */
  forgetLease(name: string): void {
    const i = this.cols.index.get(name);
    if (i !== undefined) this.cols.leaseRecord[i] = undefined;
  }

  /** the node's kubelet, a view of its slot (tests, the engine's API) */
  get(name: string): KubeletState | undefined {
    return this.cols.index.has(name) ? new KubeletState(this.cols, name) : undefined;
  }

  isRunning(name: string): boolean {
    const i = this.cols.index.get(name);
    return i !== undefined && (this.cols.flags[i] & STATUS) !== 0;
  }

  /** `kubelet: start`: resumes posting at once (Ready=True, pressure False unless `conditions` says otherwise). */
  start(name: string, now: Micros, only: 'status' | 'lease' | undefined, conditions?: Record<string, string>): { changed: boolean } {
    const node = this.cluster.nodes.get(name);
    const c = this.cols;
    const i = c.index.get(name);
    if (!node || i === undefined) return { changed: false };
    let changed = false;
    if (only !== 'lease') {
      c.desired[i] = startDesired(node, c.desired[i], conditions);
      c.flags[i] |= STATUS;
      c.repostAt[i] = NO_REPOST;
      changed = this.post(i, node, now, 'start');
      c.anchor[i] = now;
    }
    if (only !== 'status') {
      c.flags[i] |= LEASE;
      if (this.settings.leases) this.renew(i, now);
      c.leaseAnchor[i] = now;
    }
    c.due[i] = UNKNOWN;
    this.nextPlain = Math.min(this.nextPlain, now + Math.min(this.period, this.renewInterval()));
    return { changed };
  }

  /** `kubelet: stop`: stops status posts and Lease renewals (or one of them, with `only`). */
  stop(name: string, only: 'status' | 'lease' | undefined): void {
    const c = this.cols;
    const i = c.index.get(name);
    if (i === undefined) return;
    if (only !== 'lease') {
      c.flags[i] &= ~STATUS;
      c.repostAt[i] = NO_REPOST;
    }
    if (only !== 'status') c.flags[i] &= ~LEASE;
    c.due[i] = UNKNOWN;
  }

  /**
   * `condition`: posted by the kubelet at that instant (heartbeat = now;
   * transition = now when the status changed); it stays in what the kubelet
   * posts. On a stopped kubelet it is one post and the kubelet stays stopped.
   */
  postCondition(name: string, now: Micros, cond: PostedCondition): { changed: boolean } {
    const node = this.cluster.nodes.get(name);
    const c = this.cols;
    const i = c.index.get(name);
    if (!node || i === undefined) return { changed: false };
    const reasons = KUBELET_REASONS[cond.type]?.[cond.status];
    const posted: PostedCondition = {
      type: cond.type,
      status: cond.status,
      reason: cond.reason ?? reasons?.[0],
      message: cond.message ?? reasons?.[1],
    };
    // a new list, never an edit in place: checkpoints share the list (see save)
    const at = c.desired[i].findIndex((d) => d.type === cond.type);
    const desired = c.desired[i].slice();
    if (at >= 0) desired[at] = posted;
    else desired.push(posted);
    c.desired[i] = desired;
    const changed = this.post(i, node, now, 'condition');
    if ((c.flags[i] & STATUS) !== 0) {
      c.anchor[i] = now;
      c.repostAt[i] = NO_REPOST;
    }
    return { changed };
  }

  /**
   * Someone other than the kubelet changed the node's conditions (the
   * controller's UpdateStatus, an apply or patch): if a running kubelet would
   * post something different, it posts at its next tick.
   */
  conditionsChanged(name: string, now: Micros): void {
    const i = this.cols.index.get(name);
    const node = this.cluster.nodes.get(name);
    if (i === undefined || !node) return;
    this.checkDiffers(i, node, now);
  }

  private checkDiffers(i: number, node: NodeRecord, now: Micros): void {
    const c = this.cols;
    if ((c.flags[i] & STATUS) === 0 || !Number.isNaN(c.repostAt[i])) return;
    if (!differs(node, c.desired[i])) return;
    const u = Math.max(1, this.settings.updateFrequency);
    const anchor = c.anchor[i];
    const at = anchor + (Math.floor((now - anchor) / u) + 1) * u;
    c.repostAt[i] = at;
    this.reposts.push(at, c.names[i]);
  }

  /** The earliest pending repost. */
  nextDue(): Micros | undefined {
    for (;;) {
      const top = this.reposts.peek();
      if (!top) return undefined;
      const i = this.cols.index.get(top.value);
      if (i !== undefined && this.cols.repostAt[i] === top.time) return top.time;
      this.reposts.pop();
    }
  }

  /** Reposts due at or before now (the simulation calls this at the start of an instant, after `materialise`). */
  runDue(now: Micros): void {
    for (;;) {
      const t = this.nextDue();
      if (t === undefined || t > now) return;
      const item = this.reposts.pop()!;
      const c = this.cols;
      const i = c.index.get(item.value)!;
      c.repostAt[i] = NO_REPOST;
      const node = this.cluster.nodes.get(item.value);
      if (!node || (c.flags[i] & STATUS) === 0) continue;
      this.post(i, node, t, 'repost');
      c.anchor[i] = t;
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
    const c = this.cols;
    const n = c.size;
    const dues = c.due;
    for (let i = 0; i < n; i++) {
      // nothing due for this kubelet before its due time (see KubeletColumns.due), and what the loop
      // below would give `next` for it is that time itself: times only grow between two resets of it
      const due = dues[i];
      if (now < due) {
        if (checkDue) checkNothingDue(c, i, now, p, l, leases, due);
        if (due < next) next = due;
        continue;
      }
      // the next grid times this loop kept are true while nothing reset the due time since
      const known = due !== UNKNOWN;
      const flags = c.flags[i];
      let stDue = NEVER,
        nextPost = NEVER,
        nextRenew = NEVER;
      if ((flags & STATUS) !== 0) {
        const pt = keptGridPoint(c, i, 'post', now, known ? c.nextPost[i] : undefined, p, c.anchor[i], checkDue);
        if (pt > c.lastPost[i]) {
          const node = this.cluster.nodes.get(c.names[i]);
          if (node) this.heartbeat(i, node, pt);
        }
        stDue = nextPost = pt + p;
      }
      if ((flags & LEASE) !== 0 && leases) {
        const lt = keptGridPoint(c, i, 'renewal', now, known ? c.nextRenew[i] : undefined, l, c.leaseAnchor[i], checkDue);
        if (lt > c.lastRenew[i]) this.renew(i, lt, batch);
        nextRenew = lt + l;
        stDue = Math.min(stDue, nextRenew);
      }
      dues[i] = stDue;
      c.nextPost[i] = nextPost;
      c.nextRenew[i] = nextRenew;
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
    for (let i = 0; i < this.cols.size; i++) out.push(this.viewOf(i));
    return out;
  }

  /** one node's kubelet (explain asks for one node: building all 5,000 views for it was O(nodes) per call) */
  view(node: string): KubeletView | undefined {
    const i = this.cols.index.get(node);
    return i === undefined ? undefined : this.viewOf(i);
  }

  private viewOf(i: number): KubeletView {
    const c = this.cols;
    const status = (c.flags[i] & STATUS) !== 0;
    const lease = (c.flags[i] & LEASE) !== 0;
    const anchor = c.anchor[i];
    const repostAt = c.repostAt[i];
    return {
      node: c.names[i],
      status,
      lease,
      desired: c.desired[i].map((d) => ({ ...d })),
      lastPost: (c.flags[i] & POSTED) !== 0 ? c.lastPost[i] : undefined,
      nextPost: status ? (!Number.isNaN(repostAt) ? repostAt : anchor + (Math.floor((c.lastPost[i] - anchor) / this.period) + 1) * this.period) : undefined,
      nextRenew:
        lease && this.settings.leases
          ? c.leaseAnchor[i] + (Math.floor((c.lastRenew[i] - c.leaseAnchor[i]) / this.renewInterval()) + 1) * this.renewInterval()
          : undefined,
    };
  }

  /** the node names of the last save, shared by the next one when they are the same */
  private savedNodes: readonly string[] = [];

  /** The columns copied (see SavedKubelets). */
  save(): unknown {
    const nodes = (this.savedNodes = keysSharedWith(this.savedNodes, this.cols.index));
    return saveStates(
      this.cols,
      nodes,
      this.reposts.save((v) => v),
      this.nextPlain,
    );
  }

  /** Restores a `save()`; `cluster` is the world the kubelets post into from now on (a restored copy). */
  restore(saved: unknown, cluster?: ClusterState): void {
    if (cluster) this.cluster = cluster;
    const s = saved as SavedKubelets;
    writeStates(this.cols, s);
    this.reposts.restore(s.reposts, (v) => v);
    this.nextPlain = s.nextPlain;
  }

  private renewInterval(): Duration {
    return this.settings.leases ? Math.max(1, this.settings.leaseRenewInterval) : NEVER;
  }

  /** A plain post: heartbeats only (announced with the instant's others: see materialise). */
  private heartbeat(i: number, node: NodeRecord, t: Micros): void {
    for (const d of this.cols.desired[i]) {
      const c = conditionOf(node.conditions, d.type);
      if (c && c.status === d.status) c.lastHeartbeatTime = t;
    }
    this.cols.lastPost[i] = t;
    this.cols.flags[i] |= POSTED;
    this.beats[this.beatCount++] = node;
  }

  /** A full post of `desired` at t; announces the node when anything but heartbeat times changed. */
  private post(i: number, node: NodeRecord, t: Micros, why: 'repost' | 'start' | 'condition'): boolean {
    const before = nodeBefore(node);
    // the callers move the anchor too
    this.cols.due[i] = UNKNOWN;
    let changed = false;
    for (const d of this.cols.desired[i]) {
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
    this.cols.lastPost[i] = t;
    this.cols.flags[i] |= POSTED;
    if (changed) this.hooks.nodeStatusChanged(node, before, why);
    else this.hooks.touched?.(node);
    return changed;
  }

  private renew(i: number, t: Micros, batch = false): void {
    const c = this.cols;
    c.lastRenew[i] = t;
    // materialise sets it again after renewing
    c.due[i] = UNKNOWN;
    const existing = c.leaseRecord[i] ?? (c.leaseRecord[i] = this.cluster.leases.get(c.names[i]));
    if (existing) {
      existing.renewTime = t;
      if (batch) this.renewed[this.renewedCount++] = existing;
      else this.hooks.leaseRenewed?.(existing);
      return;
    }
    const lease = kubeletLease(c.names[i], t, this.settings.leaseDurationSeconds ?? 40);
    this.cluster.leases.set(c.names[i], lease);
    c.leaseRecord[i] = lease;
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
 * A timer's grid point for materialise: from the next one it kept (`next`; undefined when the kubelet's
 * timing moved since), else from the anchor; `check` (KubeletSettings.checkDue) compares the two.
 */
function keptGridPoint(
  c: KubeletColumns,
  i: number,
  timer: string,
  now: Micros,
  next: Micros | undefined,
  period: Duration,
  anchor: Micros,
  check: boolean,
): Micros {
  const at = next !== undefined ? gridPoint(now, next, period, anchor) : lastGridPoint(now, anchor, period);
  if (check && at !== lastGridPoint(now, anchor, period))
    throw new Error(`kubelet ${c.names[i]}: ${timer} grid point ${at} kept, ${lastGridPoint(now, anchor, period)} worked out`);
  return at;
}

/** KubeletSettings.checkDue: the next due time worked out in full equals the kept one, and nothing due was passed over. */
function checkNothingDue(c: KubeletColumns, i: number, now: Micros, p: Duration, l: Duration, leases: boolean, due: Micros): void {
  let slow = NEVER;
  const node = c.names[i];
  if ((c.flags[i] & STATUS) !== 0) {
    const anchor = c.anchor[i];
    const k = Math.floor((now - anchor) / p);
    if (anchor + k * p > c.lastPost[i]) throw new Error(`kubelet ${node}: a post due at ${now} was passed over`);
    slow = anchor + (k + 1) * p;
  }
  if ((c.flags[i] & LEASE) !== 0 && leases) {
    const anchor = c.leaseAnchor[i];
    const j = Math.floor((now - anchor) / l);
    if (anchor + j * l > c.lastRenew[i]) throw new Error(`kubelet ${node}: a renewal due at ${now} was passed over`);
    slow = Math.min(slow, anchor + (j + 1) * l);
  }
  if (slow !== due) throw new Error(`kubelet ${node}: next due ${slow}, kept ${due}`);
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
