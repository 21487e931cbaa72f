/**
 * The node lifecycle controller's "why not (yet)", as data (trace/whyNot.ts):
 * for a node, a pod or a zone, the checks on the way to the outcome in the
 * order monitorNodeHealth, processTaintBaseEviction /
 * processNoTaintBaseEviction, handleDisruption and the zone queues make them,
 * each the answer of the guard the controller decides with (guards.ts, the
 * machines' guards by name, the token bucket), and the first pass at which the
 * false one would hold if nothing else changed.
 *
 * A time is named as certain (`wouldFireAt`) only when nothing but the
 * timeline could change it: the node's kubelet is stopped, and no other node
 * of its zone goes Unknown before it (which could change the zone's state and
 * its rate). Otherwise the time is conditional, and says on what.
 */
import type { ControllerHost } from '../controllerHost';
import type { Micros } from '../../model/time';
import { formatDuration, formatTime } from '../../model/time';
import type { NodeRecord, ObjectRef, PodRecord } from '../../model/types';
import { nodeRef, zoneRef } from '../../model/types';
import { zoneKeyOf } from '../../model/zones';
import type { ZoneStateName } from '../../simulation/api';
import { whyNotFrom, type KubeletFacts, type WhyNot, type WhyNotCheck, type WhyNotOutcome, type WhyNotWorld } from '../../trace/whyNot';
export type { WhyNotWorld } from '../../trace/whyNot';
import { nodeHealthMachine, type NodeHealthEvent } from './machines';
import { effectiveRate, wouldAllow, type RateLimitedTimedQueue } from './rateLimitedQueue';
import { daemonSetOf, deletePodsDeletes, podEvictionTimeoutElapsed, probeExpired, zoneLimiterQPS, zoneStateByGuards } from './guards';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE, findCondition, taintExists } from './taints';
import type { NodeLifecycleRules } from './versionRules';

/** What the why-not reads of the controller's memory (NodeLifecycleController implements it). */
export interface NodeLifecycleMemory {
  readonly _rules: NodeLifecycleRules;
  enabled(host: ControllerHost): boolean;
  isKnown(name: string): boolean;
  healthOf(name: string): { probe: Micros; readyTransition: Micros } | undefined;
  trackOf(name: string): { zone: string; excluded?: string } | undefined;
  inMasterDisruption(): boolean;
  queueOf(zone: string): RateLimitedTimedQueue | undefined;
  zoneStateOf(zone: string): ZoneStateName | undefined;
  zoneCountsOf(zone: string): { total: number; notReady: number } | undefined;
  nextMonitor(): Micros;
  nodeStateOf(name: string): string | undefined;
  nextTokenOf(zone: string, now: Micros): Micros | undefined;
}

const FILE = 'node_lifecycle_controller.go';
const rate = (q: RateLimitedTimedQueue | undefined, fallback: number): number => (q ? Number(effectiveRate(q.limiter).toFixed(6)) : fallback);

/** A node machine guard, called by its `setup()` name. */
function nodeGuard(name: 'readyIsTrue' | 'readyIsFalse' | 'readyIsUnknown', event: NodeHealthEvent): boolean {
  const guard = (nodeHealthMachine.implementations.guards as Record<string, (a: { context: unknown; event: NodeHealthEvent }, p: unknown) => boolean>)[name];
  return guard({ context: undefined, event }, undefined);
}

class NodeWhyNot {
  constructor(private readonly c: NodeLifecycleMemory, private readonly host: ControllerHost, private readonly world: WhyNotWorld | undefined) {}

  private get period(): number { return Math.max(1, this.host.config.nodeMonitorPeriod); }

  /** The first monitor pass (from the next one on) at which `guard` holds; `deadline` lets it skip ahead. */
  private firstPassWhere(guard: (t: Micros) => boolean, deadline: Micros): Micros {
    const next = this.c.nextMonitor();
    let t = next;
    if (deadline > next) t = next + Math.floor((deadline - next) / this.period) * this.period;
    for (let i = 0; i < 1000 && !guard(t); i++) t += this.period;
    return t;
  }

