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
  /**
   * true: the transitions taken have no target (xstate takes them and stays where it is): the
   * machine's answer "nothing to do", told apart from a refusal, and from a transition back into
   * the same state (which exits and enters it)
   */
  stays: boolean;
  /** actions xstate would execute (assign is not one: it is resolved into `next.context`) */
  actions: readonly { type: string }[];
}

/**
 * The transitions the active states take for `event`: per active atomic state the first enabled one
 * of it and its ancestors, as xstate selects them (getNextTransitions lists them in that order). Not
 * in what `getMicrosteps` returns, since a transition to the state itself hands back the very
 * snapshot "no transition" does. Guards are called unrecorded: the recorded calls are xstate's,
 * made in its step.
 */
export function enabledTransitions(
  machine: AnyStateMachine,
  snapshot: AnyMachineSnapshot,
  event: EventObject,
  guards: ReadonlyMap<string, GuardFn>,
): { target?: readonly unknown[] }[] {
  const args = { context: snapshot.context as unknown, event: event as unknown };
  const out: { target?: readonly unknown[] }[] = [];
  const done = new Set<unknown>();
  for (const t of getNextTransitions(snapshot)) {
    if (t.eventType.includes('*')) throw new Error(`${machine.id}: wildcard event descriptors ('${t.eventType}') are not supported`);
    if (t.eventType !== event.type) continue;
    // the atomic state (or region) this transition is selected for: its source's region root
    const region = regionOf(t.source);
    if (done.has(region)) continue;
    const g = t.guard as undefined | string | { type: string; params?: unknown };
    let enabled = g === undefined;
    if (!enabled) {
      const name = typeof g === 'string' ? g : g!.type;
      const fn = guards.get(name);
      if (!fn) throw new Error(`${machine.id}: ${event.type} from ${t.source.id}: guard '${name}' is not a named guard of the machine`);
      enabled = fn(args, typeof g === 'string' ? undefined : (g as { params?: unknown }).params) === true;
    }
    if (!enabled) continue;
    done.add(region);
    out.push(t as { target?: readonly unknown[] });
  }
  return out;
}

/** The child of the nearest parallel ancestor that holds `s` (the root for a machine with no parallel state). */
function regionOf(s: { parent?: unknown; type?: string }): unknown {
  let n = s as { parent?: { type?: string; parent?: unknown }; type?: string };
  while (n.parent && n.parent.type !== 'parallel') n = n.parent as typeof n;
  return n;
}

/** Whether any transition the active states have for `event` is enabled (see enabledTransitions). */
export function anyEnabled(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject, guards: ReadonlyMap<string, GuardFn>): boolean {
  return enabledTransitions(machine, snapshot, event, guards).length > 0;
}

export function pureStep(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject, guards: ReadonlyMap<string, GuardFn>): PureStep {
  const enabled = enabledTransitions(machine, snapshot, event, guards);
  const taken = enabled.length > 0;
  const stays = taken && enabled.every((t) => !t.target?.length);
  // xstate's step runs even when nothing is taken: the guards it calls on the way are the answer's key
  const steps = getMicrosteps(machine, snapshot, event);
  if (!taken) return { next: snapshot, taken, stays, actions: [] };
  const next = steps.length ? steps[steps.length - 1]![0] : snapshot;
  return { next, taken, stays, actions: steps.flatMap(([, a]) => a as { type: string }[]) };
}
