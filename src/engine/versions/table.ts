/**
 * One literal table of what changed in which Kubernetes version, for the
 * parts of kube-controller-manager (and the kubelet) the simulation models.
 * Everything version-dependent is derived from these rows: `behaviourOf`
 * (what the controllers do), the feature gates' defaults and stages
 * (`gateStateOf`), the defaults of settings that changed (`defaultOverridesOf`)
 * and the settings a version no longer has (`removedSettingsOf`).
 * Rows apply cumulatively: a version sees every row with `minor` <= its own.
 *
 * Every row cites its upstream source (kubernetes/kubernetes at the release
 * branch, a CHANGELOG, or a KEP), so that a reader can check it.
 */
import type { Duration } from '../model/time';
import { seconds } from '../model/time';
import type { KubeVersion, VersionBehaviour } from './types';

export const MIN_MINOR = 12;
export const MAX_MINOR = 35;

export type ChangeArea = 'node-lifecycle' | 'taint-eviction' | 'kubelet' | 'replicaset' | 'controller-manager';

export type GateStage = 'alpha' | 'beta' | 'GA' | 'deprecated' | 'removed';

export interface GateChange {
  name: string;
  stage: GateStage;
  /** the default from this version on (absent for `removed`) */
  default?: boolean;
  /** the gate can no longer be set to the other value (GA / deprecated lock-to-default) */
  locked?: boolean;
  /** which component reads it in the simulation */
  component: 'kube-controller-manager' | 'kubelet';
}

type BehaviourFields = Omit<VersionBehaviour, 'version'>;

export interface VersionChange {
  /** the minor version (1.x) the change first appears in */
  minor: number;
  area: ChangeArea;
  /** what changed, one sentence for the README */
  change: string;
  /** the setting, flag, feature gate or function it concerns */
  concerns: string;
  /** where upstream says so */
  source: string;
  /** a feature gate's stage/default from this version */
  gate?: GateChange;
  /** behaviour fields that take these values from this version */
  behaviour?: Partial<BehaviourFields>;
  /** settings (scenario keys) whose default changes to these values (Go duration text, numbers) from this version */
  defaults?: Record<string, string | number | boolean>;
  /** settings (scenario keys) that exist from this version */
  adds?: string[];
  /** settings (scenario keys) that no longer exist from this version */
  removes?: string[];
}

const KK = 'kubernetes/kubernetes';

/**
 * The table. Row order is by version, then area; `minor: 12` rows describe
 * the baseline (v1.12.1 as released).
 */
