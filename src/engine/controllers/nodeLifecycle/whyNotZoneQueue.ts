/**
 * The zone's queue in a why-not of the NodeTaintedNoExecute and NodePodsEvicted outcomes: when it
 * releases a node (its forecast, the zone's other nodes on their way counted), and the timeline's
 * Ready=False events that bring nodes to it. whyNotTaintedOrEvicted.ts extends it.
 */
import type { Micros } from '../../model/time';
import { formatTime } from '../../model/time';
import type { NodeRecord } from '../../model/types';
import { zoneRef } from '../../model/types';
import type { WhyNotCheck } from '../../trace/whyNot';
import { releaseOf } from './queueForecast';
import { effectiveRate, type RateLimitedTimedQueue } from './rateLimitedQueue';
import { findCondition } from './taints';
import { rateSwapsText, StatusUnknownWhyNot, type TimelineStop } from './whyNotStatusUnknown';

export const rate = (q: RateLimitedTimedQueue | undefined, fallback: number): number => (q ? Number(effectiveRate(q.limiter).toFixed(6)) : fallback);

export class ZoneQueueWhyNot extends StatusUnknownWhyNot {
  /**
   * When the zone's queue would release `name`, queued now or at the monitor pass `t`: by the zone's
   * forecast (queueForecast.ts: the tokens to come, and the nodes that take them first); certain only
   * with the zone steady until then (looked at only when `asked`: it walks the zone's nodes, and
   * views ask for many nodes at once).
   */
  protected releaseAt(zone: string, name: string, t: Micros, asked = true, keepsState = true): { at?: Micros; certain: boolean; check: WhyNotCheck } {
    const q = this.c.queueOf(zone);
    const queued = q?.isQueued(name) ?? false;
    const f = q ? this.c.queueForecast(zone, this.host.now) : undefined;
    // the zone's other nodes on their way to the queue counted, when nothing else of the zone could change it
    const counted = asked ? this.releaseWithArrivals(zone, name, queued ? undefined : t) : undefined;
    const rel = counted ?? (f ? releaseOf(f, name, queued ? undefined : t) : undefined);
    const at = rel?.at;
    const ahead = rel?.ahead ?? (q ? q.length - (queued ? 1 : 0) : 0);
    // without the zone's walk, only a zone that keeps its state (and rate) when this node goes
    const certain =
      counted !== undefined || (keepsState && asked && this.c._rules.taintBasedEvictions && at !== undefined && this.zoneSteadyUntil(zone, name, at));
    return {
      at,
      certain,
      check: {
        guard: 'wouldAllow',
        upstream: 'RateLimitedTimedQueue.Try / TokenBucketRateLimiter (scheduler/rate_limited_queue.go)',
        holds: false,
        rule:
          ahead > 0
            ? `waiting in the zone queue for a token of the rate limiter (burst 1): ${ahead} node${ahead === 1 ? '' : 's'} take${ahead === 1 ? 's' : ''} one first`
            : 'waiting in the zone queue for a token of the rate limiter (burst 1)',
        values: {
          zone: zoneRef(zone),
          ahead,
          rate: rate(q, this.host.config.nodeEvictionRate),
          ...(counted?.swaps.length ? { rateOnTheWay: rateSwapsText(counted.swaps) } : {}),
          ...(at !== undefined ? { releasedAt: formatTime(at) } : {}),
        },
      },
    };
  }

  /**
   * The timeline's `condition` event that sets a Ready node's Ready to False (its kubelet posts it):
   * the monitor pass at or after it reads False and queues the node for tainting (processTaintBaseEviction),
   * and the zone's queue releases it as its forecast says; the condition names the event alone when
   * nothing else of the zone could change that.
   */
  protected timelineNotReady(node: NodeRecord, zone: string, rateHolds: boolean): { if: string; at: string; eventAt: string } | undefined {
    const name = node.meta.name;
    const r = this.world?.readyAt?.(name);
    const k = this.kubelet(name);
    if (!r || r.status !== 'False' || !rateHolds || k?.running !== true) return undefined;
    // a kubelet that posts too seldom takes the node Unknown first (notready-then-unknown, HUNT_PARTIAL seed 25: node-b2
    // `stop only: lease` at +45s and set Ready=False at +4m was said tainted at +4m; tainted at +2m25s)
    const lapse = k.lapses ? this.lapseAt(name, k, findCondition(node.conditions, 'Ready')) : undefined;
    if (lapse !== undefined && lapse < r.at) return undefined;
    const pass = this.firstPassWhere((t) => t >= r.at, r.at);
    if (!this.c._rules.taintBasedEvictions) return this.timelineNotReadyEvicted(node, zone, r.at, pass);
    // with the zone's other nodes on their way to the queue counted (they may take the tokens first), this one and the
    // others the timeline sets Ready=False queued by markNodeForTainting at the pass that reads False
    const all = this.timelineChangesOf(zone);
    const counted = this.releaseWithArrivals(zone, name, pass, all, 'notReadyForecast');
    if (counted) return { if: this.notReadyText(all, r.at, counted.at), at: formatTime(counted.at), eventAt: formatTime(r.at) };
    // the zone's state and queue as they stand (at the start, before the first pass, the zone has neither yet)
    const rel = this.zoneKeepsItsState(zone, name) ? this.releaseAt(zone, name, pass) : { at: undefined, certain: false };
    const eventAt = formatTime(r.at);
    const event = `the timeline sets Ready to False at ${eventAt}`;
    // the timeline's events on its other nodes by then may change the zone's state and rate, which the forecast could not
    // count (outage-1.31, HUNT_PARTIAL seed 708: node-a4 and node-a6 set Ready=False at +4m made four of six not Ready,
    // PartialDisruption, rate 0; node-a4 was said tainted at +4m, never tainted): the time is a lower bound then
    const others = all.filter((s) => s.name !== name && Math.min(s.queuedAt, s.unknownAt) <= (rel.at ?? pass)).length;
    if (others)
      return {
        if: `${event}, and its zone's rate and queue let it through at once after the timeline's events on ${others} other node${others === 1 ? '' : 's'} of the zone`,
        at: formatTime(pass),
        eventAt,
      };
    const more = rel.at !== undefined ? 'nothing else in the zone changes' : "its zone's rate and queue let it through at once";
    return { if: rel.certain ? event : `${event}, and ${more}`, at: formatTime(rel.at ?? pass), eventAt };
  }

