/**
 * A live xstate actor whose transitions are reported back, from xstate's own
 * inspection events, as the trace's `machine` field: the state before and
 * after and the event that fired, and, when asked, the guards it evaluated.
 * For the few machines that have one instance per zone or per simulation;
 * many instances step through table.ts or contextTable.ts. The machine stays
 * the source of truth: callers read the state from the actor, never from a copy.
 */
import {
  createActor,
  transition,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type SnapshotFrom,
  type EventFromLogic,
  type InputFrom,
} from 'xstate';
import type { MachineTransition } from '../trace/decision';
import { stateValueToString } from './stateValue';
import { guardFunctions, withGuardRecorder, type GuardRecorder, type GuardResult } from './guardTrace';
import { anyEnabled } from './step';

export { stateValueToString };

export interface TracedActor<M extends AnyStateMachine> {
  readonly id: string;
  readonly actor: AnyActorRef;
  snapshot(): SnapshotFrom<M>;
  state(): string;
  /**
   * Sends an event and returns the transition it made, or null when no
   * transition fired (the event was not accepted in this state).
   */
  send(event: EventFromLogic<M>): MachineTransition | null;
  /**
   * The state `event` would take the actor to, with nothing changed (xstate's pure `transition`,
   * the actor's own machine); null when the machine takes no transition.
   */
  ask(event: EventFromLogic<M>): string | null;
  /** the guards the last `send` evaluated, with their answers (empty unless created with `traceGuards`) */
  lastGuards(): readonly GuardResult[];
  stop(): void;
}

export function createTracedActor<M extends AnyStateMachine>(
  machine: M,
  id: string,
  options: { input?: InputFrom<M>; snapshot?: unknown; traceGuards?: boolean } = {},
): TracedActor<M> {
  // Whether the event is taken is asked of the machine's transitions (getNextTransitions, its
  // public API), as the tables ask it (step.ts): a transition that stays where it is hands back
  // the very snapshot an event nobody takes does, so the snapshot cannot tell.
  const guardFns = guardFunctions(machine);
  const recorder: GuardRecorder = { log: null };
  let guards: GuardResult[] = [];
  const logic = options.traceGuards ? withGuardRecorder(machine, recorder) : machine;
  const actor = createActor(logic, { input: options.input, snapshot: options.snapshot as never } as never);
  actor.start();
  // The state's text, kept with the (immutable) snapshot it was made from, so
  // that an event that takes no transition does not format it again.
  let textOf: unknown;
  let text = '';
  const current = (): string => {
    const snap = actor.getSnapshot() as { value: unknown };
    if (snap !== textOf) {
      textOf = snap;
      text = stateValueToString(snap.value);
    }
    return text;
  };
  return {
    id,
    actor,
    snapshot: () => actor.getSnapshot() as SnapshotFrom<M>,
    state: current,
    send(event) {
      const from = current();
      const fired = anyEnabled(machine, actor.getSnapshot() as AnyMachineSnapshot, event as never, guardFns);
      if (options.traceGuards) recorder.log = guards = [];
      try {
        actor.send(event as never);
      } finally {
        recorder.log = null;
      }
      if (!fired) return null;
      return { id, from, to: current(), event: (event as { type: string }).type };
    },
    ask(event) {
      const snap = actor.getSnapshot() as AnyMachineSnapshot;
      if (!anyEnabled(machine, snap, event as never, guardFns)) return null;
      return stateValueToString((transition(machine as AnyStateMachine, snap, event as never)[0] as AnyMachineSnapshot).value);
    },
    lastGuards: () => guards,
    stop: () => actor.stop(),
  };
}
