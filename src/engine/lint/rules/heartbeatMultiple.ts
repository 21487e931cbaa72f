/**
 * Timing: nodeMonitorGracePeriod should be a comfortable multiple of the
 * kubelet's heartbeat interval. kube-controller-manager's help for
 * --node-monitor-grace-period: "Must be N times more than kubelet's
 * nodeStatusUpdateFrequency, where N means number of retries allowed for
 * kubelet to post node status" (cmd/kube-controller-manager/app/options/
 * nodelifecyclecontroller.go). The defaults give N = 4 (40s / 10s, 1.12–1.31)
 * and 5 (50s / 10s, 1.32+); with Leases (NodeLease, 1.13+) the heartbeat is
 * the Lease renewal (leaseRenewInterval, 10s).
 *
 * Fewer than MIN_HEARTBEATS intervals means one or two late heartbeats
 * (a slow API server, a kubelet restart) flip a healthy node to Unknown.
 * At or under one interval resolve.ts already reports grace-period-too-short.
 */
import { formatDuration } from '../../model/time';
import { replaceFix } from '../fixes';
import type { LintContext, LintProblem, LintRule } from '../types';
import { graceFacts } from './grace';

export const MIN_HEARTBEATS = 4;

export const heartbeatMultipleRule: LintRule = {
  id: 'heartbeatMultiple',
  kinds: ['scenario', 'kcm-config', 'kcm-pod'],
  codes: ['grace-period-few-heartbeats'],
  run(ctx: LintContext): LintProblem[] {
    const f = graceFacts(ctx);
    if (!f || f.heartbeat <= 0) return [];
    if (!f.graceSet && !f.heartbeatSet) return [];
    const ratio = f.grace / f.heartbeat;
    if (ratio <= 1 || ratio >= MIN_HEARTBEATS) return [];
    const position = f.graceSet ? f.gracePosition : f.heartbeatPosition;
    const suggested = Math.max(MIN_HEARTBEATS, Math.ceil(ratio)) * f.heartbeat;
    const p: LintProblem = {
      code: 'grace-period-few-heartbeats',
      severity: 'warning',
      message:
        `nodeMonitorGracePeriod ${formatDuration(f.grace)} is only ${Number(ratio.toFixed(2))}× the kubelet's heartbeat (${f.heartbeatName} ${formatDuration(f.heartbeat)}): ` +
        `${Math.max(0, Math.ceil(ratio) - 1)} late heartbeat(s) mark a healthy node Unknown. kube-controller-manager asks for N times the heartbeat, N the retries allowed; ` +
        `the defaults allow ${MIN_HEARTBEATS}× or more (e.g. ${formatDuration(suggested)})`,
      ...(position ? { position } : {}),
    };
    if (f.graceValueRange)
      p.fixes = [
        replaceFix(`Round nodeMonitorGracePeriod up to ${formatDuration(suggested)}`, f.graceValueRange[0], f.graceValueRange[1], formatDuration(suggested)),
      ];
    return [p];
  },
};
