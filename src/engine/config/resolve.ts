/**
 * Resolves the kube-controller-manager and kubelet settings a simulation runs
 * with, from every place a scenario can give them.
 *
 * Precedence, lowest first (a later source overrides an earlier one, setting by
 * setting; feature gates gate by gate):
 *   1. the defaults of the chosen Kubernetes version (config/defaults.ts);
 *   2. `controllerManager.configFile`: a KubeControllerManagerConfiguration, or
 *      the flags of the kube-controller-manager static Pod manifest;
 *   3. the scenario's `controllerManager:` keys (and `featureGates:`, `controllers:`)
 *      and `kubelet:` keys;
 *   4. `controllerManager.flags`;
 *   5. `--set key=value` overrides from the command line.
 * Within one source, the last occurrence wins (as pflag does for repeated flags).
 *
 * Every bad value becomes a Problem (stable code, position) and is NOT applied:
 * the setting keeps the value of the source below it. A flag or gate that the
 * chosen version does not have is reported and not applied either.
 */
import { parseDuration, type Duration } from '../model/time';
import type { Problem, SourcePosition } from '../problems';
import type { ControllerManagerInput } from '../snapshot/types';
import { behaviourOf, gateLifecycles, gateStateOf } from '../versions/table';
import type { KubeVersion, VersionBehaviour } from '../versions/types';
import { readControllerManagerConfigFile } from './configFile';
import { defaultControllerConfig, defaultKubeletConfig } from './defaults';
import { knownFlagNames, parseFlag, splitFlagWords, type ParsedFlag, type Word } from './flags';
import {
  OTHER_KCM_CONTROLLERS, SETTINGS, SIMULATED_CONTROLLERS, allFeatureGateNames, availabilityOf, lookupSetting,
  settingExistsIn, type SettingRow,
} from './settings';
import { closest } from './suggest';
import { periodChecks } from './periods';
import type { ControllerConfig, KubeletConfig } from './types';

export { lookupSetting, settingsForVersion, renderSettingsTableMarkdown, featureGatesForVersion, settingHoverMarkdown, gateHoverMarkdown } from './settings';
export { parseFlag } from './flags';

/** Every problem code config resolution reports, with what it means (for docs and the language server). */
export const CONFIG_PROBLEM_CODES = {
  'yaml-syntax': 'the configuration file is not valid YAML/JSON',
  'bad-config-file': 'the configuration file is neither a KubeControllerManagerConfiguration nor a kube-controller-manager Pod',
  'unknown-api-version': 'a KubeControllerManagerConfiguration with an apiVersion other than kubecontrollermanager.config.k8s.io/v1alpha1',
  'unknown-field': 'a field of a KubeControllerManagerConfiguration section the simulation reads, which it does not know',
  'unknown-setting': 'a scenario key that is not a setting (or belongs under the other section)',
  'unknown-flag': 'a flag kube-controller-manager does not have (or a kubelet flag)',
  'flag-ignored': 'real kube-controller-manager flags the simulation does not model',
  'bad-flag': 'a word that is not a flag, a flag without its value, or a malformed --feature-gates',
  'wrong-type': 'a value of the wrong type (not a number, not true/false, not a list)',
  'bad-duration': 'a duration that Go would not parse (write 40s, 1m30s, 500ms)',
  'out-of-range': 'a value outside the setting\'s range (rates < 0, unhealthyZoneThreshold outside (0, 1], durations <= 0)',
  'not-in-version': 'a setting or flag the chosen Kubernetes version does not have (not applied)',
  'period-below-limit': 'a period (nodeMonitorPeriod, a kubelet interval) under 1ms, the shortest the simulation runs',
  'absurd-setting': 'legal but absurd: a nodeMonitorPeriod under 1s, or a nodeMonitorGracePeriod shorter than nodeMonitorPeriod',
  'deprecated-setting': 'a setting the chosen version deprecates (still applied)',
  'unknown-feature-gate': 'a feature gate the simulation does not model (ignored)',
  'gate-not-in-version': 'a feature gate the chosen version does not have (not applied)',
  'gate-locked': 'a feature gate locked to its default in the chosen version, set to the other value (not applied)',
  'unknown-controller': 'a name in controllers / --controllers that kube-controller-manager does not have',
  'controller-not-in-version': 'a controller name the chosen version does not have (not applied)',
  'setting-has-no-effect': 'a setting that the other settings make irrelevant',
  'setting-interaction': 'settings that combine into something else than they seem to ask for',
  'grace-period-too-short': 'nodeMonitorGracePeriod not longer than the kubelet heartbeat interval',
} as const;

