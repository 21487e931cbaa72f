/**
 * Why a node is not tainted NoExecute yet, or its pods not evicted yet (the
 * NodeTaintedNoExecute and NodePodsEvicted outcomes): the checks of
 * processTaintBaseEviction / processNoTaintBaseEviction, handleDisruption and
 * the zone's queue (setLimiterInZone, the token bucket), as data
 * (trace/whyNot.ts). whyNot.ts extends it with the pod and zone why-nots.
 */
import type { Micros } from '../../model/time';
import { formatDuration, formatTime } from '../../model/time';
import type { NodeRecord } from '../../model/types';
import { nodeRef, zoneRef } from '../../model/types';
import { whyNotFrom, type WhyNot, type WhyNotCheck, type WhyNotOutcome } from '../../trace/whyNot';
import { nodeHealthMachine, type NodeHealthEvent } from './machines';
import { releaseOf } from './queueForecast';
import { nothingForDeletePods } from './deletePodsCheck';
import { podEvictionTimeoutElapsed, zoneLimiterQPS, zoneStateByGuards } from './guards';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE, findCondition, taintExists } from './taints';
import { readyAgainBound, repostAfter, repostOfReady } from './kubeletLapse';
import { FILE, TIMELINE_STOPS_KUBELET } from './whyNotStatusUnknown';
import { rate, ZoneQueueWhyNot } from './whyNotZoneQueue';

/** A node machine guard, called by its `setup()` name. */
function nodeGuard(name: 'readyIsTrue' | 'readyIsFalse' | 'readyIsUnknown', event: NodeHealthEvent): boolean {
  const guard = (nodeHealthMachine.implementations.guards as Record<string, (a: { context: unknown; event: NodeHealthEvent }, p: unknown) => boolean>)[name];
  return guard({ context: undefined, event }, undefined);
}

export class TaintedOrEvictedWhyNot extends ZoneQueueWhyNot {
  // ---------------------------------------------------------------- the zone's queue

  protected masterCheck(): WhyNotCheck {
    return {
      guard: 'notInMasterDisruption',
      upstream: `handleDisruption (${FILE})`,
      holds: !this.c.inMasterDisruption(),
      rule: 'not every zone is in FullDisruption',
      unmet: 'all zones are in FullDisruption: the controller stops all evictions and removes the taints (master disruption mode)',
    };
  }

  /**
   * The first node counted in the disruption checks (of `zone`, or any) whose kubelet re-posts Ready=True (one that posts
   * too seldom, after the controller's Unknown: kubeletLapse.ts), and the pass that reads it: in master disruption mode,
   * its zone is no longer wholly down from there; a zone's counts change there. Undefined when none does.
   */
  private readyAgain(zone?: string): { node: string; repost: Micros; at: Micros } | undefined {
    return this.remember(`readyAgain|${zone ?? ''}`, () => {
      let best: { node: string; repost: Micros; at: Micros } | undefined;
      for (const node of this.host.cluster.nodes.values()) {
        const name = node.meta.name;
        const k = this.kubelet(name);
        const repost = k && repostOfReady(k);
        if (repost === undefined || this.c.trackOf(name)?.excluded) continue;
        if (zone !== undefined && this.zoneOf(node) !== zone) continue;
        if (findCondition(node.conditions, 'Ready')?.status === 'True') continue;
        if (!best || repost < best.repost) best = { node: name, repost, at: this.passes.atOrAfter(repost) };
      }
      return best;
    });
  }

  /** The first node of the zone whose kubelet posts too seldom to keep it Ready (kubeletLapse.ts), if any. */
  private flappingIn(zone: string): string | undefined {
    return this.flappingNodes(zone)[0];
  }

  /** Every node of the zone whose kubelet posts too seldom to keep it Ready (kubeletLapse.ts), in the cluster's order. */
  private flappingNodes(zone: string): string[] {
    return this.remember(`flapping|${zone}`, () => {
      const out: string[] = [];
      for (const node of this.host.cluster.nodes.values()) if (this.zoneOf(node) === zone && this.kubelet(node.meta.name)?.lapses) out.push(node.meta.name);
      return out;
    });
  }

