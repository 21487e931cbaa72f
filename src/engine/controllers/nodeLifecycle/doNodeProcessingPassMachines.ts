/**
 * The machines of doNodeProcessingPassWorker's two writes (node_lifecycle_controller.go): each is
 * asked with the inputs upstream's check reads, and its guards say whether there is anything to
 * write, in upstream's order:
 * - doNoScheduleTaintingPass: TaintSetDiff's taintsToAdd and taintsToDel ("if len(taintsToAdd) ==
 *   0 && len(taintsToDel) == 0 { return nil }");
 * - reconcileNodeLabels: labelsToUpdate ("if len(labelsToUpdate) == 0 { return nil }").
 * No transition: nothing to write. The transition taken is the decision's `machine`, and the guards
 * it evaluated, with their values, end its `because`. The machines keep no state per node (the
 * node's taints and labels are the state): each answer starts from `observed`, memoised per the
 * guards' inputs (machines/table.ts).
 */
import { setup } from 'xstate';
import { MachineTable } from '../../machines/table';
import { attachGuards, guardChecks, type GuardRules } from '../../machines/guardChecks';
import type { MachineTransition } from '../../trace/decision';

export type NoScheduleEvent = { type: 'NO_SCHEDULE_PASS'; taintsToAdd: readonly string[]; taintsToDel: readonly string[] };
export type LabelsEvent = { type: 'RECONCILE_LABELS'; labelsToUpdate: Readonly<Record<string, string>> };

export const noScheduleGuardRules: GuardRules = {
  hasTaintsToAdd: { rule: 'doNoScheduleTaintingPass: a NoSchedule taint the conditions (or spec.unschedulable) call for is missing', reads: ['taintsToAdd'] },
  hasTaintsToDel: { rule: 'doNoScheduleTaintingPass: a NoSchedule taint of the controller is no longer called for', reads: ['taintsToDel'] },
};

export const labelsGuardRules: GuardRules = {
  hasLabelsToUpdate: { rule: 'reconcileNodeLabels: a secondary OS/arch label is missing or differs from its source of truth', reads: ['labelsToUpdate'] },
};

export const noScheduleTaintsMachine = setup({
  types: { events: {} as NoScheduleEvent },
  guards: {
    hasTaintsToAdd: ({ event }) => event.taintsToAdd.length > 0,
    hasTaintsToDel: ({ event }) => event.taintsToDel.length > 0,
  },
}).createMachine({
  id: 'noScheduleTaints',
  description: "doNoScheduleTaintingPass: the node's NoSchedule taints against what its conditions call for.",
  initial: 'observed',
  states: {
    observed: {
      on: {
        NO_SCHEDULE_PASS: [
          { guard: 'hasTaintsToAdd', target: 'patched', description: 'SwapNodeControllerTaint adds the missing taints (and removes the others).' },
          { guard: 'hasTaintsToDel', target: 'patched', description: 'SwapNodeControllerTaint removes the taints no longer called for.' },
        ],
      },
    },
    patched: { type: 'final' },
  },
});

export const nodeLabelsMachine = setup({
  types: { events: {} as LabelsEvent },
  guards: {
    hasLabelsToUpdate: ({ event }) => Object.keys(event.labelsToUpdate).length > 0,
  },
}).createMachine({
  id: 'nodeLabels',
  description: 'reconcileNodeLabels: the secondary OS/arch labels against their source of truth.',
  initial: 'observed',
  states: {
    observed: { on: { RECONCILE_LABELS: { guard: 'hasLabelsToUpdate', target: 'patched', description: 'AddOrUpdateLabelsOnNode writes labelsToUpdate.' } } },
    patched: { type: 'final' },
  },
});

let noSchedule: MachineTable<typeof noScheduleTaintsMachine> | undefined;
let labels: MachineTable<typeof nodeLabelsMachine> | undefined;

/** The transition doNoScheduleTaintingPass's machine takes for the node (null: nothing to patch), its guards attached. */
export function askNoScheduleTaints(node: string, e: NoScheduleEvent): MachineTransition | null {
  noSchedule ??= new MachineTable(noScheduleTaintsMachine, (x) => `${x.taintsToAdd.length > 0}|${x.taintsToDel.length > 0}`);
  const step = noSchedule.step('observed', e);
  return step
    ? attachGuards({ id: `noScheduleTaints/${node}`, from: 'observed', to: step.text, event: e.type }, guardChecks(step.guards, e, noScheduleGuardRules))
    : null;
}

/** The transition reconcileNodeLabels' machine takes for the node (null: nothing to write), its guards attached. */
export function askNodeLabels(node: string, e: LabelsEvent): MachineTransition | null {
  labels ??= new MachineTable(nodeLabelsMachine, (x) => String(Object.keys(x.labelsToUpdate).length > 0));
  const step = labels.step('observed', e);
  return step
    ? attachGuards({ id: `nodeLabels/${node}`, from: 'observed', to: step.text, event: e.type }, guardChecks(step.guards, e, labelsGuardRules))
    : null;
}
