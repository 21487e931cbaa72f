/**
 * Which branch processTaintBaseEviction takes, chosen by a machine's guards from the inputs the
 * event carries (upstream node_lifecycle_controller.go, processTaintBaseEviction):
 * - Ready is True: markNodeAsReachable;
 * - not Ready, and the node carries the opposite NoExecute taint ("we want to update the taint
 *   straight away if Node is already tainted with the opposite taint"): swap it at once;
 * - otherwise: markNodeForTainting (the zone's rate-limited queue).
 * The controller asks (the answer is memoised per inputs, machines/table.ts), then does the
 * branch the machine answered; the node health machine then takes the branch's own event. The
 * guards this machine evaluated, with their values, lead the guards of that transition in the
 * decision's `because`.
 */
import { setup } from 'xstate';
import type { ConditionStatus } from '../../model/types';
import type { Check } from '../../trace/decision';
import { MachineTable } from '../../machines/table';
import { guardChecks, type GuardRules } from '../../machines/guardChecks';

export type TaintBasedEvictionBranch = 'markNodeAsReachable' | 'swapTaint' | 'markNodeForTainting';

export type ProcessEvent = { type: 'PROCESS'; ready: ConditionStatus; oppositeTaint: boolean };

export const processTaintBaseEvictionGuardRules: GuardRules = {
  readyIsTrue: { rule: "processTaintBaseEviction: the node's Ready condition is True", reads: ['ready'] },
  oppositeTaintPresent: {
    rule: 'processTaintBaseEviction: the node already carries the opposite NoExecute taint (unreachable for False, not-ready for Unknown)',
    reads: ['ready', 'oppositeTaint'],
  },
};

export const processTaintBaseEvictionMachine = setup({
  types: { events: {} as ProcessEvent },
  guards: {
    readyIsTrue: ({ event }) => event.ready === 'True',
    oppositeTaintPresent: ({ event }) => event.ready !== 'True' && event.oppositeTaint,
  },
}).createMachine({
  id: 'processTaintBaseEviction',
  description: "processTaintBaseEviction's choice for a node whose Ready condition the monitor pass observed.",
  initial: 'observed',
  states: {
    observed: {
      on: {
        PROCESS: [
          { guard: 'readyIsTrue', target: 'markNodeAsReachable', description: 'Ready is True: remove the NoExecute taints and the queue entry.' },
          { guard: 'oppositeTaintPresent', target: 'swapTaint', description: 'Already tainted with the opposite taint: swap it at once, without the queue.' },
          { target: 'markNodeForTainting', description: "Otherwise: into the zone's rate-limited tainting queue." },
        ],
      },
    },
    markNodeAsReachable: { type: 'final' },
    swapTaint: { type: 'final' },
    markNodeForTainting: { type: 'final' },
  },
});

let table: MachineTable<typeof processTaintBaseEvictionMachine> | undefined;
/** the answers by input (see slot): a monitor pass asks for every node it evaluates */
const answers: ({ branch: TaintBasedEvictionBranch; because: readonly Check[] } | undefined)[] = [];
const slot = (ready: ConditionStatus, oppositeTaint: boolean): number => (ready === 'True' ? 0 : ready === 'False' ? 2 : 4) + (oppositeTaint ? 1 : 0);

/** The branch the machine takes for these inputs, and its guards as checks (both memoised per inputs). */
export function chooseTaintBasedEviction(ready: ConditionStatus, oppositeTaint: boolean): { branch: TaintBasedEvictionBranch; because: readonly Check[] } {
  const i = slot(ready, oppositeTaint);
  let c = answers[i];
  if (c) return c;
  table ??= new MachineTable(processTaintBaseEvictionMachine, (e) => `${e.ready}|${e.oppositeTaint}`);
  const e: ProcessEvent = { type: 'PROCESS', ready, oppositeTaint };
  const step = table.step('observed', e)!;
  c = { branch: step.text as TaintBasedEvictionBranch, because: guardChecks(step.guards, e, processTaintBaseEvictionGuardRules) };
  answers[i] = c;
  return c;
}