  private enabledCheck(): WhyNotCheck {
    return { guard: 'enabled', upstream: 'NewControllerInitializers (--controllers)', holds: this.c.enabled(this.host), rule: 'the nodelifecycle controller runs', unmet: 'the nodelifecycle controller is disabled by --controllers', values: { controllers: [...this.host.config.controllers].sort() } };
  }

  private zoneOf(node: NodeRecord): string {
    return this.c.trackOf(node.meta.name)?.zone ?? zoneKeyOf(node);
  }

  private kubelet(name: string): KubeletFacts | undefined {
    return this.world?.kubelet(name);
  }

  /**
   * Whether nothing else of the zone can come first by `t`: no other node not Ready is still on
   * its way to the same queue (it may take the token first), and none with its kubelet stopped
   * goes Unknown on the way (the zone's counts, state and rate would change). Otherwise a time
   * through the zone's queue is not certain.
   */
  private zoneSteadyUntil(zone: string, self: string, t: Micros): boolean {
    for (const node of this.host.cluster.nodes.values()) {
      const name = node.meta.name;
      if (name === self || this.zoneOf(node) !== zone) continue;
      const ready = findCondition(node.conditions, 'Ready');
      if (ready && ready.status !== 'True') {
        // another node on its way to the same queue may take the token first
        const state = this.c.nodeStateOf(name) ?? '';
        if (!state.includes('eviction.tainted') && !state.includes('eviction.evicted')) return false;
        continue;
      }
      if (this.kubelet(name)?.running !== false) continue;
      const h = this.c.healthOf(name);
      if (!h) return false;
      const grace = ready ? this.host.config.nodeMonitorGracePeriod : this.host.config.nodeStartupGracePeriod;
      if (this.firstPassWhere((x) => probeExpired(x, h.probe, grace), h.probe + grace) <= t) return false;
    }
    return true;
  }

  /**
   * ComputeZoneState (the zone machine's guards) with this Ready node counted as not Ready: the
   * same state, so the zone's rate stays as it is when the node goes. A node left out of the
   * disruption checks changes no count.
   */
  private zoneKeepsItsState(zone: string, name: string): boolean {
    if (this.c.trackOf(name)?.excluded) return true;
    const counts = this.c.zoneCountsOf(zone);
    const state = this.c.zoneStateOf(zone);
    if (!counts || !state) return false;
    const ready = counts.total - counts.notReady;
    return zoneStateByGuards(ready - 1, counts.notReady + 1, this.host.config.unhealthyZoneThreshold) === state;
  }

  // ---------------------------------------------------------------- Ready -> Unknown

  /** the probeTimestamp the last statusUnknown() counted from (a post not seen yet moves it to the next pass) */
  private probeUsed: Micros | undefined;

