/**
 * Why a node's Ready is not Unknown yet (the NodeStatusUnknown outcome): the
 * checks tryUpdateNodeHealth makes, as data (trace/whyNot.ts). The class holds
 * what every why-not of the node lifecycle controller reads (its memory, the
 * monitor passes, the zone's steadiness); the taint and eviction why-nots
 * (whyNotTaintedOrEvicted.ts) and the pod and zone ones (whyNot.ts) extend it.
 */
import type { ControllerHost } from '../controllerHost';
import type { Micros } from '../../model/time';
import { formatDuration, formatTime } from '../../model/time';
import type { NodeRecord } from '../../model/types';
import { nodeRef } from '../../model/types';
import { zoneKeyOf } from '../../model/zones';
import type { ZoneStateName } from '../../simulation/api';
import { whyNotFrom, type KubeletFacts, type WhyNot, type WhyNotCheck, type WhyNotWorld } from '../../trace/whyNot';
import type { QueueForecast } from './queueForecast';
import type { RateLimitedTimedQueue } from './rateLimitedQueue';
import { podEvictionTimeoutElapsed, probeExpired, zoneStateByGuards } from './guards';
import { findCondition } from './taints';
import type { NodeLifecycleRules } from './versionRules';

/** What the why-not reads of the controller's memory (NodeLifecycleController implements it). */
export interface NodeLifecycleMemory {
  readonly _rules: NodeLifecycleRules;
  enabled(host: ControllerHost): boolean;
  isKnown(name: string): boolean;
  firstProbeOf(host: ControllerHost, name: string): Micros | undefined;
  healthOf(name: string): { probe: Micros; readyTransition: Micros } | undefined;
  trackOf(name: string): { zone: string; excluded?: string } | undefined;
  inMasterDisruption(): boolean;
  queueOf(zone: string): RateLimitedTimedQueue | undefined;
  zoneStateOf(zone: string): ZoneStateName | undefined;
  zoneCountsOf(zone: string): { total: number; notReady: number } | undefined;
  nextMonitor(): Micros;
  nodeStateOf(name: string): string | undefined;
  nextTokenOf(zone: string, now: Micros): Micros | undefined;
  queueForecast(zone: string, now: Micros, arrivals?: readonly { value: string; at: Micros }[]): QueueForecast | undefined;
}

export const FILE = 'node_lifecycle_controller.go';

/** A zone's other nodes, as a why-not reads them once per question (StatusUnknownWhyNot.zoneWalk). */
interface ZoneWalk {
  blockers: string[];
  /** the pass each goes Unknown at, soonest first; `counted` when it takes part in the disruption checks */
  goUnknown: { name: string; at: Micros; counted: boolean }[];
  /** the pass evictPods Adds each to the zone's queue (the pod-eviction path) */
  arrivals: { value: string; at: Micros }[];
}

export class StatusUnknownWhyNot {
  constructor(
    protected readonly c: NodeLifecycleMemory,
    protected readonly host: ControllerHost,
    protected readonly world: WhyNotWorld | undefined,
  ) {}

  private own: Map<string, unknown> | undefined;

  /** `f()` once per question (the world's memo) or, without a world, once per this why-not. */
  protected remember<T>(key: string, f: () => T): T {
    const memo = this.world?.memo ?? (this.own ??= new Map());
    if (memo.has(key)) return memo.get(key) as T;
    const v = f();
    memo.set(key, v);
    return v;
  }

  protected get period(): number {
    return Math.max(1, this.host.config.nodeMonitorPeriod);
  }

  /** The first monitor pass (from the next one on) at which `guard` holds; `deadline` lets it skip ahead. */
  protected firstPassWhere(guard: (t: Micros) => boolean, deadline: Micros): Micros {
    const next = this.c.nextMonitor();
    let t = next;
    if (deadline > next) t = next + Math.floor((deadline - next) / this.period) * this.period;
    for (let i = 0; i < 1000 && !guard(t); i++) t += this.period;
    return t;
  }

