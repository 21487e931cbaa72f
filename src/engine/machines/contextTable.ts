/**
 * Many instances of one machine whose actions are all named `assign`s, kept
 * as plain data (state value + context) instead of live actors. Which
 * transition an event takes is looked up in a decision tree that xstate
 * itself fills, and the context is computed by the same assignment functions
 * the machine was built from.
 *
 * Why (design/performance-notes.md): in a zone outage at 5,000 nodes the
 * ReplicaSet machines take ~150,000 events, and each costs a full xstate
 * macrostep (~15 µs). The tree costs a few guard calls and two map look-ups.
 *
 * Why the tree determines the answer: xstate selects a transition from the
 * active state nodes (the state value), the event type and the answers of
 * the guards it evaluates, in an order fixed by those answers so far. The
 * first time a path is met, xstate's pure step (step.ts) runs on the real
 * state, with every guard and assignment reporting itself (guardTrace.ts);
 * the guards it called, in order, become the tree's branches, and its leaf
 * keeps the next state and the assignments xstate ran. Later instances walk
 * the tree calling the same guards on their own context and event, and get
 * the assignments replayed, in xstate's order. Each leaf's first context is
 * checked against xstate's, and a machine with actions xstate would execute
 * (anything but assign) is refused at the step that meets one.
 */
import { assign, initialTransition, type AnyMachineSnapshot, type AnyStateMachine, type ContextFrom, type EventFromLogic, type StateValue } from 'xstate';
import { stateValueToString } from './stateValue';
import { assertNamedGuards, guardFunctions, withGuardRecorder, type GuardFn, type GuardRecorder, type GuardResult } from './guardTrace';
import { pureStep } from './step';
import type { MachineTransition } from '../trace/decision';

/** an instance's whole state; never mutated (a step makes a new one) */
export interface PlainState<C> {
  readonly value: StateValue;
  readonly text: string;
  readonly context: C;
}

/**
 * A machine's assignments by action name, as given to `assign(...)` in its `setup()`: the table
 * replays them itself, so the machine module keeps them in one record and builds its actions from it.
 */
export type Assignments<C, E> = Record<string, (args: { context: C; event: E }) => Partial<C>>;

type Assigner = (args: { context: unknown; event: unknown }) => object;
interface Leaf {
  readonly leaf: true;
  readonly step: { value: StateValue; text: string; assignments: readonly Assigner[] } | null;
}
interface Branch {
  readonly leaf: false;
  readonly guard: string;
  readonly params: unknown;
  readonly fn: GuardFn;
  onTrue?: Node;
  onFalse?: Node;
}
type Node = Leaf | Branch;

type ContextOf<M extends AnyStateMachine> = ContextFrom<M>;

export interface TransitionTableOptions<M extends AnyStateMachine> {
  assignments: Assignments<ContextOf<M>, EventFromLogic<M>>;
  /**
   * a copy of a context with every one of its properties, in order (a literal of the machine's own
   * fields measured faster than a generic spread); each leaf's first context is checked against xstate's as JSON
   */
  copyContext?: (c: ContextOf<M>) => ContextOf<M>;
}

export class TransitionTable<M extends AnyStateMachine> {
  /** state text -> event type -> the tree of guard calls */
  private readonly memo = new Map<string, Map<string, Node>>();
  private readonly guardFns: Map<string, GuardFn>;
  private readonly recorder: GuardRecorder = { log: null };
  private actionLog: string[] | null = null;
  private readonly traced: M;
  private readonly assignments: Assignments<ContextOf<M>, EventFromLogic<M>>;
  private readonly copyContext: (c: ContextOf<M>) => ContextOf<M>;
  readonly initialState: PlainState<ContextOf<M>>;

  constructor(
    readonly machine: M,
    options: TransitionTableOptions<M>,
  ) {
    this.assignments = options.assignments;
    this.copyContext = options.copyContext ?? ((c) => ({ ...(c as object) }) as ContextOf<M>);
    for (const name of Object.keys(machine.implementations.actions ?? {})) {
      if (!(name in this.assignments)) throw new Error(`${machine.id}: action '${name}' is not one of the table's assignments`);
    }
    this.guardFns = guardFunctions(machine);
    const actions: Record<string, unknown> = {};
    for (const [name, fn] of Object.entries(this.assignments)) {
      actions[name] = assign((args: { context: ContextOf<M>; event: EventFromLogic<M> }) => {
        this.actionLog?.push(name);
        return fn(args);
      });
    }
    this.traced = withGuardRecorder(machine, this.recorder).provide({ actions } as never) as M;
    const init = initialTransition(machine as AnyStateMachine)[0] as AnyMachineSnapshot;
    this.initialState = { value: init.value, text: stateValueToString(init.value), context: init.context as ContextOf<M> };
  }

  /** a state from plain data (a checkpoint's value and context) */
  state(value: StateValue, context: ContextOf<M>): PlainState<ContextOf<M>> {
    return { value, text: stateValueToString(value), context };
  }

