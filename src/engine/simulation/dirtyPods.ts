/**
 * The pods created, changed or deleted through the host since the last checkpoint (checkpoints keep
 * only these), in the order first changed, each listed once per round (PodSlot.dirtyRound) without
 * a set's look-up; and the copies a checkpoint keeps of them, made at once or, while a checkpoint
 * is pending (PendingCheckpoint), a chunk at a time.
 */
import type { Micros } from '../model/time';
import type { ConditionStatus, PodCondition } from '../model/types';
import type { KeptPod } from './checkpoint';
import type { PodSlot } from './podIndex';

/**
 * MarkPodsNotReady's in-place writes of pods' Ready conditions since the last checkpoint, in order,
 * each with the status and lastTransitionTime it overwrote: a restore undoes them, newest first, for
 * the pods that changed in no other way since the checkpoint it goes back to. That is 50,000 pods
 * when a zone's nodes go Unknown at 5,000 nodes, every other field of which is as it was: writing
 * each back from the checkpoint's record (two look-ups and a field-by-field write per pod) was the
 * biggest part of a jump back over the outage's start. Parallel arrays: the times stay unboxed
 * doubles, and the condition (not the pod) is what is held.
 */
export class ReadyLog {
  keys: string[] = [];
  conditions: PodCondition[] = [];
  statuses: ConditionStatus[] = [];
  times: Micros[] = [];
  /** each write's pod slot (its host's: never replaced), so that a redo through the log rebases it without a look-up (handOff.ts) */
  slots: PodSlot[] = [];

  /**
   * Once undone (a restore over its checkpoint): the pods it was not undone for (put back whole instead). For each other
   * entry the condition held is the live pod's own Ready condition then, as the undo wrote it (handOff.ts reads it so,
   * where nothing moved since: SimulationImpl's redo).
   */
  undoneExcept?: ReadonlySet<string>;

  push(key: string, ready: PodCondition, status: ConditionStatus, time: Micros, slot: PodSlot): void {
    this.keys.push(key);
    this.conditions.push(ready);
    this.statuses.push(status);
    this.times.push(time);
    this.slots.push(slot);
  }

  get length(): number {
    return this.keys.length;
  }

  /**
   * Adds to `into` each of `keys` whose Ready condition the log wrote. A look-up per write in `keys` (the few pods a
   * restore put back from records), not a set of the log's keys: that set, 50,000 keys for the outage's Unknown pass, was
   * made at the first restore past it (30-70 ms of the first step back at 5 minutes).
   */
  wroteOf(keys: ReadonlySet<string>, into: Set<string>): void {
    for (const key of this.keys) if (keys.has(key)) into.add(key);
  }

  /**
   * The same writes with these conditions (one per write), its other lists shared: a checkpoint's log is never pushed to,
   * and an undo writes the conditions, not the lists (a redo's own checkpoint: handOff.ts).
   */
  withConditions(conditions: PodCondition[]): ReadyLog {
    const out = new ReadyLog();
    out.keys = this.keys;
    out.conditions = conditions;
    out.statuses = this.statuses;
    out.times = this.times;
    out.slots = this.slots;
    return out;
  }

  /** This log followed by `later` (thinning merges a checkpoint into the next one). */
  then(later: ReadyLog): ReadyLog {
    const out = new ReadyLog();
    out.keys = this.keys.concat(later.keys);
    out.conditions = this.conditions.concat(later.conditions);
    out.statuses = this.statuses.concat(later.statuses);
    out.times = this.times.concat(later.times);
    out.slots = this.slots.concat(later.slots);
    return out;
  }

  /**
   * Undoes the writes, newest first, but of the pods in `skip` (put back whole from the checkpoint);
   * `undone` gets each key undone (a key once per write).
   */
  undo(skip: ReadonlySet<string>, undone: string[]): void {
    this.undoneExcept = skip;
    const { keys, conditions, statuses, times } = this;
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (skip.has(key)) continue;
      const c = conditions[i];
      c.status = statuses[i];
      c.lastTransitionTime = times[i];
      undone.push(key);
    }
  }
}

export class DirtyPods {
  private list: PodSlot[] = [];
  private round = 0;
  /** the copies made so far of the pods `take` returns next, in the list's order */
  private copies?: { keys: string[]; values: (KeptPod | null)[]; done: number };

  /** `copyOf` makes the copy a checkpoint keeps of a slot's pod (null: deleted); `readyOnly`: changed by Ready writes alone since the last checkpoint */
  constructor(private readonly copyOf: (slot: PodSlot, readyOnly: boolean) => KeptPod | null) {}

  /** `readyOnly`: the change is a Ready write in ReadyLog (else the pod changed otherwise: see `otherKeys`) */
  mark(slot: PodSlot, readyOnly = false): void {
    if (!readyOnly) slot.otherRound = this.round;
    if (slot.dirtyRound === this.round) return;
    slot.dirtyRound = this.round;
    this.list.push(slot);
  }

  /** How many pods changed since the last checkpoint. */
  get count(): number {
    return this.list.length;
  }

  /** How many of the pods' copies are made so far (`copy`), of how many: none made yet, or all taken, is undefined. */
  get copied(): { done: number; of: number } | undefined {
    return this.copies && { done: this.copies.done, of: this.copies.keys.length };
  }

  /** The pods changed since the last checkpoint otherwise than by a Ready write in the host's ReadyLog. */
  otherKeys(): string[] {
    const out: string[] = [];
    for (const s of this.list) if (s.otherRound === this.round) out.push(s.key);
    return out;
  }

  clear(): void {
    this.list = [];
    this.round++;
    this.copies = undefined;
  }

  /** Makes up to `max` more of the copies `take` returns next (a pending checkpoint's: no pod changes before it); whether some are left. */
  copy(max: number): boolean {
    const list = this.list;
    const c = (this.copies ??= { keys: new Array<string>(list.length), values: new Array<KeptPod | null>(list.length), done: 0 });
    if (c.keys.length !== list.length) throw new Error('checkpoint: a pod changed while its copies were being made');
    let i = c.done;
    for (const end = Math.min(list.length, i + max); i < end; i++) {
      c.keys[i] = list[i].key;
      c.values[i] = this.copyOf(list[i], list[i].otherRound !== this.round);
    }
    return (c.done = i) < list.length;
  }

  /** The pods changed since the last checkpoint, as a checkpoint keeps them, each key once; clears the list. */
  take(): { keys: string[]; values: (KeptPod | null)[]; other: string[] } {
    this.copy(Infinity);
    const { keys, values } = this.copies!;
    const other = this.otherKeys();
    this.clear();
    return { keys, values, other };
  }
}
