/**
 * The kube-controller-manager and kubelet settings of a version before anything
 * is configured: the baseline defaults (v1.12) with every later default change
 * from the version table (versions/table.ts) applied.
 */
import { parseDuration, type Duration } from '../model/time';
import { defaultOverridesOf, gateStateOf } from '../versions/table';
import type { VersionBehaviour } from '../versions/types';
import type { ControllerConfig, KubeletConfig } from './types';

/**
 * Baseline defaults (kube-controller-manager v1.12.1, kubelet v1.12.1), as
 * Go-style text so that the table reads like the flags' help.
 * Sources: pkg/controller/apis/config/v1alpha1/defaults.go,
 * cmd/kube-controller-manager/app/options/*.go, pkg/kubelet/apis/config/v1beta1/defaults.go
 * (kubernetes/kubernetes@release-1.12).
 */
export const BASELINE_DEFAULTS = {
  nodeMonitorPeriod: '5s',
  nodeMonitorGracePeriod: '40s',
  nodeStartupGracePeriod: '1m',
  podEvictionTimeout: '5m',
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
  enableTaintManager: true,
  burstReplicas: 500,
  concurrentReplicaSetSyncs: 5,
  leaderElectLeaseDuration: '15s',
  // kubelet
  nodeStatusUpdateFrequency: '10s',
  nodeStatusReportFrequency: '1m',
  leaseRenewInterval: '10s',
  podStartupDelay: '0s',
} as const satisfies Record<string, string | number | boolean>;

export type DefaultKey = keyof typeof BASELINE_DEFAULTS;

/** The default of one setting for a version (Go-style text for durations). */
export function defaultValueOf(key: DefaultKey, b: VersionBehaviour): string | number | boolean {
  const overrides = defaultOverridesOf(b.version.minor);
  return key in overrides ? overrides[key] : BASELINE_DEFAULTS[key];
}

function dur(key: DefaultKey, b: VersionBehaviour): Duration {
  const v = defaultValueOf(key, b);
  const d = typeof v === 'string' ? parseDuration(v) : undefined;
  if (d === undefined) throw new Error(`default of ${key} is not a duration: ${String(v)}`);
  return d;
}

function num(key: DefaultKey, b: VersionBehaviour): number {
  const v = defaultValueOf(key, b);
  if (typeof v !== 'number') throw new Error(`default of ${key} is not a number: ${String(v)}`);
  return v;
}

/** The controllers `--controllers=*` turns on for a version (the ones the simulation has). */
export function defaultControllers(b: VersionBehaviour): Set<string> {
  const names = ['nodelifecycle', 'replicaset'];
  if (b.separateTaintEvictionController) names.push('taint-eviction-controller');
  return new Set(names);
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

export function defaultKubeletConfig(b: VersionBehaviour): KubeletConfig {
  const update = dur('nodeStatusUpdateFrequency', b);
  return {
    nodeStatusUpdateFrequency: update,
    // Before Leases (NodeLease off) every status post is a heartbeat: report = update frequency.
    nodeStatusReportFrequency: b.nodeLeaseGateDefault ? dur('nodeStatusReportFrequency', b) : update,
    leaseRenewInterval: dur('leaseRenewInterval', b),
    podStartupDelay: dur('podStartupDelay', b),
  };
}
