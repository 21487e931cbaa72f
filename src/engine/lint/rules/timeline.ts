/**
 * The clock: a scenario with no startTime over a snapshot without
 * timestamps starts at 1970 (simulation/simulation.ts reports the same at
 * run time). Events before startTime are the scenario parser's
 * (event-before-start, in the schema rule).
 */
import type { LintContext, LintProblem, LintRule } from '../types';

export const timelineRule: LintRule = {
  id: 'timeline',
  kinds: ['scenario'],
  codes: ['no-start-time'],
  run(ctx: LintContext): LintProblem[] {
    const s = ctx.scenario;
    if (!s || s.startTime !== undefined || s.snapshot.latestTimestamp !== undefined) return [];
    const key = /^startTime:|^kind:/m.exec(ctx.text);
    const at = key ? key.index : 0;
    return [{
      code: 'no-start-time', severity: 'warning',
      message: 'no startTime and no timestamp in the snapshot: the clock starts at 1970-01-01T00:00:00Z; write startTime: "2026-01-01T00:00:00Z"',
      position: ctx.lines.position(ctx.file, at, ctx.text.indexOf('\n', at) < 0 ? ctx.text.length : ctx.text.indexOf('\n', at)),
    }];
  },
};
