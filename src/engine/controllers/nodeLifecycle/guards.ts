/**
 * The node lifecycle controller's checks that decide on time and on pods, as
 * pure functions: the controller decides with them, and whyNot.ts calls the
 * same ones to say which is false and from when it would hold. The zone
 * checks are the zone machine's own guards (machines.ts), called by name.
 */
import type { Micros, Duration } from '../../model/time';
import type { ClusterState } from '../../model/cluster';
import type { PodRecord } from '../../model/types';
import type { ZoneStateName } from '../../simulation/api';
import { compileSelector } from '../../model/labels';
import { healthyQPS, reducedQPS } from './disruption';
import { zoneMachine, type ZoneEvent } from './machines';

/** tryUpdateNodeHealth: `nc.now().After(probeTimestamp.Add(gracePeriod))`: the node's status goes Unknown. */
export function probeExpired(now: Micros, probe: Micros, grace: Duration): boolean {
  return now > probe + grace;
}

/**
 * processNoTaintBaseEviction (1.12: inline in monitorNodeStatus):
 * `readyTransitionTimestamp` (Ready False) or `probeTimestamp` (Unknown) plus
 * podEvictionTimeout is before now: the node's pods are queued for eviction.
 */
export function podEvictionTimeoutElapsed(now: Micros, since: Micros, podEvictionTimeout: Duration): boolean {
  return now > since + podEvictionTimeout;
}

export interface LimiterSettings {
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  largeClusterSizeThreshold: number;
}

/**
 * setLimiterInZone: the rate a zone's queue gets for its state (Normal:
 * nodeEvictionRate; PartialDisruption: ReducedQPSFunc of the zone size;
 * FullDisruption: HealthyQPSFunc), with the rule in words. undefined for
 * Initial, which sets no limiter.
 */
export function zoneLimiterQPS(
  state: ZoneStateName,
  zoneSize: number,
  cfg: LimiterSettings,
): { qps: number; rule: string; values: Record<string, unknown> } | undefined {
  switch (state) {
    case 'Normal':
      return { qps: cfg.nodeEvictionRate, rule: 'Normal zone: the eviction rate is nodeEvictionRate', values: { nodeEvictionRate: cfg.nodeEvictionRate } };
    case 'PartialDisruption':
      return {
        qps: reducedQPS(zoneSize, cfg.largeClusterSizeThreshold, cfg.secondaryNodeEvictionRate),
        rule:
          zoneSize > cfg.largeClusterSizeThreshold
            ? 'PartialDisruption in a large zone (size > largeClusterSizeThreshold): secondaryNodeEvictionRate (ReducedQPSFunc)'
            : 'PartialDisruption in a small zone (size <= largeClusterSizeThreshold): evictions stop, rate 0 (ReducedQPSFunc)',
        values: { zoneSize, largeClusterSizeThreshold: cfg.largeClusterSizeThreshold, secondaryNodeEvictionRate: cfg.secondaryNodeEvictionRate },
      };
    case 'FullDisruption':
      return {
        qps: healthyQPS(cfg.nodeEvictionRate),
        rule: 'FullDisruption of this zone only (others still healthy): the normal rate (HealthyQPSFunc)',
        values: { nodeEvictionRate: cfg.nodeEvictionRate },
      };
    default:
      return undefined;
  }
}

type ZoneGuardName = 'noReadyNodes' | 'unhealthyRatioAtLeastThreshold';

/** One of the zone machine's guards, called by its `setup()` name on the counts of a zone. */
export function zoneGuard(name: ZoneGuardName, ready: number, notReady: number, unhealthyZoneThreshold: number): boolean {
  const guard = (zoneMachine.implementations.guards as Record<string, (args: { context: unknown; event: ZoneEvent }, params: unknown) => boolean>)[name];
  return guard({ context: undefined, event: { type: 'ZONE_HEALTH', ready, notReady, unhealthyZoneThreshold } }, undefined);
}

/** ComputeZoneState through the zone machine's guards, in the machine's order. */
export function zoneStateByGuards(ready: number, notReady: number, unhealthyZoneThreshold: number): ZoneStateName {
  if (zoneGuard('noReadyNodes', ready, notReady, unhealthyZoneThreshold)) return 'FullDisruption';
  if (zoneGuard('unhealthyRatioAtLeastThreshold', ready, notReady, unhealthyZoneThreshold)) return 'PartialDisruption';
  return 'Normal';
}

/** GetPodDaemonSets: a DaemonSet in the pod's namespace whose (non-empty) selector matches the pod's labels. */
export function daemonSetOf(cluster: Pick<ClusterState, 'daemonSets'>, pod: PodRecord): string | undefined {
  if (!Object.keys(pod.meta.labels).length) return undefined;
  for (const ds of cluster.daemonSets.values()) {
    if (ds.meta.namespace !== pod.meta.namespace) continue;
    const spec = (ds.raw as { spec?: { selector?: unknown } }).spec;
    const sel = compileSelector(spec?.selector as never);
    if (sel.kind !== 'some') continue;
    if (sel.matches(pod.meta.labels)) return ds.meta.name;
  }
  return undefined;
}

/** DeletePods' rule: a pod of the node, not already being deleted, not managed by a DaemonSet. */
export function deletePodsDeletes(cluster: Pick<ClusterState, 'daemonSets'>, pod: PodRecord, nodeName: string): boolean {
  return pod.nodeName === nodeName && pod.meta.deletionTimestamp === undefined && !daemonSetOf(cluster, pod);
}

/** nodepkg.NodeUnreachablePodReason */
export const NODE_LOST_REASON = 'NodeLost';

/** The pod's status.reason: as a controller wrote it, else as exported. */
export function podStatusReason(pod: PodRecord): string | undefined {
  if (pod.statusReason !== undefined) return pod.statusReason;
  const status = (pod.raw as { status?: { reason?: unknown } }).status;
  return typeof status?.reason === 'string' ? status.reason : undefined;
}

/**
 * How many pods of the node DeletePods would decide something for: each it deletes, and each it keeps
 * (a DaemonSet's, one already being deleted) whose status reason it still sets to NodeLost. None: the
 * node's release from the eviction queue deletes and writes nothing.
 */
export function deletePodsDecides(cluster: Pick<ClusterState, 'daemonSets' | 'pods' | 'podsByNode'>, nodeName: string): number {
  let n = 0;
  for (const key of cluster.podsByNode.get(nodeName) ?? []) {
    const pod = cluster.pods.get(key);
    if (pod && pod.nodeName === nodeName && (deletePodsDeletes(cluster, pod, nodeName) || podStatusReason(pod) !== NODE_LOST_REASON)) n++;
  }
  return n;
}