export type ConfigProblemCode = keyof typeof CONFIG_PROBLEM_CODES;

export type Origin = 'default' | 'config-file' | 'scenario' | 'flag' | 'override';

export interface ResolvedConfig {
  config: ControllerConfig;
  kubelet: KubeletConfig;
  /**
   * The version's behaviour, with the fields that a feature gate switches set
   * from the effective gates: separateTaintEvictionController
   * (SeparateTaintEvictionController), excludeMasterByName (LegacyNodeRoleBehavior),
   * honoursExcludeDisruptionLabel (NodeDisruptionExclusion). The `...Default`
   * fields stay the version's defaults; use isFeatureEnabled for the gate itself.
   */
  behaviour: VersionBehaviour;
  problems: Problem[];
  /** where each setting's value came from: scenario key, `featureGates.NAME`, `controllers` */
  origins: Record<string, { origin: Origin; position?: SourcePosition }>;
}

export type SettingInput = Record<string, { value: unknown; position?: SourcePosition }>;

/** One value for one setting, from one source. */
interface Assignment {
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

const SCENARIO_STRUCTURE_KEYS = ['flags', 'configFile', 'featureGates', 'controllers'];

export function resolveConfig(
  input: ControllerManagerInput,
  kubeletInput: SettingInput,
  version: KubeVersion,
  overrides?: Record<string, string>,
): ResolvedConfig {
  const minor = version.minor;
  const b = behaviourOf(version);
  const problems: Problem[] = [];
  const report = (code: string, severity: Problem['severity'], message: string, position?: SourcePosition): void => {
    problems.push(position ? { code, severity, message, position } : { code, severity, message });
  };
  const assignments: Assignment[] = [];

  // 2. the configuration file
  if (input.configFile) {
    const file = readControllerManagerConfigFile(input.configFile.path, input.configFile.text);
    problems.push(...file.problems);
    if (file.form === 'KubeControllerManagerConfiguration') {
      for (const [key, v] of Object.entries(file.settings)) {
        assignments.push({ key, raw: v.value, origin: 'config-file', via: lookupSetting(key)?.configPath ?? key, position: v.position, section: 'controllerManager' });
      }
      for (const [name, v] of Object.entries(file.featureGates)) {
        assignments.push({ key: `featureGates.${name}`, raw: v.value, origin: 'config-file', via: `featureGates.${name}`, position: v.position, section: 'controllerManager' });
      }
      if (file.controllers) assignments.push({ key: 'controllers', raw: file.controllers.value, origin: 'config-file', via: 'generic.controllers', position: file.controllers.position, section: 'controllerManager' });
    } else if (file.form === 'Pod') {
      const words = dropBinary(file.words);
      assignments.push(...flagAssignments(words, 'config-file', report, false));
    }
  }

  // 3. scenario keys
  for (const [key, v] of Object.entries(input.settings)) {
    if (key === 'featureGates' && v.value && typeof v.value === 'object' && !Array.isArray(v.value)) {
      for (const [name, g] of Object.entries(v.value as Record<string, unknown>)) {
        assignments.push({ key: `featureGates.${name}`, raw: g, origin: 'scenario', via: `featureGates.${name}`, position: v.position, section: 'controllerManager' });
      }
      continue;
    }
    if (key === 'controllers') {
      assignments.push({ key: 'controllers', raw: v.value, origin: 'scenario', via: 'controllers', position: v.position, section: 'controllerManager' });
      continue;
    }
    assignments.push({ key, raw: v.value, origin: 'scenario', via: key, position: v.position, section: 'controllerManager' });
  }
  for (const [name, v] of Object.entries(input.featureGates)) {
    assignments.push({ key: `featureGates.${name}`, raw: v.value, origin: 'scenario', via: `featureGates.${name}`, position: v.position, section: 'controllerManager' });
  }
  for (const [key, v] of Object.entries(kubeletInput)) {
    assignments.push({ key, raw: v.value, origin: 'scenario', via: `kubelet.${key}`, position: v.position, section: 'kubelet' });
  }

  // 4. flags
  assignments.push(...flagAssignments(input.flags.map((f) => ({ text: f.text, position: f.position })), 'flag', report, true));

  // 5. --set overrides
  for (const [rawKey, value] of Object.entries(overrides ?? {})) {
    const a = overrideAssignment(rawKey, value, report);
    if (a) assignments.push(...a);
  }

  // Check and apply, in precedence order.
  const finals = new Map<string, { value: unknown; origin: Origin; position?: SourcePosition; via: string }>();
  for (const a of assignments) {
    const checked = check(a, minor, report);
    if (checked !== undefined) finals.set(a.key, { value: checked.value, origin: a.origin, position: a.position, via: a.via });
  }

  // Build the config.
  const config = defaultControllerConfig(b);
  const origins: ResolvedConfig['origins'] = {};
  for (const s of SETTINGS) origins[s.key] = { origin: 'default' };
  for (const g of Object.keys(config.featureGates)) origins[`featureGates.${g}`] = { origin: 'default' };
  const explicitKubelet = new Set<string>();
  const kubeletValues: Partial<KubeletConfig> = {};
  let controllersValue: { value: string[]; position?: SourcePosition; via: string } | undefined;

  for (const [key, f] of finals) {
    origins[key] = { origin: f.origin, ...(f.position ? { position: f.position } : {}) };
    if (key.startsWith('featureGates.')) { config.featureGates[key.slice('featureGates.'.length)] = f.value as boolean; continue; }
    if (key === 'controllers') { controllersValue = { value: f.value as string[], position: f.position, via: f.via }; continue; }
    const row = lookupSetting(key)!;
    if (row.section === 'kubelet') {
      (kubeletValues as Record<string, unknown>)[row.key] = f.value;
      explicitKubelet.add(row.key);
    } else {
      (config as unknown as Record<string, unknown>)[row.key] = f.value;
    }
  }

  const behaviour = effectiveBehaviour(b, config);
  config.controllers = resolveControllers(controllersValue, minor, behaviour, report);

  // Kubelet: Leases decide whether an unchanged status is posted every nodeStatusReportFrequency.
  const leasesOn = isFeatureEnabled(config, b, 'NodeLease');
  const kubelet = defaultKubeletConfig(b, leasesOn);
  if (kubeletValues.nodeStatusUpdateFrequency !== undefined) kubelet.nodeStatusUpdateFrequency = kubeletValues.nodeStatusUpdateFrequency;
  if (kubeletValues.leaseRenewInterval !== undefined) kubelet.leaseRenewInterval = kubeletValues.leaseRenewInterval;
  if (kubeletValues.podStartupDelay !== undefined) kubelet.podStartupDelay = kubeletValues.podStartupDelay;
  if (!leasesOn || minor < 13) {
    kubelet.nodeStatusReportFrequency = kubelet.nodeStatusUpdateFrequency;
    if (kubeletValues.nodeStatusReportFrequency !== undefined) {
      report('setting-has-no-effect', 'warning', 'kubelet.nodeStatusReportFrequency has no effect: without Leases (NodeLease gate off) every status post is a heartbeat, every nodeStatusUpdateFrequency', origins.nodeStatusReportFrequency?.position);
    }
  } else if (kubeletValues.nodeStatusReportFrequency !== undefined) {
    kubelet.nodeStatusReportFrequency = kubeletValues.nodeStatusReportFrequency;
  } else if (kubeletValues.nodeStatusUpdateFrequency !== undefined) {
    // SetDefaults_KubeletConfiguration: "For backward compatibility, NodeStatusReportFrequency's default value is
    // set to NodeStatusUpdateFrequency if NodeStatusUpdateFrequency is set explicitly."
    kubelet.nodeStatusReportFrequency = kubeletValues.nodeStatusUpdateFrequency;
  }

  interactionWarnings(config, kubelet, b, finals, leasesOn, report);
  return { config, kubelet, behaviour, problems, origins };
}

/** Whether a feature gate is on in a resolved config; a gate the version no longer has is on if it was removed after GA. */
export function isFeatureEnabled(config: ControllerConfig, b: VersionBehaviour, gate: string): boolean {
  if (gate in config.featureGates) return config.featureGates[gate];
  const removedIn = gateLifecycles().get(gate)?.removedIn;
  return removedIn !== undefined && removedIn <= b.version.minor;
}

/**
 * Whether the node lifecycle controller taints nodes (NoExecute) instead of
 * deleting pods itself: always from 1.27; before, TaintBasedEvictions AND
 * the taint manager (`useTaintBasedEvictions && runTaintManager` in
 * NewNodeLifecycleController).
 */
export function usesTaintBasedEvictions(config: ControllerConfig, b: VersionBehaviour): boolean {
  if (!b.hasPodEvictionPath) return true;
  return isFeatureEnabled(config, b, 'TaintBasedEvictions') && config.enableTaintManager;
}

function effectiveBehaviour(b: VersionBehaviour, config: ControllerConfig): VersionBehaviour {
  const out: VersionBehaviour = { ...b };
  const has = (g: string): boolean => g in config.featureGates;
  if (b.version.minor >= 29) out.separateTaintEvictionController = isFeatureEnabled(config, b, 'SeparateTaintEvictionController');
  if (has('LegacyNodeRoleBehavior')) out.excludeMasterByName = config.featureGates.LegacyNodeRoleBehavior;
  if (has('NodeDisruptionExclusion')) out.honoursExcludeDisruptionLabel = config.featureGates.NodeDisruptionExclusion;
  return out;
}

type Report = (code: string, severity: Problem['severity'], message: string, position?: SourcePosition) => void;

/** Drops the binary (and a `sh -c` wrapper) from the words of a static Pod's command. */
function dropBinary(words: Word[]): Word[] {
  const idx = words.findIndex((w) => /(^|\/)kube-controller-manager$/.test(w.text.trim()));
  return idx >= 0 ? words.slice(idx + 1) : words;
}

function flagAssignments(words: Word[], origin: Origin, report: Report, strictPositional: boolean): Assignment[] {
  const out: Assignment[] = [];
  const { flags, positional, missingValue } = splitFlagWords(words);
  for (const w of positional) {
    if (strictPositional || !/kube-controller-manager/.test(w.text)) {
      const i = words.indexOf(w);
      const prev = i > 0 ? parseFlag(words[i - 1].text) : undefined;
      const hint = prev && prev.value === undefined && /^(true|false)$/i.test(w.text.trim())
        ? ` (a boolean flag takes its value with =: ${prev.flag}=${w.text.trim()})`
        : ' (flags start with --, e.g. --node-monitor-grace-period=20s)';
      report('bad-flag', 'error', `"${w.text}" is not a flag${hint}`, w.position);
    }
  }
  const missing = new Set(missingValue);
  const ignored: ParsedFlag[] = [];
  for (const f of flags) {
    if (missing.has(f)) { report('bad-flag', 'error', `${f.flag} needs a value, e.g. ${f.flag}=${exampleValue(f.setting)}`, f.position); continue; }
    if (f.setting) {
      if (f.setting.component !== 'kube-controller-manager') {
        const where = f.setting.component === 'kubelet' ? `a kubelet flag; set kubelet.${f.setting.key} in the scenario` : 'not a kube-controller-manager flag';
        report('unknown-flag', 'error', `${f.flag} is ${where}`, f.position);
        continue;
      }
      const value = f.value ?? (f.setting.type === 'bool' ? 'true' : undefined);
      if (f.setting.key === 'featureGates') {
        for (const part of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
          const m = /^([A-Za-z0-9]+)=(.*)$/.exec(part);
          if (!m) { report('bad-flag', 'error', `--feature-gates expects Name=true|false pairs separated by commas, got "${part}"`, f.valuePosition ?? f.position); continue; }
          out.push({ key: `featureGates.${m[1]}`, raw: m[2], origin, via: `--feature-gates ${m[1]}`, position: f.valuePosition ?? f.position, section: 'controllerManager' });
        }
        continue;
      }
      out.push({ key: f.setting.key, raw: value, origin, via: f.flag, position: f.valuePosition ?? f.position, section: 'controllerManager' });
      continue;
    }
    if (f.ignored) { ignored.push(f); continue; }
    const hint = closest(f.flag.slice(2), knownFlagNames());
    report('unknown-flag', 'error', `unknown flag ${f.flag}${hint ? ` (did you mean --${hint}?)` : ''}`, f.position);
  }
  if (ignored.length) {
    report('flag-ignored', 'info', `not simulated, ignored: ${ignored.map((f) => f.flag).join(', ')}`, ignored[0].position);
  }
  return out;
}

function overrideAssignment(rawKey: string, value: string, report: Report): Assignment[] | undefined {
  const key = rawKey.trim();
  if (key.startsWith('-')) {
    const f = parseFlag(`${key}=${value}`);
    if (!f) return undefined;
    return flagAssignments([{ text: `${key}=${value}` }], 'override', report, true);
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
    case 'duration': return String(row.baseline);
    case 'bool': return 'true';
    case 'stringList': return row.key === 'controllers' ? '*,-replicaset' : 'TaintBasedEvictions=true';
    default: return String(row.baseline);
  }
}

const ALL_KEYS = [...SETTINGS.map((s) => s.key), ...SCENARIO_STRUCTURE_KEYS];

/** Checks one assignment; returns the typed value to apply, or undefined (a problem was reported). */
function check(a: Assignment, minor: number, report: Report): { value: unknown } | undefined {
  if (a.key.startsWith('featureGates.')) return checkGate(a, minor, report);
  if (a.key === 'controllers') {
    const list = toStringList(a.raw);
    if (!list) { report('wrong-type', 'error', `${a.via}: expected a list of controller names (or "*,-name"), got ${describe(a.raw)}`, a.position); return undefined; }
    return { value: list };
  }
  // Scenario keys are exact (YAML keys are case-sensitive); `--set` also takes a flag name.
  const row = a.origin === 'override' ? lookupSetting(a.key) : SETTINGS.find((s) => s.key === a.key);
  if (!row || row.section !== a.section) {
    if (row) {
      report('unknown-setting', 'error', `${a.via} is not a ${a.section} setting; it belongs under ${row.section}: (${row.section}.${row.key})`, a.position);
      return undefined;
    }
    const candidates = a.section === 'kubelet'
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
    report('deprecated-setting', 'warning', `${a.via} is deprecated since 1.${av.deprecatedIn}${av.removedIn ? ` and removed in 1.${av.removedIn}` : ''}`, a.position);
  }
  const value = convert(row, a, report);
  if (value === undefined) return undefined;
  if (typeof value === 'number' && row.range && !inRange(value, row.range)) {
    const shown = row.type === 'duration' ? String(a.raw) : String(value);
    report('out-of-range', 'error', `${a.via}: ${shown} is out of range; it must be ${row.range.text}${row.type === 'duration' ? '' : ''} (not applied)`, a.position);
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
      if (!Number.isFinite(n)) { report('wrong-type', 'error', `${a.via}: expected a number, got ${describe(raw)}`, a.position); return undefined; }
      return n;
    }
    case 'int': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[-+]?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      if (!Number.isInteger(n)) { report('wrong-type', 'error', `${a.via}: expected a whole number, got ${describe(raw)}`, a.position); return undefined; }
      return n;
    }
    case 'bool': {
      const v = toBool(raw);
      if (v === undefined) { report('wrong-type', 'error', `${a.via}: expected true or false, got ${describe(raw)}`, a.position); return undefined; }
      return v;
    }
    case 'stringList': {
      const l = toStringList(raw);
      if (!l) { report('wrong-type', 'error', `${a.via}: expected a list, got ${describe(raw)}`, a.position); return undefined; }
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
  if (typeof raw === 'string') return raw.split(',').map((s) => s.trim()).filter(Boolean);
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
  if (value === undefined) { report('wrong-type', 'error', `feature gate ${name}: expected true or false, got ${describe(a.raw)}`, a.position); return undefined; }
  const life = gateLifecycles().get(name);
  if (!life) {
    const hint = closest(name, allFeatureGateNames());
    report('unknown-feature-gate', 'warning', `feature gate ${name} is not one the simulation models${hint ? ` (did you mean ${hint}?)` : ''}; ignored`, a.position);
    return undefined;
  }
  const state = gateStateOf(minor).get(name);
  if (!state) {
    const why = life.removedIn !== undefined && minor >= life.removedIn ? `was removed in 1.${life.removedIn}` : `was added in 1.${life.since}`;
    report('gate-not-in-version', 'error', `feature gate ${name} ${why}; Kubernetes 1.${minor} does not have it (not applied)`, a.position);
    return undefined;
  }
  if (state.locked && value !== state.default) {
    report('gate-locked', 'error', `feature gate ${name} is ${state.stage} and locked to ${state.default} in 1.${minor}; it cannot be set to ${value} (not applied)`, a.position);
    return undefined;
  }
  return { value };
}

function resolveControllers(
  given: { value: string[]; position?: SourcePosition; via: string } | undefined,
  minor: number,
  behaviour: VersionBehaviour,
  report: Report,
): Set<string> {
  const tokens = given ? given.value : ['*'];
  const enabled = new Set<string>();
  const disabled = new Set<string>();
  let star = false;
  const known = [...SIMULATED_CONTROLLERS.flatMap((c) => [c.name, ...c.aliases.map((x) => x.name)]), ...OTHER_KCM_CONTROLLERS];
  for (const t of tokens) {
    if (t === '*') { star = true; continue; }
    const neg = t.startsWith('-');
    const name = neg ? t.slice(1) : t;
    const sim = SIMULATED_CONTROLLERS.find((c) => c.name === name || c.aliases.some((x) => x.name === name));
    if (sim) {
      const alias = sim.aliases.find((x) => x.name === name);
      const since = alias ? alias.since : sim.since;
      if (minor < since) {
        report('controller-not-in-version', 'error', `controller ${name} exists from 1.${since}; Kubernetes 1.${minor} does not have it (not applied)`, given?.position);
        continue;
      }
      (neg ? disabled : enabled).add(sim.name);
      continue;
    }
    if (OTHER_KCM_CONTROLLERS.includes(name)) continue;
    const hint = closest(name, known);
    report('unknown-controller', 'error', `unknown controller ${name} in ${given?.via ?? 'controllers'}${hint ? ` (did you mean ${hint}?)` : ''}`, given?.position);
  }
  const out = new Set<string>();
  for (const c of SIMULATED_CONTROLLERS) {
    if (minor < c.since) continue;
    if (disabled.has(c.name)) continue;
    if (enabled.has(c.name) || star) out.add(c.name);
  }
  // With SeparateTaintEvictionController off (1.29–1.33), the taint manager runs inside the node lifecycle controller.
  if (!behaviour.separateTaintEvictionController) out.delete('taint-eviction-controller');
  return out;
}

function interactionWarnings(
  config: ControllerConfig,
  kubelet: KubeletConfig,
  b: VersionBehaviour,
  finals: Map<string, { origin: Origin; position?: SourcePosition; via: string }>,
  leasesOn: boolean,
  report: Report,
): void {
  const set = (k: string) => finals.get(k);
  periodChecks(config, kubelet, set, report);
  const taintBased = usesTaintBasedEvictions(config, b);
  if (b.hasPodEvictionPath && taintBased && set('podEvictionTimeout')) {
    report('setting-has-no-effect', 'warning', `${set('podEvictionTimeout')!.via} has no effect: with TaintBasedEvictions and the taint manager on, pods are evicted by the NoExecute taints and their tolerationSeconds`, set('podEvictionTimeout')!.position);
  }
  if (b.hasPodEvictionPath && !config.enableTaintManager && isFeatureEnabled(config, b, 'TaintBasedEvictions')) {
    const at = set('enableTaintManager') ?? set('featureGates.TaintBasedEvictions');
    report('setting-interaction', 'warning', 'TaintBasedEvictions is on but the taint manager is off (enableTaintManager: false): the controller evicts pods itself after podEvictionTimeout, as kube-controller-manager does', at?.position);
  }
  const heartbeat = leasesOn ? Math.min(kubelet.leaseRenewInterval, kubelet.nodeStatusUpdateFrequency) : kubelet.nodeStatusUpdateFrequency;
  if (config.nodeMonitorGracePeriod <= heartbeat) {
    const at = set('nodeMonitorGracePeriod') ?? set('nodeStatusUpdateFrequency') ?? set('leaseRenewInterval');
    report('grace-period-too-short', 'warning', 'nodeMonitorGracePeriod is not longer than the kubelet heartbeat interval: healthy nodes will flap to Unknown between heartbeats', at?.position);
  }
}
