/**
 * One step of a machine through xstate's public pure API (`getMicrosteps`):
 * the snapshot after the event, and whether a transition was taken at all.
 * Every table in this folder fills itself from here.
 */
import { getMicrosteps, getNextTransitions, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import type { GuardFn } from './guardTrace';

export interface PureStep {
  /** the snapshot after the macrostep (eventless transitions included) */
  next: AnyMachineSnapshot;
  /** false: no transition of the state accepted the event */
  taken: boolean;
  /** actions xstate would execute (assign is not one: it is resolved into `next.context`) */
  actions: readonly { type: string }[];
}

/**
 * Whether any transition the active states have for `event` is enabled. xstate takes one as soon
 * as one is (the first per active atomic state); its own answer is not in what `getMicrosteps`
 * returns, since a transition to the state itself hands back the very snapshot "no transition" does.
 * Guards are called unrecorded: the recorded calls are xstate's, made in its step.
 */
export function anyEnabled(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject, guards: ReadonlyMap<string, GuardFn>): boolean {
  const args = { context: snapshot.context as unknown, event: event as unknown };
  for (const t of getNextTransitions(snapshot)) {
    if (t.eventType.includes('*')) throw new Error(`${machine.id}: wildcard event descriptors ('${t.eventType}') are not supported`);
    if (t.eventType !== event.type) continue;
    const g = t.guard as undefined | string | { type: string; params?: unknown };
    if (g === undefined) return true;
    const name = typeof g === 'string' ? g : g.type;
    const fn = guards.get(name);
    if (!fn) throw new Error(`${machine.id}: ${event.type} from ${t.source.id}: guard '${name}' is not a named guard of the machine`);
    if (fn(args, typeof g === 'string' ? undefined : g.params) === true) return true;
  }
  return false;
}

export function pureStep(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject, guards: ReadonlyMap<string, GuardFn>): PureStep {
  const taken = anyEnabled(machine, snapshot, event, guards);
  // xstate's step runs even when nothing is taken: the guards it calls on the way are the answer's key
  const steps = getMicrosteps(machine, snapshot, event);
  if (!taken) return { next: snapshot, taken, actions: [] };
  const next = steps.length ? steps[steps.length - 1]![0] : snapshot;
  return { next, taken, actions: steps.flatMap(([, a]) => a as { type: string }[]) };
}
