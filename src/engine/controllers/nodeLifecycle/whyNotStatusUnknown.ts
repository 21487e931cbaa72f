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
import { whyNotFrom, type KubeletFacts, type WhyNot, type WhyNotCheck, type WhyNotWorld } from '../../trace/whyNot';
import type { RateSwap } from './queueForecast';
import type { NodeLifecycleMemory, TimelineStop, ZoneWalk } from './whyNotMemory';
import { podEvictionTimeoutElapsed, probeExpired, zoneLimiterQPS, zoneStateByGuards } from './guards';
import { findCondition } from './taints';
import { lapseOf, type PassGrid } from './kubeletLapse';

export const FILE = 'node_lifecycle_controller.go';

/** The zone's rate swaps on the way, as an answer's check names them (`rateOnTheWay`). */
export const rateSwapsText = (swaps: readonly RateSwap[]): string[] => swaps.map((w) => `${formatTime(w.at)}: ${Number(Math.fround(w.qps).toFixed(6))}`);

/** the condition of a what-if time: the kubelet runs and no event of the timeline stops it */
export const KUBELET_STOPPED_NOW = 'the kubelet stopped now';

/** the start of the condition of a time under the timeline's stop of a running kubelet ("… at S") */
export const TIMELINE_STOPS_KUBELET = 'the timeline stops the kubelet at ';

