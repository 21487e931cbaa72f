/**
 * Checks one assignment (assignments.ts) against the settings table, the chosen
 * version and the feature gates, and converts its value to the setting's type;
 * a bad one is reported and not applied (resolve.ts).
 */
import { parseDuration, type Duration } from '../model/time';
import { gateLifecycles, gateStateOf } from '../versions/table';
import { SCENARIO_STRUCTURE_KEYS, type Assignment, type Report } from './assignments';
import { SETTINGS, allFeatureGateNames, availabilityOf, lookupSetting, settingExistsIn, type SettingRow } from './settings';
import { closest } from './suggest';

const ALL_KEYS = [...SETTINGS.map((s) => s.key), ...SCENARIO_STRUCTURE_KEYS];

/** Checks one assignment; returns the typed value to apply, or undefined (a problem was reported). */
export function check(a: Assignment, minor: number, report: Report): { value: unknown } | undefined {
  if (a.key.startsWith('featureGates.')) return checkGate(a, minor, report);
  if (a.key === 'controllers') {
    const list = toStringList(a.raw);
    if (!list) {
      report('wrong-type', 'error', `${a.via}: expected a list of controller names (or "*,-name"), got ${describe(a.raw)}`, a.position);
      return undefined;
    }
    return { value: list };
  }
  // Scenario keys are exact (YAML keys are case-sensitive); `--set` also takes a flag name.
  const row = a.origin === 'override' ? lookupSetting(a.key) : SETTINGS.find((s) => s.key === a.key);
  if (!row || row.section !== a.section) {
    if (row) {
      report('unknown-setting', 'error', `${a.via} is not a ${a.section} setting; it belongs under ${row.section}: (${row.section}.${row.key})`, a.position);
      return undefined;
    }
    const candidates =
      a.section === 'kubelet'
        ? SETTINGS.filter((s) => s.section === 'kubelet').map((s) => s.key)
        : ALL_KEYS.filter((k) => lookupSetting(k)?.section !== 'kubelet');
    const hint = closest(a.key, candidates);
    report('unknown-setting', 'error', `unknown ${a.section} setting ${a.via}${hint ? ` (did you mean ${hint}?)` : ''}`, a.position);
    return undefined;
  }
  if (!settingExistsIn(row, minor)) {
    const av = availabilityOf(row);
    const why = av.removedIn !== undefined && minor >= av.removedIn ? `was removed in 1.${av.removedIn}` : `was added in 1.${av.since}`;
    report('not-in-version', 'error', `${a.via} ${why}; Kubernetes 1.${minor} does not have it (not applied)`, a.position);
    return undefined;
  }
  const av = availabilityOf(row);
  if (av.deprecatedIn !== undefined && minor >= av.deprecatedIn && a.origin !== 'default') {
    report(
      'deprecated-setting',
      'warning',
      `${a.via} is deprecated since 1.${av.deprecatedIn}${av.removedIn ? ` and removed in 1.${av.removedIn}` : ''}`,
      a.position,
    );
  }
  const value = convert(row, a, report);
  if (value === undefined) return undefined;
  if (typeof value === 'number' && row.range && !inRange(value, row.range)) {
    const shown = row.type === 'duration' ? String(a.raw) : String(value);
    report(
      'out-of-range',
      'error',
      `${a.via}: ${shown} is out of range; it must be ${row.range.text}${row.type === 'duration' ? '' : ''} (not applied)`,
      a.position,
    );
    return undefined;
  }
  return { value };
}

function inRange(v: number, r: NonNullable<SettingRow['range']>): boolean {
  if (r.min !== undefined && v < r.min) return false;
  if (r.gt !== undefined && !(v > r.gt)) return false;
  if (r.max !== undefined && v > r.max) return false;
  return true;
}

function convert(row: SettingRow, a: Assignment, report: Report): unknown {
  const raw = a.raw;
  switch (row.type) {
    case 'duration': {
      const d: Duration | undefined = typeof raw === 'string' ? parseDuration(raw) : undefined;
      if (d === undefined) {
        const hint = typeof raw === 'number' ? ` (write it with a unit, e.g. ${raw}s)` : ' (a Go duration such as 40s, 1m30s, 500ms)';
        report('bad-duration', 'error', `${a.via}: ${describe(raw)} is not a duration${hint}`, a.position);
        return undefined;
      }
      return d;
    }
    case 'float': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
      if (!Number.isFinite(n)) {
        report('wrong-type', 'error', `${a.via}: expected a number, got ${describe(raw)}`, a.position);
        return undefined;
      }
      return n;
    }
    case 'int': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[-+]?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      if (!Number.isInteger(n)) {
        report('wrong-type', 'error', `${a.via}: expected a whole number, got ${describe(raw)}`, a.position);
        return undefined;
      }
      return n;
    }
    case 'bool': {
      const v = toBool(raw);
      if (v === undefined) {
        report('wrong-type', 'error', `${a.via}: expected true or false, got ${describe(raw)}`, a.position);
        return undefined;
      }
      return v;
    }
    case 'stringList': {
      const l = toStringList(raw);
      if (!l) {
        report('wrong-type', 'error', `${a.via}: expected a list, got ${describe(raw)}`, a.position);
        return undefined;
      }
      return l;
    }
  }
}

/** Go's strconv.ParseBool, as pflag uses it. */
function toBool(raw: unknown): boolean | undefined {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw !== 'string') return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw.trim())) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw.trim())) return false;
  return undefined;
}

function toStringList(raw: unknown): string[] | undefined {
  if (typeof raw === 'string')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(raw) && raw.every((x) => typeof x === 'string')) return raw.map((s) => s.trim()).filter(Boolean);
  return undefined;
}

function describe(raw: unknown): string {
  if (raw === undefined) return 'nothing';
  if (raw === null) return 'null';
  if (typeof raw === 'string') return `"${raw}"`;
  if (typeof raw === 'object') return Array.isArray(raw) ? 'a list' : 'a map';
  return String(raw);
}

function checkGate(a: Assignment, minor: number, report: Report): { value: unknown } | undefined {
  const name = a.key.slice('featureGates.'.length);
  const value = toBool(a.raw);
  if (value === undefined) {
    report('wrong-type', 'error', `feature gate ${name}: expected true or false, got ${describe(a.raw)}`, a.position);
    return undefined;
  }
  const life = gateLifecycles().get(name);
  if (!life) {
    const hint = closest(name, allFeatureGateNames());
    report(
      'unknown-feature-gate',
      'warning',
      `feature gate ${name} is not one the simulation models${hint ? ` (did you mean ${hint}?)` : ''}; ignored`,
      a.position,
    );
    return undefined;
  }
  const state = gateStateOf(minor).get(name);
  if (!state) {
    const why = life.removedIn !== undefined && minor >= life.removedIn ? `was removed in 1.${life.removedIn}` : `was added in 1.${life.since}`;
    report('gate-not-in-version', 'error', `feature gate ${name} ${why}; Kubernetes 1.${minor} does not have it (not applied)`, a.position);
    return undefined;
  }
  if (state.locked && value !== state.default) {
    report(
      'gate-locked',
      'error',
      `feature gate ${name} is ${state.stage} and locked to ${state.default} in 1.${minor}; it cannot be set to ${value} (not applied)`,
      a.position,
    );
    return undefined;
  }
  return { value };
}
