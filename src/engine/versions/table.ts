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
 *
 * Over 600 lines because it is one table: split by area, it would no longer be
 * the one place that says what changed in which version.
 */
import type { Duration } from '../model/time';
import { seconds } from '../model/time';
import type { KubeVersion, VersionBehaviour } from './types';

export const MIN_MINOR = 12;
export const MAX_MINOR = 37;

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
  /** settings (scenario keys) deprecated from this version (still applied, with a warning) */
  deprecates?: string[];
}

const KK = 'kubernetes/kubernetes';

/**
 * The table. Row order is by version, then area; `minor: 12` rows describe
 * the baseline (v1.12.1 as released).
 */
export const VERSION_CHANGES: readonly VersionChange[] = [
  // ---- 1.12: the baseline (v1.12.1 as released) ----------------------------
  {
    minor: 12,
    area: 'node-lifecycle',
    concerns: 'tryUpdateNodeStatus',
    change:
      'Node health comes from the NodeStatus heartbeat only (Ready lastHeartbeatTime; Leases are not read). When the grace period passes, Ready, OutOfDisk, MemoryPressure and DiskPressure are set to Unknown.',
    source: `${KK}@v1.12 pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeStatus: remainingNodeConditionTypes)`,
    behaviour: { conditionsSetUnknown: ['Ready', 'OutOfDisk', 'MemoryPressure', 'DiskPressure'], nodeLifecycleReadsLease: false },
  },
  {
    minor: 12,
    area: 'node-lifecycle',
    concerns: 'doEvictionPass, evictPods, DeletePods, --pod-eviction-timeout',
    change:
      'Unless taint-based evictions are used (TaintBasedEvictions and --enable-taint-manager both on), pods on a node NotReady/Unknown for longer than podEvictionTimeout are deleted through the rate-limited zone eviction queue (DaemonSet pods kept); each pod of the node first gets status.reason NodeLost (SetPodTerminationReason).',
    source: `${KK}@v1.12 pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeStatus, doEvictionPass; useTaintBasedEvictions = TaintBasedEvictions && runTaintManager); pkg/controller/util/node/controller_utils.go (DeletePods, SetPodTerminationReason)`,
    behaviour: { hasPodEvictionPath: true, hasEnableTaintManagerFlag: true },
    adds: ['podEvictionTimeout', 'enableTaintManager'],
  },
  {
    minor: 12,
    area: 'node-lifecycle',
    concerns: 'monitorNodeStatus, system.IsMasterNode',
    change: 'Nodes whose name looks like a master ("master" or "master-xxx" at the end) are left out of zone disruption checks.',
    source: `${KK}@v1.12 pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeStatus: !system.IsMasterNode(node.Name))`,
    behaviour: { excludeMasterByName: true, honoursExcludeDisruptionLabel: false },
  },
  {
    minor: 12,
    area: 'node-lifecycle',
    concerns: 'doFixDeprecatedTaintKeyPass',
    change:
      'The controller replaces the deprecated taint keys node.alpha.kubernetes.io/notReady and node.alpha.kubernetes.io/unreachable by node.kubernetes.io/not-ready and node.kubernetes.io/unreachable.',
    source: `${KK}@v1.12 pkg/controller/nodelifecycle/node_lifecycle_controller.go (doFixDeprecatedTaintKeyPass)`,
    behaviour: { fixesDeprecatedTaintKeys: true },
  },
  {
    minor: 12,
    area: 'node-lifecycle',
    concerns: 'processTaintBaseEviction (observedReadyCondition)',
    change:
      'The taint/eviction decision reads the Ready condition as it was before this pass, so a node set to Unknown in a pass is queued for the unreachable taint one monitor pass later.',
    source: `${KK}@v1.12 node_lifecycle_controller.go (monitorNodeStatus uses observedReadyCondition); issue #120815`,
    behaviour: {
      unreachableTaintQueuedSamePass: false,
      retriesMarkPodsNotReady: false,
      processesPodUpdates: false,
      reconcilesNoExecuteTaint: false,
      nodeLabelsSourceOfTruth: 'none',
    },
  },
  {
    minor: 12,
    area: 'controller-manager',
    concerns: '--node-monitor-grace-period',
    change:
      'Defaults: nodeMonitorPeriod 5s, nodeMonitorGracePeriod 40s, nodeStartupGracePeriod 1m, podEvictionTimeout 5m, nodeEvictionRate 0.1, secondaryNodeEvictionRate 0.01, largeClusterSizeThreshold 50, unhealthyZoneThreshold 0.55.',
    source: `${KK}@v1.12 cmd/kube-controller-manager/app/options/*.go (flag defaults); pkg/controller/apis/config/v1alpha1/defaults.go`,
    behaviour: { defaultNodeMonitorGracePeriod: seconds(40), separateTaintEvictionController: false },
  },
  {
    minor: 12,
    area: 'node-lifecycle',
    concerns: 'TaintBasedEvictions',
    change: 'TaintBasedEvictions is alpha and off: no NoExecute not-ready/unreachable taints; pods are evicted by the controller itself.',
    source: `${KK}@v1.12 pkg/features/kube_features.go (TaintBasedEvictions: Default false, Alpha)`,
    gate: { name: 'TaintBasedEvictions', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 12,
    area: 'node-lifecycle',
    concerns: 'TaintNodesByCondition',
    change: 'TaintNodesByCondition is beta and on: Ready False/Unknown, pressure conditions and spec.unschedulable become NoSchedule taints.',
    source: `${KK}@v1.12 pkg/features/kube_features.go (TaintNodesByCondition: Default true, Beta)`,
    gate: { name: 'TaintNodesByCondition', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 12,
    area: 'kubelet',
    concerns: 'NodeLease',
    change: 'NodeLease is alpha and off: kubelets heartbeat by posting NodeStatus every nodeStatusUpdateFrequency (10s).',
    source: `${KK}@v1.12 pkg/features/kube_features.go (NodeLease: Default false, Alpha); website feature-gates/NodeLease.md`,
    gate: { name: 'NodeLease', stage: 'alpha', default: false, component: 'kubelet' },
  },
  {
    minor: 12,
    area: 'taint-eviction',
    concerns: '--enable-taint-manager',
    change: 'The NoExecuteTaintManager runs inside the node lifecycle controller when --enable-taint-manager is true (the default).',
    source: `${KK}@v1.12 pkg/controller/nodelifecycle/scheduler/taint_manager.go; cmd/kube-controller-manager/app/options/nodelifecyclecontroller.go`,
  },
  {
    minor: 12,
    area: 'replicaset',
    concerns: 'getPodsToDelete, controller.ActivePods',
    change:
      'Scale-down deletes pods in ActivePods order: unassigned, Pending before Unknown before Running, not ready, ready for less time, more restarts, newer; burstReplicas 500 per sync.',
    source: `${KK}@v1.12 pkg/controller/replicaset/replica_set.go (getPodsToDelete, BurstReplicas), pkg/controller/controller_utils.go (ActivePods)`,
  },

  // ---- 1.13 ---------------------------------------------------------------
  {
    minor: 13,
    area: 'node-lifecycle',
    concerns: 'TaintBasedEvictions',
    change: "TaintBasedEvictions is beta and on: not-ready/unreachable NoExecute taints (and the taint manager) replace the controller's own pod eviction.",
    source: `${KK} pkg/features/kube_features.go ("beta: v1.13"); website feature-gates/TaintBasedEvictions.md`,
    gate: { name: 'TaintBasedEvictions', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 13,
    area: 'node-lifecycle',
    concerns: 'tryUpdateNodeHealth, nodeLeaseInformer',
    change:
      'The controller reads Leases: a renewed Lease counts as a heartbeat (probeTimestamp) when the NodeLease gate is on (still alpha/off by default in 1.13).',
    source: `${KK}@v1.13 pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth); website PR #10699 (node lease docs, milestone v1.13)`,
    behaviour: { nodeLifecycleReadsLease: true },
  },
  {
    minor: 13,
    area: 'node-lifecycle',
    concerns: 'remainingNodeConditionTypes',
    change: 'PIDPressure is also set to Unknown when the grace period passes.',
    source: `${KK} PR #68644 (merged 2018-09-14, after the 1.12 freeze)`,
    behaviour: { conditionsSetUnknown: ['Ready', 'OutOfDisk', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] },
  },
  {
    minor: 13,
    area: 'kubelet',
    concerns: 'nodeStatusReportFrequency',
    change: 'New kubelet setting nodeStatusReportFrequency (default 1m): with Leases on, an unchanged status is posted only this often.',
    source: `${KK}@v1.13 pkg/kubelet/apis/config/v1beta1/defaults.go; website PR #10699`,
    adds: ['nodeStatusReportFrequency'],
  },

  // ---- 1.14 – 1.26 ----------------------------------------------------------
  {
    minor: 14,
    area: 'node-lifecycle',
    concerns: 'doFixDeprecatedTaintKeyPass',
    change: 'The deprecated taint keys node.alpha.kubernetes.io/notReady and /unreachable are no longer replaced (the fix pass is gone).',
    source: `${KK} PR #73001 (remove remaining deprecated taints from 1.9, merged 2019-01); absent at v1.15.5`,
    behaviour: { fixesDeprecatedTaintKeys: false },
  },
  {
    minor: 14,
    area: 'kubelet',
    concerns: 'NodeLease',
    change:
      'NodeLease is beta and on: kubelets renew a Lease in kube-node-lease every 10s and post an unchanged status only every nodeStatusReportFrequency (1m).',
    source: `${KK} PR #72096 (Promote NodeLease to Beta); kube_features.go ("beta: v1.14"); website feature-gates/NodeLease.md`,
    gate: { name: 'NodeLease', stage: 'beta', default: true, component: 'kubelet' },
  },
  {
    minor: 14,
    area: 'node-lifecycle',
    concerns: 'reconcileNodeLabels',
    change:
      'On every node add and update the controller keeps the OS/arch labels in step: kubernetes.io/os and kubernetes.io/arch are set to (or added from) beta.kubernetes.io/os and beta.kubernetes.io/arch, the source of truth.',
    source: `${KK} PR #74442 (nodelifecycle controller: reconcile node OS/arch labels, merged 2019-02); KEP sig-node 20190130-node-os-arch-labels`,
    behaviour: { nodeLabelsSourceOfTruth: 'beta' },
  },
  {
    minor: 15,
    area: 'node-lifecycle',
    concerns: 'remainingNodeConditionTypes',
    change: 'OutOfDisk is no longer set to Unknown (Ready, MemoryPressure, DiskPressure, PIDPressure).',
    source: `${KK}@v1.15.5 pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth); the change may be earlier (PR #67037)`,
    behaviour: { conditionsSetUnknown: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] },
  },
  {
    minor: 16,
    area: 'node-lifecycle',
    concerns: 'LegacyNodeRoleBehavior',
    change: 'The master-by-name exclusion from disruption checks is kept behind LegacyNodeRoleBehavior (alpha, on).',
    source: `${KK}@v1.16 node_lifecycle_controller.go (isNodeExcludedFromDisruptionChecks, legacyIsMasterNode); kube_features.go (LegacyNodeRoleBehavior: Default true, Alpha)`,
    gate: { name: 'LegacyNodeRoleBehavior', stage: 'alpha', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 16,
    area: 'node-lifecycle',
    concerns: 'NodeDisruptionExclusion',
    change: 'NodeDisruptionExclusion (alpha, off): nodes labelled node.kubernetes.io/exclude-disruption can be left out of zone disruption checks.',
    source: `${KK}@v1.16 node_lifecycle_controller.go (isNodeExcludedFromDisruptionChecks); website feature-gates/NodeDisruptionExclusion.md`,
    gate: { name: 'NodeDisruptionExclusion', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 17,
    area: 'kubelet',
    concerns: 'NodeLease, nodeStatusReportFrequency',
    change: 'NodeLease is GA and locked on; an unchanged status is posted every 5m (nodeStatusReportFrequency default 5m).',
    source: `${KK} PR #84351 (Promote node lease to GA: "reduce frequency of NodeStatus updates to 5m"); website feature-gates/NodeLease.md`,
    gate: { name: 'NodeLease', stage: 'GA', default: true, locked: true, component: 'kubelet' },
    defaults: { nodeStatusReportFrequency: '5m' },
  },
  {
    minor: 17,
    area: 'node-lifecycle',
    concerns: 'MarkPodsNotReady, nodesToRetry',
    change: 'A failed MarkPodsNotReady is retried on the next monitor pass (before, it was not retried).',
    source: `${KK} PR #84445 (NodeLifecycleController - MarkPodsNotReady retry fix, merged 2019-10)`,
    behaviour: { retriesMarkPodsNotReady: true },
  },
  {
    minor: 17,
    area: 'node-lifecycle',
    concerns: 'TaintNodesByCondition',
    change: 'TaintNodesByCondition is GA and locked on.',
    source: `${KK} website feature-gates/TaintNodesByCondition.md (stable 1.17–1.18)`,
    gate: { name: 'TaintNodesByCondition', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 17,
    area: 'replicaset',
    concerns: 'getPodsRankedByRelatedPodsOnSameNode',
    change: 'Scale-down deletes doubled-up pods first: pods on a node that also runs an active pod of a related ReplicaSet (same owner).',
    source: `${KK} CHANGELOG-1.17.md (#80004 "When scaling down a ReplicaSet, delete doubled up replicas first")`,
  },
  {
    minor: 18,
    area: 'node-lifecycle',
    concerns: 'TaintBasedEvictions',
    change: 'TaintBasedEvictions is GA and locked on.',
    source: `${KK} kube_features.go ("ga: v1.18"); website feature-gates/TaintBasedEvictions.md`,
    gate: { name: 'TaintBasedEvictions', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 18,
    area: 'node-lifecycle',
    concerns: 'podUpdated, processPod',
    change: 'Pods are watched: a pod bound to a node that is not Ready is marked NotReady as it appears, not only when the node changes.',
    source: `${KK} PR #81167 (Avoid listing pods in NodeLifecycleController, merged 2019-11)`,
    behaviour: { processesPodUpdates: true },
  },
  {
    minor: 19,
    area: 'node-lifecycle',
    concerns: 'processTaintBaseEviction, markNodeForTainting',
    change: 'The NoExecute taints are reconciled: one removed by someone else while the node is still NotReady/Unknown is queued and added back.',
    source: `${KK} PR #89059 (Reconcile NoExecute Taint); its 1.19–1.20 queue regression fixed by #96876 (1.21; patch releases via #98140)`,
    behaviour: { reconcilesNoExecuteTaint: true },
  },
  {
    minor: 19,
    area: 'node-lifecycle',
    concerns: 'reconcileNodeLabels',
    change:
      'The stable OS/arch labels become the source of truth: beta.kubernetes.io/os and beta.kubernetes.io/arch are set to (or added from) kubernetes.io/os and kubernetes.io/arch (unchanged up to 1.37).',
    source: `${KK} PR #91046 (flips labelReconcileInfo; its 1.19 regression fix #96810); node_lifecycle_controller.go labelReconcileInfo at v1.29`,
    behaviour: { nodeLabelsSourceOfTruth: 'stable' },
  },
  {
    minor: 19,
    area: 'node-lifecycle',
    concerns: 'TaintNodesByCondition',
    change: 'The TaintNodesByCondition gate is removed (always on).',
    source: `${KK} website feature-gates/TaintNodesByCondition.md (last in 1.18)`,
    gate: { name: 'TaintNodesByCondition', stage: 'removed', component: 'kube-controller-manager' },
  },
  {
    minor: 19,
    area: 'node-lifecycle',
    concerns: 'NodeDisruptionExclusion',
    change: 'NodeDisruptionExclusion is beta and on: nodes labelled node.kubernetes.io/exclude-disruption are left out of zone disruption checks.',
    source: `${KK} website feature-gates/NodeDisruptionExclusion.md (beta 1.19–1.20)`,
    gate: { name: 'NodeDisruptionExclusion', stage: 'beta', default: true, component: 'kube-controller-manager' },
    behaviour: { honoursExcludeDisruptionLabel: true },
  },
  {
    minor: 19,
    area: 'node-lifecycle',
    concerns: 'LegacyNodeRoleBehavior',
    change: 'LegacyNodeRoleBehavior is beta (still on).',
    source: `${KK}@v1.19 kube_features.go (LegacyNodeRoleBehavior: Default true, Beta)`,
    gate: { name: 'LegacyNodeRoleBehavior', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 21,
    area: 'node-lifecycle',
    concerns: 'TaintBasedEvictions',
    change: 'The TaintBasedEvictions gate is removed (always on).',
    source: `${KK} website feature-gates/TaintBasedEvictions.md (last in 1.20)`,
    gate: { name: 'TaintBasedEvictions', stage: 'removed', component: 'kube-controller-manager' },
  },
  {
    minor: 21,
    area: 'node-lifecycle',
    concerns: 'LegacyNodeRoleBehavior',
    change: 'LegacyNodeRoleBehavior is GA and locked off: names that look like a master are no longer excluded from disruption checks.',
    source: `${KK}@v1.21 kube_features.go (LegacyNodeRoleBehavior: Default false, GA, LockToDefault)`,
    gate: { name: 'LegacyNodeRoleBehavior', stage: 'GA', default: false, locked: true, component: 'kube-controller-manager' },
    behaviour: { excludeMasterByName: false },
  },
  {
    minor: 21,
    area: 'node-lifecycle',
    concerns: 'NodeDisruptionExclusion',
    change: 'NodeDisruptionExclusion is GA and locked on.',
    source: `${KK} website feature-gates/NodeDisruptionExclusion.md (stable 1.21–1.22)`,
    gate: { name: 'NodeDisruptionExclusion', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 21,
    area: 'replicaset',
    concerns: 'PodDeletionCost',
    change: 'PodDeletionCost is alpha (off): the controller.kubernetes.io/pod-deletion-cost annotation ranks pods for scale-down.',
    source: `${KK} kube_features.go (PodDeletionCost: 1.21 Alpha false, 1.22 Beta true); KEP-2255`,
    gate: { name: 'PodDeletionCost', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 21,
    area: 'replicaset',
    concerns: 'LogarithmicScaleDown',
    change: 'LogarithmicScaleDown is alpha (off): scale-down compares pod ages in logarithmic buckets, then by a random order.',
    source: `${KK} kube_features.go (LogarithmicScaleDown: 1.21 Alpha false); KEP-2185`,
    gate: { name: 'LogarithmicScaleDown', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 22,
    area: 'replicaset',
    concerns: 'PodDeletionCost',
    change: 'PodDeletionCost is beta and on (still beta in 1.37).',
    source: `${KK} kube_features.go (PodDeletionCost: 1.22 Beta true); website feature-gates/PodDeletionCost.md`,
    gate: { name: 'PodDeletionCost', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 22,
    area: 'replicaset',
    concerns: 'LogarithmicScaleDown',
    change: 'LogarithmicScaleDown is beta and on.',
    source: `${KK} kube_features.go (LogarithmicScaleDown: 1.22 Beta true); website feature-gates/LogarithmicScaleDown.md`,
    gate: { name: 'LogarithmicScaleDown', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 23,
    area: 'node-lifecycle',
    concerns: 'NodeDisruptionExclusion, LegacyNodeRoleBehavior',
    change: 'The NodeDisruptionExclusion and LegacyNodeRoleBehavior gates are removed: the exclude-disruption label is always honoured, names never matter.',
    source: `${KK} website feature-gates/NodeDisruptionExclusion.md, LegacyNodeRoleBehavior.md (last in 1.22)`,
    gate: { name: 'NodeDisruptionExclusion', stage: 'removed', component: 'kube-controller-manager' },
  },
  {
    minor: 23,
    area: 'node-lifecycle',
    concerns: 'LegacyNodeRoleBehavior',
    change: 'The LegacyNodeRoleBehavior gate is removed.',
    source: `${KK} website feature-gates/LegacyNodeRoleBehavior.md (last in 1.22)`,
    gate: { name: 'LegacyNodeRoleBehavior', stage: 'removed', component: 'kube-controller-manager' },
  },
  {
    minor: 24,
    area: 'kubelet',
    concerns: 'NodeLease',
    change: 'The NodeLease gate is removed (Leases always used).',
    source: `${KK} website feature-gates/NodeLease.md (stable 1.17–1.23)`,
    gate: { name: 'NodeLease', stage: 'removed', component: 'kubelet' },
  },
  {
    minor: 25,
    area: 'taint-eviction',
    concerns: '--enable-taint-manager',
    change: '--enable-taint-manager is deprecated.',
    source: `${KK} PR #111411 (Mark enable-taint-manager CLI flag as deprecated)`,
    deprecates: ['enableTaintManager'],
  },
  {
    minor: 25,
    area: 'taint-eviction',
    concerns: 'PodDisruptionConditions',
    change: 'PodDisruptionConditions is alpha (off): a pod deleted by taint eviction first gets the DisruptionTarget condition.',
    source: `${KK} kube_features.go (PodDisruptionConditions: 1.25 Alpha false, 1.26 Beta true, 1.31 GA); KEP-3329`,
    gate: { name: 'PodDisruptionConditions', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 26,
    area: 'taint-eviction',
    concerns: 'PodDisruptionConditions',
    change: 'PodDisruptionConditions is beta and on.',
    source: `${KK} kube_features.go (PodDisruptionConditions: 1.26 Beta true); website feature-gates/PodDisruptionConditions.md`,
    gate: { name: 'PodDisruptionConditions', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 26,
    area: 'node-lifecycle',
    concerns: '--pod-eviction-timeout',
    change: '--pod-eviction-timeout is deprecated.',
    source: `${KK} PR #113710 (Deprecate CLI flag pod-eviction-timeout in KCM)`,
    deprecates: ['podEvictionTimeout'],
  },

  // ---- 1.27 ---------------------------------------------------------------
  {
    minor: 27,
    area: 'node-lifecycle',
    concerns: '--pod-eviction-timeout, --enable-taint-manager',
    change:
      'The pod-eviction path (zonePodEvictor) and its flags --pod-eviction-timeout and --enable-taint-manager are removed; taint-based eviction always runs.',
    source: `${KK} PR #115840 (Remove enable-taint-manager and pod-eviction-timeout CLI flags), CHANGELOG-1.27.md`,
    behaviour: { hasPodEvictionPath: false, hasEnableTaintManagerFlag: false },
    removes: ['podEvictionTimeout', 'enableTaintManager'],
  },

  // ---- 1.28 – 1.29 --------------------------------------------------------
  {
    minor: 28,
    area: 'controller-manager',
    concerns: '--controllers',
    change: 'Controllers get canonical names (node-lifecycle-controller, replicaset-controller); the old names stay as aliases.',
    source: `${KK}@v1.28 cmd/kube-controller-manager/names/controller_names.go`,
  },
  {
    minor: 29,
    area: 'taint-eviction',
    concerns: 'SeparateTaintEvictionController, --controllers=taint-eviction-controller',
    change:
      'The taint manager runs as its own controller, taint-eviction-controller (SeparateTaintEvictionController, beta, on), which --controllers can disable.',
    source: `${KK}@v1.29 pkg/controller/tainteviction/taint_eviction.go; kube_features.go (SeparateTaintEvictionController: 1.29 Beta true); KEP-3902`,
    gate: { name: 'SeparateTaintEvictionController', stage: 'beta', default: true, component: 'kube-controller-manager' },
    behaviour: { separateTaintEvictionController: true },
  },

  // ---- 1.31 – 1.35 --------------------------------------------------------
  {
    minor: 31,
    area: 'replicaset',
    concerns: 'LogarithmicScaleDown',
    change: 'LogarithmicScaleDown is GA and locked on.',
    source: `${KK} kube_features.go (LogarithmicScaleDown: 1.31 GA, LockToDefault); website feature-gates/LogarithmicScaleDown.md`,
    gate: { name: 'LogarithmicScaleDown', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 31,
    area: 'taint-eviction',
    concerns: 'PodDisruptionConditions',
    change: 'PodDisruptionConditions is GA and locked on.',
    source: `${KK} kube_features.go (PodDisruptionConditions: 1.31 GA, LockToDefault, "remove in 1.33")`,
    gate: { name: 'PodDisruptionConditions', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 32,
    area: 'node-lifecycle',
    concerns: '--node-monitor-grace-period',
    change: 'nodeMonitorGracePeriod defaults to 50s (was 40s).',
    source: `${KK} CHANGELOG-1.32.md (#126287 "The default value for node-monitor-grace-period has been increased to 50s")`,
    defaults: { nodeMonitorGracePeriod: '50s' },
    behaviour: { defaultNodeMonitorGracePeriod: seconds(50) },
  },
  {
    minor: 33,
    area: 'replicaset',
    concerns: 'DeploymentReplicaSetTerminatingReplicas',
    change: 'DeploymentReplicaSetTerminatingReplicas is alpha (off): ReplicaSet status.terminatingReplicas counts pods being deleted.',
    source: `${KK} kube_features.go (DeploymentReplicaSetTerminatingReplicas: 1.33 Alpha false, 1.35 Beta true); KEP-3973`,
    gate: { name: 'DeploymentReplicaSetTerminatingReplicas', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },
  {
    minor: 34,
    area: 'node-lifecycle',
    concerns: 'processTaintBaseEviction (currentReadyCondition)',
    change: 'The unreachable NoExecute taint is queued in the same monitor pass that set Ready to Unknown (no longer one pass later).',
    source: `${KK} CHANGELOG-1.34.md (#120816 "Reduce 5s delay of tainting node.kubernetes.io/unreachable:NoExecute")`,
    behaviour: { unreachableTaintQueuedSamePass: true },
  },
  {
    minor: 34,
    area: 'taint-eviction',
    concerns: 'PodDisruptionConditions',
    change: 'The PodDisruptionConditions gate is removed (the DisruptionTarget condition is always added).',
    source: `${KK} kube_features.go (present at 1.33 with "remove in 1.33", absent at 1.35)`,
    gate: { name: 'PodDisruptionConditions', stage: 'removed', component: 'kube-controller-manager' },
  },
  {
    minor: 34,
    area: 'taint-eviction',
    concerns: 'SeparateTaintEvictionController',
    change: 'SeparateTaintEvictionController is GA and locked on.',
    source: `${KK} kube_features.go (SeparateTaintEvictionController: 1.34 GA, LockToDefault); website feature-gates/SeparateTaintEvictionController.md`,
    gate: { name: 'SeparateTaintEvictionController', stage: 'GA', default: true, locked: true, component: 'kube-controller-manager' },
  },
  {
    minor: 35,
    area: 'replicaset',
    concerns: 'DeploymentReplicaSetTerminatingReplicas',
    change: 'DeploymentReplicaSetTerminatingReplicas is beta and on.',
    source: `${KK} kube_features.go (DeploymentReplicaSetTerminatingReplicas: 1.35 Beta true)`,
    gate: { name: 'DeploymentReplicaSetTerminatingReplicas', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 35,
    area: 'taint-eviction',
    concerns: 'TaintTolerationComparisonOperators',
    change: 'TaintTolerationComparisonOperators is alpha (off): tolerations may use the Gt and Lt operators on numeric taint values.',
    source: `${KK} website feature-gates/TaintTolerationComparisonOperators.md (alpha from 1.35)`,
    gate: { name: 'TaintTolerationComparisonOperators', stage: 'alpha', default: false, component: 'kube-controller-manager' },
  },

  // ---- 1.36 – 1.37 --------------------------------------------------------
  // Compared for these rows: upstream's 1.36 changelog (the v1.36.0 notes, every entry since
  // v1.35.0), 1.37 changelog (the v1.37.0-alpha.1 notes: the later 1.37 notes were not among
  // the sources) and the v1.37 release announcement (website blog kubernetes-v1-37-release), read for the node lifecycle, taint eviction and ReplicaSet controllers, the
  // node-monitor and eviction flags, Leases and the gates above; and the 1.37 feature-gate list
  // (TaintTolerationComparisonOperators still alpha, off). Nothing else in them concerns what these
  // controllers decide.
  {
    minor: 36,
    area: 'replicaset',
    concerns: 'StaleControllerConsistencyReplicaSet',
    change:
      'StaleControllerConsistencyReplicaSet is beta and on: the controller waits until its informers show its own last writes before syncing a ReplicaSet again. The simulated controllers read a store that always holds their writes, so no decision changes.',
    source: `${KK} CHANGELOG-1.36.md (#137212 "Added the ability for the ReplicaSet controller to read its own writes"); website feature-gates/StaleControllerConsistencyReplicaSet.md (beta, on, from 1.36); website blog staleness-mitigation-for-controllers (v1.36); KEP-5647`,
    gate: { name: 'StaleControllerConsistencyReplicaSet', stage: 'beta', default: true, component: 'kube-controller-manager' },
  },
  {
    minor: 37,
    area: 'node-lifecycle',
    concerns: 'tryUpdateNodeHealth (Lease)',
    change:
      'Before it marks a node Unknown because the Lease in its cache looks expired, the controller reads the Lease from the API server; a Lease renewed meanwhile counts as a heartbeat. The simulated controller reads Leases with no cache lag, so it decides as in 1.35.',
    source: `${KK} PR #138698 (Ensure leases are not stale in node controller before marking unhealthy, merged 2026-04-30); CHANGELOG-1.37.md (v1.37.0-alpha.1: "checking with a live get"); website blog kubernetes-v1-37-release (Stale controller mitigation: node-lifecycle does a live GET); KEP-5647`,
  },
];

/** The minor of "1.12", "v1.31.2", "1.35.0-alpha.1", "v1.9.1+2.1.5.el7", whether or not the engine simulates it. */
export function kubeMinor(text: string): number | undefined {
  const m = /^\s*v?1\.(\d{1,2})(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?\s*$/.exec(String(text));
  return m ? Number(m[1]) : undefined;
}

/** The simulated minor nearest to `minor` (a cluster older or newer than the table is simulated as its nearest end). */
export function nearestMinor(minor: number): number {
  return Math.min(MAX_MINOR, Math.max(MIN_MINOR, minor));
}

/** Parses "1.12", "v1.31.2", "1.35.0-alpha.1"; undefined outside MIN_MINOR … MAX_MINOR. */
export function parseKubeVersion(text: string): KubeVersion | undefined {
  const minor = kubeMinor(text);
  if (minor === undefined || minor < MIN_MINOR || minor > MAX_MINOR) return undefined;
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
    if (g.stage === 'removed') {
      out.delete(g.name);
      continue;
    }
    const prev = out.get(g.name);
    out.set(g.name, {
      name: g.name,
      stage: g.stage,
      default: g.default ?? prev?.default ?? false,
      locked: g.locked ?? false,
      component: g.component,
      since: prev?.since ?? c.minor,
    });
  }
  return out;
}

/** Every gate the table mentions, with the version it is removed in (if any). */
let lifecycles: Map<string, { since: number; removedIn?: number }> | undefined;

export function gateLifecycles(): Map<string, { since: number; removedIn?: number }> {
  // The table is a constant: compute once, hand out copies.
  if (!lifecycles) lifecycles = computeGateLifecycles();
  return new Map([...lifecycles].map(([k, v]) => [k, { ...v }]));
}

function computeGateLifecycles(): Map<string, { since: number; removedIn?: number }> {
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
export function settingLifecycle(key: string): { since?: number; removedIn?: number; deprecatedIn?: number } {
  const out: { since?: number; removedIn?: number; deprecatedIn?: number } = {};
  for (const c of VERSION_CHANGES) {
    if (c.adds?.includes(key) && out.since === undefined) out.since = c.minor;
    if (c.removes?.includes(key)) out.removedIn = c.minor;
    if (c.deprecates?.includes(key)) out.deprecatedIn = c.minor;
  }
  return out;
}

/** The behaviour of a version: the baseline and every later row's behaviour fields, applied in order. */
export function behaviourOf(version: KubeVersion): VersionBehaviour {
  const fields: Partial<BehaviourFields> = {};
  for (const c of changesUpTo(version.minor)) Object.assign(fields, c.behaviour ?? {});
  const gates = gateStateOf(version.minor);
  // A gate that the version no longer has was removed after going GA: its feature is always on.
  const lifes = gateLifecycles();
  const gateDefault = (name: string): boolean => {
    const g = gates.get(name);
    if (g) return g.default;
    const removedIn = lifes.get(name)?.removedIn;
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
    nodeLifecycleReadsLease: req(fields.nodeLifecycleReadsLease, 'nodeLifecycleReadsLease'),
    retriesMarkPodsNotReady: req(fields.retriesMarkPodsNotReady, 'retriesMarkPodsNotReady'),
    processesPodUpdates: req(fields.processesPodUpdates, 'processesPodUpdates'),
    reconcilesNoExecuteTaint: req(fields.reconcilesNoExecuteTaint, 'reconcilesNoExecuteTaint'),
    nodeLabelsSourceOfTruth: req(fields.nodeLabelsSourceOfTruth, 'nodeLabelsSourceOfTruth'),
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
  const lines = ['| Version | Area | What changed | Setting / gate | Upstream source |', '|---|---|---|---|---|'];
  for (const c of VERSION_CHANGES) {
    lines.push(`| 1.${c.minor} | ${c.area} | ${escapeCell(c.change)} | \`${escapeCell(c.concerns)}\` | ${escapeCell(c.source)} |`);
  }
  return lines.join('\n') + '\n';
}
