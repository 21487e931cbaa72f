/**
 * Many small instances of one machine whose guards read nothing but the
 * event, cheaply: each instance keeps only its state value (plain data), and
 * a transition is looked up in a table that xstate itself fills. The first
 * time a (state, event key) pair is seen, xstate's pure step (step.ts) is
 * run on that state; its answer, including "no transition" and the guards it
 * evaluated, is kept for every later instance.
 *
 * Why (design/performance-notes.md): the node health machine is needed for
 * 5,000 nodes and the pod eviction machine for up to 150,000 pods; a step
 * through xstate costs tens of µs, the table a map look-up. `keyOf` names
 * the event fields the guards read: the key must determine the answer. A
 * machine whose guards read its context uses contextTable.ts instead.
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventFromLogic, StateValue } from 'xstate';
import { initialTransition } from 'xstate';
import { stateValueToString } from './stateValue';
import { assertNamedGuards, guardFunctions, withGuardRecorder, type GuardFn, type GuardRecorder, type GuardResult } from './guardTrace';
import { pureStep } from './step';
import type { MachineTransition } from '../trace/decision';
import type { MachineView } from '../simulation/api';

/** A table's answer: the state after the event and the guards xstate evaluated to get there. */
export interface TableStep {
  value: StateValue;
  text: string;
  guards: readonly GuardResult[];
  /** a transition with no target was taken: the machine's answer is "nothing to do" (step.ts) */
  stays: boolean;
}

export class MachineTable<M extends AnyStateMachine> {
  private readonly memo = new Map<string, TableStep | null>();
  private readonly recorder: GuardRecorder = { log: null };
  private readonly traced: M;
  private readonly context: unknown;
  private readonly guardFns: ReadonlyMap<string, GuardFn>;
  readonly initialValue: StateValue;

  constructor(
    readonly machine: M,
    private readonly keyOf: (e: EventFromLogic<M>) => string,
  ) {
    const init = initialTransition(machine as AnyStateMachine)[0] as AnyMachineSnapshot;
    this.initialValue = init.value;
    this.context = init.context;
    this.guardFns = guardFunctions(machine);
    this.traced = withGuardRecorder(machine, this.recorder);
  }

  /** The state after `event` in state `value`, or null when the machine takes no transition. */
  step(value: StateValue, event: EventFromLogic<M>, from = stateValueToString(value)): TableStep | null {
    const key = `${from}|${this.keyOf(event)}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const out = this.fill(value, event);
    this.memo.set(key, out);
    return out;
  }

  /** The guards xstate evaluates for `event` in state `value` (whether or not a transition follows). */
  guards(value: StateValue, event: EventFromLogic<M>): readonly GuardResult[] {
    const step = this.step(value, event);
    return step ? step.guards : this.evaluate(value, event).guards;
  }

  instance(id: string, value: StateValue = this.initialValue): MemoActor<M> {
    return new MemoActor(this, id, value);
  }

  private evaluate(value: StateValue, event: EventFromLogic<M>): { step: ReturnType<typeof pureStep>; guards: GuardResult[] } {
    const guards: GuardResult[] = [];
    this.recorder.log = guards;
    try {
      const snapshot = this.traced.resolveState({ value, context: this.context } as never);
      assertNamedGuards(this.machine, snapshot, (event as { type: string }).type);
      return { step: pureStep(this.traced, snapshot, event, this.guardFns), guards };
    } finally {
      this.recorder.log = null;
    }
  }

  private fill(value: StateValue, event: EventFromLogic<M>): TableStep | null {
    const { step, guards } = this.evaluate(value, event);
    if (!step.taken) return null;
    return { value: structuredClone(step.next.value), text: stateValueToString(step.next.value), guards, stays: step.stays };
  }
}

/** One instance: an id and a state value; `send` answers with the transition it made. */
export class MemoActor<M extends AnyStateMachine> {
  private text: string;
  /** the machine view last built for this instance (the controller gives it again while it still holds) */
  view: MachineView | undefined = undefined;
  constructor(
    private readonly table: MachineTable<M>,
    readonly id: string,
    private value: StateValue,
  ) {
    this.text = stateValueToString(value);
  }

  state(): string {
    return this.text;
  }
  snapshot(): { value: StateValue } {
    return { value: this.value };
  }
  /** the state value itself (no wrapper object: read on every pass) */
  get stateValue(): StateValue {
    return this.value;
  }
  send(event: EventFromLogic<M>): MachineTransition | null {
    const next = this.table.step(this.value, event, this.text);
    if (!next) return null;
    const from = this.text;
    this.value = next.value;
    this.text = next.text;
    return { id: this.id, from, to: next.text, event: (event as { type: string }).type };
  }
  /** `send`, with the guards xstate evaluated on the way (a decision's `because`) */
  sendTraced(event: EventFromLogic<M>): { transition: MachineTransition | null; guards: readonly GuardResult[] } {
    const guards = this.table.guards(this.value, event);
    return { transition: this.send(event), guards };
  }
  /**
   * Puts the instance in `value` (what `save` gave), as `instance` would make it; the view is kept,
   * and is made again when read if the state is another (machineView compares).
   */
  restoreTo(value: StateValue): void {
    if (value === this.value) return;
    this.value = value;
    this.text = stateValueToString(value);
  }
  /**
   * Plain data for checkpoints. Not a copy: state values are never edited in
   * place (the table hands one value to every instance in that state), and a
   * copy per instance per checkpoint was most of a checkpoint's cost.
   */
  save(): StateValue {
    return this.value;
  }
}