  /**
   * The zone's nodes the timeline takes out of Ready on the way, each counted where the monitor passes see it: those it
   * sets Ready=False and those whose kubelets it stops. A forecast through the zone's queue under either kind of event
   * counts the other kind too: both change the zone's counts, state and rate, and both reach the queue (the hunt's
   * outage-1.31 seed 109: node-a4 stopped at +4m was said tainted at +4m40s, but node-a3 set Ready=False at +4m made four
   * of six not Ready with node-a4's Unknown at +4m35s, PartialDisruption, rate 0: never tainted).
   */
  protected override timelineChangesOf(zone: string): TimelineStop[] {
    return this.remember(`timelineChanges|${zone}`, () => {
      const stops = this.timelineStopsOf(zone);
      const notReady = this.timelineNotReadyOf(zone).filter((x) => !stops.some((s) => s.name === x.name));
      return [...stops, ...notReady];
    });
  }

  /**
   * The zone's Ready nodes whose kubelets post and whose Ready the timeline sets to False next, in the order the monitor
   * pass Adds them: each read False at the pass at or after its event and queued by that pass (markNodeForTainting) or,
   * on 1.12's pod-eviction path, by the first past podEvictionTimeout from it. Two of them at one instant reach the queue
   * at the same pass and the rate lets one through per token (the hunt's seeds 56 and 60: the second node of a zone set
   * Ready=False at +20s was said tainted at +20s, tainted at +30s).
   */
  private timelineNotReadyOf(zone: string): TimelineStop[] {
    const queuedAt = (pass: Micros) => (this.c._rules.taintBasedEvictions ? pass : this.evictionQueuedAt(pass));
    return this.remember(`timelineNotReady|${zone}`, () => {
      const out: TimelineStop[] = [];
      for (const node of this.host.cluster.nodes.values()) {
        const name = node.meta.name;
        if (this.zoneOf(node) !== zone || findCondition(node.conditions, 'Ready')?.status !== 'True') continue;
        const r = this.world?.readyAt?.(name);
        if (r?.status !== 'False' || this.kubelet(name)?.running !== true) continue;
        const pass = this.firstPassWhere((t) => t >= r.at, r.at);
        out.push({ name, stop: r.at, unknownAt: pass, queuedAt: queuedAt(pass), counted: !this.c.trackOf(name)?.excluded });
      }
      return out;
    });
  }

  /** The condition of a time through the zone's queue under the timeline's Ready=False at `at`: the others' too, when at other instants. */
  private notReadyText(all: readonly TimelineStop[], at: Micros, released: Micros): string {
    return withOthers(`the timeline sets Ready to False at ${formatTime(at)}`, all, at, released);
  }

  /**
   * A node whose kubelet the timeline stops at `stop`, queued at the pass `queuedAt`: when the zone's
   * queue releases it with the zone's other nodes on their way counted, those the timeline stops too
   * (at the same instant they reach the queue at the same pass, and its rate lets one through per
   * token, in the order Add and the requeues give them). The condition names the stop alone when no
   * stop at another instant comes into it.
   */
  protected timelineThroughQueue(zone: string, name: string, stop: Micros, queuedAt: Micros, event: string): { if: string; at: string } | undefined {
    const stops = this.timelineChangesOf(zone);
    const rel = this.releaseWithArrivals(zone, name, queuedAt, stops);
    if (!rel) return undefined;
    return { if: withOthers(event, stops, stop, rel.at), at: formatTime(rel.at) };
  }

  /**
   * 1.12's pod-eviction path: the pass that reads the timeline's Ready=False sets readyTransitionTimestamp
   * to its own time, the first pass past podEvictionTimeout from it Adds the node to its zone's queue
   * (evictPods), and the queue's forecast, with the zone's other nodes on their way, releases it.
   */
  protected timelineNotReadyEvicted(node: NodeRecord, zone: string, at: Micros, pass: Micros): { if: string; at: string; eventAt: string } {
    const name = node.meta.name;
    const queuedAt = this.evictionQueuedAt(pass);
    const all = this.timelineChangesOf(zone);
    const rel = this.releaseWithArrivals(zone, name, queuedAt, all, 'notReadyForecast');
    const eventAt = formatTime(at);
    const event = `the timeline sets Ready to False at ${eventAt}`;
    return rel
      ? { if: this.notReadyText(all, at, rel.at), at: formatTime(rel.at), eventAt }
      : { if: `${event}, and its zone's rate and queue let it through at once`, at: formatTime(queuedAt), eventAt };
  }
}

/**
 * A condition naming the timeline's event at `at`, and its events on the zone's other nodes at other instants that come
 * into the forecast by `released` (they reach the queue, or change the zone's counts, by then).
 */
function withOthers(event: string, all: readonly TimelineStop[], at: Micros, released: Micros): string {
  const others = all.filter((s) => s.stop !== at && (s.queuedAt <= released || (s.counted && s.unknownAt <= released))).length;
  return others ? `${event}, and the timeline's events on ${others} other node${others === 1 ? '' : 's'} of the zone when it says` : event;
}
