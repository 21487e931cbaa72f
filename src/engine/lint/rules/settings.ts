/**
 * Settings, flags, feature gates and controllers: what config resolution
 * (config/resolve.ts, over the settings and version tables) reports for the
 * chosen version: unknown names (did-you-mean), wrong types, bad durations,
 * out-of-range values, and flags/settings/gates the version does not have
 * (e.g. `--pod-eviction-timeout` from 1.27), for scenario keys, `flags:`,
 * a KubeControllerManagerConfiguration and a static Pod manifest's command.
 */
import type { SourcePosition } from '../../problems';
import { didYouMeanFix, rangeIn, removeEntryFix, replaceFix, valueRange } from '../fixes';
import type { LintContext, LintProblem, LintRule } from '../types';

/** Codes whose entry is best removed: the version does not have it, so it is not applied. */
const REMOVABLE = new Set(['not-in-version', 'gate-not-in-version', 'controller-not-in-version']);
/** Codes about a flag as a whole: the squiggle covers `--name=value`, not only the value resolve points at. */
const WHOLE_FLAG = new Set(['not-in-version', 'deprecated-setting']);

/** Widens a flag value's position (`2m` of `--pod-eviction-timeout=2m`) to the whole flag. */
function wholeFlag(ctx: LintContext, pos: SourcePosition | undefined): SourcePosition | undefined {
  const r = rangeIn(ctx, pos);
  if (!r || !pos) return pos;
  const lineStart = ctx.text.lastIndexOf('\n', r[0] - 1) + 1;
  const m = /(--[\w-]+)[= ]$/.exec(ctx.text.slice(lineStart, r[0]));
  if (!m) return pos;
  return ctx.lines.position(ctx.file, r[0] - m[0].length, r[1]);
}

export const settingsRule: LintRule = {
  id: 'settings',
  kinds: ['scenario', 'kcm-config', 'kcm-pod'],
  codes: [
    'unknown-setting',
    'unknown-flag',
    'flag-ignored',
    'bad-flag',
    'wrong-type',
    'bad-duration',
    'out-of-range',
    'not-in-version',
    'deprecated-setting',
    'unknown-feature-gate',
    'gate-not-in-version',
    'gate-locked',
    'unknown-controller',
    'controller-not-in-version',
    'setting-has-no-effect',
    'setting-interaction',
    'grace-period-too-short',
    'unknown-field',
    'bad-config-file',
    'unknown-api-version',
    'yaml-syntax',
  ],
  run(ctx: LintContext): LintProblem[] {
    const out: LintProblem[] = [];
    for (const p of ctx.resolved?.problems ?? []) {
      const lp: LintProblem = { ...p };
      if (WHOLE_FLAG.has(p.code)) lp.position = wholeFlag(ctx, p.position);
      const fixes = [];
      if (/did you mean/.test(p.message)) {
        const f = didYouMeanFix(ctx, lp);
        if (f) fixes.push(f);
      }
      // `nodeMonitorGracePeriod: 40` -> `40s`: resolve says which unit it means
      const unit = /write it with a unit, e\.g\. ([^)\s]+)\)/.exec(p.message);
      if (p.code === 'bad-duration' && unit) {
        const v = valueRange(ctx, lp);
        if (v && ctx.text.slice(v[0], v[1]) + 's' === unit[1]) fixes.push(replaceFix(`Change to ${unit[1]}`, v[0], v[1], unit[1]));
      }
      if (REMOVABLE.has(p.code)) {
        const what = /^(\S+)/.exec(p.message.replace(/^feature gate /, '').replace(/^controller /, ''))?.[1] ?? 'the entry';
        const f = removeEntryFix(ctx, lp, `Remove ${what} (Kubernetes ${ctx.version.text} does not have it)`);
        if (f) fixes.push(f);
      }
      if (fixes.length) lp.fixes = fixes;
      out.push(lp);
    }
    return out;
  },
};
