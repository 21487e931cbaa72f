/**
 * Node-lifecycle details that differ by version but are too fine-grained for
 * VersionBehaviour (versions/types.ts). Everything else comes from
 * `host.behaviour` and the feature gates. Each rule names the upstream change
 * it follows; the thresholds marked "approx." were read from the code of
 * the versions the project must be faithful to (1.12, 1.31, 1.35) and the
 * PR history, not from every release branch.
 */
import type { ControllerHost } from '../controllerHost';

export interface NodeLifecycleRules {
  minor: number;
  /** 1.12-1.13 code shape: monitorNodeStatus/tryUpdateNodeStatus; the never-posted node's probe is reset to creationTimestamp on every pass (approx. < 1.14) */
  legacyStatusFunctions: boolean;
  /** the Lease renewTime counts as a heartbeat (1.13+, while NodeLease is on; gate removed 1.23) */
  readsLeases: boolean;
  /** markNodeForTainting removes an untainted node from the queue before adding it again, so a removed taint comes back (#89059, #96876: 1.19+) */
  requeuesUntaintedNodes: boolean;
  /** nodesToRetry: a failed MarkPodsNotReady is retried on the next pass (#84445: 1.17+) */
  retriesMarkPodsNotReady: boolean;
  /** MarkPodsNotReady updates only pods whose Ready is not yet False, and sets lastTransitionTime (1.17+; before: MarkAllPodsNotReady) */
  markOnlyChangedPods: boolean;
  /** podUpdated/processPod: a pod bound to a not-ready node is marked not ready (#81167: 1.18+) */
  podUpdateHandler: boolean;
  /** pod eviction path: nodeEvictionMap, so new pods on an already evicted node are deleted at once (#81167: 1.18+) */
  nodeEvictionMap: boolean;
  /** taint-based evictions: the NoExecute taints instead of deleting pods */
  taintBasedEvictions: boolean;
  /** reconcileNodeLabels runs on node updates, and which spelling of the OS/arch labels is the source of truth (1.14+) */
  labelsSourceOfTruth: 'none' | 'beta' | 'stable';
  /** doNoScheduleTaintingPass runs (TaintNodesByCondition) */
  taintNodesByCondition: boolean;
  /** nodes whose name looks like a master's are left out of disruption checks (1.12; 1.16-1.22 behind LegacyNodeRoleBehavior) */
  excludeMasterByName: boolean;
  /** the node.kubernetes.io/exclude-disruption label is honoured (1.16-1.20 behind NodeDisruptionExclusion) */
  honoursExcludeDisruptionLabel: boolean;
}

function gate(host: ControllerHost, name: string): boolean {
  const v = host.config.featureGates[name];
  // A gate the version no longer has was removed after GA: the feature is on.
  return v === undefined ? true : v;
}

/** A gate's value when the version has it, else the version's fixed behaviour. */
function gateOr(host: ControllerHost, name: string, otherwise: boolean): boolean {
  const v = host.config.featureGates[name];
  return v === undefined ? otherwise : v;
}

export function rulesOf(host: ControllerHost): NodeLifecycleRules {
  const b = host.behaviour;
  const minor = b.version.minor;
  return {
    minor,
    legacyStatusFunctions: minor < 14,
    readsLeases: (b.nodeLifecycleReadsLease ?? minor >= 13) && gate(host, 'NodeLease'),
    // the version table's fields where it has them (versions/table.ts), else the same thresholds
    requeuesUntaintedNodes: b.reconcilesNoExecuteTaint ?? minor >= 19,
    retriesMarkPodsNotReady: b.retriesMarkPodsNotReady ?? minor >= 17,
    // MarkPodsNotReady(pods) replaced MarkAllPodsNotReady(node) with the retry (#84445)
    markOnlyChangedPods: b.retriesMarkPodsNotReady ?? minor >= 17,
    podUpdateHandler: b.processesPodUpdates ?? minor >= 18,
    // nodeEvictionMap came with the pod update handler (#81167)
    nodeEvictionMap: b.processesPodUpdates ?? minor >= 18,
    // useTaintBasedEvictions = TaintBasedEvictions && runTaintManager; from 1.27 the pod-eviction path is gone.
    taintBasedEvictions: !b.hasPodEvictionPath || ((!b.hasEnableTaintManagerFlag || host.config.enableTaintManager) && gate(host, 'TaintBasedEvictions')),
    labelsSourceOfTruth: b.nodeLabelsSourceOfTruth ?? (minor >= 19 ? 'stable' : minor >= 14 ? 'beta' : 'none'),
    taintNodesByCondition: gate(host, 'TaintNodesByCondition'),
    excludeMasterByName: gateOr(host, 'LegacyNodeRoleBehavior', b.excludeMasterByName),
    honoursExcludeDisruptionLabel: gateOr(host, 'NodeDisruptionExclusion', b.honoursExcludeDisruptionLabel),
  };
}