  /** Whether the node's Ready stays not True until the timeline changes it: a kubelet that posts False, or none that posts. */
  private steadyNotReady(name: string, status: string): boolean {
    return status === 'False' || this.kubelet(name)?.running === false;
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
    path.push({ guard: 'isKnown', upstream: `monitorNodeHealth (${FILE})`, holds: this.c.isKnown(name) && !!h, rule: 'the controller has evaluated the node in a monitor pass', unmet: 'the controller has not evaluated the node yet (its first monitor pass is ahead)', values: { nextMonitorPass: formatTime(this.c.nextMonitor()) } });
    if (!h || !path[1].holds) return whyNotFrom(what, 'NodeStatusUnknown', ref, path);
    const grace = ready ? this.host.config.nodeMonitorGracePeriod : this.host.config.nodeStartupGracePeriod;
    const graceName = ready ? 'nodeMonitorGracePeriod' : 'nodeStartupGracePeriod';
    const k = this.kubelet(name);
    if (k?.running) {
      // A post the controller has not seen yet moves the probe to the next pass.
      const seen = Math.max(ready?.lastHeartbeatTime ?? 0, this.host.cluster.leases.get(name)?.renewTime ?? 0);
      const probe = seen > h.probe ? this.c.nextMonitor() : h.probe;
      this.probeUsed = probe;
      const at = this.firstPassWhere((t) => probeExpired(t, probe, grace), probe + grace);
      path.push({
        guard: 'kubeletStopped', upstream: `tryUpdateNodeHealth (${FILE}): every heartbeat or Lease renewal moves probeTimestamp to now`, holds: false,
        rule: `the node's kubelet is running: it ${(k.does ?? ['posts']).join(' and ')}; Ready stays as it is as long as it does`,
        values: {
          ...(k.lastPost !== undefined ? { lastPost: formatTime(k.lastPost) } : {}),
          ...(k.nextPost !== undefined ? { nextPost: formatTime(k.nextPost) } : {}),
          ...(k.nextRenew !== undefined ? { nextLeaseRenewal: formatTime(k.nextRenew) } : {}),
          probeTimestamp: formatTime(probe), [graceName]: formatDuration(grace),
        },
      });
      return whyNotFrom(what, 'NodeStatusUnknown', ref, path, {
        conditional: { if: 'the kubelet stopped now', at: formatTime(at) },
        counterfactual: { kind: 'stopKubelet', node: name, description: `the kubelet of ${name} stops now` },
      });
    }
    this.probeUsed = h.probe;
    const at = this.firstPassWhere((t) => probeExpired(t, h.probe, grace), h.probe + grace);
    path.push({
      guard: 'probeExpired', upstream: `tryUpdateNodeHealth (${FILE})`, holds: false,
      rule: `no heartbeat for longer than ${graceName}: now > probeTimestamp + grace`,
      values: { probeTimestamp: formatTime(h.probe), [graceName]: formatDuration(grace), deadline: formatTime(h.probe + grace) },
    });
    return whyNotFrom(what, 'NodeStatusUnknown', ref, path, k ? { wouldFireAt: formatTime(at) } : { conditional: { if: 'no heartbeat arrives', at: formatTime(at) } });
  }

  // ---------------------------------------------------------------- the zone's queue

  private masterCheck(): WhyNotCheck {
    return {
      guard: 'notInMasterDisruption', upstream: `handleDisruption (${FILE})`, holds: !this.c.inMasterDisruption(),
      rule: 'not every zone is in FullDisruption',
      unmet: 'all zones are in FullDisruption: the controller stops all evictions and removes the taints (master disruption mode)',
    };
  }

