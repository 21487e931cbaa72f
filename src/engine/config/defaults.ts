/**
 * The kube-controller-manager and kubelet settings of a version before anything
 * is configured: each setting's baseline (config/settings.ts) with every later
 * default change from the version table (versions/table.ts) applied.
 */
import { parseDuration, type Duration } from '../model/time';
import { gateStateOf } from '../versions/table';
import type { VersionBehaviour } from '../versions/types';
import { SIMULATED_CONTROLLERS, defaultOf, lookupSetting, settingExistsIn } from './settings';
import type { ControllerConfig, KubeletConfig } from './types';

/** The default of one setting for a version (Go-style text for durations). */
export function defaultValueOf(key: string, b: VersionBehaviour): string | number | boolean | readonly string[] {
  const row = lookupSetting(key);
  if (!row) throw new Error(`no setting ${key}`);
  return defaultOf(row, b.version.minor);
}

function dur(key: string, b: VersionBehaviour): Duration {
  const v = defaultValueOf(key, b);
  const d = typeof v === 'string' ? parseDuration(v) : undefined;
  if (d === undefined) throw new Error(`default of ${key} is not a duration: ${String(v)}`);
  return d;
}

function num(key: string, b: VersionBehaviour): number {
  const v = defaultValueOf(key, b);
  if (typeof v !== 'number') throw new Error(`default of ${key} is not a number: ${String(v)}`);
  return v;
}

/** The controllers `--controllers=*` turns on in a version (those the simulation has). */
export function defaultControllers(b: VersionBehaviour): Set<string> {
  return new Set(SIMULATED_CONTROLLERS.filter((c) => b.version.minor >= c.since).map((c) => c.name));
}

/** Every feature gate the version knows, at its default. */
export function defaultFeatureGates(b: VersionBehaviour): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const [name, g] of [...gateStateOf(b.version.minor)].sort(([a], [c]) => a.localeCompare(c))) out[name] = g.default;
  return out;
}

export function defaultControllerConfig(b: VersionBehaviour): ControllerConfig {
  return {
    nodeMonitorPeriod: dur('nodeMonitorPeriod', b),
    nodeMonitorGracePeriod: dur('nodeMonitorGracePeriod', b),
    nodeStartupGracePeriod: dur('nodeStartupGracePeriod', b),
    podEvictionTimeout: dur('podEvictionTimeout', b),
    nodeEvictionRate: num('nodeEvictionRate', b),
    secondaryNodeEvictionRate: num('secondaryNodeEvictionRate', b),
    largeClusterSizeThreshold: num('largeClusterSizeThreshold', b),
    unhealthyZoneThreshold: num('unhealthyZoneThreshold', b),
    enableTaintManager: defaultValueOf('enableTaintManager', b) === true,
    featureGates: defaultFeatureGates(b),
    controllers: defaultControllers(b),
    burstReplicas: num('burstReplicas', b),
    concurrentReplicaSetSyncs: num('concurrentReplicaSetSyncs', b),
    leaderElectLeaseDuration: dur('leaderElectLeaseDuration', b),
  };
}

/**
 * Kubelet defaults. `leasesOn` is whether the kubelet heartbeats with Leases
 * (the NodeLease gate; its default unless given): without Leases every status
 * post is a heartbeat, so an unchanged status is posted every
 * nodeStatusUpdateFrequency.
 */
export function defaultKubeletConfig(b: VersionBehaviour, leasesOn: boolean = b.nodeLeaseGateDefault): KubeletConfig {
  const update = dur('nodeStatusUpdateFrequency', b);
  // nodeStatusReportFrequency exists from 1.13; a 1.12 kubelet with the alpha NodeLease gate on
  // renews its Lease and still posts its status every nodeStatusUpdateFrequency.
  const hasReport = settingExistsIn(lookupSetting('nodeStatusReportFrequency')!, b.version.minor);
  return {
    nodeStatusUpdateFrequency: update,
    nodeStatusReportFrequency: leasesOn && hasReport ? dur('nodeStatusReportFrequency', b) : update,
    leaseRenewInterval: dur('leaseRenewInterval', b),
    podStartupDelay: dur('podStartupDelay', b),
  };
}
