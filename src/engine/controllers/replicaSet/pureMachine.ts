/**
 * Many instances of one machine whose actions are all `assign`s, kept as plain
 * data (state value + context) instead of live actors. Which transition an
 * event takes is looked up in a table that xstate itself fills, and the
 * context is computed by the machine's own assign implementations.
 *
 * Why (design/performance-notes.md): in a zone outage at 5,000 nodes the
 * ReplicaSet machines take ~150,000 events, and each costs a full xstate
 * macrostep (~15 µs; with a live actor also a mailbox, inspection events and
 * snapshot clones). The table costs a few guard calls and a map look-up.
 *
 * Why the key determines the answer: xstate selects a transition from the
 * active state nodes (the state value), the event type and the results of
 * the guards of that event's transitions; those three form the key. The
 * first time a key is seen, the state is resolved into a real xstate
 * snapshot and xstate computes the step (`getTransitionData`: which
 * transitions are enabled, none meaning "no transition"; `transition`: the
 * next state); the table keeps the next state and the transitions' action
 * names. Later hits run those actions' assignments, in xstate's order, on the
 * instance's own context and event. The first computation is checked against
 * xstate's context, and the constructor refuses a machine this cannot replay
 * (entry/exit/eventless/delayed/invoked behaviour, inline guards or actions,
 * actions that are not `assign`).
 */
import { createActor, type AnyStateMachine, type ContextFrom, type EventFromLogic, type StateValue } from 'xstate';
import { stateValueToString } from '../../machines/traced';
import type { MachineTransition } from '../../trace/decision';

/** an instance's whole state; never mutated (a step makes a new one) */
export interface PlainState<C> {
  readonly value: StateValue;
  readonly text: string;
  readonly context: C;
}

type Guard = (args: { context: unknown; event: unknown }, params: undefined) => boolean;
type Assignment = ((args: { context: unknown; event: unknown }, params: undefined) => Record<string, unknown>) | Record<string, unknown>;
interface Step {
  value: StateValue;
  text: string;
  assignments: Assignment[];
}
interface StateNodeLike {
  id: string;
  entry: unknown[];
  exit: unknown[];
  always?: unknown[];
  invoke: unknown[];
  after: unknown[];
  states: Record<string, StateNodeLike>;
  transitions: Map<string, { guard?: unknown; actions: unknown[] }[]>;
}

type ContextOf<M extends AnyStateMachine> = ContextFrom<M>;

export class TransitionTable<M extends AnyStateMachine> {
  /** state text -> event type -> guard results (bit i: guard i of the type) -> the step (null: no transition) */
  private readonly memo = new Map<string, Map<string, (Step | null | undefined)[]>>();
  /** per event type, the guards of its transitions anywhere in the machine */
  private readonly guardsFor = new Map<string, Guard[]>();
  private readonly assignments = new Map<string, Assignment>();
  private readonly scope: object;
  readonly initialState: PlainState<ContextOf<M>>;

  /**
   * `copyContext`: a copy of a context with every one of its properties, in order (a literal of
   * the machine's own fields is one shape for every copy; a generic spread of contexts made in
   * several ways is not). Each step's result is checked against xstate's, as JSON, when the
   * table learns the step (`fill`).
   */
  constructor(readonly machine: M, private readonly copyContext: (c: ContextOf<M>) => ContextOf<M> = (c) => ({ ...(c as object) }) as ContextOf<M>) {
    const impl = (machine as unknown as { implementations: { guards: Record<string, unknown>; actions: Record<string, unknown> } }).implementations;
    const guardNames = new Map<string, Set<string>>();
    const visit = (node: StateNodeLike) => {
      if (node.entry.length || node.exit.length || node.always?.length || node.invoke.length || node.after.length) {
        throw new Error(`${node.id}: entry/exit/eventless/invoked/delayed behaviour cannot be replayed from a table`);
      }
      for (const [type, list] of node.transitions) {
        let names = guardNames.get(type);
        if (!names) guardNames.set(type, (names = new Set()));
        for (const t of list) {
          if (t.guard !== undefined) {
            if (typeof t.guard !== 'string' || typeof impl.guards[t.guard] !== 'function') throw new Error(`${node.id} ${type}: only named guards are supported`);
            names.add(t.guard);
          }
          for (const a of t.actions) {
            const action = typeof a === 'string' ? (impl.actions[a] as { type?: string; assignment?: Assignment } | undefined) : undefined;
            if (!action || action.type !== 'xstate.assign' || action.assignment === undefined) throw new Error(`${node.id} ${type}: only named assign actions are supported`);
            this.assignments.set(a as string, action.assignment);
          }
        }
      }
      for (const child of Object.values(node.states)) visit(child);
    };
    visit((machine as unknown as { root: StateNodeLike }).root);
    for (const [type, names] of guardNames) this.guardsFor.set(type, [...names].map((n) => impl.guards[n] as Guard));
    // an actor that is never started: its system is what xstate's step reads (no inspectors, nothing executed)
    const self = createActor(machine);
    const noop = () => {};
    this.scope = { self, system: self.system, id: '', sessionId: '', defer: noop, logger: noop, stopChild: noop, emit: noop, actionExecutor: noop };
    const init = machine.getInitialSnapshot(this.scope as never) as { value: StateValue; context: ContextOf<M> };
    this.initialState = { value: init.value, text: stateValueToString(init.value), context: init.context };
  }