  protected enabledCheck(): WhyNotCheck {
    return {
      guard: 'enabled',
      upstream: 'NewControllerInitializers (--controllers)',
      holds: this.c.enabled(this.host),
      rule: 'the nodelifecycle controller runs',
      unmet: 'the nodelifecycle controller is disabled by --controllers',
      values: { controllers: [...this.host.config.controllers].sort() },
    };
  }

  protected zoneOf(node: NodeRecord): string {
    return this.c.trackOf(node.meta.name)?.zone ?? zoneKeyOf(node);
  }

  protected kubelet(name: string): KubeletFacts | undefined {
    return this.world?.kubelet(name);
  }

  /**
   * Whether nothing else of the zone can come first by `t`: no other node not Ready is still on
   * its way to the same queue (it may take the token first; one waiting in it is in the queue's
   * forecast, if it stays not Ready), and none with its kubelet stopped goes Unknown on the way
   * (the zone's counts, state and rate would change). Otherwise a time through the zone's queue
   * is not certain.
   */
  protected zoneSteadyUntil(zone: string, self: string, t: Micros): boolean {
    const z = this.walkOf(zone);
    if (z.blockers.some((n) => n !== self)) return false;
    const first = z.goUnknown.find((x) => x.name !== self);
    return first === undefined || first.at > t;
  }

  protected walkOf(zone: string): ZoneWalk {
    return this.remember(`zoneWalk|${zone}`, () => this.zoneWalk(zone));
  }

  /**
   * The zone's other nodes as zoneSteadyUntil reads them, walked once per question: those that
   * make no time certain (`blockers`, two at most: one of them may be the node asked about), and
   * the passes at which those with their kubelet stopped go Unknown. On the pod-eviction path
   * (1.12's evictPods) a node not Ready that stays so is Added to the zone's queue at the first
   * pass past podEvictionTimeout (`arrivals`): the queue's forecast counts it there.
   */
  private zoneWalk(zone: string): ZoneWalk {
    const podEviction = !this.c._rules.taintBasedEvictions;
    const timeout = this.host.config.podEvictionTimeout;
    const queuedAt = (since: Micros): Micros => this.firstPassWhere((x) => podEvictionTimeoutElapsed(x, since, timeout), since + timeout);
    const blockers: string[] = [];
    const goUnknown: ZoneWalk['goUnknown'] = [];
    const arrivals: ZoneWalk['arrivals'] = [];
    for (const node of this.host.cluster.nodes.values()) {
      const name = node.meta.name;
      if (this.zoneOf(node) !== zone) continue;
      const ready = findCondition(node.conditions, 'Ready');
      if (ready && ready.status !== 'True') {
        // another node on its way to the same queue may take the token first
        const state = this.c.nodeStateOf(name) ?? '';
        if (state.includes('eviction.tainted') || state.includes('eviction.evicted')) continue;
        const steady = this.steadyNotReady(name, ready.status);
        // waiting in the zone's queue: the queue's forecast counts it, while it stays not Ready
        if (this.c.queueOf(zone)?.isQueued(name) && steady) continue;
        const h = this.c.healthOf(name);
        if (podEviction && steady && h && this.c.isKnown(name)) {
          arrivals.push({ value: name, at: queuedAt(ready.status === 'False' ? h.readyTransition : h.probe) });
          continue;
        }
        if (blockers.length < 2) blockers.push(name);
        continue;
      }
      if (this.kubelet(name)?.running !== false) continue;
      const h = this.c.healthOf(name);
      if (!h) {
        if (blockers.length < 2) blockers.push(name);
        continue;
      }
      const grace = ready ? this.host.config.nodeMonitorGracePeriod : this.host.config.nodeStartupGracePeriod;
      goUnknown.push({ name, at: this.firstPassWhere((x) => probeExpired(x, h.probe, grace), h.probe + grace), counted: !this.c.trackOf(name)?.excluded });
      // Unknown from then, it waits out podEvictionTimeout from the same probe
      if (podEviction) arrivals.push({ value: name, at: queuedAt(h.probe) });
    }
    goUnknown.sort((a, b) => a.at - b.at);
    return { blockers, goUnknown, arrivals };
  }