  /**
   * The zone's release of `name` with its nodes whose Ready comes and goes out of the queue (each Removed by the pass
   * that reads its re-post), where the zone's state, and so its rate, is the same whichever of them are Ready: then no
   * other way of theirs releases `name` earlier, if nothing else in the zone changes. Undefined otherwise.
   */
  private releaseWithoutFlapping(zone: string, name: string, flapping: readonly string[]): Micros | undefined {
    const counts = this.c.zoneCountsOf(zone);
    if (!counts) return undefined;
    const notReadyNow = flapping.filter((n) => findCondition(this.host.cluster.nodes.get(n)?.conditions ?? [], 'Ready')?.status !== 'True').length;
    const base = counts.notReady - notReadyNow;
    const thr = this.host.config.unhealthyZoneThreshold;
    const state = zoneStateByGuards(counts.total - base, base, thr);
    for (let j = 1; j <= flapping.length; j++) if (zoneStateByGuards(counts.total - base - j, base + j, thr) !== state) return undefined;
    const f = this.c.queueForecast(zone, this.host.now, { without: new Set(flapping) });
    return f ? releaseOf(f, name)?.at : undefined;
  }

  /** setLimiterInZone / ReducedQPSFunc: the zone's queue releases nodes (rate > 0), with the counterfactual that raises it. */
  protected rateCheck(zone: string): { check: WhyNotCheck; counterfactual?: WhyNot['counterfactual'] } {
    const cfg = this.host.config;
    const q = this.c.queueOf(zone);
    const counts = this.c.zoneCountsOf(zone) ?? { total: 0, notReady: 0 };
    const state = this.c.zoneStateOf(zone) ?? 'Initial';
    const r = rate(q, cfg.nodeEvictionRate);
    const byGuards = zoneStateByGuards(counts.total - counts.notReady, counts.notReady, cfg.unhealthyZoneThreshold);
    const limiter = zoneLimiterQPS(state, counts.total, cfg);
    const check: WhyNotCheck = {
      guard: 'zoneLimiterQPS',
      upstream: state === 'PartialDisruption' ? `setLimiterInZone / ReducedQPSFunc (${FILE})` : `setLimiterInZone (${FILE})`,
      holds: r > 0,
      rule:
        r > 0
          ? `the zone's queue releases nodes at its rate (${limiter?.rule ?? 'the initial rate'})`
          : `the zone's rate limiter is at 0: ${limiter?.rule ?? 'rate 0'}`,
      values: {
        zone: zoneRef(zone),
        zoneState: state,
        zoneSize: counts.total,
        notReady: counts.notReady,
        unhealthyZoneThreshold: cfg.unhealthyZoneThreshold,
        largeClusterSizeThreshold: cfg.largeClusterSizeThreshold,
        secondaryNodeEvictionRate: cfg.secondaryNodeEvictionRate,
        nodeEvictionRate: cfg.nodeEvictionRate,
        rate: r,
        ...(byGuards !== state ? { zoneStateByCounts: byGuards } : {}),
      },
    };
    if (r > 0) return { check };
    if (this.c.inMasterDisruption()) return { check };
    if (state === 'PartialDisruption') {
      const set: Record<string, string> = { largeClusterSizeThreshold: String(Math.max(0, counts.total - 1)) };
      if (!(cfg.secondaryNodeEvictionRate > 0)) set.secondaryNodeEvictionRate = '0.01';
      return {
        check,
        counterfactual: {
          kind: 'set',
          set,
          description: `largeClusterSizeThreshold below the zone's ${counts.total} nodes, so that ReducedQPSFunc gives secondaryNodeEvictionRate`,
        },
      };
    }
    return { check, counterfactual: { kind: 'set', set: { nodeEvictionRate: '0.1' }, description: 'nodeEvictionRate above 0' } };
  }

  /**
   * 1.12's pod-eviction path for a node whose kubelet is stopped and whose Ready the timeline sets to False before the
   * pass that would queue it: that event's pass reads Ready changed (from Unknown or True) and sets probeTimestamp and
   * readyTransitionTimestamp to its own time (tryUpdateNodeHealth), so podEvictionTimeout counts again from there, as for
   * a Ready node set False (timelineNotReadyEvicted). It used to leave no time (outage-1.12 with node-a1 stopped at +30s
   * and set Ready=False at +3m: evicted at +8m05s).
   */
  private stoppedThenNotReady(
    node: NodeRecord,
    zone: string,
    status: string,
    queuedAt: Micros,
    rateHolds: boolean,
  ): { if: string; at: string; eventAt: string; pass: Micros } | undefined {
    const name = node.meta.name;
    if (status === 'False' || !rateHolds) return undefined;
    const r = this.world?.readyAt?.(name);
    if (r?.status !== 'False' || this.kubelet(name)?.running !== false) return undefined;
    return this.notReadyBeforeQueued(node, zone, r.at, queuedAt);
  }

