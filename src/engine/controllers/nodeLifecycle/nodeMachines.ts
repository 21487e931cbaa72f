/**
 * The node health machines of every known node, and the one way the
 * controller moves them: it asks the machine first (`ask`: what the machine
 * would do, nothing changed), writes what the machine answered, then commits
 * the answer. A write that fails leaves the machine where it was; an event the
 * machine refuses is written by nobody, and throws when `strict` is on (tests
 * turn it on: a refusal there is a controller that disagrees with its machine).
 *
 * Wraps machines/table.ts's MachineTable / MemoActor (the machines helper owns
 * them) without reaching into them: `step` answers without changing an
 * instance, `send` then takes the same (memoised) answer.
 */
import type { StateValue } from 'xstate';
import type { MachineTransition } from '../../trace/decision';
import { MachineTable, type MemoActor } from '../../machines/table';
import { columnsSharedWith, type MapColumns, sameKeysInOrder } from '../../model/sharedKeys';
import { attachGuards, guardChecks, type LaterChecks } from '../../machines/guardChecks';
import type { GuardResult } from '../../machines/guardTrace';
import type { Check } from '../../trace/decision';
import { nodeHealthEventKey, nodeHealthGuardRules, nodeHealthMachine, type NodeHealthEvent } from './machines';
import type { Slot } from './slots';

export type NodeActor = MemoActor<typeof nodeHealthMachine>;

const NO_CHECKS: readonly Check[] = [];

/**
 * The checks of the guards a node's machine evaluated to answer, made when first read (the decision's
 * `because`, an ApiCallFailed's), once for the answered and the committed transition: a monitor pass
 * asks for thousands of nodes at once (NodeQueuedForTainting of a zone's 1,667 nodes at 5,000 nodes)
 * and few of these checks are ever read. The event is never changed after it is asked.
 */
class AskedGuards implements LaterChecks {
  private made: readonly Check[] | undefined;
  constructor(
    private readonly guards: readonly GuardResult[],
    private readonly event: NodeHealthEvent,
    /** the checks of the guards that chose the event (processTaintBaseEviction.ts): they come first */
    private readonly chosenBy: readonly Check[] | undefined,
  ) {}
  guardChecks(): readonly Check[] {
    if (this.made === undefined) {
      const own = guardChecks(this.guards, this.event, nodeHealthGuardRules);
      this.made = this.chosenBy?.length ? [...this.chosenBy, ...own] : own;
    }
    return this.made;
  }
}

/** What a machine answered and has not yet been told to do. */
export interface Answer {
  readonly name: string;
  readonly event: NodeHealthEvent;
  readonly transition: MachineTransition;
  /** the guards the machine evaluated to answer, as checks (the decision's `because` ends with them), made when first read */
  readonly guards: readonly Check[] | LaterChecks;
  /**
   * The machine's answer is "nothing to do" (a transition with no target, machines.ts): nothing to
   * write or record, and nothing to commit (strict mode accepts it: it is an answer, not a refusal).
   */
  readonly stays: boolean;
}

/** The node health machine's transitions, shared by every node and every controller instance. */
let table: MachineTable<typeof nodeHealthMachine> | undefined;
export function nodeMachineTable(): MachineTable<typeof nodeHealthMachine> {
  table ??= new MachineTable(nodeHealthMachine, nodeHealthEventKey);
  return table;
}

export type ReadyState = 'NotObserved' | 'True' | 'False' | 'Unknown';
export type EvictionState = 'idle' | 'queuedForTainting' | 'tainted' | 'queuedForEviction' | 'evicted';

const saveActor = (a: NodeActor): StateValue => a.save();

export class NodeMachines {
  private actors = new Map<string, NodeActor>();
  /** transitions answered and not (yet) committed: a decision that records one does not move the view */
  private readonly pending = new WeakSet<MachineTransition>();
  /** in name order, for machines(); null when one came or went since */
  private sorted: NodeActor[] | null = null;

  constructor(
    private readonly strict: boolean,
    /** told of every committed transition (the machine view's last transition), with the decision that recorded it when known */
    private readonly onTransition: (t: MachineTransition, seq?: number) => void,
  ) {}

  get(name: string): NodeActor | undefined {
    return this.actors.get(name);
  }

  /** The node's machine, made in its initial state when it has none. */
  ensure(name: string): NodeActor {
    let a = this.actors.get(name);
    if (!a) {
      a = nodeMachineTable().instance(`node/${name}`);
      this.actors.set(name, a);
      this.sorted = null;
    }
    return a;
  }

  /** A new machine for the node, in its initial state (a node registered anew). */
  renew(name: string): NodeActor {
    this.actors.delete(name);
    return this.ensure(name);
  }

  delete(name: string): void {
    if (this.actors.delete(name)) this.sorted = null;
  }

  inOrder(): NodeActor[] {
    return (this.sorted ??= [...this.actors.keys()].sort().map((k) => this.actors.get(k)!));
  }

  ready(name: string): ReadyState {
    return (this.actors.get(name)?.stateValue as { ready?: ReadyState } | undefined)?.ready ?? 'NotObserved';
  }

