/**
 * The per-pod lifecycle of a taint-eviction work item, as one xstate machine:
 *
 *   idle ──SCHEDULE──▶ scheduled ──DEADLINE──▶ deleting ──DELETED──▶ evicted
 *    ▲  ╲                 │  ╲                   │
 *    │   ╲──EVICT_NOW─────┼───╲──EVICT_NOW──────▶│
 *    └──────CANCEL────────┘                      │
 *    └──────────────GIVE_UP──────────────────────┘
 *
 * It mirrors upstream's TimedWorkerQueue entry for the pod: `scheduled` is a
 * TimedWorker waiting for FireAt, `deleting` is the worker's function running
 * (the delete retry loop), `idle` is no entry.
 *
 * Why one machine definition stepped through a shared table instead of an
 * actor per pod (see /work/shared/design/performance-notes.md): a cluster can
 * hold 150,000 pods and an outage can evict 50,000 of them, and an actor or
 * a step through xstate costs tens of µs. The machine has no guards and no
 * context: whether a pod is evicted, scheduled or left alone is decided by
 * the pure decision functions in decide.ts, which then pick the event, so
 * the answer depends only on (state, event type) and machines/table.ts keeps
 * xstate's answer for each pair. The machine stays the source of truth for
 * what may follow what: an event the machine does not accept in a state
 * yields no transition, and the controller then does not act.
 */
import { setup } from 'xstate';
import { MachineTable } from '../../machines/table';
import { attachGuards, guardChecks, type GuardRules } from '../../machines/guardChecks';
import type { MachineTransition } from '../../trace/decision';

export type PodEvictionState = 'idle' | 'scheduled' | 'deleting' | 'evicted';
export type PodEvictionEventType = 'SCHEDULE' | 'CANCEL' | 'EVICT_NOW' | 'DEADLINE' | 'DELETED' | 'GIVE_UP';

export const podEvictionMachine = setup({
  types: {} as { events: { type: PodEvictionEventType } },
}).createMachine({
  id: 'taint-eviction-pod',
  description: "One pod's entry in the taint eviction queue (upstream TimedWorkerQueue keyed by namespace/name).",
  initial: 'idle',
  states: {
    idle: {
      description: 'No eviction work for this pod: the node has no NoExecute taint, or the pod tolerates them forever.',
      on: {
        SCHEDULE: {
          target: 'scheduled',
          description: 'processPodOnNode: every NoExecute taint is tolerated, the shortest tolerationSeconds is finite: AddWork(now, now + min).',
        },
        EVICT_NOW: {
          target: 'deleting',
          description: 'processPodOnNode: a NoExecute taint is not tolerated (or tolerationSeconds <= 0): AddWork(now, now) runs at once.',
        },
      },
    },
    scheduled: {
      description: 'A TimedWorker waits for FireAt = CreatedAt + min(tolerationSeconds).',
      on: {
        DEADLINE: { target: 'deleting', description: 'The timer fired: the worker deletes the pod.' },
        CANCEL: {
          target: 'idle',
          description: 'cancelWorkWithEvent: the NoExecute taints are gone, the pod tolerates them forever (1.19+), or the pod was deleted.',
        },
        EVICT_NOW: {
          target: 'deleting',
          description: 'processPodOnNode: a taint is no longer tolerated: the scheduled work is cancelled and the pod deleted at once.',
        },
      },
    },
    deleting: {
      description: 'deletePodHandler: up to 5 delete attempts, 10 ms apart (1.26+: the DisruptionTarget condition is patched first).',
      on: {
        DELETED: { target: 'evicted', description: 'The API server accepted the delete.' },
        GIVE_UP: {
          target: 'idle',
          description: 'All 5 attempts failed: the work item is dropped; nothing retries until the next node or pod update.',
        },
      },
    },
    evicted: { type: 'final', description: 'The pod was deleted by the taint eviction controller.' },
  },
});

/** The machine has no guards (see the file comment); a guard added to it needs its rule in words here. */
const podEvictionGuardRules: GuardRules = {};

/** The machine as the UI draws it. */
export const podEvictionMachineDefinition: unknown = podEvictionMachine.toJSON();

let table: MachineTable<typeof podEvictionMachine> | undefined;

/**
 * The transition `event` takes from `state`, or null when the machine does not
 * accept the event there (xstate's answer, kept per pair: see the file comment).
 */
export function podEvictionTransition(state: PodEvictionState, event: PodEvictionEventType, id: string): MachineTransition | null {
  const next = podEvictionTable().step(state, { type: event }, state);
  return next ? attachGuards({ id, from: state, to: next.text, event }, guardChecks(next.guards, { type: event }, podEvictionGuardRules)) : null;
}

/** Whether the machine accepts `event` in `state` (a look-up: for the paths that visit every pod of a node). */
export function podEvictionAccepts(state: PodEvictionState, event: PodEvictionEventType): boolean {
  return podEvictionTable().step(state, { type: event }, state) !== null;
}

function podEvictionTable(): MachineTable<typeof podEvictionMachine> {
  return (table ??= new MachineTable(podEvictionMachine, (e) => e.type));
}

export const podMachineId = (namespace: string, name: string): string => `taint-eviction/${namespace}/${name}`;