  /** setLimiterInZone / ReducedQPSFunc: the zone's queue releases nodes (rate > 0), with the counterfactual that raises it. */
  private rateCheck(zone: string): { check: WhyNotCheck; counterfactual?: WhyNot['counterfactual'] } {
    const cfg = this.host.config;
    const q = this.c.queueOf(zone);
    const counts = this.c.zoneCountsOf(zone) ?? { total: 0, notReady: 0 };
    const state = this.c.zoneStateOf(zone) ?? 'Initial';
    const r = rate(q, cfg.nodeEvictionRate);
    const byGuards = zoneStateByGuards(counts.total - counts.notReady, counts.notReady, cfg.unhealthyZoneThreshold);
    const limiter = zoneLimiterQPS(state, counts.total, cfg);
    const check: WhyNotCheck = {
      guard: 'zoneLimiterQPS', upstream: state === 'PartialDisruption' ? `setLimiterInZone / ReducedQPSFunc (${FILE})` : `setLimiterInZone (${FILE})`,
      holds: r > 0,
      rule: r > 0 ? `the zone's queue releases nodes at its rate (${limiter?.rule ?? 'the initial rate'})` : `the zone's rate limiter is at 0: ${limiter?.rule ?? 'rate 0'}`,
      values: {
        zone: zoneRef(zone), zoneState: state, zoneSize: counts.total, notReady: counts.notReady, unhealthyZoneThreshold: cfg.unhealthyZoneThreshold,
        largeClusterSizeThreshold: cfg.largeClusterSizeThreshold, secondaryNodeEvictionRate: cfg.secondaryNodeEvictionRate, nodeEvictionRate: cfg.nodeEvictionRate, rate: r,
        ...(byGuards !== state ? { zoneStateByCounts: byGuards } : {}),
      },
    };
    if (r > 0) return { check };
    if (this.c.inMasterDisruption()) return { check };
    if (state === 'PartialDisruption') {
      const set: Record<string, string> = { largeClusterSizeThreshold: String(Math.max(0, counts.total - 1)) };
      if (!(cfg.secondaryNodeEvictionRate > 0)) set.secondaryNodeEvictionRate = '0.01';
      return { check, counterfactual: { kind: 'set', set, description: `largeClusterSizeThreshold below the zone's ${counts.total} nodes, so that ReducedQPSFunc gives secondaryNodeEvictionRate` } };
    }
    return { check, counterfactual: { kind: 'set', set: { nodeEvictionRate: '0.1' }, description: 'nodeEvictionRate above 0' } };
  }

  /**
   * When the zone's queue would release `name`: at `t` (a pass at which it is queued) or at its
   * token; certain only with nothing ahead of it and the zone steady (looked at only when `asked`:
   * it walks the zone's nodes, and views ask for many nodes at once).
   */
  private releaseAt(zone: string, name: string, t: Micros, asked = true): { at?: Micros; certain: boolean; check: WhyNotCheck } {
    const q = this.c.queueOf(zone);
    const queued = q?.queued() ?? [];
    const ahead = Math.max(0, queued.findIndex((i) => i.value === name));
    const others = queued.filter((i) => i.value !== name).length;
    let at: Micros | undefined;
    if (q && q.isQueued(name) && ahead === 0) at = this.c.nextTokenOf(zone, this.host.now);
    else if (q && !q.isQueued(name) && others === 0 && wouldAllow(q.limiter, t)) at = t;
    const certain = asked && at !== undefined && this.zoneSteadyUntil(zone, name, at);
    return {
      at, certain,
      check: {
        guard: 'wouldAllow', upstream: 'RateLimitedTimedQueue.Try / TokenBucketRateLimiter (scheduler/rate_limited_queue.go)', holds: false,
        rule: 'waiting in the zone queue for a token of the rate limiter (burst 1)',
        values: { zone: zoneRef(zone), ahead: q?.isQueued(name) ? ahead : others, ...(at !== undefined ? { nextToken: formatTime(at) } : {}) },
      },
    };
  }

  // ---------------------------------------------------------------- tainted NoExecute

