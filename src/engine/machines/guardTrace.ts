/**
 * The guards a transition evaluated, with their answers: what a decision's
 * `because` lists and what a why-not walks. Recorded by handing xstate the
 * machine with every named guard wrapped (`machine.provide`), so the order
 * and the set of guards are xstate's own selection, not a restatement of it.
 */
import { getNextTransitions, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';

/** One guard call as xstate made it. */
export interface GuardResult {
  /** the guard's name in the machine's `setup({guards})` */
  guard: string;
  value: boolean;
  /** the guard's params, when the transition gives any */
  params?: unknown;
}

export type GuardFn = (args: { context: unknown; event: unknown }, params: unknown) => boolean;

/** Where the wrapped guards write; `log` null while nobody is listening. */
export interface GuardRecorder {
  log: GuardResult[] | null;
}

/** the machine's named guards as plain functions; a guard object (`not(...)` as an implementation) is refused */
export function guardFunctions(machine: AnyStateMachine): Map<string, GuardFn> {
  const out = new Map<string, GuardFn>();
  const guards = (machine.implementations.guards ?? {}) as Record<string, unknown>;
  for (const [name, g] of Object.entries(guards)) {
    if (typeof g !== 'function' || 'check' in g) throw new Error(`${machine.id}: guard '${name}' must be a plain function to be traced`);
    out.set(name, g as GuardFn);
  }
  return out;
}

/** The machine with each named guard reporting its answer to `recorder`. */
export function withGuardRecorder<M extends AnyStateMachine>(machine: M, recorder: GuardRecorder): M {
  const wrapped: Record<string, GuardFn> = {};
  for (const [name, fn] of guardFunctions(machine)) {
    wrapped[name] = (args, params) => {
      const value = fn(args, params) === true;
      recorder.log?.push(params === undefined ? { guard: name, value } : { guard: name, value, params });
      return value;
    };
  }
  return machine.provide({ guards: wrapped } as never) as M;
}

/**
 * Refuses a guard on the transitions `eventType` may take from `snapshot` that is not a named guard
 * (a string or `{type, params}`): an inline function or a combinator calls guards the tables could
 * not replay on their own.
 */
export function assertNamedGuards(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, eventType: string): void {
  for (const t of getNextTransitions(snapshot)) {
    const g = t.guard as unknown;
    const named = g === undefined || typeof g === 'string' || (typeof g === 'object' && g !== null && typeof (g as { type?: unknown }).type === 'string');
    if (t.eventType === eventType && !named) {
      throw new Error(`${machine.id}: ${eventType} from ${t.source.id} has an inline guard; only named guards are traced`);
    }
  }
}