  /**
   * On the pod-eviction path, when the zone's queue releases `self` with every node of the zone on
   * its way to it counted (queued at `t`, or queued now), if that is certain: nothing else of the
   * zone may change it, and the nodes that go Unknown before it leave the zone's state as it is.
   */
  protected releaseWithArrivals(zone: string, self: string, t: Micros | undefined): { at: Micros; ahead: number } | undefined {
    if (this.c._rules.taintBasedEvictions) return undefined;
    const z = this.walkOf(zone);
    if (z.blockers.some((n) => n !== self)) return undefined;
    if (t !== undefined && !z.arrivals.some((a) => a.value === self && a.at === t)) return undefined;
    const f = this.remember(`arrivalsForecast|${zone}`, () => this.c.queueForecast(zone, this.host.now, z.arrivals));
    const i = f?.order.get(self);
    if (f === undefined || i === undefined) return undefined;
    const at = f.releases[i].at;
    const k = z.goUnknown.filter((x) => x.at <= at && x.counted).length;
    if (!this.zoneStateHoldsWith(zone, k)) return undefined;
    return { at, ahead: i };
  }

  /** ComputeZoneState (the zone machine's guards) with `more` of the zone's Ready nodes counted as not Ready: the same state as now. */
  private zoneStateHoldsWith(zone: string, more: number): boolean {
    const counts = this.c.zoneCountsOf(zone);
    const state = this.c.zoneStateOf(zone);
    if (!counts || !state) return false;
    return zoneStateByGuards(counts.total - counts.notReady - more, counts.notReady + more, this.host.config.unhealthyZoneThreshold) === state;
  }

  /**
   * ComputeZoneState (the zone machine's guards) with this Ready node counted as not Ready: the
   * same state, so the zone's rate stays as it is when the node goes. A node left out of the
   * disruption checks changes no count.
   */
  protected zoneKeepsItsState(zone: string, name: string): boolean {
    return !!this.c.trackOf(name)?.excluded || this.zoneStateHoldsWith(zone, 1);
  }

  // ---------------------------------------------------------------- Ready -> Unknown

  /** the probeTimestamp the last statusUnknown() counted from (a post not seen yet moves it to the next pass) */
  protected probeUsed: Micros | undefined;

  /** Whether the node's Ready stays not True until the timeline changes it: a kubelet that posts False, or none that posts. */
  protected steadyNotReady(name: string, status: string): boolean {
    return status === 'False' || this.kubelet(name)?.running === false;
  }

  /**
   * When Ready goes Unknown if the kubelet stops when the timeline says: its last post or Lease
   * renewal before the stop moves probeTimestamp to the monitor pass that sees it (`probeUsed`).
   */
  private timelineStop(name: string, k: KubeletFacts, probe: Micros, grace: number): { stop: Micros; at: Micros } | undefined {
    const s = this.world?.stopsAt?.(name);
    if (!s) return undefined;
    const lastBefore = (next: Micros | undefined, every: number | undefined): Micros | undefined =>
      next === undefined || !every || next >= s.at ? undefined : next + Math.floor((s.at - 1 - next) / every) * every;
    const last = Math.max(lastBefore(k.nextPost, s.postEvery) ?? -Infinity, lastBefore(k.nextRenew, s.renewEvery) ?? -Infinity);
    let p = probe;
    if (last > this.host.now) {
      const next = this.c.nextMonitor();
      p = last <= next ? next : next + Math.ceil((last - next) / this.period) * this.period;
    }
    this.probeUsed = p;
    return { stop: s.at, at: this.firstPassWhere((t) => probeExpired(t, p, grace), p + grace) };
  }