  /** processTaintBaseEviction + doNoExecuteTaintingPass: when the node would get its NoExecute taint. */
  tainted(node: NodeRecord): WhyNot | undefined {
    const name = node.meta.name;
    if (taintExists(node.taints, UNREACHABLE_NO_EXECUTE) || taintExists(node.taints, NOT_READY_NO_EXECUTE)) return undefined;
    const ref = nodeRef(name);
    const what = `Node/${name} tainted NoExecute`;
    const o: WhyNotOutcome = 'NodeTaintedNoExecute';
    const rules = this.c._rules;
    const path: WhyNotCheck[] = [this.enabledCheck()];
    if (!path[0].holds) return whyNotFrom(what, o, ref, path, { never: true });
    path.push({
      guard: 'taintBasedEvictions', upstream: `NewNodeLifecycleController: useTaintBasedEvictions = TaintBasedEvictions gate && runTaintManager (${FILE})`, holds: rules.taintBasedEvictions,
      rule: 'taint-based evictions are on: the controller adds not-ready/unreachable NoExecute taints',
      unmet: 'TaintBasedEvictions is off: the node lifecycle controller adds no not-ready/unreachable NoExecute taint at all; it deletes the pods itself through DeletePods after podEvictionTimeout',
      values: { TaintBasedEvictions: this.host.config.featureGates.TaintBasedEvictions ?? rules.taintBasedEvictions, enableTaintManager: this.host.config.enableTaintManager },
    });
    if (!rules.taintBasedEvictions) {
      // the gate alone is enough only for a node that stays not Ready
      const status = findCondition(node.conditions, 'Ready')?.status ?? 'Unknown';
      if (status === 'True' || !this.steadyNotReady(name, status) || this.c.inMasterDisruption()) return whyNotFrom(what, o, ref, path, { never: true });
      const set: Record<string, string> = { 'featureGates.TaintBasedEvictions': 'true' };
      if (!this.host.config.enableTaintManager) set.enableTaintManager = 'true';
      return whyNotFrom(what, o, ref, path, { never: true, counterfactual: { kind: 'set', set, description: 'TaintBasedEvictions on (with the taint manager)' } });
    }
    return this.throughQueue(node, what, o, path, (t) => t + (this.host.behaviour.unreachableTaintQueuedSamePass ? 0 : this.period));
  }

  /** processNoTaintBaseEviction + doEvictionPass: when the controller would delete the node's pods. */
  podsEvicted(node: NodeRecord): WhyNot | undefined {
    const name = node.meta.name;
    if (this.c.nodeStateOf(name)?.includes('eviction.evicted')) return undefined;
    const ref = nodeRef(name);
    const what = `pods of Node/${name} evicted`;
    const o: WhyNotOutcome = 'NodePodsEvicted';
    const path: WhyNotCheck[] = [this.enabledCheck()];
    if (!path[0].holds) return whyNotFrom(what, o, ref, path, { never: true });
    path.push({
      guard: 'taintBasedEvictions', upstream: `NewNodeLifecycleController: useTaintBasedEvictions (${FILE})`, holds: !this.c._rules.taintBasedEvictions,
      rule: 'taint-based evictions are off: the controller deletes the pods itself (DeletePods) after podEvictionTimeout',
      unmet: 'taint-based evictions are on: the controller taints the node and the taint eviction controller deletes the pods',
    });
    if (!path[1].holds) return whyNotFrom(what, o, ref, path, { never: true });
    return this.throughQueue(node, what, o, path, undefined);
  }

