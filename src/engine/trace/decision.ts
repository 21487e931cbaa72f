/**
 * The decision trace (spec 2.1): every world event and every change a
 * simulated controller makes is one Decision. This file is the one place
 * the action names are spelled.
 */
import type { ObjectRef } from '../model/types';

export type ControllerName = 'node-lifecycle' | 'taint-eviction' | 'replicaset' | 'scheduler' | 'world';

export const ACTIONS = {
  world: [
    'KubeletStopped',
    'KubeletStarted',
    'NodeConditionChanged',
    'ObjectApplied',
    'ObjectDeleted',
    'ControllerManagerRestarted',
    'AssumptionMade',
    // a `fail:` event armed injected API faults (the ApiCallFailed decisions cite it)
    'FaultInjected',
  ],
  'node-lifecycle': [
    'NodeRegistered',
    'NodeRemoved',
    'NodeStatusUnknown',
    'PodsMarkedNotReady',
    'NodeQueuedForTainting',
    'NodeQueuedForEviction',
    'TaintAdded',
    'TaintRemoved',
    'EvictionCancelled',
    'PodEvicted',
    'ZoneStateChanged',
    'EvictionRateChanged',
    'MonitorPass',
    // the pod-eviction path's DeletePods wrote the pod's status (reason NodeLost) but did not delete it
    'PodStatusUpdated',
    // reconcileNodeLabels (1.14+) set the OS/arch labels of the other spelling
    'NodeLabelsReconciled',
  ],
  'taint-eviction': ['PodEvictionScheduled', 'PodEvictionCancelled', 'PodEvicted'],
  replicaset: [
    'PodsCreated',
    'PodsDeleted',
    'ExpectationsPending',
    'ReplicaSetStatusUpdated',
    // claimPods: orphans adopted / pods no longer matching released (one per sync, pods in details.pods)
    'PodsAdopted',
    'PodsReleased',
  ],
  scheduler: [
    'PodBound',
    'PodUnschedulable',
    // the simplified kubelet start: a pod the binder bound becomes Running and Ready
    'PodStarted',
  ],
  any: ['ApiCallFailed'],
} as const;

type Values<T> = T[keyof T] extends readonly (infer U)[] ? U : never;
export type Action = Values<typeof ACTIONS>;

/** One evaluated check: the rule in words and the actual values it saw. */
export interface Check {
  rule: string;
  values?: Record<string, unknown>;
}

export interface MachineTransition {
  /** e.g. `node/node-a1`, `zone/us-east-1a`, `replicaset/default/web` */
  id: string;
  /** dotted state paths, e.g. `unknown.queued` */
  from: string;
  to: string;
  event: string;
}

/** What a controller hands to the recorder; seq, time and pass are filled in. */
export interface DecisionInput {
  controller: ControllerName;
  action: Action;
  object: ObjectRef;
  summary: string;
  because: Check[];
  causes?: number[];
  machine?: MachineTransition | null;
  source: string;
  /** extra structured data, e.g. `{pods: [...]}` for PodsCreated */
  details?: Record<string, unknown>;
}

export interface Decision {
  seq: number;
  /** RFC3339 with milliseconds, UTC */
  time: string;
  pass: number | null;
  controller: ControllerName;
  action: Action;
  object: ObjectRef;
  summary: string;
  because: Check[];
  causes: number[];
  machine: MachineTransition | null;
  source: string;
  details?: Record<string, unknown>;
}

/** Decisions a user does not need to scroll past: they are collapsed in the UI and text output. */
export const NOISE_ACTIONS: ReadonlySet<Action> = new Set<Action>(['MonitorPass']);