  /** tryUpdateNodeHealth: when the controller would set Ready to Unknown. undefined when it is Unknown already. */
  statusUnknown(node: NodeRecord): WhyNot | undefined {
    this.probeUsed = undefined;
    const name = node.meta.name;
    const ref = nodeRef(name);
    const ready = findCondition(node.conditions, 'Ready');
    if (ready?.status === 'Unknown') return undefined;
    const what = `Node/${name} status Unknown`;
    const path: WhyNotCheck[] = [this.enabledCheck()];
    if (!path[0].holds) return whyNotFrom(what, 'NodeStatusUnknown', ref, path, { never: true });
    const h = this.c.healthOf(name);
    const k = this.kubelet(name);
    // Before the controller's first look at a node (the start, after Reset), the probe is the one that
    // pass will set (reconstructed from the snapshot, or the pass itself), moved on by a post it sees
    const first = !h || !this.c.isKnown(name) ? this.c.firstProbeOf(this.host, name) : undefined;
    const firstLook = first !== undefined && k?.running === true;
    if (!firstLook) {
      path.push({
        guard: 'isKnown',
        upstream: `monitorNodeHealth (${FILE})`,
        holds: this.c.isKnown(name) && !!h,
        rule: 'the controller has evaluated the node in a monitor pass',
        unmet: 'the controller has not evaluated the node yet (its first monitor pass is ahead)',
        values: { nextMonitorPass: formatTime(this.c.nextMonitor()) },
      });
      if (!h || !path[1].holds) return whyNotFrom(what, 'NodeStatusUnknown', ref, path);
    }
    const grace = ready ? this.host.config.nodeMonitorGracePeriod : this.host.config.nodeStartupGracePeriod;
    const graceName = ready ? 'nodeMonitorGracePeriod' : 'nodeStartupGracePeriod';
    if (k?.running) {
      // A post the controller has not seen yet moves the probe to the next pass.
      const seen = Math.max(ready?.lastHeartbeatTime ?? 0, this.host.cluster.leases.get(name)?.renewTime ?? 0);
      const known = firstLook ? first : h!.probe;
      const probe = seen > known ? this.c.nextMonitor() : known;
      this.probeUsed = probe;
      const at = this.firstPassWhere((t) => probeExpired(t, probe, grace), probe + grace);
      path.push({
        guard: 'kubeletStopped',
        upstream: `tryUpdateNodeHealth (${FILE}): every heartbeat or Lease renewal moves probeTimestamp to now`,
        holds: false,
        rule: `the node's kubelet is running: it ${(k.does ?? ['posts']).join(' and ')}; Ready stays as it is as long as it does`,
        values: {
          ...(k.lastPost !== undefined ? { lastPost: formatTime(k.lastPost) } : {}),
          ...(k.nextPost !== undefined ? { nextPost: formatTime(k.nextPost) } : {}),
          ...(k.nextRenew !== undefined ? { nextLeaseRenewal: formatTime(k.nextRenew) } : {}),
          probeTimestamp: formatTime(probe),
          [graceName]: formatDuration(grace),
        },
      });
      const planned = this.timelineStop(name, k, probe, grace);
      if (planned) {
        path[path.length - 1].values = { ...path[path.length - 1].values, timelineStopsItAt: formatTime(planned.stop) };
        return whyNotFrom(what, 'NodeStatusUnknown', ref, path, {
          conditional: { if: `the timeline stops the kubelet at ${formatTime(planned.stop)}`, at: formatTime(planned.at) },
        });
      }
      return whyNotFrom(what, 'NodeStatusUnknown', ref, path, {
        conditional: { if: 'the kubelet stopped now', at: formatTime(at) },
        counterfactual: { kind: 'stopKubelet', node: name, description: `the kubelet of ${name} stops now` },
      });
    }
    if (!h) return whyNotFrom(what, 'NodeStatusUnknown', ref, path);
    this.probeUsed = h.probe;
    const at = this.firstPassWhere((t) => probeExpired(t, h.probe, grace), h.probe + grace);
    path.push({
      guard: 'probeExpired',
      upstream: `tryUpdateNodeHealth (${FILE})`,
      holds: false,
      rule: `no heartbeat for longer than ${graceName}: now > probeTimestamp + grace`,
      values: { probeTimestamp: formatTime(h.probe), [graceName]: formatDuration(grace), deadline: formatTime(h.probe + grace) },
    });
    return whyNotFrom(
      what,
      'NodeStatusUnknown',
      ref,
      path,
      k ? { wouldFireAt: formatTime(at) } : { conditional: { if: 'no heartbeat arrives', at: formatTime(at) } },
    );
  }
}