  /**
   * The common path of both: master disruption, Ready not True (through its own why-not), the pod
   * eviction timeout (`queuedAfter` undefined) or the pass that queues for tainting, the zone's
   * rate, the token.
   */
  private throughQueue(node: NodeRecord, what: string, o: WhyNotOutcome, path: WhyNotCheck[], queuedAfterUnknown: ((unknownAt: Micros) => Micros) | undefined): WhyNot {
    const name = node.meta.name;
    const ref = nodeRef(name);
    const cfg = this.host.config;
    path.push(this.masterCheck());
    if (!path[path.length - 1].holds) return whyNotFrom(what, o, ref, path);
    const zone = this.zoneOf(node);
    const ready = findCondition(node.conditions, 'Ready');
    const status = ready?.status ?? 'Unknown';
    const notTrue = !nodeGuard('readyIsTrue', { type: 'READY_OBSERVED', status: status as 'True' });
    path.push({ guard: '!readyIsTrue', upstream: `processTaintBaseEviction / processNoTaintBaseEviction (${FILE})`, holds: notTrue, rule: 'the node\'s Ready condition is not True', unmet: 'Ready is True', values: { Ready: ready?.status ?? 'none' } });
    const h = this.c.healthOf(name);
    const rc = this.rateCheck(zone);
    if (!notTrue) {
      const via = this.statusUnknown(node);
      // the rest of the way, as it stands now: the zone's rate decides whether the time could come
      const extra: Partial<WhyNot> = { ...(via ? { via } : {}) };
      const unknownAt = via?.wouldFireAt ?? via?.conditional?.at;
      if (unknownAt && h) {
        const t0 = Date.parse(unknownAt) * 1000;
        const probe = this.probeUsed ?? h.probe;
        const eventually = queuedAfterUnknown ? queuedAfterUnknown(t0) : this.firstPassWhere((t) => podEvictionTimeoutElapsed(t, probe, cfg.podEvictionTimeout), probe + cfg.podEvictionTimeout);
        if (via?.wouldFireAt && this.zoneKeepsItsState(zone, name) && rc.check.holds) {
          const rel = this.releaseAt(zone, name, eventually);
          if (rel.at === eventually && rel.certain) extra.wouldFireAt = formatTime(eventually);
        }
        if (!extra.wouldFireAt) {
          extra.conditional = {
            if: `${via?.wouldFireAt ? 'the node goes Unknown then' : via?.conditional?.if ?? 'the node goes Unknown'}, and its zone's rate and queue let it through at once`,
            at: formatTime(eventually),
          };
        }
        if (!rc.check.holds) path.push(rc.check);
      }
      return whyNotFrom(what, o, ref, path, extra);
    }
    if (!h || !this.c.isKnown(name)) {
      path.push({ guard: 'isKnown', upstream: `monitorNodeHealth (${FILE})`, holds: false, rule: 'the controller has evaluated the node', unmet: 'the controller has not evaluated the node yet', values: { nextMonitorPass: formatTime(this.c.nextMonitor()) } });
      return whyNotFrom(what, o, ref, path);
    }
    const q = this.c.queueOf(zone);
    const steady = this.steadyNotReady(name, status);
    const at = (t: Micros, rel: { at?: Micros; certain: boolean }, ifText: string): Partial<WhyNot> =>
      (rel.at === t && rel.certain && steady ? { wouldFireAt: formatTime(t) } : { conditional: { if: ifText, at: formatTime(t) } });
    let queuedAt: Micros | undefined;
    if (!queuedAfterUnknown) {
      const since = status === 'False' ? h.readyTransition : h.probe;
      const sinceName = status === 'False' ? 'readyTransitionTimestamp' : 'probeTimestamp';
      const elapsed = podEvictionTimeoutElapsed(this.host.now, since, cfg.podEvictionTimeout) || !!q?.has(name);
      path.push({
        guard: 'podEvictionTimeoutElapsed', upstream: `processNoTaintBaseEviction (${FILE})`, holds: elapsed,
        rule: `now > ${sinceName} + podEvictionTimeout`,
        unmet: `podEvictionTimeout has not elapsed since ${sinceName}`,
        values: { [sinceName]: formatTime(since), podEvictionTimeout: formatDuration(cfg.podEvictionTimeout), deadline: formatTime(since + cfg.podEvictionTimeout) },
      });
      if (!elapsed) queuedAt = this.firstPassWhere((t) => podEvictionTimeoutElapsed(t, since, cfg.podEvictionTimeout), since + cfg.podEvictionTimeout);
    } else if (!q?.has(name)) {
      // Before 1.34 the pass that sets Unknown decides on the status it read before: it is queued one pass later.
      queuedAt = this.c.nextMonitor();
    }
    if (!rc.check.holds) {
      path.push(rc.check);
      return whyNotFrom(what, o, ref, path, { never: true, ...(rc.counterfactual && steady ? { counterfactual: rc.counterfactual } : {}) });
    }
    if (queuedAt !== undefined) {
      // not queued yet: its token is taken at the pass that queues it, if the bucket has one then
      if (queuedAfterUnknown) {
        path.push({ guard: 'queuedForTainting', upstream: `markNodeForTainting (${FILE})`, holds: false, rule: 'the node is queued for tainting at the next monitor pass (before 1.34 the pass that set Unknown decided on the Ready it read before)', values: { nextMonitorPass: formatTime(queuedAt) } });
      }
      const rel = this.releaseAt(zone, name, queuedAt, steady);
      return whyNotFrom(what, o, ref, path, at(queuedAt, rel, 'its zone\'s rate and queue let it through at once'));
    }
    path.push(rc.check);
    const rel = this.releaseAt(zone, name, this.host.now, steady);
    path.push(rel.check);
    if (rel.at === undefined) return whyNotFrom(what, o, ref, path);
    return whyNotFrom(what, o, ref, path, at(rel.at, rel, 'nothing else in the zone changes'));
  }

