/** Shared by the two timing rules: where nodeMonitorGracePeriod was set, and the kubelet's heartbeat. */
import { isMap, isScalar, type Node as YamlNode } from 'yaml';
import { isFeatureEnabled } from '../../config/resolve';
import type { SourcePosition } from '../../problems';
import { rangeIn } from '../fixes';
import type { LintContext } from '../types';

export interface GraceFacts {
  grace: number;
  /** the kubelet's heartbeat interval: leaseRenewInterval with Leases (NodeLease on), else nodeStatusUpdateFrequency */
  heartbeat: number;
  heartbeatName: 'leaseRenewInterval' | 'nodeStatusUpdateFrequency';
  graceSet: boolean;
  heartbeatSet: boolean;
  gracePosition?: SourcePosition;
  heartbeatPosition?: SourcePosition;
  /** the [start, end) of nodeMonitorGracePeriod's value in this document (quotes excluded), when it is here */
  graceValueRange?: [number, number];
}

export function graceFacts(ctx: LintContext): GraceFacts | undefined {
  const r = ctx.resolved;
  if (!r) return undefined;
  const leases = isFeatureEnabled(r.config, r.behaviour, 'NodeLease');
  const heartbeatName = leases ? 'leaseRenewInterval' : 'nodeStatusUpdateFrequency';
  const heartbeat = r.kubelet[heartbeatName];
  const g = r.origins.nodeMonitorGracePeriod;
  const h = r.origins[heartbeatName];
  const facts: GraceFacts = {
    grace: r.config.nodeMonitorGracePeriod,
    heartbeat,
    heartbeatName,
    graceSet: !!g && g.origin !== 'default',
    heartbeatSet: !!h && h.origin !== 'default',
    gracePosition: g?.position,
    heartbeatPosition: h?.position,
  };
  const range = rangeIn(ctx, g?.position);
  if (range) facts.graceValueRange = valueRange(ctx, range);
  // the warning goes on the value when it is in this document
  if (facts.graceValueRange) facts.gracePosition = ctx.lines.position(ctx.file, facts.graceValueRange[0], facts.graceValueRange[1]);
  return facts;
}

/** A scenario key's position is the key: find its value. A flag's or config value's position is the value. */
function valueRange(ctx: LintContext, [s, e]: [number, number]): [number, number] | undefined {
  const written = ctx.text.slice(s, e);
  if (written === 'nodeMonitorGracePeriod' && ctx.document) {
    const cm = ctx.document.get('controllerManager', true);
    if (isMap(cm)) {
      const v = cm.get('nodeMonitorGracePeriod', true) as YamlNode | undefined;
      if (isScalar(v) && v.range) return unquote(ctx.text, v.range[0], v.range[1]);
    }
    return undefined;
  }
  // a flag: take the value after the flag's name on that line (the flag word may be quoted)
  const lineStart = ctx.text.lastIndexOf('\n', s - 1) + 1;
  const nl = ctx.text.indexOf('\n', s);
  const line = ctx.text.slice(lineStart, nl < 0 ? ctx.text.length : nl);
  const m = /--node-monitor-grace-period[= ]["']?([^\s"',\]]+)/.exec(line);
  if (m) {
    const at = lineStart + m.index + m[0].length - m[1].length;
    return [at, at + m[1].length];
  }
  return unquote(ctx.text, s, e);
}

function unquote(text: string, s: number, e: number): [number, number] {
  while (e > s && /\s/.test(text[e - 1])) e--;
  if (/["']/.test(text[s] ?? '') && text[e - 1] === text[s] && e - s >= 2) return [s + 1, e - 1];
  return [s, e];
}
