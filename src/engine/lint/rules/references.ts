/**
 * References: events and expectations naming nodes, pods, ReplicaSets or
 * zones that are not in the snapshot (nor created by an earlier `apply`).
 * The scenario parser resolves the references; this rule keeps those problems
 * and offers the closest existing name as a fix.
 */
import { rangeIn, replaceFix, suggestionOf } from '../fixes';
import type { LintContext, LintProblem, LintRule } from '../types';

export const REFERENCE_CODES: ReadonlySet<string> = new Set([
  'unknown-node',
  'unknown-pod',
  'unknown-replicaset',
  'unknown-daemonset',
  'unknown-lease',
  'unknown-zone',
]);

/** The suggestion written the way the reference was: `Pod/default/web-1` for `web-x` is `web-1`, for `default/web-x` is `default/web-1`. */
export function sameShape(written: string, suggestion: string): string {
  const parts = suggestion.split('/');
  const want = written.split('/').length;
  return parts.slice(Math.max(0, parts.length - want)).join('/');
}

export const referencesRule: LintRule = {
  id: 'references',
  kinds: ['scenario'],
  codes: [...REFERENCE_CODES],
  run(ctx: LintContext): LintProblem[] {
    const out: LintProblem[] = [];
    for (const p of ctx.parsed?.problems ?? []) {
      if (!REFERENCE_CODES.has(p.code)) continue;
      const lp: LintProblem = { ...p };
      const hint = suggestionOf(p.message);
      const r = rangeIn(ctx, p.position);
      if (hint && r) {
        let [s, e] = r;
        let written = ctx.text.slice(s, e);
        if (/^["']/.test(written) && written.length >= 2) {
          s++;
          e--;
          written = written.slice(1, -1);
        }
        const replacement = sameShape(written, hint);
        if (replacement !== written) lp.fixes = [replaceFix(`Change to ${replacement}`, s, e, replacement)];
      }
      out.push(lp);
    }
    return out;
  },
};