  /** a state from plain data (a checkpoint's value and context) */
  state(value: StateValue, context: ContextOf<M>): PlainState<ContextOf<M>> {
    return { value, text: stateValueToString(value), context };
  }

  /**
   * the state after `event`, or null when the machine takes no transition.
   * The key (state, event type, guard results) is looked up through maps keyed by the state's text
   * and the event's type, strings that exist already (hashed once), then an array indexed by the
   * guard results as bits: building the key as one new string per step was most of a step's time.
   */
  step(state: PlainState<ContextOf<M>>, event: EventFromLogic<M>): PlainState<ContextOf<M>> | null {
    const type = (event as { type: string }).type;
    let byType = this.memo.get(state.text);
    if (byType === undefined) this.memo.set(state.text, (byType = new Map()));
    let byGuards = byType.get(type);
    if (byGuards === undefined) byType.set(type, (byGuards = []));
    let bits = 0;
    const guards = this.guardsFor.get(type);
    if (guards !== undefined && guards.length !== 0) {
      const args = { context: state.context as unknown, event: event as unknown };
      for (let i = 0; i < guards.length; i++) if (guards[i]!(args, undefined)) bits |= 1 << i;
    }
    let step = byGuards[bits];
    if (step === undefined) {
      step = this.fill(state, event);
      byGuards[bits] = step;
    }
    if (step === null) return null;
    return { value: step.value, text: step.text, context: step.assignments.length === 0 ? state.context : this.assign(step.assignments, state.context, event) };
  }

  instance(id: string, state: PlainState<ContextOf<M>> = this.initialState): TableActor<M> {
    return new TableActor(this, id, state);
  }

  /**
   * xstate's resolveAssign, for assignments that read only context and event: each assignment
   * reads the context as the ones before it left it. The new context is one copy, written by every
   * assignment in turn (xstate makes a copy per assignment; only the last is kept, and nobody else
   * sees the copy before it is returned). An assignment's partial is complete before it is written,
   * as in xstate (an object's property assigners all read the context before that assignment).
   */
  private assign(assignments: Assignment[], context: ContextOf<M>, event: unknown): ContextOf<M> {
    const ctx = this.copyContext(context) as Record<string, unknown>;
    const args = { context: ctx, event };
    for (let i = 0; i < assignments.length; i++) {
      const a = assignments[i]!;
      if (typeof a === 'function') Object.assign(ctx, a(args, undefined));
      else {
        const partial: Record<string, unknown> = {};
        for (const k of Object.keys(a)) {
          const v = a[k];
          partial[k] = typeof v === 'function' ? (v as (x: unknown, p: undefined) => unknown)(args, undefined) : v;
        }
        Object.assign(ctx, partial);
      }
    }
    return ctx as ContextOf<M>;
  }

  private fill(state: PlainState<ContextOf<M>>, event: EventFromLogic<M>): Step | null {
    const m = this.machine as unknown as {
      resolveState(c: { value: StateValue; context: unknown }): unknown;
      getTransitionData(s: unknown, e: unknown): { actions: unknown[] }[];
      transition(s: unknown, e: unknown, scope: unknown): { value: StateValue; context: unknown };
    };
    const snap = m.resolveState({ value: state.value, context: state.context });
    const enabled = m.getTransitionData(snap, event);
    if (!enabled.length) return null;
    const next = m.transition(snap, event, this.scope);
    const assignments = enabled.flatMap((t) => t.actions.map((a) => this.assignments.get(a as string)!));
    const mine = this.assign(assignments, state.context, event);
    if (JSON.stringify(mine) !== JSON.stringify(next.context)) {
      throw new Error(`${this.machine.id}: the table's context differs from xstate's for ${(event as { type: string }).type} in ${state.text}`);
    }
    return { value: next.value, text: stateValueToString(next.value), assignments };
  }
}

/** One instance: an id and its current state; `send` answers as a TracedActor does. */
export class TableActor<M extends AnyStateMachine> {
  constructor(private readonly table: TransitionTable<M>, readonly id: string, private current: PlainState<ContextOf<M>>) {}

  /** the current state (immutable: a transition replaces it) */
  snapshot(): PlainState<ContextOf<M>> {
    return this.current;
  }

  state(): string {
    return this.current.text;
  }

  /** the transition the event made, or null when the machine took none */
  send(event: EventFromLogic<M>): MachineTransition | null {
    const next = this.table.step(this.current, event);
    if (!next) return null;
    const from = this.current.text;
    this.current = next;
    return { id: this.id, from, to: next.text, event: (event as { type: string }).type };
  }

  /** `send` for a caller that does not keep the transition: whether the machine took one */
  advance(event: EventFromLogic<M>): boolean {
    const next = this.table.step(this.current, event);
    if (!next) return false;
    this.current = next;
    return true;
  }
}
