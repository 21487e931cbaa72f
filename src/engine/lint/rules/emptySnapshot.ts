/**
 * A snapshot with nothing the controllers watch: replay, explain and test refuse it (exit 2, "nothing to
 * simulate", cli/open.ts), so validate and the editor say so as an error rather than "0 error(s)". The
 * language server speaks only for documents that name a snapshot kind (relevantKind), so an empty file
 * being typed is not flagged; an empty List is (kubectl get in an empty namespace, the wrong context).
 */
import { hasErrors } from '../../problems';
import type { LintContext, LintProblem, LintRule } from '../types';

export const emptySnapshotRule: LintRule = {
  id: 'emptySnapshot',
  kinds: ['snapshot'],
  codes: ['nothing-to-simulate'],
  run(ctx: LintContext): LintProblem[] {
    const s = ctx.scenario;
    if (!s || !s.plainSnapshot || hasErrors(s.problems)) return [];
    const c = s.snapshot.cluster;
    if (c.nodes.size + c.pods.size + c.replicaSets.size + c.daemonSets.size + c.leases.size) return [];
    // nothing-simulated (crossChecks) already names the kinds read and what to export instead
    const hint = s.problems.some((p) => p.code === 'nothing-simulated')
      ? ''
      : '; export the cluster itself: kubectl get nodes,pods,replicasets,daemonsets -A -o yaml';
    const folder = ctx.fs?.stat(ctx.file)?.kind === 'dir';
    // a file's problem is placed at it; a folder's has no place, so its message names it whole
    const name = folder ? ctx.file : ctx.file.replace(/^.*[\\/](?=.)/, '');
    return [
      {
        code: 'nothing-to-simulate',
        severity: 'error',
        message: `${name} holds no Node, Pod, ReplicaSet, DaemonSet or Lease: nothing to simulate (replay, explain and test refuse it)${hint}`,
        ...(folder ? {} : { position: { file: ctx.file, line: 1, column: 1 } }),
      },
    ];
  },
};