  // ---------------------------------------------------------------- a pod (no taint-based evictions)

  /** DeletePods: when the controller would delete this pod. */
  podDeleted(pod: PodRecord, node: NodeRecord): WhyNot | undefined {
    const ref: ObjectRef = `Pod/${pod.meta.namespace}/${pod.meta.name}`;
    const what = 'deletion by the node lifecycle controller (pod eviction, DeletePods)';
    const o: WhyNotOutcome = 'PodDeletedByPodEviction';
    const ds = daemonSetOf(this.host.cluster, pod);
    const path: WhyNotCheck[] = [{
      guard: 'deletePodsDeletes', upstream: 'DeletePods (pkg/controller/util/node/controller_utils.go)', holds: deletePodsDeletes(this.host.cluster, pod, node.meta.name),
      rule: ds ? 'DeletePods skips pods managed by a DaemonSet: the pod is never deleted by this path (its status gets NodeLost only)' : pod.meta.deletionTimestamp !== undefined ? 'DeletePods skips pods already being deleted' : 'the pod is not managed by a DaemonSet and not being deleted',
      values: { node: node.meta.name, ...(ds ? { daemonSet: `${pod.meta.namespace}/${ds}` } : {}), ...(pod.meta.deletionTimestamp !== undefined ? { deletionTimestamp: formatTime(pod.meta.deletionTimestamp) } : {}) },
    }];
    if (!path[0].holds) {
      // without the DaemonSet the pod goes with the node's other pods: only when they go
      const nodeGoes = !this.podsEvicted(node) || !!this.podsEvicted(node)?.wouldFireAt;
      return whyNotFrom(what, o, ref, path, { never: true, ...(ds && nodeGoes ? { counterfactual: { kind: 'dropLabels', pod: ref, description: `the pod without labels, so that DaemonSet ${ds} does not select it` } } : {}) });
    }
    const via = this.podsEvicted(node);
    if (!via) return undefined;
    path.push({ ...(via.blocking ?? via.path![via.path!.length - 1]), rule: `${via.what}: ${via.blocking?.rule ?? ''}` });
    return whyNotFrom(what, o, ref, path, {
      via,
      ...(via.never ? { never: true } : {}),
      ...(via.wouldFireAt ? { wouldFireAt: via.wouldFireAt } : {}),
      ...(via.conditional ? { conditional: via.conditional } : {}),
      ...(via.counterfactual ? { counterfactual: via.counterfactual } : {}),
    });
  }

  // ---------------------------------------------------------------- a zone

