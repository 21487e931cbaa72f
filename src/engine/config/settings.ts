/**
 * One table of every setting the simulation uses: the kube-controller-manager
 * settings (scenario key, command-line flag, KubeControllerManagerConfiguration
 * path, type, default, doc), the kubelet settings, the feature gates and the
 * controller selection. The same rows feed the resolver (config/resolve.ts),
 * the language server's hover and completion (lookupSetting, settingsForVersion)
 * and the README (renderSettingsTableMarkdown).
 *
 * What changes between versions (defaults, flags added/removed/deprecated, gate
 * stages) is NOT written here but in the version table (versions/table.ts);
 * this table only holds what is true of a setting in every version.
 */
import type { KubeVersion } from '../versions/types';
import { MAX_MINOR, MIN_MINOR, VERSION_CHANGES, defaultOverridesOf, gateLifecycles, gateStateOf, settingLifecycle, type GateState } from '../versions/table';

export type SettingType = 'duration' | 'float' | 'int' | 'bool' | 'stringList';
export type SettingComponent = 'kube-controller-manager' | 'kubelet' | 'simulation';

export interface Range {
  /** inclusive lower bound */
  min?: number;
  /** exclusive lower bound */
  gt?: number;
  /** inclusive upper bound */
  max?: number;
  /** how the range reads in a message, e.g. "in (0, 1]" */
  text: string;
}

export interface SettingRow {
  /** the scenario key under `controllerManager:` or `kubelet:` (camelCase) */
  key: string;
  /** where it goes in a scenario: under `controllerManager:` or `kubelet:` */
  section: 'controllerManager' | 'kubelet';
  component: SettingComponent;
  /** the command-line flag, when the component has one */
  flag?: string;
  /** path in KubeControllerManagerConfiguration (kubecontrollermanager.config.k8s.io/v1alpha1) or KubeletConfiguration */
  configPath?: string;
  type: SettingType;
  /** the v1.12 default, as text the way the flag's help prints it; later changes come from the version table */
  baseline: string | number | boolean | readonly string[];
  range?: Range;
  doc: string;
  /** where the flag, field and default are defined upstream */
  source: string;
}

const DUR_POSITIVE: Range = { gt: 0, text: '> 0' };
const NON_NEGATIVE: Range = { min: 0, text: '>= 0' };
const AT_LEAST_ONE: Range = { min: 1, text: '>= 1' };

const KCM_NODE_OPTS = 'cmd/kube-controller-manager/app/options/nodelifecyclecontroller.go';

