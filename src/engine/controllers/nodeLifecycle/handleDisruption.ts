/**
 * handleDisruption (pkg/controller/nodelifecycle/node_lifecycle_controller.go): the zones' states from the zone tally, master
 * disruption mode (every zone fully disrupted), and setLimiterInZone /
 * SwapLimiter on the zone queues.
 */
import { formatTime } from '../../model/time';
import { zoneRef } from '../../model/types';
import type { ZoneStateName } from '../../simulation/api';
import type { Check, MachineTransition } from '../../trace/decision';
import type { ControllerHost } from '../controllerHost';
import { zoneLimiterQPS } from './guards';
import { cancelPodEviction } from './podEviction';
import { effectiveRate } from './rateLimitedQueue';
import type { ZoneEvent } from './machines';
import { NodeLifecycleState, type PassContext, showRate } from './state';
import { sendZoneEvent } from './zoneMachines';
import { markNodeAsReachable } from './taintBasedEviction';

export function handleDisruption(nlc: NodeLifecycleState, host: ControllerHost, ctx: PassContext): void {
  const cfg = host.config;
  // zoneToNodeConditions: every node's last evaluation, less the nodes whose evaluation failed in this pass
  const counts = new Map<string, { total: number; notReady: number }>();
  for (const [z, c] of nlc.tally) counts.set(z, { ...c });
  for (const name of ctx.skipped) {
    const k = nlc.tracks.get(name)?.counted;
    if (!k) continue;
    const c = counts.get(k.zone)!;
    c.total--;
    if (k.notReady) c.notReady--;
    if (c.total === 0) counts.delete(k.zone);
  }
  // newZoneStates: each zone machine's answer to its counts (ComputeZoneState's guards), not yet taken
  const newStates = new Map<string, ZoneStateName>();
  let allAre = true;
  for (const [z, c] of counts) {
    if (!nlc.zoneActors.has(z)) nlc.addPodEvictorForNewZone(z);
    const s = nlc.zoneAnswers.ask(z, nlc.zoneActors.get(z)!, c.total - c.notReady, c.notReady, cfg.unhealthyZoneThreshold);
    newStates.set(z, s);
    if (s !== 'FullDisruption') allAre = false;
  }
  let allWas = true;
  for (const z of [...nlc.zoneActors.keys()].sort()) {
    if (!counts.has(z)) {
      // a zone with no nodes left is dropped (its queue stays, as upstream never deletes it)
      nlc.zoneActors.get(z)!.stop();
      nlc.zoneActors.delete(z);
      nlc.zonesMayBeMissing = true;
      nlc.transitions.delete(`zone/${z}`);
      continue;
    }
    if (nlc.zoneActors.get(z)!.state() !== 'FullDisruption') allWas = false;
  }
  nlc.zoneCounts = counts;
  if (allAre && allWas) return;
  const names = nlc.nodeNames(host);
  const zonesSorted = [...nlc.zoneActors.keys()].sort();
  if (allAre) {
    const tr = nlc.monitor.send({ type: 'ENTER_MASTER_DISRUPTION' });
    if (tr) nlc.transitions.set(tr.id, tr);
    for (const name of names) {
      const node = host.cluster.nodes.get(name)!;
      if (nlc.rules.taintBasedEvictions) markNodeAsReachable(nlc, host, node, 'all zones are fully disrupted (master disruption mode)');
      else cancelPodEviction(nlc, host, node, 'all zones are fully disrupted (master disruption mode)');
    }
    const because: Check[] = [
      {
        rule: 'every zone has no Ready node: the controller assumes a control-plane problem and stops all evictions',
        values: { zones: zonesSorted.map(zoneRef) },
      },
    ];
    for (const z of zonesSorted) {
      const taken = sendZone(nlc, host, z, { type: 'ALL_ZONES_FULLY_DISRUPTED' }, because, counts.get(z)!, ctx);
      swapLimiter(nlc, host, z, 0, because, taken.transition, taken.seq);
    }
    return;
  }
  if (allWas) {
    const tr = nlc.monitor.send({ type: 'EXIT_MASTER_DISRUPTION' });
    nlc.slots.unsettleAll(); // every probe moves to now
    if (tr) nlc.transitions.set(tr.id, tr);
    const now = host.now;
    for (const name of names) {
      const h = nlc.health.get(name);
      if (!h) continue;
      h.probe = now;
      h.readyTransition = now;
      const t = nlc.tracks.get(name);
      if (t && nlc.isReady(name, t)) nlc.arm(name, now + cfg.nodeMonitorGracePeriod);
    }
    const because: Check[] = [
      {
        rule: "some node is Ready again: leaving master disruption mode; every node's probeTimestamp and readyTransitionTimestamp are reset to now",
        values: { now: formatTime(now), nodes: names.length },
      },
    ];
    for (const z of zonesSorted) {
      const c = counts.get(z)!;
      // every zone's limiter, from its machine's transition (a zone that stays FullDisruption too)
      const taken = sendZone(
        nlc,
        host,
        z,
        { type: 'ZONE_HEALTH', ready: c.total - c.notReady, notReady: c.notReady, unhealthyZoneThreshold: cfg.unhealthyZoneThreshold },
        because,
        c,
        ctx,
      );
      setLimiterInZone(nlc, host, z, c.total, taken.transition, taken.seq);
    }
    return;
  }
  for (const z of zonesSorted) {
    const c = counts.get(z)!;
    // the machine answered that the zone stays as it is: nothing to take, the limiter stays
    if (nlc.zoneActors.get(z)!.state() === newStates.get(z)) continue;
    const taken = sendZone(
      nlc,
      host,
      z,
      { type: 'ZONE_HEALTH', ready: c.total - c.notReady, notReady: c.notReady, unhealthyZoneThreshold: cfg.unhealthyZoneThreshold },
      [],
      c,
      ctx,
    );
    setLimiterInZone(nlc, host, z, c.total, taken.transition, taken.seq);
  }
}

