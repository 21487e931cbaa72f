/**
 * The machines of two pkg/controller/util/node (controller_utils.go) writes, each asked with the
 * inputs upstream's checks read before anything is written:
 * - MarkPodsNotReady: the pods of the node whose Ready condition it sets to False (every pod with
 *   one; from the version that marks only changed pods, those whose Ready is not False already):
 *   guard hasPodsToMark;
 * - DeletePods, for one pod: SetPodTerminationReason writes status.reason NodeLost unless it is
 *   NodeLost already (guard reasonIsNodeLost), then DeletePods keeps a pod that is being deleted
 *   or managed by a DaemonSet (guard keptByDeletePods) and deletes the others. A kept pod whose
 *   status was written is a PodStatusUpdated decision, with this machine's transition; a deleted
 *   pod's PodEvicted records its node's EVICTION_PASS (this machine's transition when the node was
 *   deleted and the controller removed it, machine and all, before its zone's queue released it).
 * The machines keep no state of their own (the pods are the state): each answer starts from
 * `observed`, memoised per the guards' inputs (machines/table.ts); its guards, with their values,
 * end the decision's `because`.
 */
import { setup } from 'xstate';
import { MachineTable } from '../../machines/table';
import { attachGuards, guardChecks, type GuardRules } from '../../machines/guardChecks';
import type { MachineTransition } from '../../trace/decision';

export type MarkPodsEvent = { type: 'MARK_PODS_NOT_READY'; podsToMark: number };
export type DeletePodsPodEvent = { type: 'DELETE_PODS_POD'; statusReason: string; keptBy: 'none' | 'deletion in progress' | 'DaemonSet' };

export const markPodsGuardRules: GuardRules = {
  hasPodsToMark: { rule: 'MarkPodsNotReady: a pod of the node has a Ready condition to set to False', reads: ['podsToMark'] },
};

export const deletePodsGuardRules: GuardRules = {
  reasonIsNodeLost: { rule: "SetPodTerminationReason: the pod's status reason is NodeLost already (no write)", reads: ['statusReason'] },
  keptByDeletePods: { rule: 'DeletePods keeps a pod that is being deleted or managed by a DaemonSet', reads: ['keptBy'] },
};

export const markPodsNotReadyMachine = setup({
  types: { events: {} as MarkPodsEvent },
  guards: { hasPodsToMark: ({ event }) => event.podsToMark > 0 },
}).createMachine({
  id: 'markPodsNotReady',
  description: "MarkPodsNotReady: the Ready condition of the node's pods set to False.",
  initial: 'observed',
  states: {
    observed: {
      on: { MARK_PODS_NOT_READY: { guard: 'hasPodsToMark', target: 'marked', description: 'UpdateStatus of each pod, its Ready condition False.' } },
    },
    marked: { type: 'final' },
  },
});

export const deletePodsPodMachine = setup({
  types: { events: {} as DeletePodsPodEvent },
  guards: {
    reasonIsNodeLost: ({ event }) => event.statusReason === 'NodeLost',
    keptByDeletePods: ({ event }) => event.keptBy !== 'none',
  },
}).createMachine({
  id: 'deletePodsPod',
  description: 'DeletePods, for one pod of the evicted node: its status reason, then the delete unless the pod is kept.',
  initial: 'observed',
  states: {
    observed: {
      on: {
        DELETE_PODS_POD: [
          { guard: 'reasonIsNodeLost', target: 'reasonKept', description: 'No status write; DeletePods goes on to the delete (or keeps the pod).' },
          { guard: 'keptByDeletePods', target: 'statusUpdated', description: 'status.reason NodeLost written; the pod is kept.' },
          { target: 'statusUpdatedThenDeleted', description: 'status.reason NodeLost written, then the pod is deleted.' },
        ],
      },
    },
    reasonKept: { type: 'final' },
    statusUpdated: { type: 'final' },
    statusUpdatedThenDeleted: { type: 'final' },
  },
});

let markPods: MachineTable<typeof markPodsNotReadyMachine> | undefined;
let deletePods: MachineTable<typeof deletePodsPodMachine> | undefined;

/** MarkPodsNotReady's machine for the node (null: no pod to mark), its guards attached. */
export function askMarkPodsNotReady(node: string, e: MarkPodsEvent): MachineTransition | null {
  markPods ??= new MachineTable(markPodsNotReadyMachine, (x) => String(x.podsToMark > 0));
  const step = markPods.step('observed', e);
  return step
    ? attachGuards({ id: `markPodsNotReady/${node}`, from: 'observed', to: step.text, event: e.type }, guardChecks(step.guards, e, markPodsGuardRules))
    : null;
}

/** DeletePods' machine for one pod (it always answers), its guards attached. */
export function askDeletePodsPod(pod: string, e: DeletePodsPodEvent): MachineTransition {
  deletePods ??= new MachineTable(deletePodsPodMachine, (x) => `${x.statusReason === 'NodeLost'}|${x.keptBy !== 'none'}`);
  const step = deletePods.step('observed', e)!;
  return attachGuards({ id: `deletePods/${pod}`, from: 'observed', to: step.text, event: e.type }, guardChecks(step.guards, e, deletePodsGuardRules));
}
