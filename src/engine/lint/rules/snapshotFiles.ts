/**
 * Problems the loader found in the files a scenario's `snapshot:` names (or
 * in `configFile:`'s file): they are reported with their own file and
 * position; the language server shows them on the scenario's key.
 */
import type { LintContext, LintProblem, LintRule } from '../types';
import { REFERENCE_CODES } from './references';

export const snapshotFilesRule: LintRule = {
  id: 'snapshotFiles',
  kinds: ['scenario'],
  codes: ["(the loader's codes, e.g. no-leases, duplicate-object, unsupported-api-version)"],
  run(ctx: LintContext): LintProblem[] {
    return (ctx.parsed?.problems ?? []).filter((p) => p.position && p.position.file !== ctx.file && !REFERENCE_CODES.has(p.code)).map((p) => ({ ...p }));
  },
};
