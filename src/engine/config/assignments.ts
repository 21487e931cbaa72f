/**
 * The assignments config resolution applies (resolve.ts): one value for one
 * setting from one source, as read from the flags of a command line or a
 * static Pod, or from a `--set key=value` override.
 */
import type { Problem, SourcePosition } from '../problems';
import { knownFlagNames, parseFlag, splitFlagWords, type ParsedFlag, type Word } from './flags';
import { lookupSetting, type SettingRow } from './settings';
import { closest } from './suggest';
import { ignoredFlagMissingIn } from './flagLifetimes';

export type Origin = 'default' | 'config-file' | 'scenario' | 'flag' | 'override';

/** One value for one setting, from one source. */
export interface Assignment {
  /** scenario key, `featureGates.NAME` or `controllers` */
  key: string;
  raw: unknown;
  origin: Origin;
  /** how the user wrote the name, for messages: `--node-monitor-grace-period`, `nodeMonitorGracePeriod`, ... */
  via: string;
  position?: SourcePosition;
  /** which settings table this belongs under */
  section: 'controllerManager' | 'kubelet';
}

export const SCENARIO_STRUCTURE_KEYS = ['flags', 'configFile', 'featureGates', 'controllers'];
export type Report = (code: string, severity: Problem['severity'], message: string, position?: SourcePosition) => void;

/** Drops the binary (and a `sh -c` wrapper) from the words of a static Pod's command. */
export function dropBinary(words: Word[]): Word[] {
  const idx = words.findIndex((w) => /(^|\/)kube-controller-manager$/.test(w.text.trim()));
  return idx >= 0 ? words.slice(idx + 1) : words;
}

/** `minor`: the version whose kube-controller-manager reads the flags (an ignored flag it does not have stops it). */
export function flagAssignments(words: Word[], origin: Origin, report: Report, strictPositional: boolean, minor: number): Assignment[] {
  const out: Assignment[] = [];
  const { flags, positional, missingValue } = splitFlagWords(words);
  for (const w of positional) {
    if (strictPositional || !/kube-controller-manager/.test(w.text)) {
      const i = words.indexOf(w);
      const prev = i > 0 ? parseFlag(words[i - 1].text) : undefined;
      const hint =
        prev && prev.value === undefined && /^(true|false)$/i.test(w.text.trim())
          ? ` (a boolean flag takes its value with =: ${prev.flag}=${w.text.trim()})`
          : ' (flags start with --, e.g. --node-monitor-grace-period=20s)';
      report('bad-flag', 'error', `"${w.text}" is not a flag${hint}`, w.position);
    }
  }
  const missing = new Set(missingValue);
  const ignored: ParsedFlag[] = [];
  for (const f of flags) {
    if (missing.has(f)) {
      report('bad-flag', 'error', `${f.flag} needs a value, e.g. ${f.flag}=${exampleValue(f.setting)}`, f.position);
      continue;
    }
    if (f.setting) {
      if (f.setting.component !== 'kube-controller-manager') {
        const where = f.setting.component === 'kubelet' ? `a kubelet flag; set kubelet.${f.setting.key} in the scenario` : 'not a kube-controller-manager flag';
        report('unknown-flag', 'error', `${f.flag} is ${where}`, f.position);
        continue;
      }
      const value = f.value ?? (f.setting.type === 'bool' ? 'true' : undefined);
      if (f.setting.key === 'featureGates') {
        for (const part of (value ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)) {
          const m = /^([A-Za-z0-9]+)=(.*)$/.exec(part);
          if (!m) {
            report('bad-flag', 'error', `--feature-gates expects Name=true|false pairs separated by commas, got "${part}"`, f.valuePosition ?? f.position);
            continue;
          }
          out.push({
            key: `featureGates.${m[1]}`,
            raw: m[2],
            origin,
            via: `--feature-gates ${m[1]}`,
            position: f.valuePosition ?? f.position,
            section: 'controllerManager',
          });
        }
        continue;
      }
      out.push({ key: f.setting.key, raw: value, origin, via: f.flag, position: f.valuePosition ?? f.position, section: 'controllerManager' });
      continue;
    }
    if (f.ignored) {
      const missing = ignoredFlagMissingIn(f.flag.slice(2), minor);
      // as for a modelled flag the version lacks (check: not-in-version), but the binary would not start at all
      if (missing)
        report(
          'not-in-version',
          'error',
          `${f.flag} ${missing}; kube-controller-manager 1.${minor} refuses to start with it (unknown flag: ${f.flag})`,
          f.position,
        );
      else ignored.push(f);
      continue;
    }
    const hint = closest(f.flag.slice(2), knownFlagNames(minor));
    report('unknown-flag', 'error', `unknown flag ${f.flag}${hint ? ` (did you mean --${hint}?)` : ''}`, f.position);
  }
  if (ignored.length) {
    report('flag-ignored', 'info', `not simulated, ignored: ${ignored.map((f) => f.flag).join(', ')}`, ignored[0].position);
  }
  return out;
}

export function overrideAssignment(rawKey: string, value: string, report: Report, minor: number): Assignment[] | undefined {
  const key = rawKey.trim();
  if (key.startsWith('-')) {
    const f = parseFlag(`${key}=${value}`);
    if (!f) return undefined;
    return flagAssignments([{ text: `${key}=${value}` }], 'override', report, true, minor);
  }
  const bare = key.replace(/^controllerManager\./, '');
  if (bare.startsWith('featureGates.')) {
    return [{ key: bare, raw: value, origin: 'override', via: `--set ${key}`, section: 'controllerManager' }];
  }
  if (key.startsWith('kubelet.')) {
    const row = lookupSetting(key.slice('kubelet.'.length));
    return [{ key: row?.key ?? key.slice('kubelet.'.length), raw: value, origin: 'override', via: `--set ${key}`, section: 'kubelet' }];
  }
  const row = lookupSetting(bare);
  return [{ key: row ? row.key : bare, raw: value, origin: 'override', via: `--set ${key}`, section: row?.section ?? 'controllerManager' }];
}

function exampleValue(row?: SettingRow): string {
  if (!row) return 'VALUE';
  switch (row.type) {
    case 'duration':
      return String(row.baseline);
    case 'bool':
      return 'true';
    case 'stringList':
      return row.key === 'controllers' ? '*,-replicaset' : 'TaintBasedEvictions=true';
    default:
      return String(row.baseline);
  }
}