/** The table. Order is the order the README shows. */
export const SETTINGS: readonly SettingRow[] = [
  {
    key: 'nodeMonitorPeriod',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--node-monitor-period',
    configPath: 'kubeCloudShared.nodeMonitorPeriod',
    type: 'duration',
    baseline: '5s',
    range: DUR_POSITIVE,
    doc: 'How often the node lifecycle controller checks node health (one monitor pass).',
    source: 'cmd/kube-controller-manager/app/options/kubecloudshared.go',
  },
  {
    key: 'nodeMonitorGracePeriod',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--node-monitor-grace-period',
    configPath: 'nodeLifecycleController.nodeMonitorGracePeriod',
    type: 'duration',
    baseline: '40s',
    range: DUR_POSITIVE,
    doc: 'How long a running node may go without a heartbeat before its Ready condition is set to Unknown.',
    source: `${KCM_NODE_OPTS}; pkg/controller/nodelifecycle/config/v1alpha1/defaults.go`,
  },
  {
    key: 'nodeStartupGracePeriod',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--node-startup-grace-period',
    configPath: 'nodeLifecycleController.nodeStartupGracePeriod',
    type: 'duration',
    baseline: '1m',
    range: DUR_POSITIVE,
    doc: 'How long a node that never posted Ready may stay silent before it is marked Unknown.',
    source: KCM_NODE_OPTS,
  },
  {
    key: 'podEvictionTimeout',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--pod-eviction-timeout',
    configPath: 'nodeLifecycleController.podEvictionTimeout',
    type: 'duration',
    baseline: '5m',
    range: NON_NEGATIVE,
    doc: 'Without taint-based evictions: how long a node may be NotReady/Unknown before its pods are deleted.',
    source: KCM_NODE_OPTS,
  },
  {
    key: 'nodeEvictionRate',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--node-eviction-rate',
    configPath: 'nodeLifecycleController.nodeEvictionRate',
    type: 'float',
    baseline: 0.1,
    range: NON_NEGATIVE,
    doc: 'Nodes per second tainted (or evicted) per zone while the zone is healthy.',
    source: KCM_NODE_OPTS,
  },
  {
    key: 'secondaryNodeEvictionRate',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--secondary-node-eviction-rate',
    configPath: 'nodeLifecycleController.secondaryNodeEvictionRate',
    type: 'float',
    baseline: 0.01,
    range: NON_NEGATIVE,
    doc: 'Nodes per second tainted (or evicted) in a partially disrupted zone larger than largeClusterSizeThreshold.',
    source: KCM_NODE_OPTS,
  },
  {
    key: 'largeClusterSizeThreshold',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--large-cluster-size-threshold',
    configPath: 'nodeLifecycleController.largeClusterSizeThreshold',
    type: 'int',
    baseline: 50,
    range: NON_NEGATIVE,
    doc: 'A zone with more nodes than this uses the secondary rate when partially disrupted; smaller zones stop (rate 0).',
    source: KCM_NODE_OPTS,
  },
  {
    key: 'unhealthyZoneThreshold',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--unhealthy-zone-threshold',
    configPath: 'nodeLifecycleController.unhealthyZoneThreshold',
    type: 'float',
    baseline: 0.55,
    range: { gt: 0, max: 1, text: 'in (0, 1]' },
    doc: 'Fraction of NotReady nodes (and at least 3) from which a zone is partially disrupted.',
    source: KCM_NODE_OPTS,
  },
  {
    key: 'enableTaintManager',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--enable-taint-manager',
    configPath: 'nodeLifecycleController.enableTaintManager',
    type: 'bool',
    baseline: true,
    doc: 'Run the NoExecute taint manager (needed, with TaintBasedEvictions, for taint-based eviction).',
    source: KCM_NODE_OPTS,
  },
  {
    key: 'featureGates',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--feature-gates',
    configPath: 'featureGates',
    type: 'stringList',
    baseline: [],
    doc: 'Feature gates, e.g. TaintBasedEvictions=true,NodeLease=false (see the gate table).',
    source: 'pkg/features/kube_features.go',
  },
  {
    key: 'controllers',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--controllers',
    configPath: 'generic.controllers',
    type: 'stringList',
    baseline: ['*'],
    doc: 'Controllers to run: "*" (all on by default), "name" to enable, "-name" to disable.',
    source: 'cmd/kube-controller-manager/app/options/generic.go; cmd/kube-controller-manager/names/controller_names.go',
  },
  {
    key: 'concurrentReplicaSetSyncs',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--concurrent-replicaset-syncs',
    configPath: 'replicaSetController.concurrentRSSyncs',
    type: 'int',
    baseline: 5,
    range: AT_LEAST_ONE,
    doc: 'ReplicaSets synced at once (workers); the simulation syncs in order, so this only bounds a sync round.',
    source: 'cmd/kube-controller-manager/app/options/replicasetcontroller.go',
  },
  {
    key: 'burstReplicas',
    section: 'controllerManager',
    component: 'simulation',
    type: 'int',
    baseline: 500,
    range: AT_LEAST_ONE,
    doc: 'Most pods a ReplicaSet sync creates or deletes at once (a constant, BurstReplicas, in kube-controller-manager).',
    source: 'pkg/controller/replicaset/replica_set.go (BurstReplicas)',
  },
  {
    key: 'leaderElectLeaseDuration',
    section: 'controllerManager',
    component: 'kube-controller-manager',
    flag: '--leader-elect-lease-duration',
    configPath: 'generic.leaderElection.leaseDuration',
    type: 'duration',
    baseline: '15s',
    range: DUR_POSITIVE,
    doc: 'After a failover, how long the new leader waits for the old lease to expire before acting.',
    source: 'staging/src/k8s.io/component-base/config/v1alpha1/defaults.go (RecommendedDefaultLeaderElectionConfiguration)',
  },
  // ---- kubelet -----------------------------------------------------------------
  {
    key: 'nodeStatusUpdateFrequency',
    section: 'kubelet',
    component: 'kubelet',
    flag: '--node-status-update-frequency',
    configPath: 'KubeletConfiguration.nodeStatusUpdateFrequency',
    type: 'duration',
    baseline: '10s',
    range: DUR_POSITIVE,
    doc: 'How often a healthy kubelet computes its status (and, without Leases, posts it).',
    source: 'pkg/kubelet/apis/config/v1beta1/defaults.go',
  },
  {
    key: 'nodeStatusReportFrequency',
    section: 'kubelet',
    component: 'kubelet',
    configPath: 'KubeletConfiguration.nodeStatusReportFrequency',
    type: 'duration',
    baseline: '1m',
    range: DUR_POSITIVE,
    doc: 'With Leases on: how often an unchanged status is posted. Defaults to nodeStatusUpdateFrequency when that is set.',
    source: 'pkg/kubelet/apis/config/v1beta1/defaults.go (SetDefaults_KubeletConfiguration)',
  },
  {
    key: 'leaseRenewInterval',
    section: 'kubelet',
    component: 'kubelet',
    type: 'duration',
    baseline: '10s',
    range: DUR_POSITIVE,
    doc: 'How often the kubelet renews its Lease (0.25 x nodeLeaseDurationSeconds 40s).',
    source: 'pkg/kubelet/kubelet.go (renewInterval); PR #80429',
  },
  {
    key: 'podStartupDelay',
    section: 'kubelet',
    component: 'simulation',
    type: 'duration',
    baseline: '0s',
    range: NON_NEGATIVE,
    doc: 'Simulation only: how long after binding a pod becomes Running and Ready.',
    source: 'simulation (the simplified kubelet)',
  },
];

