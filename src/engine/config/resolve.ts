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
import type { Problem, SourcePosition } from '../problems';
import type { ControllerManagerInput } from '../snapshot/types';
import { behaviourOf, gateLifecycles } from '../versions/table';
import type { KubeVersion, VersionBehaviour } from '../versions/types';
import { dropBinary, flagAssignments, overrideAssignment, type Assignment, type Origin, type Report } from './assignments';
import { check } from './checkAssignment';
import { readControllerManagerConfigFile } from './configFile';
import { defaultControllerConfig, defaultKubeletConfig } from './defaults';
import { OTHER_KCM_CONTROLLERS, SETTINGS, SIMULATED_CONTROLLERS, lookupSetting } from './settings';
import { otherControllerMissingIn } from './controllerLifetimes';
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
  'out-of-range': "a value outside the setting's range (rates < 0, unhealthyZoneThreshold outside (0, 1], durations <= 0)",
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

export type { Origin } from './assignments';

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
        assignments.push({
          key,
          raw: v.value,
          origin: 'config-file',
          via: lookupSetting(key)?.configPath ?? key,
          position: v.position,
          section: 'controllerManager',
        });
      }
      for (const [name, v] of Object.entries(file.featureGates)) {
        assignments.push({
          key: `featureGates.${name}`,
          raw: v.value,
          origin: 'config-file',
          via: `featureGates.${name}`,
          position: v.position,
          section: 'controllerManager',
        });
      }
      if (file.controllers)
        assignments.push({
          key: 'controllers',
          raw: file.controllers.value,
          origin: 'config-file',
          via: 'generic.controllers',
          position: file.controllers.position,
          section: 'controllerManager',
        });
    } else if (file.form === 'Pod') {
      const words = dropBinary(file.words);
      assignments.push(...flagAssignments(words, 'config-file', report, false, minor));
    }
  }

  // 3. scenario keys
  for (const [key, v] of Object.entries(input.settings)) {
    if (key === 'featureGates' && v.value && typeof v.value === 'object' && !Array.isArray(v.value)) {
      for (const [name, g] of Object.entries(v.value as Record<string, unknown>)) {
        assignments.push({
          key: `featureGates.${name}`,
          raw: g,
          origin: 'scenario',
          via: `featureGates.${name}`,
          position: v.position,
          section: 'controllerManager',
        });
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
    assignments.push({
      key: `featureGates.${name}`,
      raw: v.value,
      origin: 'scenario',
      via: `featureGates.${name}`,
      position: v.position,
      section: 'controllerManager',
    });
  }
  for (const [key, v] of Object.entries(kubeletInput)) {
    assignments.push({ key, raw: v.value, origin: 'scenario', via: `kubelet.${key}`, position: v.position, section: 'kubelet' });
  }

  // 4. flags
  assignments.push(
    ...flagAssignments(
      input.flags.map((f) => ({ text: f.text, position: f.position })),
      'flag',
      report,
      true,
      minor,
    ),
  );

  // 5. --set overrides
  for (const [rawKey, value] of Object.entries(overrides ?? {})) {
    const a = overrideAssignment(rawKey, value, report, minor);
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
    if (key.startsWith('featureGates.')) {
      config.featureGates[key.slice('featureGates.'.length)] = f.value as boolean;
      continue;
    }
    if (key === 'controllers') {
      controllersValue = { value: f.value as string[], position: f.position, via: f.via };
      continue;
    }
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
      report(
        'setting-has-no-effect',
        'warning',
        'kubelet.nodeStatusReportFrequency has no effect: without Leases (NodeLease gate off) every status post is a heartbeat, every nodeStatusUpdateFrequency',
        origins.nodeStatusReportFrequency?.position,
      );
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
    if (t === '*') {
      star = true;
      continue;
    }
    const neg = t.startsWith('-');
    const name = neg ? t.slice(1) : t;
    const sim = SIMULATED_CONTROLLERS.find((c) => c.name === name || c.aliases.some((x) => x.name === name));
    if (sim) {
      const alias = sim.aliases.find((x) => x.name === name);
      const since = alias ? alias.since : sim.since;
      if (minor < since) {
        report(
          'controller-not-in-version',
          'error',
          `controller ${name} exists from 1.${since}; Kubernetes 1.${minor} does not have it (not applied)`,
          given?.position,
        );
        continue;
      }
      (neg ? disabled : enabled).add(sim.name);
      continue;
    }
    if (OTHER_KCM_CONTROLLERS.includes(name)) {
      const missing = otherControllerMissingIn(name, minor);
      if (missing)
        report('controller-not-in-version', 'error', `controller ${name} ${missing} (kube-controller-manager refuses to start with it)`, given?.position);
      continue;
    }
    // names from 1.28 end in -controller, and some have no short form: the suffix is what is missing, too long a tail for closest()
    const hint = known.includes(`${name}-controller`) ? `${name}-controller` : closest(name, known);
    report(
      'unknown-controller',
      'error',
      `unknown controller ${name} in ${given?.via ?? 'controllers'}${hint ? ` (did you mean ${hint}?)` : ''}`,
      given?.position,
    );
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
    report(
      'setting-has-no-effect',
      'warning',
      `${set('podEvictionTimeout')!.via} has no effect: with TaintBasedEvictions and the taint manager on, pods are evicted by the NoExecute taints and their tolerationSeconds`,
      set('podEvictionTimeout')!.position,
    );
  }
  if (b.hasPodEvictionPath && !config.enableTaintManager && isFeatureEnabled(config, b, 'TaintBasedEvictions')) {
    const at = set('enableTaintManager') ?? set('featureGates.TaintBasedEvictions');
    report(
      'setting-interaction',
      'warning',
      'TaintBasedEvictions is on but the taint manager is off (enableTaintManager: false): the controller evicts pods itself after podEvictionTimeout, as kube-controller-manager does',
      at?.position,
    );
  }
  const heartbeat = leasesOn ? Math.min(kubelet.leaseRenewInterval, kubelet.nodeStatusUpdateFrequency) : kubelet.nodeStatusUpdateFrequency;
  if (config.nodeMonitorGracePeriod <= heartbeat) {
    const at = set('nodeMonitorGracePeriod') ?? set('nodeStatusUpdateFrequency') ?? set('leaseRenewInterval');
    report(
      'grace-period-too-short',
      'warning',
      'nodeMonitorGracePeriod is not longer than the kubelet heartbeat interval: healthy nodes will flap to Unknown between heartbeats',
      at?.position,
    );
  }
}
