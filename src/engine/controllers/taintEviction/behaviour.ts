/**
 * What the taint manager does differently by version, beyond the fields of
 * VersionBehaviour (which say where it runs). One literal table, cumulative by
 * minor version as versions/table.ts; each row cites its upstream source.
 * Commits read for this port (kubernetes/kubernetes, through the search tool):
 * - 1.12 era: pkg/controller/nodelifecycle/scheduler/timed_workers.go @16141a1f
 *   (glog; AddWork/CancelWork/GetWorkerUnsafe, `workers[key] = nil` after a
 *   successful run, deleted after a failed one), taint_manager.go of the same
 *   era (glog; "Scheduled deletion won't be cancelled if already scheduled"
 *   for infinite tolerations; deletePodHandler with 5 tries 10 ms apart);
 * - taint_manager.go @99600aa1 (1.18/1.19, informer-based, same decisions);
 * - 1.29-1.32: pkg/controller/tainteviction/taint_eviction.go @003e8629 and
 *   taint_eviction_test.go of the same commit;
 * - 1.33-1.35: taint_eviction.go @5ce22905 (DisruptionTarget with
 *   ObservedGeneration; same decisions), timed_workers.go @008b3652.
 */
import type { ControllerHost } from '../controllerHost';
import type { Check } from '../../trace/decision';

interface TaintManagerRow {
  minor: number;
  /** kubernetes/kubernetes PR or file that makes the change */
  source: string;
  cancelsWhenToleratedForever?: boolean;
  /** default of PodDisruptionConditions when the version has the gate; 'always' once GA */
  disruptionTarget?: 'never' | 'gate' | 'always';
  file?: string;
}

const TAINT_MANAGER_ROWS: readonly TaintManagerRow[] = [
  {
    minor: 12,
    source: 'pkg/controller/nodelifecycle/scheduler/taint_manager.go@release-1.12',
    cancelsWhenToleratedForever: false,
    disruptionTarget: 'never',
    file: 'nodelifecycle/scheduler/taint_manager.go',
  },
  {
    // "Do not evict pods which tolerate all NoExecute taints" (#93722, merged to
    // master in August 2020, so in v1.19.0; back-ported to the patch releases
    // 1.16.14, 1.17.11 and 1.18.8 through #93816, #93815, #93814, which this
    // table, modelling each minor as first released, does not follow):
    // processPodOnNode cancels the scheduled deletion of a pod whose tolerations
    // became infinite; before, the deletion stayed scheduled.
    minor: 19,
    source: 'kubernetes/kubernetes#93722',
    cancelsWhenToleratedForever: true,
  },
  {
    // PodDisruptionConditions (KEP-3329): alpha 1.25 (off), beta 1.26 (on), GA 1.31:
    // deletePodHandler patches the DisruptionTarget condition before deleting.
    minor: 25,
    source: 'KEP-3329; pkg/controller/nodelifecycle/scheduler/taint_manager.go@release-1.25 (addConditionAndDeletePod)',
    disruptionTarget: 'gate',
  },
  {
    minor: 29,
    source: 'pkg/controller/tainteviction/taint_eviction.go@release-1.29 (KEP-3902)',
    file: 'tainteviction/taint_eviction.go',
  },
  {
    minor: 31,
    source: 'pkg/controller/tainteviction/taint_eviction.go@release-1.31 (PodDisruptionConditions GA)',
    disruptionTarget: 'always',
  },
];

export interface TaintManagerBehaviour {
  cancelsWhenToleratedForever: boolean;
  /** the pod gets DisruptionTarget=True (reason DeletionByTaintManager) before the delete */
  patchesDisruptionTarget: boolean;
  /** upstream file, for the trace's `source` */
  file: string;
}

/** PodDisruptionConditions' default where the version has the gate and the scenario does not set it. */
const disruptionGateDefault = (minor: number): boolean => minor >= 26;

export function taintManagerBehaviour(host: Pick<ControllerHost, 'behaviour' | 'config'>): TaintManagerBehaviour {
  const minor = host.behaviour.version.minor;
  let cancels = false;
  let disruption: TaintManagerRow['disruptionTarget'] = 'never';
  let file = '';
  for (const r of TAINT_MANAGER_ROWS) {
    if (r.minor > minor) break;
    if (r.cancelsWhenToleratedForever !== undefined) cancels = r.cancelsWhenToleratedForever;
    if (r.disruptionTarget !== undefined) disruption = r.disruptionTarget;
    if (r.file !== undefined) file = r.file;
  }
  const gate = host.config.featureGates.PodDisruptionConditions;
  const patches = disruption === 'always' || (disruption === 'gate' && (gate ?? disruptionGateDefault(minor)));
  if (!separateController(host)) file = 'nodelifecycle/scheduler/taint_manager.go';
  return { cancelsWhenToleratedForever: cancels, patchesDisruptionTarget: patches, file };
}

/** 1.29+: its own controller, unless the SeparateTaintEvictionController gate is turned off. */
export function separateController(host: Pick<ControllerHost, 'behaviour' | 'config'>): boolean {
  return host.behaviour.separateTaintEvictionController && host.config.featureGates.SeparateTaintEvictionController !== false;
}

export interface Runs {
  runs: boolean;
  /** the check that decides it, with its values, for "why not" */
  check: Check;
}

/**
 * Whether the taint manager runs:
 * - 1.29+ (separate controller): when `taint-eviction-controller` is in --controllers;
 * - before: inside the node lifecycle controller, so only when `nodelifecycle`
 *   runs, and before 1.27 only with --enable-taint-manager (default true).
 */
export function taintManagerRuns(host: Pick<ControllerHost, 'behaviour' | 'config'>): Runs {
  const controllers = [...host.config.controllers].sort();
  if (separateController(host)) {
    const on = host.config.controllers.has('taint-eviction-controller');
    return {
      runs: on,
      check: {
        rule: on ? 'taint-eviction-controller is enabled' : 'taint-eviction-controller is not enabled in --controllers',
        values: { controllers },
      },
    };
  }
  if (!host.config.controllers.has('nodelifecycle')) {
    return {
      runs: false,
      check: { rule: 'the taint manager runs inside nodelifecycle, which is not enabled in --controllers', values: { controllers } },
    };
  }
  if (host.behaviour.hasEnableTaintManagerFlag && !host.config.enableTaintManager) {
    return { runs: false, check: { rule: 'the taint manager is off (--enable-taint-manager=false)', values: { enableTaintManager: false } } };
  }
  return {
    runs: true,
    check: {
      rule: host.behaviour.hasEnableTaintManagerFlag ? 'the taint manager runs (--enable-taint-manager=true)' : 'the taint manager runs inside nodelifecycle',
      values: host.behaviour.hasEnableTaintManagerFlag ? { enableTaintManager: true } : { controllers },
    },
  };
}
