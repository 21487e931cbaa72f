/**
 * Settings, flags, feature gates and controllers: what config resolution
 * (config/resolve.ts, over the settings and version tables) reports for the
 * chosen version: unknown names (did-you-mean), wrong types, bad durations,
 * out-of-range values, and flags/settings/gates the version does not have
 * (e.g. `--pod-eviction-timeout` from 1.27), for scenario keys, `flags:`,
 * a KubeControllerManagerConfiguration and a static Pod manifest's command.
 */
import { didYouMeanFix, removeEntryFix } from '../fixes';
import type { LintContext, LintProblem, LintRule } from '../types';

/** Codes whose entry is best removed: the version does not have it, so it is not applied. */
const REMOVABLE = new Set(['not-in-version', 'gate-not-in-version', 'controller-not-in-version']);
/** Reported by the timing rules' owner too; kept here as resolve reports it. */

export const settingsRule: LintRule = {
  id: 'settings',
  kinds: ['scenario', 'kcm-config', 'kcm-pod'],
  codes: ['unknown-setting', 'unknown-flag', 'flag-ignored', 'bad-flag', 'wrong-type', 'bad-duration', 'out-of-range', 'not-in-version',
    'deprecated-setting', 'unknown-feature-gate', 'gate-not-in-version', 'gate-locked', 'unknown-controller', 'controller-not-in-version',
    'setting-has-no-effect', 'setting-interaction', 'grace-period-too-short', 'unknown-field', 'bad-config-file', 'unknown-api-version', 'yaml-syntax'],
  run(ctx: LintContext): LintProblem[] {
    const out: LintProblem[] = [];
    for (const p of ctx.resolved?.problems ?? []) {
      const lp: LintProblem = { ...p };
      const fixes = [];
      if (/did you mean/.test(p.message)) {
        const f = didYouMeanFix(ctx, lp);
        if (f) fixes.push(f);
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
