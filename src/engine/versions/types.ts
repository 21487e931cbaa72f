/**
 * What the simulated kube-controller-manager does differently by version.
 * versions/table.ts fills this from one table of changes; controllers branch
 * on these fields only, never on version numbers directly.
 */
import type { Duration } from '../model/time';

export interface KubeVersion {
  major: 1;
  /** 12 … 35 */
  minor: number;
  /** as written, e.g. "1.12" */
  text: string;
}

export interface VersionBehaviour {
  version: KubeVersion;
  /** the Lease's renewTime counts as a heartbeat when the NodeLease gate is on (alpha/off 1.12–1.13, beta/on 1.14, GA 1.17, gate removed 1.24; see versions/table.ts) */
  nodeLeaseGateDefault: boolean;
  /** TaintBasedEvictions gate default (alpha/off in 1.12, beta/on 1.13, GA 1.18, gate removed 1.21) */
  taintBasedEvictionsDefault: boolean;
  /** the pod-eviction path (zonePodEvictor, podEvictionTimeout) exists: < 1.27 */
  hasPodEvictionPath: boolean;
  /** --enable-taint-manager exists: < 1.27 (from 1.27 the taint manager always runs) */
  hasEnableTaintManagerFlag: boolean;
  /** the taint manager runs as its own controller `taint-eviction-controller`: >= 1.29 */
  separateTaintEvictionController: boolean;
  /** the unreachable NoExecute taint is queued in the same pass that set Unknown: >= 1.34 (before, one pass later, in every version with taint-based eviction) */
  unreachableTaintQueuedSamePass: boolean;
  /** node condition types the controller sets to Unknown when the grace period passes, Ready first */
  conditionsSetUnknown: readonly string[];
  /** nodes whose name looks like a master are left out of zone disruption checks: 1.12–1.20 (behind LegacyNodeRoleBehavior from 1.16) */
  excludeMasterByName: boolean;
  /** the node.kubernetes.io/exclude-disruption label is honoured (NodeDisruptionExclusion: 1.16 alpha/off, 1.19 on) */
  honoursExcludeDisruptionLabel: boolean;
  /** the deprecated taint keys (node.alpha.kubernetes.io/notReady, …/unreachable) are replaced: 1.12–1.13 (#73001 removed it in 1.14) */
  fixesDeprecatedTaintKeys: boolean;
  /** TaintNodesByCondition gate default (beta/on 1.12, GA 1.17, gate removed 1.19) */
  taintNodesByConditionDefault: boolean;
  /** ReplicaSet: the pod-deletion-cost annotation is read (PodDeletionCost gate default) */
  podDeletionCostDefault: boolean;
  /** ReplicaSet: LogarithmicScaleDown gate default */
  logarithmicScaleDownDefault: boolean;
  /** defaults of kube-controller-manager settings that changed over time */
  defaultNodeMonitorGracePeriod: Duration;
  /**
   * (added by versions/table.ts) the node lifecycle controller reads Leases at all: >= 1.13
   * (1.12's controller ignores them even with the NodeLease gate on; from 1.13 a renewed
   * Lease counts when the NodeLease gate is on).
   */
  nodeLifecycleReadsLease?: boolean;
  /** (added by versions/table.ts) a failed MarkPodsNotReady is retried on the next monitor pass (nodesToRetry): >= 1.17 (#84445) */
  retriesMarkPodsNotReady?: boolean;
  /** (added by versions/table.ts) pods newly bound to a not-ready node are handled as they appear (podUpdated/processPod): >= 1.18 (#81167) */
  processesPodUpdates?: boolean;
  /** (added by versions/table.ts) a NoExecute not-ready/unreachable taint removed by someone else is added back while the node stays bad: >= 1.19 (#89059, #96876) */
  reconcilesNoExecuteTaint?: boolean;
  /**
   * (added by versions/table.ts) reconcileNodeLabels keeps the OS/arch labels in step, and which
   * spelling is the source of truth: none before 1.14, the beta labels 1.14–1.18 (#74442), the
   * stable labels from 1.19 (#91046)
   */
  nodeLabelsSourceOfTruth?: 'none' | 'beta' | 'stable';
}