  /** timelineNotReadyEvicted for a Ready=False at `at` whose pass comes no later than `queuedAt` (the pass that would queue the node without it) */
  private notReadyBeforeQueued(
    node: NodeRecord,
    zone: string,
    at: Micros,
    queuedAt: Micros,
  ): { if: string; at: string; eventAt: string; pass: Micros } | undefined {
    const pass = this.firstPassWhere((t) => t >= at, at);
    return pass > queuedAt ? undefined : { ...this.timelineNotReadyEvicted(node, zone, at, pass), pass };
  }

  /**
   * The same (stoppedThenNotReady) for a running kubelet the timeline stops and then, before the pass that would queue
   * the node, sets Ready=False: the time counts from the pass that reads False. The condition names the Ready event
   * first: one led by the stop is read as the stop's alone (kubeletResumes.ts), which would take the time away.
   */
  private stopThenNotReady(
    node: NodeRecord,
    zone: string,
    stop: { at: Micros; readyAfter?: { at: number; status: string } },
    queuedAt: Micros,
  ): { if: string; at: string } | undefined {
    const r = stop.readyAfter;
    const x = r?.status === 'False' ? this.notReadyBeforeQueued(node, zone, r.at, queuedAt) : undefined;
    if (!x) return undefined;
    const [event, ...more] = x.if.split(', and ');
    return { if: [`${event} after it stops the kubelet at ${formatTime(stop.at)}`, ...more].join(', and '), at: x.at };
  }

  // ---------------------------------------------------------------- tainted NoExecute

  /** processTaintBaseEviction + doNoExecuteTaintingPass: when the node would get its NoExecute taint. */
  tainted(node: NodeRecord): WhyNot | undefined {
    return this.remember(`tainted|${node.meta.name}`, () => this.taintedNow(node));
  }

  private taintedNow(node: NodeRecord): WhyNot | undefined {
    const name = node.meta.name;
    if (taintExists(node.taints, UNREACHABLE_NO_EXECUTE) || taintExists(node.taints, NOT_READY_NO_EXECUTE)) return undefined;
    const ref = nodeRef(name);
    const what = `Node/${name} tainted NoExecute`;
    const o: WhyNotOutcome = 'NodeTaintedNoExecute';
    const rules = this.c._rules;
    const path: WhyNotCheck[] = [this.enabledCheck()];
    if (!path[0].holds) return whyNotFrom(what, o, ref, path, { never: true });
    path.push({
      guard: 'taintBasedEvictions',
      upstream: `NewNodeLifecycleController: useTaintBasedEvictions = TaintBasedEvictions gate && runTaintManager (${FILE})`,
      holds: rules.taintBasedEvictions,
      rule: 'taint-based evictions are on: the controller adds not-ready/unreachable NoExecute taints',
      unmet:
        'TaintBasedEvictions is off: the node lifecycle controller adds no not-ready/unreachable NoExecute taint at all; it deletes the pods itself through DeletePods after podEvictionTimeout',
      values: {
        TaintBasedEvictions: this.host.config.featureGates.TaintBasedEvictions ?? rules.taintBasedEvictions,
        enableTaintManager: this.host.config.enableTaintManager,
      },
    });
    if (!rules.taintBasedEvictions) {
      // the gate alone is enough only for a node that stays not Ready
      const status = findCondition(node.conditions, 'Ready')?.status ?? 'Unknown';
      if (status === 'True' || !this.steadyNotReady(name, status) || this.c.inMasterDisruption()) return whyNotFrom(what, o, ref, path, { never: true });
      const set: Record<string, string> = { 'featureGates.TaintBasedEvictions': 'true' };
      if (!this.host.config.enableTaintManager) set.enableTaintManager = 'true';
      return whyNotFrom(what, o, ref, path, {
        never: true,
        counterfactual: { kind: 'set', set, description: 'TaintBasedEvictions on (with the taint manager)' },
      });
    }
    return this.throughQueue(node, what, o, path, (t) => t + (this.host.behaviour.unreachableTaintQueuedSamePass ? 0 : this.period));
  }