  /** ready() through the slot's copy of the node's machine (Slot.machine), taken from the map when it has none */
  readyAt(slot: Slot): ReadyState {
    const a = (slot.machine ?? (slot.machine = this.actors.get(slot.name))) as NodeActor | undefined;
    return (a?.stateValue as { ready?: ReadyState } | undefined)?.ready ?? 'NotObserved';
  }

  eviction(name: string): EvictionState {
    return (this.actors.get(name)?.stateValue as { eviction?: EvictionState } | undefined)?.eviction ?? 'idle';
  }

  /**
   * What the node's machine would do with `event`, changing nothing; null when it refuses (a
   * refusal throws when strict). `chosenBy`: the checks of the guards that chose the event.
   */
  ask(name: string, event: NodeHealthEvent, chosenBy?: readonly Check[]): Answer | null {
    const a = this.ensure(name);
    const from = a.state();
    const next = this.stepOf(a, name, event, from);
    if (!next) return null;
    // nothing to do: no write follows, no decision records it, so no checks are built (asked on every pass)
    if (next.stays) return { name, event, transition: { id: a.id, from, to: from, event: event.type }, guards: NO_CHECKS, stays: true };
    const guards = new AskedGuards(next.guards, event, chosenBy);
    // the answered transition carries its guards too: a write in parts records it before the commit
    const transition = attachGuards({ id: a.id, from, to: next.text, event: event.type }, guards);
    this.pending.add(transition);
    return { name, event, transition, guards, stays: false };
  }

  /**
   * Does what the machine answered (after the controller's write succeeded). `recordedBy`: the
   * last decision that recorded the answered transition before it was committed (a write in
   * several parts, each with its decision), shown with it from now on.
   */
  commit(answer: Answer, recordedBy?: number): MachineTransition {
    if (answer.stays) throw new Error(`node lifecycle: ${answer.event.type} for ${answer.name} is "nothing to do": there is nothing to commit`);
    const t = this.ensure(answer.name).send(answer.event);
    // the table answers a state and event the same way every time
    if (!t || t.to !== answer.transition.to) throw new Error(`node lifecycle: the machine of ${answer.name} moved since it answered ${answer.event.type}`);
    this.pending.delete(answer.transition);
    this.onTransition(t, recordedBy);
    return attachGuards(t, answer.guards);
  }

  /**
   * ask and commit, for what needs no write (the controller's own view of the node); null: refused, or nothing to do.
   * In one step: the answer is committed at once, so it is never pending and its transition is the committed one
   * (ask's own, the Answer and the pending mark were made and dropped again; 10,000 sends in the first pass at 5,000 nodes).
   */
  send(name: string, event: NodeHealthEvent): MachineTransition | null {
    const a = this.ensure(name);
    const next = this.stepOf(a, name, event, a.state());
    if (!next || next.stays) return null;
    const t = a.send(event)!;
    this.onTransition(t, undefined);
    return attachGuards(t, new AskedGuards(next.guards, event, undefined));
  }

  /** The table's answer to `event` in the machine's state (`from`, its text); null when it refuses (which throws when strict). */
  private stepOf(a: NodeActor, name: string, event: NodeHealthEvent, from: string) {
    const next = nodeMachineTable().step(a.stateValue, event, from);
    if (!next && this.strict) throw new Error(`node lifecycle: the node health machine of ${name} in ${from} refuses ${event.type}`);
    return next;
  }

  /** Whether `t` was answered and is not committed (the write it answers for is not done). */
  isPending(t: MachineTransition): boolean {
    return this.pending.has(t);
  }

  /** The machines' states as columns, shared with `prev` (the last checkpoint's) while the same (columnsSharedWith). */
  save(prev?: MapColumns<StateValue>): MapColumns<StateValue> {
    return columnsSharedWith(prev, this.actors, saveActor);
  }

  /**
   * The machines as `saved`. `previous`: the machines of the controller that ran until now, whose
   * instances are taken over and put in the saved states (a jump back at 5,000 nodes made 5,000
   * instances anew, and their names and state texts, most of them in the same state); its map is
   * kept, with its name order, while it holds the saved nodes in the saved order.
   */
  restore(saved: MapColumns<StateValue>, previous?: NodeMachines): void {
    this.sorted = null;
    const live = previous?.actors;
    if (previous !== undefined) {
      // the previous controller is dropped after the restore; it must not go on moving these instances
      this.sorted = previous.sorted;
      previous.actors = new Map();
      previous.sorted = null;
    }
    const { keys, values } = saved;
    if (live !== undefined && sameKeysInOrder(live, keys.length, (i) => keys[i])) {
      let i = 0;
      for (const a of live.values()) a.restoreTo(values[i++]);
      this.actors = live;
      return;
    }
    this.sorted = null;
    const actors = (this.actors = new Map());
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      let a = live?.get(k);
      if (a === undefined) a = nodeMachineTable().instance(`node/${k}`, values[i]);
      else a.restoreTo(values[i]);
      actors.set(k, a);
    }
  }
}
