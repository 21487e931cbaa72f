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
 * Why one machine definition and a memoised transition table instead of an
 * actor per pod (see /work/shared/design/performance-notes.md): a cluster can
 * hold 150,000 pods and an outage can evict 50,000 of them. Creating an actor
 * costs ~40 µs and xstate's pure `transition()` ~21 µs per event, so both
 * would add seconds per simulated outage. The machine has no guards and no
 * context: whether a pod is evicted, scheduled or left alone is decided by the
 * pure decision functions in decide.ts, which then pick the event. With no
 * guards, the transition an event takes depends only on (state, event type),
 * so each of the few (state, event) pairs is run through a real xstate actor
 * once (createTracedActor, xstate's own inspection) and the resulting
 * {from, to, event} is reused. The machine stays the source of truth for what
 * may follow what: an event the machine does not accept in a state yields no
 * transition, and the controller then does not act.
 */
import { setup } from 'xstate';
import { createTracedActor } from '../../machines/traced';
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

/** The machine as the UI draws it. */
export const podEvictionMachineDefinition: unknown = podEvictionMachine.toJSON();

/** state -> event -> the transition (null: not accepted); filled on first use of each pair */
const table: Record<PodEvictionState, Partial<Record<PodEvictionEventType, MachineTransition | null>>> = { idle: {}, scheduled: {}, deleting: {}, evicted: {} };

/**
 * The transition `event` takes from `state`, or null when the machine does not
 * accept the event there. Computed by a real actor on first use, then reused
 * (see the file comment).
 */
export function podEvictionTransition(state: PodEvictionState, event: PodEvictionEventType, id: string): MachineTransition | null {
  const row = table[state];
  let t = row[event];
  if (t === undefined) {
    const actor = createTracedActor(podEvictionMachine, 'taint-eviction-pod', {
      snapshot: podEvictionMachine.resolveState({ value: state, context: {} }),
    });
    t = actor.send({ type: event });
    actor.stop();
    row[event] = t;
  }
  return t ? { id, from: t.from, to: t.to, event: t.event } : null;
}

export const podMachineId = (namespace: string, name: string): string => `taint-eviction/${namespace}/${name}`;