const BY_KEY = new Map(SETTINGS.map((s) => [s.key.toLowerCase(), s]));
const BY_FLAG = new Map(SETTINGS.filter((s) => s.flag).map((s) => [s.flag!, s]));
const BY_PATH = new Map(SETTINGS.filter((s) => s.configPath).map((s) => [s.configPath!, s]));

/** Finds a setting by scenario key (any case), flag (`--x`, `x`), or config path. */
export function lookupSetting(nameOrFlag: string): SettingRow | undefined {
  const t = nameOrFlag.trim();
  if (t.startsWith('-')) return BY_FLAG.get('--' + t.replace(/^-+/, '').split('=')[0]);
  return BY_KEY.get(t.toLowerCase()) ?? BY_PATH.get(t) ?? BY_FLAG.get('--' + t);
}

export function settingByConfigPath(path: string): SettingRow | undefined {
  return BY_PATH.get(path);
}

export interface SettingAvailability {
  /** the first version that has it */
  since: number;
  /** the first version that no longer has it */
  removedIn?: number;
  deprecatedIn?: number;
}

export function availabilityOf(row: SettingRow): SettingAvailability {
  const l = settingLifecycle(row.key);
  return { since: l.since ?? MIN_MINOR, removedIn: l.removedIn, deprecatedIn: l.deprecatedIn };
}

export function settingExistsIn(row: SettingRow, minor: number): boolean {
  const a = availabilityOf(row);
  return minor >= a.since && (a.removedIn === undefined || minor < a.removedIn);
}

/** The default of a setting in a version (as Go-style text / number / bool / list). */
export function defaultOf(row: SettingRow, minor: number): SettingRow['baseline'] {
  const o = defaultOverridesOf(minor);
  return row.key in o ? o[row.key] : row.baseline;
}

/** The settings a version has, in table order. */
export function settingsForVersion(v: KubeVersion | number): SettingRow[] {
  const minor = typeof v === 'number' ? v : v.minor;
  return SETTINGS.filter((s) => settingExistsIn(s, minor));
}

