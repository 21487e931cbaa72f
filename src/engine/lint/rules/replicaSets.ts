/**
 * ReplicaSets the simulation cannot manage, and pods whose owners are
 * broken, found before the run: the ReplicaSet controller's own checks
 * (controllers/replicaSet/validate.ts: negative replicas, missing, empty or
 * non-matching selectors, several controller owners, dangling owners) at the
 * object's position. Only when the replicaset controller runs.
 */
import { checkPodOwners, checkReplicaSet } from '../../controllers/replicaSet/validate';
import type { SourcePosition } from '../../problems';
import type { LintContext, LintProblem, LintRule } from '../types';

export const replicaSetsRule: LintRule = {
  id: 'replicaSets',
  kinds: ['scenario', 'snapshot'],
  codes: [
    'replicaset-negative-replicas',
    'replicaset-no-selector',
    'replicaset-invalid-selector',
    'replicaset-empty-selector',
    'replicaset-selector-mismatch',
    'pod-multiple-controllers',
    'pod-dangling-owner',
  ],
  run(ctx: LintContext): LintProblem[] {
    const s = ctx.scenario;
    if (!s || !ctx.resolved?.config.controllers.has('replicaset')) return [];
    const cluster = s.snapshot.cluster;
    if (!cluster.replicaSets.size && ![...cluster.pods.values()].some((p) => p.meta.ownerReferences.length)) return [];
    const positions = new Map<string, SourcePosition>();
    for (const o of s.snapshot.objects) if (o.position && (o.kind === 'ReplicaSet' || o.kind === 'Pod')) positions.set(`${o.kind}/${o.name}`, o.position);
    const out: LintProblem[] = [];
    const at = (p: LintProblem, key: string): LintProblem => {
      const position = p.position ?? positions.get(key);
      return position ? { ...p, position } : { ...p };
    };
    for (const [key, rs] of cluster.replicaSets) {
      for (const p of checkReplicaSet(rs).problems) if (p.severity !== 'info') out.push(at(p, `ReplicaSet/${key}`));
    }
    const exists = (ns: string, name: string, uid: string): boolean => {
      const rs = cluster.replicaSets.get(`${ns}/${name}`);
      return !!rs && (!uid || !rs.meta.uid || rs.meta.uid === uid);
    };
    for (const [key, pod] of cluster.pods) {
      if (!pod.meta.ownerReferences.length) continue;
      for (const p of checkPodOwners(pod, exists)) out.push(at(p, `Pod/${key}`));
    }
    return out;
  },
};
