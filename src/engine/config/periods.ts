/**
 * Settings that are legal but absurd, and the few the simulation cannot run.
 *
 * kube-controller-manager only asks that its periods be positive. The simulation also
 * refuses periods under MIN_PERIOD (1 ms): `nodeMonitorPeriod: 1us` is 600 million
 * passes in ten simulated minutes. It warns about a monitor period under one second and
 * a grace period shorter than the monitor period (every node would go Unknown between
 * two passes), and refuses int settings beyond an int32, the type the flags have.
 */
import { INT32_MAX, MIN_PERIOD, SENSIBLE_MONITOR_PERIOD } from '../model/limits';
import { formatDuration } from '../model/time';
import type { Problem, SourcePosition } from '../problems';
import type { ControllerConfig, KubeletConfig } from './types';

type Report = (code: string, severity: Problem['severity'], message: string, position?: SourcePosition) => void;
type Where = (key: string) => { position?: SourcePosition; via: string } | undefined;

const PERIODS: { key: string; of: 'config' | 'kubelet' }[] = [
  { key: 'nodeMonitorPeriod', of: 'config' },
  { key: 'nodeStatusUpdateFrequency', of: 'kubelet' },
  { key: 'nodeStatusReportFrequency', of: 'kubelet' },
  { key: 'leaseRenewInterval', of: 'kubelet' },
];
const INTS = ['burstReplicas', 'concurrentReplicaSetSyncs', 'largeClusterSizeThreshold'] as const;

export function periodChecks(config: ControllerConfig, kubelet: KubeletConfig, set: Where, report: Report): void {
  for (const p of PERIODS) {
    const v = (p.of === 'config' ? (config as unknown as Record<string, unknown>) : (kubelet as unknown as Record<string, unknown>))[p.key];
    const at = set(p.key);
    // only where the user set it: a period derived from it is reported through it
    if (at && typeof v === 'number' && v > 0 && v < MIN_PERIOD) {
      report(
        'period-below-limit',
        'error',
        `${at?.via ?? p.key} is ${formatDuration(v)}; the simulation runs periods of ${formatDuration(MIN_PERIOD)} or more`,
        at?.position,
      );
    }
  }
  if (config.nodeMonitorPeriod >= MIN_PERIOD && config.nodeMonitorPeriod < SENSIBLE_MONITOR_PERIOD) {
    const at = set('nodeMonitorPeriod');
    report(
      'absurd-setting',
      'warning',
      `${at?.via ?? 'nodeMonitorPeriod'} is ${formatDuration(config.nodeMonitorPeriod)}, under one second: legal, but every pass re-reads every node (the default is 5s), and a long run takes many passes`,
      at?.position,
    );
  }
  if (config.nodeMonitorGracePeriod < config.nodeMonitorPeriod) {
    const at = set('nodeMonitorGracePeriod') ?? set('nodeMonitorPeriod');
    report(
      'absurd-setting',
      'warning',
      `nodeMonitorGracePeriod (${formatDuration(config.nodeMonitorGracePeriod)}) is shorter than nodeMonitorPeriod (${formatDuration(config.nodeMonitorPeriod)}): a node can go stale and be marked Unknown between two passes without the grace period being watched`,
      at?.position,
    );
  }
  for (const key of INTS) {
    const v = config[key];
    if (v > INT32_MAX) {
      const at = set(key);
      report('out-of-range', 'error', `${at?.via ?? key} is ${v}; the flag is an int32 (at most ${INT32_MAX})`, at?.position);
    }
  }
}