  /** processNoTaintBaseEviction + doEvictionPass: when the controller would delete the node's pods. */
  podsEvicted(node: NodeRecord): WhyNot | undefined {
    return this.remember(`podsEvicted|${node.meta.name}`, () => this.podsEvictedNow(node));
  }

  private podsEvictedNow(node: NodeRecord): WhyNot | undefined {
    const name = node.meta.name;
    if (this.c.nodeStateOf(name)?.includes('eviction.evicted')) return undefined;
    const ref = nodeRef(name);
    const what = `pods of Node/${name} evicted`;
    const o: WhyNotOutcome = 'NodePodsEvicted';
    const path: WhyNotCheck[] = [this.enabledCheck()];
    if (!path[0].holds) return whyNotFrom(what, o, ref, path, { never: true });
    path.push({
      guard: 'taintBasedEvictions',
      upstream: `NewNodeLifecycleController: useTaintBasedEvictions (${FILE})`,
      holds: !this.c._rules.taintBasedEvictions,
      rule: 'taint-based evictions are off: the controller deletes the pods itself (DeletePods) after podEvictionTimeout',
      unmet: 'taint-based evictions are on: the controller taints the node and the taint eviction controller deletes the pods',
    });
    if (!path[1].holds) return whyNotFrom(what, o, ref, path, { never: true });
    const none = nothingForDeletePods(this.host.cluster, node, this.kubelet(name));
    if (none) return whyNotFrom(what, o, ref, [...path, none], { never: true });
    return this.throughQueue(node, what, o, path, undefined);
  }

