/**
 * Many small actors of one machine, cheaply: each keeps only its state value
 * (plain data), and a transition is looked up in a table that xstate itself
 * fills. The first time a (state, event) pair is seen, a real actor is put in
 * that state and sent the event (createTracedActor: xstate's own inspection
 * reports the transition); the answer is kept for every later instance.
 *
 * Why (design/performance-notes.md): the node health machine is needed for
 * 5,000 nodes, and on this machine kind a started xstate actor costs
 * 0.3-1 ms to create and tens of µs per event; the table costs a map
 * look-up. The machine stays the source of truth: the answers are xstate's,
 * including "no transition" for an event the state does not accept.
 * Only machines whose guards read nothing but the event may be used this way
 * (the key must determine the answer): `keyOf` names the event fields the
 * guards read.
 */
import type { AnyStateMachine, EventFromLogic, StateValue } from 'xstate';
import { createTracedActor, stateValueToString } from '../../machines/traced';
import type { MachineTransition } from '../../trace/decision';
import type { MachineView } from '../../simulation/api';

export class MachineTable<M extends AnyStateMachine> {
  private readonly memo = new Map<string, { value: StateValue; text: string } | null>();
  private readonly template: Record<string, unknown>;
  readonly initialValue: StateValue;

  constructor(readonly machine: M, private readonly keyOf: (e: EventFromLogic<M>) => string) {
    const probe = createTracedActor(machine, 'probe');
    this.template = probe.actor.getPersistedSnapshot() as Record<string, unknown>;
    this.initialValue = (probe.snapshot() as { value: StateValue }).value;
    probe.stop();
  }

  /** The state after `event` in state `value`, or null when the machine takes no transition. */
  step(value: StateValue, event: EventFromLogic<M>, from = stateValueToString(value)): { value: StateValue; text: string } | null {
    const key = `${from}|${this.keyOf(event)}`;
    if (this.memo.has(key)) return this.memo.get(key)!;
    const a = createTracedActor(this.machine, 'table', { snapshot: { ...this.template, value: structuredClone(value) } });
    const t = a.send(event);
    const out = t ? { value: structuredClone((a.snapshot() as { value: StateValue }).value), text: t.to } : null;
    a.stop();
    this.memo.set(key, out);
    return out;
  }

  instance(id: string, value: StateValue = this.initialValue): MemoActor<M> {
    return new MemoActor(this, id, value);
  }
}

/** One instance: an id and a state value; `send` answers as a TracedActor does. */
export class MemoActor<M extends AnyStateMachine> {
  private text: string;
  /** the machine view last built for this instance (the controller gives it again while it still holds) */
  view: MachineView | undefined = undefined;
  constructor(private readonly table: MachineTable<M>, readonly id: string, private value: StateValue) {
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
  /**
   * Plain data for checkpoints. Not a copy: state values are never edited in
   * place (the table hands one value to every instance in that state), and a
   * copy per node per checkpoint was most of a checkpoint's cost here.
   */
  save(): StateValue {
    return this.value;
  }
}
