/**
 * Timing: nodeMonitorGracePeriod under 45 s. The kubelet talks to the API
 * server over HTTP/2 through client-go, whose connection health check sends a
 * ping after HTTP2_READ_IDLE_TIMEOUT_SECONDS (30 s) without a frame and drops
 * the connection when no answer comes within HTTP2_PING_TIMEOUT_SECONDS
 * (15 s): staging/src/k8s.io/apimachinery/pkg/util/net/http.go
 * (readIdleTimeoutSeconds, pingTimeoutSeconds). A kubelet on a dead
 * connection so needs up to 45 s to reconnect and heartbeat again, and
 * --node-monitor-grace-period's help says it "should also be greater than the
 * sum of HTTP2_PING_TIMEOUT_SECONDS and HTTP2_READ_IDLE_TIMEOUT_SECONDS"; the
 * default went from 40s to 50s in 1.32 for this reason. The health check is
 * in client-go from 1.20, so the rule applies from 1.20, to values set
 * explicitly (1.20–1.31's own default, 40s, is what the upstream change fixed).
 */
import { formatDuration, seconds } from '../../model/time';
import { replaceFix } from '../fixes';
import type { LintContext, LintProblem, LintRule } from '../types';
import { graceFacts } from './grace';

export const HTTP2_READ_IDLE_TIMEOUT = seconds(30);
export const HTTP2_PING_TIMEOUT = seconds(15);
export const HTTP2_RULE_SINCE_MINOR = 20;

export const http2GraceRule: LintRule = {
  id: 'http2Grace',
  kinds: ['scenario', 'kcm-config', 'kcm-pod'],
  codes: ['grace-period-under-http2-timeout'],
  run(ctx: LintContext): LintProblem[] {
    if (ctx.version.minor < HTTP2_RULE_SINCE_MINOR) return [];
    const f = graceFacts(ctx);
    const limit = HTTP2_READ_IDLE_TIMEOUT + HTTP2_PING_TIMEOUT;
    if (!f || !f.graceSet || f.grace >= limit) return [];
    const suggested = f.heartbeat > 0 ? Math.ceil(limit / f.heartbeat) * f.heartbeat : limit;
    const p: LintProblem = {
      code: 'grace-period-under-http2-timeout',
      severity: 'warning',
      message:
        `nodeMonitorGracePeriod ${formatDuration(f.grace)} is under ${formatDuration(limit)}: a kubelet whose HTTP/2 connection to the API server died silently ` +
        `needs up to ${formatDuration(HTTP2_READ_IDLE_TIMEOUT)} (read-idle) + ${formatDuration(HTTP2_PING_TIMEOUT)} (ping timeout) to notice and reconnect, ` +
        `so healthy nodes can be marked Unknown; kube-controller-manager's help asks for more than their sum (the default is 50s from 1.32)`,
      ...(f.gracePosition ? { position: f.gracePosition } : {}),
    };
    if (f.graceValueRange)
      p.fixes = [
        replaceFix(`Round nodeMonitorGracePeriod up to ${formatDuration(suggested)}`, f.graceValueRange[0], f.graceValueRange[1], formatDuration(suggested)),
      ];
    return [p];
  },
};