  /**
   * The common path of both: master disruption, Ready not True (through its own why-not), the pod
   * eviction timeout (`queuedAfter` undefined) or the pass that queues for tainting, the zone's
   * rate, the token.
   */
  private throughQueue(
    node: NodeRecord,
    what: string,
    o: WhyNotOutcome,
    path: WhyNotCheck[],
    queuedAfterUnknown: ((unknownAt: Micros) => Micros) | undefined,
  ): WhyNot {
    const name = node.meta.name;
    const ref = nodeRef(name);
    const cfg = this.host.config;
    path.push(this.masterCheck());
    if (!path[path.length - 1].holds) {
      // a node's kubelet that re-posts Ready ends the mode at the pass that reads it: nothing comes before that pass
      const end = this.readyAgain();
      if (!end) return whyNotFrom(what, o, ref, path);
      path[path.length - 1].values = { endsAt: formatTime(end.at), readyAgain: end.node, kubeletRepostsAt: formatTime(end.repost) };
      return whyNotFrom(what, o, ref, path, readyAgainBound(end, 'the controller leaves master disruption mode'));
    }
    const zone = this.zoneOf(node);
    const ready = findCondition(node.conditions, 'Ready');
    const status = ready?.status ?? 'Unknown';
    const notTrue = !nodeGuard('readyIsTrue', { type: 'READY_OBSERVED', status: status as 'True' });
    path.push({
      guard: '!readyIsTrue',
      upstream: `processTaintBaseEviction / processNoTaintBaseEviction (${FILE})`,
      holds: notTrue,
      rule: "the node's Ready condition is not True",
      unmet: 'Ready is True',
      values: { Ready: ready?.status ?? 'none' },
    });
    const h = this.c.healthOf(name);
    const rc = this.rateCheck(zone);
    if (!notTrue) {
      const notReady = this.timelineNotReady(node, zone, rc.check.holds);
      if (notReady) {
        path[path.length - 1].values = { ...path[path.length - 1].values, timelineSetsReady: 'False', timelineSetsReadyAt: notReady.eventAt };
        return whyNotFrom(what, o, ref, path, { conditional: { if: notReady.if, at: notReady.at } });
      }
      const via = this.statusUnknown(node);
      // the rest of the way, as it stands now: the zone's rate decides whether the time could come
      const extra: Partial<WhyNot> = { ...(via ? { via } : {}) };
      const unknownAt = via?.wouldFireAt ?? via?.conditional?.at;
      const probeSeen = this.probeUsed ?? h?.probe;
      if (unknownAt && probeSeen !== undefined) {
        const t0 = Date.parse(unknownAt) * 1000;
        const probe = probeSeen;
        const eventually = queuedAfterUnknown
          ? queuedAfterUnknown(t0)
          : this.firstPassWhere((t) => podEvictionTimeoutElapsed(t, probe, cfg.podEvictionTimeout), probe + cfg.podEvictionTimeout);
        // a kubelet that posts too seldom re-posts Ready at its next tick: the taint, if it comes, goes then (kubeletLapse.ts;
        // a running kubelet's Unknown has a time only when it lapses)
        const k = this.kubelet(name);
        const repost = via?.wouldFireAt && k?.running ? repostAfter(k, t0) : undefined;
        // its kubelet stopped now and the node not Unknown yet: a Ready=False before the pass that would queue it counts again
        const reset = via?.wouldFireAt && !queuedAfterUnknown ? this.stoppedThenNotReady(node, zone, status, eventually, rc.check.holds) : undefined;
        if (reset) extra.conditional = { if: reset.if, at: reset.at };
        else if (via?.wouldFireAt && rc.check.holds && repost === undefined) {
          const rel = this.releaseAt(zone, name, eventually, true, this.zoneKeepsItsState(zone, name));
          if (rel.at !== undefined && rel.certain) extra.wouldFireAt = formatTime(rel.at);
        }
        const stop = !via?.wouldFireAt && rc.check.holds ? this.world?.stopsAt?.(name) : undefined;
        if (stop && via?.conditional?.if.startsWith(TIMELINE_STOPS_KUBELET)) {
          const after = queuedAfterUnknown ? undefined : this.stopThenNotReady(node, zone, stop, eventually);
          const stopped = after ?? this.timelineThroughQueue(zone, name, stop.at, eventually, via.conditional.if);
          if (stopped) extra.conditional = stopped;
        }
        if (!extra.wouldFireAt && !extra.conditional) {
          extra.conditional = {
            if:
              `${via?.wouldFireAt ? 'the node goes Unknown then' : (via?.conditional?.if ?? 'the node goes Unknown')}, and its zone's rate and queue let it through at once` +
              (repost !== undefined ? `, before its kubelet re-posts Ready at ${formatTime(repost)}` : ''),
            at: formatTime(eventually),
          };
        }
        if (!rc.check.holds) path.push(rc.check);
      }
      return whyNotFrom(what, o, ref, path, extra);
    }
    if (!h || !this.c.isKnown(name)) {
      path.push({
        guard: 'isKnown',
        upstream: `monitorNodeHealth (${FILE})`,
        holds: false,
        rule: 'the controller has evaluated the node',
        unmet: 'the controller has not evaluated the node yet',
        values: { nextMonitorPass: formatTime(this.c.nextMonitor()) },
      });
      return whyNotFrom(what, o, ref, path);
    }
    const q = this.c.queueOf(zone);
    const steady = this.steadyNotReady(name, status);
    const at = (t: Micros, rel: { at?: Micros; certain: boolean }, ifText: string): Partial<WhyNot> =>
      rel.at !== undefined && rel.certain && steady ? { wouldFireAt: formatTime(rel.at) } : { conditional: { if: ifText, at: formatTime(t) } };
    let queuedAt: Micros | undefined;
    if (!queuedAfterUnknown) {
      const since = status === 'False' ? h.readyTransition : h.probe;
      const sinceName = status === 'False' ? 'readyTransitionTimestamp' : 'probeTimestamp';
      const elapsed = podEvictionTimeoutElapsed(this.host.now, since, cfg.podEvictionTimeout) || !!q?.has(name);
      path.push({
        guard: 'podEvictionTimeoutElapsed',
        upstream: `processNoTaintBaseEviction (${FILE})`,
        holds: elapsed,
        rule: `now > ${sinceName} + podEvictionTimeout`,
        unmet: `podEvictionTimeout has not elapsed since ${sinceName}`,
        values: {
          [sinceName]: formatTime(since),
          podEvictionTimeout: formatDuration(cfg.podEvictionTimeout),
          deadline: formatTime(since + cfg.podEvictionTimeout),
        },
      });
      if (!elapsed) {
        queuedAt = this.podEvictionQueuedAt(name, h, ready);
        const reset = this.stoppedThenNotReady(node, zone, status, queuedAt, rc.check.holds);
        if (reset) {
          const check = path[path.length - 1];
          check.values = { ...check.values, timelineSetsReady: 'False', timelineSetsReadyAt: reset.eventAt, passReadingIt: formatTime(reset.pass) };
          return whyNotFrom(what, o, ref, path, { conditional: { if: reset.if, at: reset.at } });
        }
      }
    } else if (!q?.has(name)) {
      // Before 1.34 the pass that sets Unknown decides on the status it read before: it is queued one pass later.
      queuedAt = this.c.nextMonitor();
    }
    if (!rc.check.holds) {
      path.push(rc.check);
      // a node of the zone whose kubelet posts too seldom comes and goes (kubeletLapse.ts): the zone's state, and its rate, with it
      const flapping = this.flappingIn(zone);
      if (flapping) {
        rc.check.values = { ...rc.check.values, readyComesAndGoes: flapping };
        // one of them Ready again changes the zone's state at the pass that reads it: nothing comes before that pass
        const back = this.readyAgain(zone);
        if (!back) return whyNotFrom(what, o, ref, path);
        return whyNotFrom(what, o, ref, path, readyAgainBound(back, "the zone's state changes"));
      }
      const risen = this.rateRisesOnTheWay(zone, name, q?.isQueued(name) ? undefined : (queuedAt ?? this.host.now), status);
      if (risen) {
        rc.check.values = { ...rc.check.values, rateOnTheWay: risen.swaps };
        return whyNotFrom(what, o, ref, path, risen.answer);
      }
      return whyNotFrom(what, o, ref, path, { never: true, ...(rc.counterfactual && steady ? { counterfactual: rc.counterfactual } : {}) });
    }
    if (queuedAt !== undefined) {
      // not queued yet: its token is taken at the pass that queues it, if the bucket has one then
      if (queuedAfterUnknown) {
        path.push({
          guard: 'queuedForTainting',
          upstream: `markNodeForTainting (${FILE})`,
          holds: false,
          rule: 'the node is queued for tainting at the next monitor pass (before 1.34 the pass that set Unknown decided on the Ready it read before)',
          values: { nextMonitorPass: formatTime(queuedAt) },
        });
      }
      const rel = this.releaseAt(zone, name, queuedAt, steady);
      return whyNotFrom(what, o, ref, path, at(queuedAt, rel, "its zone's rate and queue let it through at once"));
    }
    path.push(rc.check);
    const rel = this.releaseAt(zone, name, this.host.now, steady);
    path.push(rel.check);
    if (rel.at === undefined) return whyNotFrom(what, o, ref, path);
    // another node of the zone whose Ready comes and goes (kubeletLapse.ts) changes its state and rate on the way, either
    // way: the condition says so (zone-large-partial, HUNT_PARTIAL seed 80: node-a1 started only: status, node-a11 said
    // tainted at +4m30.2s if nothing else changed, tainted at +2m50.1s); no time at all would tell less
    const flapping = this.flappingIn(zone);
    if (flapping !== undefined && flapping !== name && !rel.certain) {
      rel.check.values = { ...rel.check.values, readyComesAndGoes: flapping };
      // out of the queue whenever its turn comes (Ready again then), it takes no token: the earliest the rest allows
      // (zone-large-partial, HUNT_PARTIAL seed 80: node-a1 queued ahead of node-a11 by name at +1m55s, Removed at +2m)
      const others = this.flappingNodes(zone).filter((n) => n !== name);
      const early = this.releaseWithoutFlapping(zone, name, others);
      if (early !== undefined && early < rel.at) {
        rel.check.values = { ...rel.check.values, releasedWithout: formatTime(early) };
        const one = others.length === 1;
        const ifOut =
          `nothing else in the zone changes, and ${others.join(', ')}, whose Ready comes and goes with ${one ? 'its' : 'their'} kubelet's posts, ` +
          `${one ? 'is' : 'are'} out of the queue whenever ${one ? 'its' : 'their'} turn comes (at ${formatTime(rel.at)} if ${one ? 'it takes' : 'they take'} a token first)`;
        return whyNotFrom(what, o, ref, path, { conditional: { if: ifOut, at: formatTime(early) } });
      }
      const flaps = `nothing else in the zone changes (unlikely: the Ready of ${flapping} comes and goes with its kubelet's posts)`;
      return whyNotFrom(what, o, ref, path, at(rel.at, rel, flaps));
    }
    return whyNotFrom(what, o, ref, path, at(rel.at, rel, 'nothing else in the zone changes'));
  }
}
