/**
 * The machine of 1.12's doFixDeprecatedTaintKeyPass (node_lifecycle_controller.go at v1.12): asked
 * with the taints upstream's loop collects, a taint under the deprecated key
 * node.alpha.kubernetes.io/notReady or node.alpha.kubernetes.io/unreachable to delete and its copy
 * under node.kubernetes.io/not-ready or unreachable to add. Its guards are upstream's only check
 * ("if len(taintsToAdd) == 0 && len(taintsToDel) == 0 { return nil }"): upstream does not look
 * whether the new key is already there (SwapNodeControllerTaint replaces it). No transition:
 * nothing to swap. Like the other node processing machines it keeps no state per node, each answer
 * starts from `observed`, memoised per the guards' inputs (machines/table.ts).
 */
import { setup } from 'xstate';
import { MachineTable } from '../../machines/table';
import { attachGuards, guardChecks, type GuardRules } from '../../machines/guardChecks';
import type { MachineTransition } from '../../trace/decision';

export type FixDeprecatedTaintKeyEvent = { type: 'FIX_DEPRECATED_TAINT_KEYS'; taintsToAdd: readonly string[]; taintsToDel: readonly string[] };

export const fixDeprecatedTaintKeyGuardRules: GuardRules = {
  hasTaintsToAdd: {
    rule: 'doFixDeprecatedTaintKeyPass: a deprecated key taint is to be added again under its node.kubernetes.io/ key (not-ready, unreachable)',
    reads: ['taintsToAdd'],
  },
  hasTaintsToDel: {
    rule: 'doFixDeprecatedTaintKeyPass: the node has a taint under a deprecated key (node.alpha.kubernetes.io/notReady, unreachable)',
    reads: ['taintsToDel'],
  },
};

export const fixDeprecatedTaintKeyMachine = setup({
  types: { events: {} as FixDeprecatedTaintKeyEvent },
  guards: {
    hasTaintsToAdd: ({ event }) => event.taintsToAdd.length > 0,
    hasTaintsToDel: ({ event }) => event.taintsToDel.length > 0,
  },
}).createMachine({
  id: 'fixDeprecatedTaintKey',
  description: "doFixDeprecatedTaintKeyPass (1.12): the node's taints under the deprecated not-ready/unreachable keys.",
  initial: 'observed',
  states: {
    observed: {
      on: {
        FIX_DEPRECATED_TAINT_KEYS: [
          {
            guard: 'hasTaintsToAdd',
            target: 'patched',
            description: 'SwapNodeControllerTaint adds the taints under their new keys and removes the deprecated ones.',
          },
          { guard: 'hasTaintsToDel', target: 'patched', description: 'SwapNodeControllerTaint removes the deprecated taints.' },
        ],
      },
    },
    patched: { type: 'final' },
  },
});

let table: MachineTable<typeof fixDeprecatedTaintKeyMachine> | undefined;

/** The transition doFixDeprecatedTaintKeyPass's machine takes for the node (null: nothing to swap), its guards attached. */
export function askFixDeprecatedTaintKey(node: string, e: FixDeprecatedTaintKeyEvent): MachineTransition | null {
  table ??= new MachineTable(fixDeprecatedTaintKeyMachine, (x) => `${x.taintsToAdd.length > 0}|${x.taintsToDel.length > 0}`);
  const step = table.step('observed', e);
  return step
    ? attachGuards(
        { id: `fixDeprecatedTaintKey/${node}`, from: 'observed', to: step.text, event: e.type },
        guardChecks(step.guards, e, fixDeprecatedTaintKeyGuardRules),
      )
    : null;
}