export const VERSION_CHANGES: readonly VersionChange[] = [
  // ---- 1.12: the baseline -------------------------------------------------
  {
    minor: 12, area: 'node-lifecycle', concerns: 'tryUpdateNodeStatus',
    change: 'Node health comes from the NodeStatus heartbeat only (Ready lastHeartbeatTime); Ready, OutOfDisk, MemoryPressure, DiskPressure and PIDPressure are set to Unknown when the grace period passes.',
    source: `${KK}@release-1.12 pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeStatus)`,
    behaviour: { conditionsSetUnknown: ['Ready', 'OutOfDisk', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] },
  },
  {
    minor: 12, area: 'node-lifecycle', concerns: 'zonePodEvictor, --pod-eviction-timeout',
    change: 'Without TaintBasedEvictions, pods on a NotReady/Unknown node are deleted podEvictionTimeout after the node went bad, through the rate-limited zone eviction queue.',
    source: `${KK}@release-1.12 pkg/controller/nodelifecycle/node_lifecycle_controller.go (doEvictionPass, evictPods)`,
    behaviour: { hasPodEvictionPath: true, hasEnableTaintManagerFlag: true },
    adds: ['podEvictionTimeout', 'enableTaintManager'],
  },
  {
    minor: 12, area: 'node-lifecycle', concerns: 'handleDisruption, system.IsMasterNode',
    change: 'Nodes whose name looks like a master (ends in "master") are left out of zone disruption checks.',
    source: `${KK}@release-1.12 pkg/controller/nodelifecycle/node_lifecycle_controller.go (handleDisruption, system.IsMasterNode)`,
    behaviour: { excludeMasterByName: true, honoursExcludeDisruptionLabel: false },
  },
  {
    minor: 12, area: 'node-lifecycle', concerns: 'doFixDeprecatedTaintKeyPass',
    change: 'The controller replaces the deprecated taint keys node.alpha.kubernetes.io/notReady and node.alpha.kubernetes.io/unreachable by the node.kubernetes.io/ ones.',
    source: `${KK}@release-1.12 pkg/controller/nodelifecycle/node_lifecycle_controller.go (doFixDeprecatedTaintKeyPass)`,
    behaviour: { fixesDeprecatedTaintKeys: true },
  },
  {
    minor: 12, area: 'node-lifecycle', concerns: '--node-monitor-grace-period',
    change: 'nodeMonitorGracePeriod defaults to 40s (nodeMonitorPeriod 5s, nodeStartupGracePeriod 1m, podEvictionTimeout 5m).',
    source: `${KK}@release-1.12 pkg/controller/apis/config/v1alpha1/defaults.go`,
    behaviour: { defaultNodeMonitorGracePeriod: seconds(40), unreachableTaintQueuedSamePass: false, separateTaintEvictionController: false },
  },
  {
    minor: 12, area: 'node-lifecycle', concerns: 'TaintBasedEvictions',
    change: 'TaintBasedEvictions is alpha and off: the NoExecute not-ready/unreachable taints are not added.',
    source: `${KK}@release-1.12 pkg/features/kube_features.go`,
    gate: { name: 'TaintBasedEvictions', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 12, area: 'node-lifecycle', concerns: 'TaintNodesByCondition',
    change: 'TaintNodesByCondition is beta and on: Ready False/Unknown and unschedulable become NoSchedule taints.',
    source: `${KK}@release-1.12 pkg/features/kube_features.go`,
    gate: { name: 'TaintNodesByCondition', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 12, area: 'kubelet', concerns: 'NodeLease',
    change: 'NodeLease is alpha and off: kubelets heartbeat through NodeStatus every nodeStatusUpdateFrequency.',
    source: `${KK}@release-1.12 pkg/features/kube_features.go`,
    gate: { name: 'NodeLease', stage: 'alpha', default: false, component: 'kubelet' },
  },
  {
    minor: 12, area: 'taint-eviction', concerns: '--enable-taint-manager',
    change: 'The NoExecuteTaintManager runs inside the node lifecycle controller when --enable-taint-manager is true (default).',
    source: `${KK}@release-1.12 pkg/controller/nodelifecycle/scheduler/taint_manager.go`,
  },
  {
    minor: 12, area: 'replicaset', concerns: 'getPodsToDelete, --concurrent-replicaset-syncs',
    change: 'Scale-down picks pods by ActivePods order (unassigned, phase, readiness, restarts, age); burstReplicas 500.',
    source: `${KK}@release-1.12 pkg/controller/replicaset/replica_set.go, pkg/controller/controller_utils.go (ActivePods)`,
  },

  // ---- 1.13 ---------------------------------------------------------------
  {
    minor: 13, area: 'kubelet', concerns: 'NodeLease',
    change: 'NodeLease is beta and on: kubelets renew a Lease in kube-node-lease every 10s and post unchanged status only every nodeStatusReportFrequency.',
    source: `${KK} CHANGELOG-1.13.md; pkg/features/kube_features.go@release-1.13`,
    gate: { name: 'NodeLease', stage: 'beta', default: true, component: 'kubelet' },
  },
  {
    minor: 13, area: 'node-lifecycle', concerns: 'tryUpdateNodeHealth',
    change: 'The Lease renewTime counts as a heartbeat (probeTimestamp) when NodeLease is on.',
    source: `${KK}@release-1.13 pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeStatus, nodeLeaseInformer)`,
  },
  {
    minor: 13, area: 'node-lifecycle', concerns: 'TaintBasedEvictions',
    change: 'TaintBasedEvictions is beta and on: not-ready/unreachable NoExecute taints replace pod eviction.',
    source: `${KK} CHANGELOG-1.13.md; pkg/features/kube_features.go@release-1.13`,
    gate: { name: 'TaintBasedEvictions', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 13, area: 'node-lifecycle', concerns: 'nodeConditionsSetUnknown',
    change: 'OutOfDisk is no longer set to Unknown (the kubelet no longer reports it).',
    source: `${KK}@release-1.13 pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeStatus)`,
    behaviour: { conditionsSetUnknown: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] },
  },
  {
    minor: 13, area: 'node-lifecycle', concerns: 'doFixDeprecatedTaintKeyPass',
    change: 'The deprecated-taint-key fix pass is gone.',
    source: `${KK}@release-1.13 pkg/controller/nodelifecycle/node_lifecycle_controller.go`,
    behaviour: { fixesDeprecatedTaintKeys: false },
  },

  // ---- 1.14 – 1.26 ----------------------------------------------------------
  {
    minor: 14, area: 'kubelet', concerns: 'nodeStatusReportFrequency',
    change: 'The kubelet posts an unchanged status every 5m (nodeStatusReportFrequency).',
    source: `${KK}@release-1.14 pkg/kubelet/apis/config/v1beta1/defaults.go`,
    defaults: { nodeStatusReportFrequency: '5m' },
  },
  {
    minor: 16, area: 'node-lifecycle', concerns: 'LegacyNodeRoleBehavior, NodeDisruptionExclusion',
    change: 'Nodes are no longer excluded from disruption checks by name; the node.kubernetes.io/exclude-disruption label (NodeDisruptionExclusion, alpha) replaces it.',
    source: `${KK}@release-1.16 pkg/controller/nodelifecycle/node_lifecycle_controller.go (legacyNodeRoleBehaviourFeature, isNodeExcludedFromDisruptionChecks)`,
    behaviour: { excludeMasterByName: false },
    gate: { name: 'NodeDisruptionExclusion', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 17, area: 'kubelet', concerns: 'NodeLease',
    change: 'NodeLease is GA and locked on.',
    source: `${KK} CHANGELOG-1.17.md; pkg/features/kube_features.go@release-1.17`,
    gate: { name: 'NodeLease', stage: 'GA', default: true, locked: true, component: 'kubelet' },
  },
  {
    minor: 17, area: 'node-lifecycle', concerns: 'TaintNodesByCondition',
    change: 'TaintNodesByCondition is GA and locked on.',
    source: `${KK} CHANGELOG-1.17.md; pkg/features/kube_features.go@release-1.17`,
    gate: { name: 'TaintNodesByCondition', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 18, area: 'node-lifecycle', concerns: 'TaintBasedEvictions',
    change: 'TaintBasedEvictions is GA and locked on.',
    source: `${KK} CHANGELOG-1.18.md; pkg/features/kube_features.go@release-1.18`,
    gate: { name: 'TaintBasedEvictions', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 19, area: 'node-lifecycle', concerns: 'NodeDisruptionExclusion',
    change: 'NodeDisruptionExclusion is beta and on: nodes labelled node.kubernetes.io/exclude-disruption are left out of zone checks.',
    source: `${KK}@release-1.19 pkg/features/kube_features.go`,
    gate: { name: 'NodeDisruptionExclusion', stage: 'beta', default: true, component: 'kube-controller-manager' },
    behaviour: { honoursExcludeDisruptionLabel: true },
  },
  {
    minor: 19, area: 'node-lifecycle', concerns: 'TaintNodesByCondition',
    change: 'The TaintNodesByCondition gate is removed (always on).',
    source: `${KK}@release-1.19 pkg/features/kube_features.go`,
    gate: { name: 'TaintNodesByCondition', stage: 'removed', component: 'kube-controller-manager' },
  },
  {
    minor: 20, area: 'node-lifecycle', concerns: 'TaintBasedEvictions',
    change: 'The TaintBasedEvictions gate is removed (always on).',
    source: `${KK}@release-1.20 pkg/features/kube_features.go`,
    gate: { name: 'TaintBasedEvictions', stage: 'removed', component: 'kube-controller-manager' },
  },
  {
    minor: 21, area: 'replicaset', concerns: 'PodDeletionCost',
    change: 'PodDeletionCost is alpha (off): the controller.kubernetes.io/pod-deletion-cost annotation ranks pods for scale-down.',
    source: `${KK}@release-1.21 pkg/features/kube_features.go; KEP-2255`,
    gate: { name: 'PodDeletionCost', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 21, area: 'replicaset', concerns: 'LogarithmicScaleDown',
    change: 'LogarithmicScaleDown is alpha (off): scale-down compares pod ages on a logarithmic scale, then randomly.',
    source: `${KK}@release-1.21 pkg/features/kube_features.go; KEP-2185`,
    gate: { name: 'LogarithmicScaleDown', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 21, area: 'node-lifecycle', concerns: 'NodeDisruptionExclusion',
    change: 'NodeDisruptionExclusion is GA and locked on.',
    source: `${KK}@release-1.21 pkg/features/kube_features.go`,
    gate: { name: 'NodeDisruptionExclusion', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 22, area: 'replicaset', concerns: 'PodDeletionCost',
    change: 'PodDeletionCost is beta and on.',
    source: `${KK}@release-1.22 pkg/features/kube_features.go; KEP-2255`,
    gate: { name: 'PodDeletionCost', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 22, area: 'replicaset', concerns: 'LogarithmicScaleDown',
    change: 'LogarithmicScaleDown is beta and on.',
    source: `${KK}@release-1.22 pkg/features/kube_features.go; KEP-2185`,
    gate: { name: 'LogarithmicScaleDown', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 23, area: 'kubelet', concerns: 'NodeLease',
    change: 'The NodeLease gate is removed (Leases always used).',
    source: `${KK}@release-1.23 pkg/features/kube_features.go`,
    gate: { name: 'NodeLease', stage: 'removed', component: 'kubelet' },
  },
  {
    minor: 23, area: 'node-lifecycle', concerns: 'NodeDisruptionExclusion',
    change: 'The NodeDisruptionExclusion gate is removed (the label is always honoured).',
    source: `${KK}@release-1.23 pkg/features/kube_features.go`,
    gate: { name: 'NodeDisruptionExclusion', stage: 'removed', component: 'kube-controller-manager' },
  },

  // ---- 1.27 ---------------------------------------------------------------
  {
    minor: 27, area: 'node-lifecycle', concerns: '--pod-eviction-timeout, --enable-taint-manager',
    change: 'The pod-eviction path (zonePodEvictor) and its flags --pod-eviction-timeout and --enable-taint-manager are removed; taint-based eviction always runs, and the unreachable taint is queued one monitor pass after Unknown is set.',
    source: `${KK} CHANGELOG-1.27.md (#113710); pkg/controller/nodelifecycle/node_lifecycle_controller.go@release-1.27`,
    behaviour: { hasPodEvictionPath: false, hasEnableTaintManagerFlag: false },
    removes: ['podEvictionTimeout', 'enableTaintManager'],
  },

  // ---- 1.29 ---------------------------------------------------------------
  {
    minor: 29, area: 'taint-eviction', concerns: 'SeparateTaintEvictionController, --controllers=taint-eviction-controller',
    change: 'The taint manager runs as its own controller, taint-eviction-controller (SeparateTaintEvictionController, beta, on), and can be disabled with --controllers.',
    source: `${KK}@release-1.29 pkg/controller/tainteviction/taint_eviction.go; pkg/features/kube_features.go; KEP-3902`,
    gate: { name: 'SeparateTaintEvictionController', stage: 'beta', default: true, component: 'kube-controller-manager' },
    behaviour: { separateTaintEvictionController: true },
  },

  // ---- 1.31 ---------------------------------------------------------------
  {
    minor: 31, area: 'replicaset', concerns: 'LogarithmicScaleDown',
    change: 'LogarithmicScaleDown is GA and locked on.',
    source: `${KK}@release-1.31 pkg/features/kube_features.go`,
    gate: { name: 'LogarithmicScaleDown', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },

  // ---- 1.32 ---------------------------------------------------------------
  {
    minor: 32, area: 'node-lifecycle', concerns: '--node-monitor-grace-period',
    change: 'nodeMonitorGracePeriod defaults to 50s (was 40s).',
    source: `${KK}@release-1.32 pkg/controller/nodelifecycle/config/v1alpha1/defaults.go (#125880)`,
    defaults: { nodeMonitorGracePeriod: '50s' },
    behaviour: { defaultNodeMonitorGracePeriod: seconds(50) },
  },

  // ---- 1.34 ---------------------------------------------------------------
  {
    minor: 34, area: 'node-lifecycle', concerns: 'monitorNodeHealth, processTaintBaseEviction',
    change: 'The unreachable NoExecute taint is queued in the same monitor pass that set Ready to Unknown (before: one pass later).',
    source: `${KK}@release-1.34 pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth)`,
    behaviour: { unreachableTaintQueuedSamePass: true },
  },
];

/** Parses "1.12", "v1.31.2", "1.35.0-alpha.1"; undefined unless 1.12 … 1.35. */
export function parseKubeVersion(text: string): KubeVersion | undefined {
  const m = /^\s*v?1\.(\d{1,2})(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?\s*$/.exec(String(text));
  if (!m) return undefined;
  const minor = Number(m[1]);
  if (minor < MIN_MINOR || minor > MAX_MINOR) return undefined;
  return { major: 1, minor, text: String(text).trim() };
}

export function kubeVersion(minor: number): KubeVersion {
  if (!Number.isInteger(minor) || minor < MIN_MINOR || minor > MAX_MINOR) throw new Error(`no such version 1.${minor}`);
  return { major: 1, minor, text: `1.${minor}` };
}

/** Every supported version, oldest first. */
export function supportedVersions(): KubeVersion[] {
  const out: KubeVersion[] = [];
  for (let m = MIN_MINOR; m <= MAX_MINOR; m++) out.push(kubeVersion(m));
  return out;
}

/** The rows that apply to a version (all rows with minor <= version), in table order. */
export function changesUpTo(minor: number): VersionChange[] {
  return VERSION_CHANGES.filter((c) => c.minor <= minor);
}

export interface GateState {
  name: string;
  stage: Exclude<GateStage, 'removed'>;
  default: boolean;
  locked: boolean;
  component: GateChange['component'];
  /** the version the gate first appeared (in this table) */
  since: number;
}

/** The feature gates a version knows, with stage, default and lock; removed gates are absent. */
export function gateStateOf(minor: number): Map<string, GateState> {
  const out = new Map<string, GateState>();
  for (const c of changesUpTo(minor)) {
    const g = c.gate;
    if (!g) continue;
    if (g.stage === 'removed') { out.delete(g.name); continue; }
    const prev = out.get(g.name);
    out.set(g.name, {
      name: g.name, stage: g.stage, default: g.default ?? prev?.default ?? false, locked: g.locked ?? false,
      component: g.component, since: prev?.since ?? c.minor,
    });
  }
  return out;
}

/** Every gate the table mentions, with the version it is removed in (if any). */
export function gateLifecycles(): Map<string, { since: number; removedIn?: number }> {
  const out = new Map<string, { since: number; removedIn?: number }>();
  for (const c of VERSION_CHANGES) {
    if (!c.gate) continue;
    const cur = out.get(c.gate.name) ?? { since: c.minor };
    if (c.gate.stage === 'removed') cur.removedIn = c.minor;
    out.set(c.gate.name, cur);
  }
  return out;
}

/** Setting defaults that the table changes, as of a version (scenario key -> value). */
export function defaultOverridesOf(minor: number): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const c of changesUpTo(minor)) Object.assign(out, c.defaults ?? {});
  return out;
}

/** For a setting the table adds or removes: the version range it exists in. */
export function settingLifecycle(key: string): { since?: number; removedIn?: number } {
  const out: { since?: number; removedIn?: number } = {};
  for (const c of VERSION_CHANGES) {
    if (c.adds?.includes(key) && out.since === undefined) out.since = c.minor;
    if (c.removes?.includes(key)) out.removedIn = c.minor;
  }
  return out;
}

/** The behaviour of a version: the baseline and every later row's behaviour fields, applied in order. */
export function behaviourOf(version: KubeVersion): VersionBehaviour {
  const fields: Partial<BehaviourFields> = {};
  for (const c of changesUpTo(version.minor)) Object.assign(fields, c.behaviour ?? {});
  const gates = gateStateOf(version.minor);
  // A gate that the version no longer has was removed after going GA: its feature is always on.
  const gateDefault = (name: string): boolean => {
    const g = gates.get(name);
    if (g) return g.default;
    const removedIn = gateLifecycles().get(name)?.removedIn;
    return removedIn !== undefined && removedIn <= version.minor;
  };
  const b: VersionBehaviour = {
    version,
    nodeLeaseGateDefault: gateDefault('NodeLease'),
    taintBasedEvictionsDefault: gateDefault('TaintBasedEvictions'),
    taintNodesByConditionDefault: gateDefault('TaintNodesByCondition'),
    hasPodEvictionPath: req(fields.hasPodEvictionPath, 'hasPodEvictionPath'),
    hasEnableTaintManagerFlag: req(fields.hasEnableTaintManagerFlag, 'hasEnableTaintManagerFlag'),
    separateTaintEvictionController: req(fields.separateTaintEvictionController, 'separateTaintEvictionController'),
    unreachableTaintQueuedSamePass: req(fields.unreachableTaintQueuedSamePass, 'unreachableTaintQueuedSamePass'),
    conditionsSetUnknown: req(fields.conditionsSetUnknown, 'conditionsSetUnknown'),
    excludeMasterByName: req(fields.excludeMasterByName, 'excludeMasterByName'),
    honoursExcludeDisruptionLabel: req(fields.honoursExcludeDisruptionLabel, 'honoursExcludeDisruptionLabel'),
    fixesDeprecatedTaintKeys: req(fields.fixesDeprecatedTaintKeys, 'fixesDeprecatedTaintKeys'),
    podDeletionCostDefault: gateDefault('PodDeletionCost'),
    logarithmicScaleDownDefault: gateDefault('LogarithmicScaleDown'),
    defaultNodeMonitorGracePeriod: req(fields.defaultNodeMonitorGracePeriod, 'defaultNodeMonitorGracePeriod') as Duration,
  };
  return b;
}

function req<T>(v: T | undefined, name: string): T {
  if (v === undefined) throw new Error(`version table: no baseline row sets ${name}`);
  return v;
}

const escapeCell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The table as Markdown, for the README (between `<!-- version-table:begin -->` / `end` markers). */
export function renderVersionTableMarkdown(): string {
  const lines = [
    '| Version | Area | What changed | Setting / gate | Upstream source |',
    '|---|---|---|---|---|',
  ];
  for (const c of VERSION_CHANGES) {
    lines.push(`| 1.${c.minor} | ${c.area} | ${escapeCell(c.change)} | \`${escapeCell(c.concerns)}\` | ${escapeCell(c.source)} |`);
  }
  return lines.join('\n') + '\n';
}