export type { NodeLifecycleMemory, TimelineStop } from './whyNotMemory';

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

  /** the monitor passes from the next one on, as lapseOf walks them */
  protected readonly passes: PassGrid = {
    atOrAfter: (t) => this.firstPassWhere((x) => x >= t, t),
    firstWhere: (guard, deadline) => this.firstPassWhere(guard, deadline),
  };

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
   * is not certain. This reads the queue as it stands: another node Added by then (an arrival the
   * forecast with arrivals counts, when it can tell) may take the token first (outage-1.31 with
   * node-a6 stopped with node-a1 and node-a2: said tainted at +1m10s, the pass that queued all three).
   */
  protected zoneSteadyUntil(zone: string, self: string, t: Micros): boolean {
    const z = this.walkOf(zone);
    if (z.blockers.some((n) => n !== self) || z.arrivals.some((a) => a.value !== self && a.at <= t)) return false;
    const first = z.goUnknown.find((x) => x.name !== self);
    return first === undefined || first.at > t;
  }

  protected walkOf(zone: string): ZoneWalk {
    return this.remember(`zoneWalk|${zone}`, () => this.zoneWalk(zone));
  }

  /**
   * The zone's other nodes as zoneSteadyUntil reads them, walked once per question: those that
   * make no time certain (`blockers`, two at most: one of them may be the node asked about), and
   * the passes at which those with their kubelet stopped go Unknown. A node not Ready that stays so
   * is Added to the zone's queue (`arrivals`), and the queue's forecast counts it there: on the
   * pod-eviction path (1.12's evictPods) at the first pass past podEvictionTimeout; on the taint
   * path (markNodeForTainting) at the next pass, or at the one after it goes Unknown.
   */
  private zoneWalk(zone: string): ZoneWalk {
    const podEviction = !this.c._rules.taintBasedEvictions;
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
        const steady = this.steadyNotReady(name, ready.status);
        // tainted already it takes no token, but one whose kubelet posts Ready again changes the zone's counts (its re-post
        // after a lapse: zone-small-partial, HUNT_PARTIAL HUNT_RESTART seed 908: node-a6 was counted down from +40s)
        if (state.includes('eviction.tainted') || state.includes('eviction.evicted')) {
          if (!steady && blockers.length < 2) blockers.push(name);
          continue;
        }
        // waiting in the zone's queue: the queue's forecast counts it, while it stays not Ready
        if (this.c.queueOf(zone)?.isQueued(name) && steady) continue;
        const h = this.c.healthOf(name);
        if (steady && h && this.c.isKnown(name)) {
          // the taint path's next pass sees it not Ready and not queued: markNodeForTainting Adds it
          arrivals.push({
            value: name,
            at: podEviction ? this.podEvictionQueuedAt(name, h, ready) : this.c.nextMonitor(),
          });
          continue;
        }
        if (blockers.length < 2) blockers.push(name);
        continue;
      }
      const k = this.kubelet(name);
      if (k?.running !== false) {
        // one whose posts come too seldom goes Unknown and back (kubeletLapse.ts): the zone's counts flap
        if (k && blockers.length < 2 && this.lapseAt(name, k, ready) !== undefined) blockers.push(name);
        continue;
      }
      const h = this.c.healthOf(name);
      if (!h) {
        if (blockers.length < 2) blockers.push(name);
        continue;
      }
      const grace = ready ? this.host.config.nodeMonitorGracePeriod : this.host.config.nodeStartupGracePeriod;
      const probe = this.quietProbe(name, h, ready);
      const at = this.firstPassWhere((x) => probeExpired(x, probe, grace), probe + grace);
      // a kubelet the timeline starts again before that pass never takes the node Unknown
      const r = this.resumeOf(name);
      const resumeSeenAt = r?.seenAt;
      if (r && !r.again && r.seenAt <= at) continue;
      goUnknown.push({ name, at, counted: !this.c.trackOf(name)?.excluded, ...(resumeSeenAt !== undefined ? { resumeSeenAt } : {}) });
      // Unknown from then, it waits out podEvictionTimeout from the same probe, or is queued for tainting
      arrivals.push({ value: name, at: this.queuedAfterUnknown(at, probe) });
    }
    goUnknown.sort((a, b) => a.at - b.at);
    return { blockers, goUnknown, arrivals };
  }

  /** processNoTaintBaseEviction: the first pass past podEvictionTimeout from `since`, which Adds the node to its zone's queue. */
  protected evictionQueuedAt(since: Micros): Micros {
    const timeout = this.host.config.podEvictionTimeout;
    return this.firstPassWhere((x) => podEvictionTimeoutElapsed(x, since, timeout), since + timeout);
  }

  /**
   * processNoTaintBaseEviction (1.12's pod-eviction path): the pass that Adds a node not Ready to its zone's queue, as
   * the next passes will read it. A heartbeat not read yet (a timeline `condition`) moves probeTimestamp to the next
   * pass (quietProbe), and readyTransitionTimestamp too when Ready changed with it; a node Ready=False whose kubelet
   * posts no more goes Unknown at probe + grace, and unless podEvictionTimeout from the transition runs out first, the
   * passes after count from probeTimestamp (the one that sets Unknown decides on the False it read, with a transition
   * just made). Without this, outage-1.12 with Ready=False posted at +92s on a stopped node-a1 said +6m10s (the
   * transition to Unknown at +65s); the pods went at +6m40s.
   */
  protected podEvictionQueuedAt(
    name: string,
    h: NonNullable<ReturnType<NodeLifecycleMemory['healthOf']>>,
    ready: { status: string; lastHeartbeatTime?: Micros; lastTransitionTime?: Micros } | undefined,
  ): Micros {
    const probe = this.quietProbe(name, h, ready);
    if (ready?.status !== 'False') return this.evictionQueuedAt(probe);
    const saved = h.savedReady;
    const unread = saved !== undefined && (saved === null || saved.lastHeartbeatTime !== ready.lastHeartbeatTime);
    const moved = unread && (saved === null || saved.lastTransitionTime !== ready.lastTransitionTime);
    const byFalse = this.evictionQueuedAt(moved ? this.c.nextMonitor() : h.readyTransition);
    const grace = this.host.config.nodeMonitorGracePeriod;
    const k = this.kubelet(name);
    if (k?.running !== false) {
      // a kubelet that posts False and that the timeline stops: Unknown past the probe of its last post, as below (the
      // hunt's outage-1.12 seed 93: node-a1 set Ready=False at +10s and stopped at +30s was counted queued at +5m15s from
      // the transition, ahead of node-a2; both were queued at +5m25s from their probes, node-a2 released at +5m35s)
      const keep = this.probeUsed;
      const planned = k && this.world?.stopsAt?.(name) ? this.timelineStop(name, k, probe, grace) : undefined;
      this.probeUsed = keep;
      return planned ? this.queuedFalseThenUnknown(byFalse, planned.at, planned.probe) : byFalse;
    }
    const unknownAt = this.firstPassWhere((t) => probeExpired(t, probe, grace), probe + grace);
    return this.queuedFalseThenUnknown(byFalse, unknownAt, probe);
  }

  /**
   * 1.12's pod-eviction path for a node Ready=False that goes Unknown at the pass `unknownAt` (its last probe `probe`):
   * queued past podEvictionTimeout from the transition (`byFalse`) if that comes first, else by the passes after the
   * Unknown, which count from probeTimestamp.
   */
  private queuedFalseThenUnknown(byFalse: Micros, unknownAt: Micros, probe: Micros): Micros {
    return byFalse < unknownAt ? byFalse : Math.max(this.evictionQueuedAt(probe), unknownAt + this.period);
  }

  /**
   * The pass that Adds a node going Unknown at the pass `unknownAt` (its last probe `probe`) to its
   * zone's queue: evictPods past podEvictionTimeout, or markNodeForTainting at that pass (1.34 on)
   * or the next one (before, the pass decides on the Ready it read before it set Unknown).
   */
  protected queuedAfterUnknown(unknownAt: Micros, probe: Micros): Micros {
    if (!this.c._rules.taintBasedEvictions) return this.evictionQueuedAt(probe);
    return unknownAt + (this.host.behaviour.unreachableTaintQueuedSamePass ? 0 : this.period);
  }

  /**
   * When the zone's queue releases `self` with every node of the zone on its way to it counted
   * (queued at `t`, or queued now), if that is certain: nothing else of the zone may change it. The
   * nodes that go Unknown on the way change the zone's counts, and where its state changes with them
   * its rate: the forecast swaps the limiter at those passes (zoneRateSwaps). With `stops`, the nodes
   * whose kubelets the timeline stops are counted too (timelineStopsOf), `self` among them.
   */
  protected releaseWithArrivals(
    zone: string,
    self: string,
    t: Micros | undefined,
    stops?: readonly TimelineStop[],
    memo = 'timelineForecast',
  ): { at: Micros; ahead: number; swaps: readonly RateSwap[] } | undefined {
    const z = this.walkOf(zone);
    if (z.blockers.some((n) => n !== self) || stops?.some((s) => s.unforeseen)) return undefined;
    const arrivals = stops?.length ? [...z.arrivals, ...stops.map((s) => ({ value: s.name, at: s.queuedAt }))] : z.arrivals;
    if (t !== undefined && !arrivals.some((a) => a.value === self && a.at === t)) return undefined;
    const key = `${stops?.length ? memo : 'arrivalsForecast'}|${zone}`;
    const planned = this.remember(key, () => {
      const unknowns = [...z.goUnknown.filter((x) => x.counted).map((x) => x.at), ...(stops ?? []).filter((x) => x.counted).map((x) => x.unknownAt)];
      const rate = this.zoneRateSwaps(
        zone,
        unknowns.sort((a, b) => a - b),
      );
      return rate && { rate, f: this.c.queueForecast(zone, this.host.now, { arrivals, swaps: rate.swaps }) };
    });
    const i = planned?.f?.order.get(self);
    if (planned?.f === undefined || i === undefined) return undefined;
    const at = planned.f.releases[i].at;
    // from the pass the controller enters master disruption on, nothing is released
    if (at >= planned.rate.until) return undefined;
    // another node whose kubelet the timeline starts again by then leaves the queue and the zone's counts: not forecast,
    // unless this node's own start comes no later (the answer is then "never, if …", kubeletResumes.ts)
    const r = this.resumeOf(self);
    const own = r && !r.again ? r.seenAt : Infinity;
    const back = (x: { name: string; resumeSeenAt?: Micros }) =>
      x.name !== self && x.resumeSeenAt !== undefined && x.resumeSeenAt <= at && x.resumeSeenAt < own;
    if (z.goUnknown.some(back) || stops?.some(back)) return undefined;
    return { at, ahead: i, swaps: planned.rate.swaps.filter((w) => w.at <= at) };
  }

  /** the zone's nodes the timeline takes out of Ready on the way (TaintedOrEvictedWhyNot: those it stops and those it sets False) */
  protected timelineChangesOf(zone: string): TimelineStop[] {
    return this.timelineStopsOf(zone);
  }

  /**
   * A zone whose rate is 0 now (a small zone in PartialDisruption) may have it back on the way: its other nodes going
   * Unknown make it FullDisruption, at the normal rate while another zone stays up (zone-small-partial with node-a5's
   * kubelet stopped at +45s and node-a6 Ready=False: node-a1 was said never tainted at +1m05s, tainted at +1m35s). The
   * nodes already on their way give a time; those the timeline takes out of Ready give it under their events. `t`: the
   * pass that queues `self`, if it is not queued yet.
   */
  protected rateRisesOnTheWay(zone: string, self: string, t: Micros | undefined, status: string): { swaps: string[]; answer: Partial<WhyNot> } | undefined {
    const steady = this.steadyNotReady(self, status);
    const stays = `its Ready stays ${status} until then`;
    const known = this.releaseWithArrivals(zone, self, t);
    if (known) {
      const at = formatTime(known.at);
      return { swaps: rateSwapsText(known.swaps), answer: steady ? { wouldFireAt: at } : { conditional: { if: stays, at } } };
    }
    const stops = this.timelineChangesOf(zone).filter((s) => s.name !== self);
    const planned = stops.length ? this.releaseWithArrivals(zone, self, t, stops) : undefined;
    if (!planned) return undefined;
    const others = stops.filter((s) => s.queuedAt <= planned.at || (s.counted && s.unknownAt <= planned.at)).length;
    const events = `the timeline's events on ${others} other node${others === 1 ? '' : 's'} of the zone when it says`;
    return { swaps: rateSwapsText(planned.swaps), answer: { conditional: { if: steady ? events : `${events}, and ${stays}`, at: formatTime(planned.at) } } };
  }

  /**
   * setLimiterInZone at every pass where more of the zone goes Unknown (`unknowns`, the passes in
   * order): where ComputeZoneState gives another state, the zone's new rate from that pass (a zone
   * wholly down is FullDisruption at HealthyQPSFunc's normal rate, while another zone keeps a Ready
   * node). `until`: the pass from which the forecast cannot tell (every zone down: master disruption).
   * Undefined when the zone's state is not known.
   */
  private zoneRateSwaps(zone: string, unknowns: readonly Micros[]): { swaps: RateSwap[]; until: Micros } | undefined {
    const first = this.c.zoneStateOf(zone) ? undefined : this.remember(`firstZone|${zone}`, () => this.c.firstZoneOf?.(this.host, zone));
    const counts = this.c.zoneCountsOf(zone) ?? first;
    let state = this.c.zoneStateOf(zone) ?? first?.state;
    if (!counts || !state) return undefined;
    const cfg = this.host.config;
    if (zoneLimiterQPS(state, counts.total, cfg) === undefined) return undefined;
    const swaps: RateSwap[] = [];
    for (let j = 0; j < unknowns.length; j++) {
      if (unknowns[j + 1] === unknowns[j]) continue;
      const s = zoneStateByGuards(counts.total - counts.notReady - (j + 1), counts.notReady + j + 1, cfg.unhealthyZoneThreshold);
      if (s === state) continue;
      const l = zoneLimiterQPS(s, counts.total, cfg);
      if (!l || (s === 'FullDisruption' && !this.anotherZoneStaysUp(zone))) return { swaps, until: unknowns[j] };
      swaps.push({ at: unknowns[j], qps: l.qps });
      state = s;
    }
    return { swaps, until: Infinity };
  }

  /** The monitor pass that reads the node's kubelet started again by the timeline, after it stops (now or by the timeline). */
  private resumeOf(name: string): { seenAt: Micros; again: boolean } | undefined {
    // a start the timeline follows with another stop (`again`, as kubeletResumes.ts reads it) does not keep the node
    // from going Unknown: the node stays in the zone's walk, and the others' forecast gives up by it (`back`)
    const r = this.world?.resumesAt?.(name);
    return r?.start && r.seenAt !== undefined ? { seenAt: r.seenAt, again: r.again === true } : undefined;
  }

  /**
   * Some node of another zone, counted in the disruption checks, stays Ready: its kubelet posts and the timeline neither
   * stops it nor touches its kubelet or conditions at all (a start first and a stop after it: all-zones-down seed 23 took a
   * node the timeline starts at +20s, then stops with the others at +30s, for one that stays up, and named taints that the
   * master disruption never let come).
   */
  private anotherZoneStaysUp(zone: string): boolean {
    return this.remember(`upElsewhere|${zone}`, () => {
      for (const node of this.host.cluster.nodes.values()) {
        const name = node.meta.name;
        if (findCondition(node.conditions, 'Ready')?.status !== 'True' || this.c.trackOf(name)?.excluded || this.zoneOf(node) === zone) continue;
        if (this.kubelet(name)?.running !== true || this.world?.stopsAt?.(name)) continue;
        if (!(this.world?.nodeEvents?.(name) ?? []).some((e) => e.kind === 'kubelet')) return true;
      }
      return false;
    });
  }

  /**
   * The zone's nodes whose kubelets the timeline stops while they post (Ready True): when each goes
   * Unknown, as its own statusUnknown says, and is queued. Walked once per question, and only for an
   * answer that waits for such a stop: nodes that stop at the same instant reach the queue at the
   * same pass, and its rate lets one through per token.
   */
  protected timelineStopsOf(zone: string): TimelineStop[] {
    return this.remember(`timelineStops|${zone}`, () => {
      const out: TimelineStop[] = [];
      if (!this.c.enabled(this.host)) return out;
      const keep = this.probeUsed;
      const grace = this.host.config.nodeMonitorGracePeriod;
      for (const node of this.host.cluster.nodes.values()) {
        const name = node.meta.name;
        const ready = findCondition(node.conditions, 'Ready');
        if (ready?.status !== 'True' || !this.world?.stopsAt?.(name) || this.zoneOf(node) !== zone) continue;
        // as statusUnknown reads it, without its words: 1,667 nodes of a zone stop at once at 5,000 nodes
        const k = this.kubelet(name);
        const probe = k?.running === true ? this.postingProbe(name, ready) : undefined;
        const planned = probe !== undefined ? this.timelineStop(name, k!, probe, grace) : undefined;
        if (!planned) continue;
        const r = this.resumeOf(name);
        const resumeSeenAt = r?.seenAt;
        if (r && !r.again && r.seenAt <= planned.at) continue;
        const counted = !this.c.trackOf(name)?.excluded;
        const resumed = resumeSeenAt !== undefined ? { resumeSeenAt } : {};
        const post = this.world?.stopsAt?.(name)?.readyAfter;
        if (post && post.at <= planned.at) {
          out.push({ name, stop: planned.stop, counted, ...resumed, ...this.postedAfterStop(post, grace) });
          continue;
        }
        out.push({ name, stop: planned.stop, unknownAt: planned.at, queuedAt: this.queuedAfterUnknown(planned.at, planned.probe), counted, ...resumed });
      }
      this.probeUsed = keep;
      return out;
    });
  }

  /**
   * A stopped kubelet's Ready posted by the timeline before the stop takes the node Unknown (the hunt's rs-zone-outage seed 84:
   * node-b1 stopped and set Ready=False at +30s was counted as queued when its zone went Unknown at +1m10s, so node-b2 was
   * said tainted at +1m20s; node-b1 was tainted at +30s and swapped at its Unknown, node-b2 tainted at +1m10s). False: the
   * pass that reads it counts the node not Ready and queues it (markNodeForTainting; 1.12's evictPods past
   * podEvictionTimeout from that transition, or from the probe once it goes Unknown); its Unknown later swaps the taint,
   * through no queue. Another status: not followed.
   */
  private postedAfterStop(post: { at: Micros; status: string }, grace: number): Pick<TimelineStop, 'unknownAt' | 'queuedAt' | 'unforeseen'> {
    const pass = this.firstPassWhere((t) => t >= post.at, post.at);
    if (post.status !== 'False') return { unknownAt: pass, queuedAt: pass, unforeseen: true };
    if (this.c._rules.taintBasedEvictions) return { unknownAt: pass, queuedAt: pass };
    const unknownAt = this.firstPassWhere((t) => probeExpired(t, pass, grace), pass + grace);
    return { unknownAt: pass, queuedAt: this.queuedFalseThenUnknown(this.evictionQueuedAt(pass), unknownAt, pass) };
  }

  /** ComputeZoneState (the zone machine's guards) with `more` of the zone's Ready nodes counted as not Ready: the same state as now. */
  private zoneStateHoldsWith(zone: string, more: number): boolean {
    // before the first pass has seen the zone, as that pass will count it (the start stands before pass 0)
    const first = this.c.zoneStateOf(zone) ? undefined : this.remember(`firstZone|${zone}`, () => this.c.firstZoneOf?.(this.host, zone));
    const counts = this.c.zoneCountsOf(zone) ?? first;
    const state = this.c.zoneStateOf(zone) ?? first?.state;
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
  private timelineStop(name: string, k: KubeletFacts, probe: Micros, grace: number): { stop: Micros; at: Micros; probe: Micros } | undefined {
    const s = this.world?.stopsAt?.(name);
    if (!s) return undefined;
    const lastBefore = (next: Micros | undefined, every: number | undefined): Micros | undefined =>
      next === undefined || !every || next >= s.at ? undefined : next + Math.floor((s.at - 1 - next) / every) * every;
    // a start first posts and renews at once, and from then on
    const nextPost = s.restartAt ?? k.nextPost;
    const nextRenew = s.restartAt !== undefined && s.renewEvery ? s.restartAt : k.nextRenew;
    // (the start's own post counts at the stop's instant too: it comes first there; rs-deletion-cost seed 25, both at +3m)
    const last = Math.max(lastBefore(nextPost, s.postEvery) ?? -Infinity, lastBefore(nextRenew, s.renewEvery) ?? -Infinity, s.restartAt ?? -Infinity);
    let p = probe;
    if (last > this.host.now) {
      const next = this.c.nextMonitor();
      p = last <= next ? next : next + Math.ceil((last - next) / this.period) * this.period;
    }
    this.probeUsed = p;
    return { stop: s.at, at: this.firstPassWhere((t) => probeExpired(t, p, grace), p + grace), probe: p };
  }

  /** The pass at which a running kubelet's node goes Unknown between its posts (kubeletLapse.ts), if it does. */
  protected lapseAt(name: string, k: KubeletFacts, ready: { lastHeartbeatTime?: Micros } | undefined): Micros | undefined {
    const probe = k.running && ready ? this.postingProbe(name, ready) : undefined;
    return probe !== undefined ? lapseOf(k, probe, this.host.config.nodeMonitorGracePeriod, this.passes) : undefined;
  }

  /**
   * The probeTimestamp a node whose kubelet posts counts from: the controller's, or before its first
   * look the one that pass will set; a post it has not seen yet moves it to the next pass. Undefined
   * when the controller has not evaluated the node and no first look is ahead.
   */
  private postingProbe(name: string, ready: { lastHeartbeatTime?: Micros } | undefined): Micros | undefined {
    const h = this.c.healthOf(name);
    const first = !h || !this.c.isKnown(name) ? this.c.firstProbeOf(this.host, name) : undefined;
    const known = first ?? (h && this.c.isKnown(name) ? h.probe : undefined);
    if (known === undefined) return undefined;
    const lease = this.host.cluster.leases.get(name);
    // an entry made anew at a heartbeat that came without a renewal has no Lease (as quietProbe says): the next pass reads
    // the same Lease as renewed and moves the probe to itself (rs-zone-outage with node-b1 started only: status at +25s and
    // stopped with its zone at +30s: Unknown said +1m10s, came at +1m15s)
    if (first === undefined && h?.lease === null && lease && this.c._rules.readsLeases) return this.c.nextMonitor();
    const seen = Math.max(ready?.lastHeartbeatTime ?? 0, lease?.renewTime ?? 0);
    return seen > known ? this.c.nextMonitor() : known;
  }

  /**
   * The probeTimestamp a node whose kubelet posts no more counts from, as the next passes leave it:
   * a heartbeat (a timeline `condition`) the controller has not read moves it to the next pass, and
   * tryUpdateNodeHealth makes that entry anew without its Lease, so the pass after reads the same
   * Lease as renewed and moves it once more (upstream's nodeHealthData is made without `lease`); a
   * Lease not read yet moves it to the next pass.
   */
  protected quietProbe(name: string, h: NonNullable<ReturnType<NodeLifecycleMemory['healthOf']>>, ready: { lastHeartbeatTime?: Micros } | undefined): Micros {
    const next = this.c.nextMonitor();
    const lease = this.c._rules.readsLeases ? this.host.cluster.leases.get(name) : undefined;
    const newer = (saved: { renewTime?: Micros } | null | undefined) => !!lease && (!saved || (saved.renewTime ?? -Infinity) < (lease.renewTime ?? -Infinity));
    if (ready && h.savedReady !== undefined && (h.savedReady === null || h.savedReady.lastHeartbeatTime !== ready.lastHeartbeatTime))
      return newer(h.lease) || !lease ? next : next + this.period;
    return newer(h.lease) ? Math.max(h.probe, next) : h.probe;
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
      const probe = this.postingProbe(name, ready)!;
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
      const lapse = lapseOf(k, probe, grace, this.passes);
      if (lapse !== undefined && (!planned || planned.at >= lapse)) {
        this.probeUsed = probe;
        Object.assign(path[path.length - 1], {
          guard: 'probeExpired',
          rule: `the node's kubelet ${(k.does ?? ['posts']).join(' and ')}, too seldom to keep it Ready: no heartbeat for longer than ${graceName} comes before its next post`,
          values: { ...path[path.length - 1].values, ...(k.postEvery ? { postEvery: formatDuration(k.postEvery) } : {}), deadline: formatTime(probe + grace) },
        });
        return whyNotFrom(what, 'NodeStatusUnknown', ref, path, { wouldFireAt: formatTime(lapse) });
      }
      if (planned) {
        path[path.length - 1].values = { ...path[path.length - 1].values, timelineStopsItAt: formatTime(planned.stop) };
        return whyNotFrom(what, 'NodeStatusUnknown', ref, path, {
          conditional: { if: `${TIMELINE_STOPS_KUBELET}${formatTime(planned.stop)}`, at: formatTime(planned.at) },
        });
      }
      return whyNotFrom(what, 'NodeStatusUnknown', ref, path, {
        conditional: { if: KUBELET_STOPPED_NOW, at: formatTime(at) },
        counterfactual: { kind: 'stopKubelet', node: name, description: `the kubelet of ${name} stops now` },
      });
    }
    if (!h) return whyNotFrom(what, 'NodeStatusUnknown', ref, path);
    const probe = this.quietProbe(name, h, ready);
    this.probeUsed = probe;
    const at = this.firstPassWhere((t) => probeExpired(t, probe, grace), probe + grace);
    path.push({
      guard: 'probeExpired',
      upstream: `tryUpdateNodeHealth (${FILE})`,
      holds: false,
      rule: `no heartbeat for longer than ${graceName}: now > probeTimestamp + grace`,
      values: { probeTimestamp: formatTime(probe), [graceName]: formatDuration(grace), deadline: formatTime(probe + grace) },
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