  zone(zone: string): WhyNot {
    const ref: ObjectRef = zoneRef(zone);
    const what = `Zone/${zone} ${this.c._rules.taintBasedEvictions ? 'tainting' : 'evicting'}`;
    const path: WhyNotCheck[] = [this.enabledCheck(), this.masterCheck()];
    if (!path[0].holds || !path[1].holds) return whyNotFrom(what, 'ZoneEvicting', ref, path);
    const state = this.c.zoneStateOf(zone);
    path.push({ guard: 'zoneState', upstream: `handleDisruption (${FILE})`, holds: state !== undefined, rule: 'the controller has a state for this zone', unmet: 'the controller has no state for this zone (no node in it takes part in disruption checks)' });
    if (!state) return whyNotFrom(what, 'ZoneEvicting', ref, path);
    const q = this.c.queueOf(zone);
    path.push({ guard: 'queued', upstream: `doNoExecuteTaintingPass / doEvictionPass (${FILE})`, holds: !!q?.length, rule: 'a node is queued in the zone', unmet: 'nothing is queued in the zone', values: { zoneState: state, queued: q?.length ?? 0 } });
    if (!q?.length) return whyNotFrom(what, 'ZoneEvicting', ref, path);
    const rc = this.rateCheck(zone);
    path.push(rc.check);
    if (!rc.check.holds) return whyNotFrom(what, 'ZoneEvicting', ref, path, { never: true, ...(rc.counterfactual ? { counterfactual: rc.counterfactual } : {}) });
    const next = this.c.nextTokenOf(zone, this.host.now);
    path.push({ guard: 'wouldAllow', upstream: 'RateLimitedTimedQueue.Try (scheduler/rate_limited_queue.go)', holds: false, rule: 'the zone releases one node per token', values: { zoneState: state, queued: q.length, ...(next !== undefined ? { nextToken: formatTime(next) } : {}) } });
    return whyNotFrom(what, 'ZoneEvicting', ref, path, next !== undefined ? { conditional: { if: 'nothing else in the zone changes', at: formatTime(next) } } : {});
  }
}

/** The node lifecycle controller's why-nots for an object (Node, Pod, Zone). */
export function explainWhyNot(c: NodeLifecycleMemory, host: ControllerHost, object: ObjectRef, world?: WhyNotWorld): WhyNot[] {
  const w = new NodeWhyNot(c, host, world);
  if (!c.enabled(host)) {
    return [{ what: 'node lifecycle controller decisions', check: { rule: 'the nodelifecycle controller is disabled by --controllers', values: { controllers: [...host.config.controllers].sort() } }, never: true }];
  }
  if (object.startsWith('Zone/')) return [w.zone(object.slice(5))];
  if (object.startsWith('Node/')) {
    const node = host.cluster.nodes.get(object.slice(5));
    if (!node) return [];
    const out: WhyNot[] = [];
    const unknown = w.statusUnknown(node);
    if (unknown) out.push(unknown);
    const ahead = c._rules.taintBasedEvictions ? w.tainted(node) : w.podsEvicted(node);
    if (ahead) out.push(ahead);
    return out;
  }
  if (object.startsWith('Pod/')) {
    if (c._rules.taintBasedEvictions) return [];
    const [, ns, name] = object.split('/');
    const pod = host.cluster.pods.get(`${ns}/${name}`);
    const node = pod?.nodeName ? host.cluster.nodes.get(pod.nodeName) : undefined;
    if (!pod || !node) return [];
    const d = w.podDeleted(pod, node);
    return d ? [d] : [];
  }
  return [];
}

/** One outcome about a node, for another controller's why-not to chain to (a pod waits for its node's taint). */
export function nodeWhyNot(c: NodeLifecycleMemory, host: ControllerHost, node: string, outcome: 'NodeTaintedNoExecute' | 'NodePodsEvicted', world?: WhyNotWorld): WhyNot | undefined {
  const n = host.cluster.nodes.get(node);
  if (!n) return undefined;
  const w = new NodeWhyNot(c, host, world);
  return outcome === 'NodeTaintedNoExecute' ? w.tainted(n) : w.podsEvicted(n);
}

/** The pod-eviction path's time for a node (podEvictionDeadlines): certain or conditional. */
export function podEvictionTime(c: NodeLifecycleMemory, host: ControllerHost, node: string): string | undefined {
  const w = nodeWhyNot(c, host, node, 'NodePodsEvicted');
  return w?.wouldFireAt ?? w?.conditional?.at;
}