/** Sends a zone machine its event; the transition it took (its guards attached), and the ZoneStateChanged decision's seq when the state changed. */
export function sendZone(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  zone: string,
  e: ZoneEvent,
  extra: Check[],
  c: { total: number; notReady: number },
  ctx: PassContext,
): { transition: MachineTransition; seq?: number } {
  const tr = sendZoneEvent(nlc.zoneActors.get(zone)!, e);
  if (tr.from === tr.to) return { transition: tr };
  const ratio = c.total ? Math.fround(Math.fround(c.notReady) / Math.fround(c.total)) : 0;
  const seq = nlc.decide(host, {
    action: 'ZoneStateChanged',
    object: zoneRef(zone),
    summary: `Zone ${zoneRef(zone)} is now ${tr.to} (was ${tr.from})`,
    because: [
      {
        rule: 'ComputeZoneState: FullDisruption when no node is Ready; PartialDisruption when more than 2 are not Ready and notReady/all >= unhealthyZoneThreshold; else Normal',
        values: {
          nodes: c.total,
          ready: c.total - c.notReady,
          notReady: c.notReady,
          ratio: Number(ratio.toFixed(4)),
          unhealthyZoneThreshold: host.config.unhealthyZoneThreshold,
        },
      },
      ...extra,
    ],
    causes: nlc.causes(...(ctx.readyChanges.get(zone) ?? []).slice(-20)),
    machine: tr,
    source: nlc.src('handleDisruption'),
  });
  host.remember(zoneRef(zone), 'zone-state', seq);
  return { transition: tr, seq };
}

/**
 * setLimiterInZone: Normal -> nodeEvictionRate; PartialDisruption -> ReducedQPSFunc(zone size); FullDisruption -> HealthyQPSFunc.
 * The state is the one the zone machine's transition reached: that transition (with ComputeZoneState's guards) is the
 * EvictionRateChanged decision's machine.
 */
export function setLimiterInZone(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  zone: string,
  zoneSize: number,
  taken: MachineTransition,
  cause?: number,
): void {
  const l = zoneLimiterQPS(taken.to as ZoneStateName, zoneSize, host.config);
  if (!l) return;
  swapLimiter(nlc, host, zone, l.qps, [{ rule: l.rule, values: l.values }], taken, cause);
}

/** SwapLimiter of the zone's queue, as the zone machine's transition `taken` set it. */
export function swapLimiter(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  zone: string,
  qps: number,
  because: Check[],
  taken: MachineTransition,
  cause?: number,
): void {
  const q = nlc.queues.get(zone);
  if (!q) return;
  const from = showRate(effectiveRate(q.limiter));
  if (!q.swapLimiter(qps, host.now)) return;
  nlc.decide(host, {
    action: 'EvictionRateChanged',
    object: zoneRef(zone),
    summary: `${nlc.rules.taintBasedEvictions ? 'Tainting' : 'Eviction'} rate of ${zoneRef(zone)}: ${from} -> ${showRate(effectiveRate(q.limiter))} nodes/s`,
    because: [
      ...because,
      { rule: 'SwapLimiter: a new token bucket (burst 1), drained if the old one had no token', values: { from, to: showRate(effectiveRate(q.limiter)) } },
    ],
    causes: nlc.causes(cause),
    machine: taken,
    source: nlc.src('setLimiterInZone'),
  });
}