  /**
   * The state after `event`, or null when the machine takes no transition. `trace`, when given,
   * receives the guards evaluated on the way, with their answers.
   */
  step(state: PlainState<ContextOf<M>>, event: EventFromLogic<M>, trace?: GuardResult[]): PlainState<ContextOf<M>> | null {
    const type = (event as { type: string }).type;
    let byType = this.memo.get(state.text);
    if (byType === undefined) this.memo.set(state.text, (byType = new Map()));
    let node = byType.get(type);
    const args = { context: state.context as unknown, event: event as unknown };
    const mark = trace?.length ?? 0;
    while (node !== undefined && !node.leaf) {
      const value = node.fn(args, node.params) === true;
      if (trace) trace.push(node.params === undefined ? { guard: node.guard, value } : { guard: node.guard, value, params: node.params });
      node = value ? node.onTrue : node.onFalse;
    }
    if (node === undefined) {
      if (trace) trace.length = mark;
      node = this.fill(byType, type, state, event, trace);
    }
    const step = node.step;
    if (step === null) return null;
    return { value: step.value, text: step.text, context: step.assignments.length === 0 ? state.context : this.assign(step.assignments, state.context, event) };
  }

  instance(id: string, state: PlainState<ContextOf<M>> = this.initialState): TableActor<M> {
    return new TableActor(this, id, state);
  }

  /** xstate's assign order: each assignment reads the context as the ones before it left it; one copy for all */
  private assign(assignments: readonly Assigner[], context: ContextOf<M>, event: unknown): ContextOf<M> {
    const ctx = this.copyContext(context) as Record<string, unknown>;
    const args = { context: ctx as unknown, event };
    for (let i = 0; i < assignments.length; i++) Object.assign(ctx, assignments[i]!(args));
    return ctx as ContextOf<M>;
  }

  private fill(byType: Map<string, Node>, type: string, state: PlainState<ContextOf<M>>, event: EventFromLogic<M>, trace: GuardResult[] | undefined): Leaf {
    const guards: GuardResult[] = [];
    const actionNames: string[] = [];
    this.recorder.log = guards;
    this.actionLog = actionNames;
    let result: ReturnType<typeof pureStep>;
    try {
      const snapshot = this.traced.resolveState({ value: state.value, context: state.context } as never);
      assertNamedGuards(this.machine, snapshot, type);
      result = pureStep(this.traced, snapshot, event, this.guardFns);
    } finally {
      this.recorder.log = null;
      this.actionLog = null;
    }
    if (result.actions.length)
      throw new Error(`${this.machine.id}: ${type} in ${state.text} runs actions a table cannot replay (${result.actions.map((a) => a.type).join(', ')})`);
    const assignments = actionNames.map((n) => this.assignments[n]! as unknown as Assigner);
    const leaf: Leaf = {
      leaf: true,
      step: result.taken ? { value: result.next.value, text: stateValueToString(result.next.value), assignments } : null,
    };
    if (leaf.step) {
      const mine = this.assign(leaf.step.assignments, state.context, event);
      if (JSON.stringify(mine) !== JSON.stringify(result.next.context)) {
        throw new Error(`${this.machine.id}: the table's context differs from xstate's for ${type} in ${state.text}`);
      }
    }
    this.insert(byType, type, guards, leaf, state.text);
    trace?.push(...guards);
    return leaf;
  }

  /** the guard calls xstate made, as a path from the root of (state, type); a different order is a machine this table cannot key */
  private insert(byType: Map<string, Node>, type: string, guards: readonly GuardResult[], leaf: Leaf, text: string): void {
    const make = (i: number): Node => {
      if (i === guards.length) return leaf;
      const g = guards[i]!;
      const b: Branch = { leaf: false, guard: g.guard, params: g.params, fn: this.guardFns.get(g.guard)! };
      if (g.value) b.onTrue = make(i + 1);
      else b.onFalse = make(i + 1);
      return b;
    };
    let node = byType.get(type);
    if (node === undefined) {
      byType.set(type, make(0));
      return;
    }
    for (let i = 0; ; i++) {
      if (node.leaf || i === guards.length || node.guard !== guards[i]!.guard) {
        throw new Error(`${this.machine.id}: ${type} in ${text}: xstate's guard calls are not determined by the answers before them`);
      }
      const next: Node | undefined = guards[i]!.value ? node.onTrue : node.onFalse;
      if (next === undefined) {
        if (guards[i]!.value) node.onTrue = make(i + 1);
        else node.onFalse = make(i + 1);
        return;
      }
      node = next;
    }
  }
}

/** One instance: an id and its current state; `send` answers with the transition it made. */
export class TableActor<M extends AnyStateMachine> {
  constructor(
    private readonly table: TransitionTable<M>,
    readonly id: string,
    private current: PlainState<ContextOf<M>>,
  ) {}

  /** the current state (immutable: a transition replaces it) */
  snapshot(): PlainState<ContextOf<M>> {
    return this.current;
  }

  state(): string {
    return this.current.text;
  }

  /** the transition the event made, or null when the machine took none; `trace` receives the guards evaluated */
  send(event: EventFromLogic<M>, trace?: GuardResult[]): MachineTransition | null {
    const next = this.table.step(this.current, event, trace);
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
