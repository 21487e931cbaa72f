/**
 * A 1.14+ simulation over a snapshot without node Leases. From 1.13 the
 * kubelet heartbeats with a Lease in kube-node-lease (NodeLease; on by
 * default from 1.14) and rewrites the Ready condition's lastHeartbeatTime
 * only every nodeStatusReportFrequency (5m), so without the Leases healthy
 * nodes look minutes stale to the controller. The loader already warns when
 * the nodes' kubelets report 1.14+ (code no-leases); this rule warns when the
 * chosen version does, and the loader did not. Its message says what the
 * simulation makes of it (`missingLeases`, kubelet/missingLeases.ts).
 */
import { isMap } from 'yaml';
import { isFeatureEnabled } from '../../config/resolve';
import { NODE_LEASE_NAMESPACE } from '../../model/types';
import type { SourcePosition } from '../../problems';
import type { LintContext, LintProblem, LintRule } from '../types';
import { missingLeasesMode, planMissingLeases } from '../../kubelet/missingLeases';

export const leasesRule: LintRule = {
  id: 'leases',
  kinds: ['scenario', 'snapshot'],
  codes: ['no-leases'],
  run(ctx: LintContext): LintProblem[] {
    const s = ctx.scenario;
    const r = ctx.resolved;
    if (!s || !r || ctx.version.minor < 14) return [];
    if (!isFeatureEnabled(r.config, r.behaviour, 'NodeLease')) return [];
    const cluster = s.snapshot.cluster;
    if (!cluster.nodes.size || cluster.leases.size) return [];
    if (s.problems.some((p) => p.code === 'no-leases')) return [];
    const plan = planMissingLeases(cluster, missingLeasesMode(s), true);
    const what =
      plan.mode === 'assumed'
        ? `so the ${plan.nodes.length} node(s) whose Ready is True are taken as having renewed their Lease at the start time (missingLeases: assumed; \`missingLeases: absent\` reads them as missing); for their real renew times export them too: `
        : 'so healthy nodes may look stale (missingLeases: absent); add them with: ';
    return [
      {
        code: 'no-leases',
        severity: 'warning',
        message:
          `Kubernetes ${ctx.version.text} heartbeats with node Leases (kubelets rewrite lastHeartbeatTime only every few minutes), but the snapshot holds none, ` +
          `${what}kubectl get leases -n ${NODE_LEASE_NAMESPACE} -o yaml`,
        ...(positionOf(ctx) ? { position: positionOf(ctx)! } : {}),
      },
    ];
  },
};

/** The scenario's `snapshot:` (or `objects:`) key, or the first Node of a snapshot. */
function positionOf(ctx: LintContext): SourcePosition | undefined {
  if (ctx.kind === 'scenario' && ctx.document && isMap(ctx.document.contents)) {
    for (const pair of ctx.document.contents.items) {
      const k = pair.key as { value?: unknown; range?: [number, number, number] } | null;
      if (k && (k.value === 'snapshot' || k.value === 'objects') && k.range) return ctx.lines.position(ctx.file, k.range[0], k.range[1]);
    }
  }
  const node = ctx.scenario?.snapshot.objects.find((o) => o.kind === 'Node' && o.position?.file === ctx.file);
  return node?.position;
}
