/**
 * Schema: what the engine's own readers find wrong in the document's shape
 * (unknown fields with did-you-mean, wrong types, bad durations and
 * timestamps, YAML syntax). The scenario parser and the snapshot loader are
 * the one source of these checks; this rule keeps the ones in this document
 * and adds the quick fixes.
 */
import { didYouMeanFix } from '../fixes';
import { SCENARIO_API_VERSION, WITHOUT_HEADER } from '../../snapshot/scenarioHeader';
import type { LintContext, LintProblem, LintRule, QuickFix } from '../types';
import { REFERENCE_CODES } from './references';

/** Loader notes that say nothing about the document itself. */
const NOT_SHOWN = new Set(['version-assumed']);

export const schemaRule: LintRule = {
  id: 'schema',
  kinds: ['scenario', 'snapshot'],
  codes: [
    'yaml-syntax',
    'yaml-warning',
    'no-start-time',
    'unknown-field',
    'wrong-type',
    'bad-duration',
    'bad-timestamp',
    'bad-value',
    'missing-field',
    'bad-reference',
    'bad-taint',
    'bare-taint-key',
    'unsupported-version',
    'version-as-number',
    '...',
  ],
  run(ctx: LintContext): LintProblem[] {
    const all = ctx.parsed ? ctx.parsed.problems : (ctx.scenario?.problems ?? []);
    const out: LintProblem[] = [];
    for (const p of all) {
      if (NOT_SHOWN.has(p.code) || REFERENCE_CODES.has(p.code)) continue;
      // problems found in other files (the scenario's snapshot) belong to the snapshot rule
      if (ctx.kind === 'scenario' && p.position && p.position.file !== ctx.file) continue;
      const lp: LintProblem = { ...p };
      const fix = /did you mean/.test(p.message) ? didYouMeanFix(ctx, lp) : p.code === 'not-kubernetes' ? headerFix(ctx, lp) : undefined;
      if (fix) lp.fixes = [fix];
      out.push(lp);
    }
    return out;
  },
};

/** A scenario that lost its first two lines gets them back, below the comments that open the file (as the examples'). */
function headerFix(ctx: LintContext, p: LintProblem): QuickFix | undefined {
  if (!p.message.includes(WITHOUT_HEADER) || p.position?.file !== ctx.file) return undefined;
  const opening = /^(?:[ \t]*(?:#[^\n]*)?\r?\n)*/.exec(ctx.text)![0];
  const eol = ctx.text.includes('\r\n') ? '\r\n' : '\n';
  return {
    title: 'Add the scenario header (apiVersion and kind)',
    edits: [{ offset: opening.length, endOffset: opening.length, newText: `apiVersion: ${SCENARIO_API_VERSION}${eol}kind: Scenario${eol}` }],
    preferred: true,
  };
}
