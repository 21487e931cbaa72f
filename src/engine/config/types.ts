/**
 * The kube-controller-manager and kubelet settings the simulation runs with,
 * after defaults for the chosen version, the scenario, flags and config files
 * have been resolved (config/resolve.ts). All durations are microseconds.
 */
import type { Duration } from '../model/time';

export interface ControllerConfig {
  nodeMonitorPeriod: Duration;
  nodeMonitorGracePeriod: Duration;
  nodeStartupGracePeriod: Duration;
  /** only meaningful where the version has the pod-eviction path (< 1.27) */
  podEvictionTimeout: Duration;
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  largeClusterSizeThreshold: number;
  unhealthyZoneThreshold: number;
  /** --enable-taint-manager (gone in 1.27; the taint manager always runs from then) */
  enableTaintManager: boolean;
  /** every gate the version knows, with its value (defaults filled in) */
  featureGates: Record<string, boolean>;
  /** controllers that run: 'nodelifecycle', 'replicaset', 'taint-eviction-controller' */
  controllers: Set<string>;
  burstReplicas: number;
  concurrentReplicaSetSyncs: number;
  leaderElectLeaseDuration: Duration;
}

export interface KubeletConfig {
  nodeStatusUpdateFrequency: Duration;
  /** 1.13+: how often an unchanged status is posted when Leases are the heartbeat */
  nodeStatusReportFrequency: Duration;
  /** 1.13+: how often the Lease is renewed */
  leaseRenewInterval: Duration;
  /** how long after binding a pod becomes Running and Ready (the simplified kubelet) */
  podStartupDelay: Duration;
}
