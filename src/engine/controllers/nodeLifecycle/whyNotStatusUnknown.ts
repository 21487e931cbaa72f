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
import { probeExpired, zoneStateByGuards } from './guards';
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
  queueForecast(zone: string, now: Micros): QueueForecast | undefined;
}

export const FILE = 'node_lifecycle_controller.go';

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
    const z = this.remember(`zoneWalk|${zone}`, () => this.zoneWalk(zone));
    if (z.blockers.some((n) => n !== self)) return false;
    const first = z.goUnknown.find((x) => x.name !== self);
    return first === undefined || first.at > t;
  }

  /**
   * The zone's other nodes as zoneSteadyUntil reads them, walked once per question: those that
   * make no time certain (`blockers`, two at most: one of them may be the node asked about), and the first two passes at which one with its kubelet
   * stopped goes Unknown (two, likewise).
   */
  private zoneWalk(zone: string): { blockers: string[]; goUnknown: { name: string; at: Micros }[] } {
    const blockers: string[] = [];
    const goUnknown: { name: string; at: Micros }[] = [];
    for (const node of this.host.cluster.nodes.values()) {
      const name = node.meta.name;
      if (this.zoneOf(node) !== zone) continue;
      const ready = findCondition(node.conditions, 'Ready');
      if (ready && ready.status !== 'True') {
        // another node on its way to the same queue may take the token first
        const state = this.c.nodeStateOf(name) ?? '';
        if (state.includes('eviction.tainted') || state.includes('eviction.evicted')) continue;
        // waiting in the zone's queue: the queue's forecast counts it, while it stays not Ready
        if (this.c.queueOf(zone)?.isQueued(name) && this.steadyNotReady(name, ready.status)) continue;
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
      goUnknown.push({ name, at: this.firstPassWhere((x) => probeExpired(x, h.probe, grace), h.probe + grace) });
      goUnknown.sort((a, b) => a.at - b.at);
      goUnknown.length = Math.min(goUnknown.length, 2);
    }
    return { blockers, goUnknown };
  }

  /**
   * ComputeZoneState (the zone machine's guards) with this Ready node counted as not Ready: the
   * same state, so the zone's rate stays as it is when the node goes. A node left out of the
   * disruption checks changes no count.
   */
  protected zoneKeepsItsState(zone: string, name: string): boolean {
    if (this.c.trackOf(name)?.excluded) return true;
    const counts = this.c.zoneCountsOf(zone);
    const state = this.c.zoneStateOf(zone);
    if (!counts || !state) return false;
    const ready = counts.total - counts.notReady;
    return zoneStateByGuards(ready - 1, counts.notReady + 1, this.host.config.unhealthyZoneThreshold) === state;
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