/** The feature gates a version has (stage, default, lock), sorted by name. */
export function featureGatesForVersion(v: KubeVersion | number): GateState[] {
  const minor = typeof v === 'number' ? v : v.minor;
  return [...gateStateOf(minor).values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Every gate the table knows, whatever the version (for "did you mean" and "not in this version"). */
export function allFeatureGateNames(): string[] {
  return [...gateLifecycles().keys()].sort();
}

export interface ControllerName {
  /** the name the simulation uses (`config.controllers`) */
  name: 'nodelifecycle' | 'replicaset' | 'taint-eviction-controller';
  /** other names kube-controller-manager accepts for it, with the version they appear */
  aliases: { name: string; since: number }[];
  since: number;
  source: string;
}

/** The controllers the simulation has, with kube-controller-manager's names for them. */
export const SIMULATED_CONTROLLERS: readonly ControllerName[] = [
  {
    name: 'nodelifecycle',
    since: MIN_MINOR,
    aliases: [{ name: 'node-lifecycle-controller', since: 28 }],
    source: 'cmd/kube-controller-manager/app/controllermanager.go (NewControllerInitializers); names/controller_names.go (1.28+)',
  },
  {
    name: 'replicaset',
    since: MIN_MINOR,
    aliases: [{ name: 'replicaset-controller', since: 28 }],
    source: 'cmd/kube-controller-manager/app/controllermanager.go (NewControllerInitializers); names/controller_names.go (1.28+)',
  },
  {
    name: 'taint-eviction-controller',
    since: 29,
    aliases: [],
    source: 'cmd/kube-controller-manager/names/controller_names.go (TaintEvictionController, 1.29+)',
  },
];

/**
 * Other kube-controller-manager controllers: accepted in --controllers and
 * ignored (the simulation does not model them). Old and new names; the versions
 * that know each one are in controllerLifetimes.ts.
 */
export const OTHER_KCM_CONTROLLERS: readonly string[] = [
  'attachdetach',
  'bootstrapsigner',
  'cloud-node-lifecycle',
  'clusterrole-aggregation',
  'cronjob',
  'csrapproving',
  'csrcleaner',
  'csrsigning',
  'daemonset',
  'deployment',
  'disruption',
  'endpoint',
  'endpointslice',
  'endpointslicemirroring',
  'ephemeral-volume',
  'garbagecollector',
  'horizontalpodautoscaling',
  'job',
  'namespace',
  'nodeipam',
  'persistentvolume-binder',
  'persistentvolume-expander',
  'podgc',
  'pv-protection',
  'pvc-protection',
  'replicationcontroller',
  'resourcequota',
  'root-ca-cert-publisher',
  'route',
  'service',
  'serviceaccount',
  'serviceaccount-token',
  'statefulset',
  'tokencleaner',
  'ttl',
  'ttl-after-finished',
  'storage-version-gc',
  'resource-claim-controller',
  'legacy-service-account-token-cleaner',
  'service-lb-controller',
  'node-route-controller',
  'cloud-node-lifecycle-controller',
  'node-ipam-controller',
  'persistentvolume-attach-detach-controller',
  'persistentvolume-binder-controller',
  'persistentvolume-expander-controller',
  'persistentvolume-protection-controller',
  'persistentvolumeclaim-protection-controller',
  'ephemeral-volume-controller',
  'endpoints-controller',
  'endpointslice-controller',
  'endpointslice-mirroring-controller',
  'resourcequota-controller',
  'namespace-controller',
  'serviceaccount-controller',
  'garbage-collector-controller',
  'daemonset-controller',
  'job-controller',
  'deployment-controller',
  'replicationcontroller-controller',
  'disruption-controller',
  'statefulset-controller',
  'cronjob-controller',
  'certificatesigningrequest-signing-controller',
  'certificatesigningrequest-approving-controller',
  'certificatesigningrequest-cleaner-controller',
  'ttl-controller',
  'bootstrap-signer-controller',
  'token-cleaner-controller',
  'clusterrole-aggregation-controller',
  'ttl-after-finished-controller',
  'root-ca-certificate-publisher-controller',
  'pod-garbage-collector-controller',
  'horizontal-pod-autoscaler-controller',
  'serviceaccount-token-controller',
  'storageversion-garbage-collector-controller',
  'resourceclaim-controller',
  'legacy-serviceaccount-token-cleaner-controller',
  'validatingadmissionpolicy-status-controller',
  'service-cidr-controller',
  'storage-version-migrator-controller',
  'selinux-warning-controller',
  'kube-apiserver-serving-clustertrustbundle-publisher-controller',
  'device-taint-eviction-controller',
  'volumeattributesclass-protection-controller',
  'podcertificaterequest-cleaner-controller',
];

// ---- hover -------------------------------------------------------------------

/**
 * Markdown describing a setting for one version (the language server's hover):
 * name, flag, configuration path, type, default in that version, the versions
 * that have it, and what it does. Undefined for an unknown name.
 */
export function settingHoverMarkdown(nameOrFlag: string, v: KubeVersion | number): string | undefined {
  const row = lookupSetting(nameOrFlag);
  if (!row) return undefined;
  const minor = typeof v === 'number' ? v : v.minor;
  const a = availabilityOf(row);
  const where = [row.flag && `\`${row.flag}\``, row.configPath && `\`${row.configPath}\``].filter(Boolean).join(' · ');
  const lines = [`**${row.key}** (${row.section}, ${row.type})${where ? ` — ${where}` : ''}`, '', row.doc, ''];
  if (settingExistsIn(row, minor)) {
    lines.push(`Default in 1.${minor}: \`${fmtValue(defaultOf(row, minor))}\`${row.range ? `; must be ${row.range.text}` : ''}.`);
    if (a.deprecatedIn !== undefined && minor >= a.deprecatedIn)
      lines.push(`Deprecated since 1.${a.deprecatedIn}${a.removedIn ? `, removed in 1.${a.removedIn}` : ''}.`);
  } else {
    lines.push(
      a.removedIn !== undefined && minor >= a.removedIn
        ? `Removed in 1.${a.removedIn}: Kubernetes 1.${minor} does not have it.`
        : `Added in 1.${a.since}: Kubernetes 1.${minor} does not have it.`,
    );
  }
  lines.push('', `Versions: ${versionsText(row)}. Defaults: ${defaultsText(row)}. Source: ${row.source}.`);
  return lines.join('\n');
}

/** What each modelled feature gate does, one line each (hover, README). */
export const GATE_DOCS: Readonly<Record<string, string>> = {
  NodeLease: 'Kubelets renew a Lease in kube-node-lease as their heartbeat; the node lifecycle controller counts a renewed Lease (1.13+).',
  TaintBasedEvictions:
    'The node lifecycle controller adds not-ready/unreachable NoExecute taints (with the taint manager) instead of deleting pods after podEvictionTimeout.',
  TaintNodesByCondition: 'Node conditions (Ready False/Unknown, pressure) and spec.unschedulable become NoSchedule taints.',
  NodeDisruptionExclusion: 'Nodes labelled node.kubernetes.io/exclude-disruption are left out of zone disruption checks.',
  LegacyNodeRoleBehavior: 'Nodes whose name looks like a master are left out of zone disruption checks.',
  PodDeletionCost: 'ReplicaSet scale-down deletes pods with a lower controller.kubernetes.io/pod-deletion-cost first.',
  LogarithmicScaleDown: 'ReplicaSet scale-down compares pod ages in logarithmic buckets, ties broken by a random UID-based order.',
  PodDisruptionConditions: 'A pod deleted by taint-based eviction first gets the DisruptionTarget condition.',
  SeparateTaintEvictionController: 'The taint manager runs as its own controller, taint-eviction-controller, which --controllers can disable.',
  DeploymentReplicaSetTerminatingReplicas: 'ReplicaSet status.terminatingReplicas counts pods that are being deleted.',
  TaintTolerationComparisonOperators: 'Tolerations may use the Gt and Lt operators on numeric taint values.',
  StaleControllerConsistencyReplicaSet:
    'The ReplicaSet controller waits until its informers show its own last writes before syncing a ReplicaSet again (the simulation has no stale informers: no decision changes).',
};

/** Markdown describing a feature gate in one version (stage, default, lock), or its absence. */
export function gateHoverMarkdown(name: string, v: KubeVersion | number): string | undefined {
  const minor = typeof v === 'number' ? v : v.minor;
  const life = gateLifecycles().get(name);
  if (!life) return undefined;
  const g = gateStateOf(minor).get(name);
  const rows = VERSION_CHANGES.filter((c) => c.gate?.name === name);
  const history = rows
    .map((c) =>
      c.gate!.stage === 'removed'
        ? `removed in 1.${c.minor}`
        : `${c.gate!.stage} ${c.gate!.default ? 'on' : 'off'}${c.gate!.locked ? ' (locked)' : ''} from 1.${c.minor}`,
    )
    .join('; ');
  const now = g
    ? `In 1.${minor}: ${g.stage}, default ${g.default}${g.locked ? `, locked to ${g.default}` : ''}.`
    : life.removedIn !== undefined && minor >= life.removedIn
      ? `Removed in 1.${life.removedIn}: Kubernetes 1.${minor} does not have it.`
      : `Added in 1.${life.since}: Kubernetes 1.${minor} does not have it.`;
  const what = GATE_DOCS[name] ?? '';
  return [`**${name}** (feature gate)`, '', what, '', now, '', `History: ${history}. Source: ${rows[rows.length - 1].source}.`].join('\n');
}

// ---- README ------------------------------------------------------------------

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function fmtValue(v: SettingRow['baseline']): string {
  if (Array.isArray(v)) return v.length ? v.join(',') : '(none)';
  return String(v);
}

function versionsText(row: SettingRow): string {
  const a = availabilityOf(row);
  const from = `1.${a.since}`;
  if (a.removedIn !== undefined) return `${from}–1.${a.removedIn - 1}${a.deprecatedIn ? ` (deprecated 1.${a.deprecatedIn})` : ''}`;
  return `${from}+${a.deprecatedIn ? ` (deprecated 1.${a.deprecatedIn})` : ''}`;
}

function defaultsText(row: SettingRow): string {
  // Per-version defaults collapsed into ranges, e.g. "40s (1.12–1.31), 50s (1.32+)".
  const a = availabilityOf(row);
  const last = a.removedIn !== undefined ? a.removedIn - 1 : MAX_MINOR;
  const segs: { start: number; end: number; value: string }[] = [];
  for (let m = a.since; m <= last; m++) {
    const v = fmtValue(defaultOf(row, m));
    const prev = segs[segs.length - 1];
    if (prev && prev.value === v) prev.end = m;
    else segs.push({ start: m, end: m, value: v });
  }
  if (segs.length === 1) return segs[0].value;
  return segs.map((g) => (g.end === MAX_MINOR ? `${g.value} (1.${g.start}+)` : `${g.value} (1.${g.start}–1.${g.end})`)).join(', ');
}

/** The settings and gate tables as Markdown (between `<!-- settings-table:begin -->` / `end`). */
export function renderSettingsTableMarkdown(): string {
  const lines = [
    'Under `controllerManager:` (or as flags, or in a configuration file) and `kubelet:`. Defaults follow `kubernetesVersion`.',
    "Precedence, lowest first: the version's defaults, then `configFile` (a KubeControllerManagerConfiguration or the",
    'kube-controller-manager static Pod manifest), then scenario keys, then `flags`, then `--set` on the command line.',
    'A setting, flag or gate the chosen version does not have is reported and not applied.',
    "The configuration file's fields are matched whatever their case, as Go decodes them: upstream's type has no json tags,",
    "so it is written with the Go names (`NodeLifecycleController: {NodeMonitorGracePeriod: 40s}`). kube-controller-manager's",
    '`/configz` answer (`{"kubecontrollermanager.config.k8s.io": {...}}`, the configuration it runs with) is read as such a file.',
    '',
    '| Scenario key | Flag | Configuration path | Type | Default | Versions | What it does |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const s of SETTINGS) {
    lines.push(
      `| \`${s.key}\` | ${s.flag ? `\`${s.flag}\`` : '—'} | ${s.configPath ? `\`${s.configPath}\`` : '—'} | ${s.type} | ${cell(defaultsText(s))} | ${versionsText(s)} | ${cell(s.doc)}${s.component !== 'kube-controller-manager' ? ` (${s.component})` : ''} |`,
    );
  }
  lines.push('', 'Feature gates (`featureGates: {Name: true}` or `--feature-gates=Name=true`):', '');
  lines.push('| Gate | Component | Stages | Removed in | What it does |', '|---|---|---|---|---|');
  const stages = new Map<string, string[]>();
  const components = new Map<string, string>();
  for (const c of VERSION_CHANGES) {
    if (!c.gate || c.gate.stage === 'removed') continue;
    const list = stages.get(c.gate.name) ?? [];
    list.push(`${c.gate.stage} ${c.gate.default ? 'on' : 'off'}${c.gate.locked ? ' (locked)' : ''} from 1.${c.minor}`);
    stages.set(c.gate.name, list);
    components.set(c.gate.name, c.gate.component);
  }
  const life = gateLifecycles();
  for (const name of [...stages.keys()].sort()) {
    const removed = life.get(name)?.removedIn;
    lines.push(
      `| \`${name}\` | ${components.get(name)} | ${stages.get(name)!.join('; ')} | ${removed ? `1.${removed}` : '—'} | ${cell(GATE_DOCS[name] ?? '')} |`,
    );
  }
  lines.push('', 'Controllers (`controllers: ["*", "-replicaset"]` or `--controllers=*,-replicaset`):', '');
  lines.push('| Name | Also accepted | Versions |', '|---|---|---|');
  for (const c of SIMULATED_CONTROLLERS) {
    lines.push(`| \`${c.name}\` | ${c.aliases.map((a) => `\`${a.name}\` (1.${a.since}+)`).join(', ') || '—'} | 1.${c.since}+ |`);
  }
  return lines.join('\n') + '\n';
}
