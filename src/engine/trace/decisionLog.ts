/**
 * The run's decisions, in seq order (decision `seq` at index `seq - 1`), as its readers see them. Readers go through
 * `length`, `at(i)`, iteration and the few array methods below, never through indexes of a stored array: what the
 * recorder keeps per decision can then change (a compact entry, its record made when read) without any reader knowing.
 * A plain `readonly Decision[]` is a DecisionList too, so functions taking one take a test's literal list as well.
 *
 * The recorder's log keeps every decision's header in typed columns beside the record (pass, instant, kind, object,
 * machine id, causes): the readers that walk every decision (the seq indexes, a run to a decision, the copies a
 * hand-off or a redo takes) read those, so that a record need exist only when one is read (bench/README.md, trace30's
 * and trace31's sections: what the trace keeps is about a tenth of the 5,000-node outage hour).
 */
import type { ObjectRef } from '../model/types';
import type { Action, ControllerName, Decision } from './decision';

/** What a decision is without its record: its header, enough to match it by kind and object. */
export interface DecisionHead {
  readonly seq: number;
  readonly pass: number | null;
  readonly time: string;
  readonly controller: ControllerName;
  readonly action: Action;
  readonly object: ObjectRef;
}

/** What a compact kind's record is made from besides its entry: the header, and the causes (a list of its own each time). */
export interface MadeHead extends DecisionHead {
  readonly causes: number[];
}

/**
 * How the records of one compact kind are made from their entries: one function per kind, beside the controller that
 * decides it, called by the decide site (check mode) and by `at(i)`, so the two cannot drift. It must read nothing a
 * later decision changes (what it reads is the entry's, never written after; check mode makes it again when the
 * instant ends and compares).
 */
export type RecordMaker<E> = (entry: E, head: MadeHead) => Decision;

/** A compact decision as its decide site hands it over: the header's fields, then its kind's maker and its entry. */
export interface EntryHead {
  readonly pass: number | null;
  readonly time: string;
  readonly controller: ControllerName;
  readonly action: Action;
  readonly object: ObjectRef;
  readonly causes: readonly number[];
  /** the id of the machine whose transition it records */
  readonly machineId?: string;
}

/** How many records made from entries a log keeps for the readers that come back to them (the last made). */
export const MADE_KEPT = 4096;

/** What a reader of decisions in seq order needs (a `readonly Decision[]` has all of it). */
export interface DecisionList extends Iterable<Decision> {
  readonly length: number;
  /** The decision at index `i` (negative: from the end), undefined past the ends. */
  at(i: number): Decision | undefined;
  slice(start?: number, end?: number): Decision[];
  some(pred: (d: Decision, i: number) => unknown): boolean;
  find(pred: (d: Decision, i: number) => unknown): Decision | undefined;
  filter(pred: (d: Decision, i: number) => unknown): Decision[];
  map<U>(f: (d: Decision, i: number) => U): U[];
}

// The kinds (controller and action), numbered as first met: one table for every log, so that a copy between two logs
// keeps the numbers. A run meets a few dozen.
const kindController: ControllerName[] = [];
const kindAction: Action[] = [];
const kinds = new Map<ControllerName, Map<Action, number>>();

function kindOf(controller: ControllerName, action: Action): number {
  let byAction = kinds.get(controller);
  if (byAction === undefined) kinds.set(controller, (byAction = new Map()));
  let k = byAction.get(action);
  if (k === undefined) {
    k = kindAction.length;
    if (k > 255) throw new RangeError('DecisionLog: more than 256 kinds of decision');
    kindController.push(controller);
    kindAction.push(action);
    byAction.set(action, k);
  }
  return k;
}
/** per kind, the maker of its records when they are kept as entries (one maker a kind) */
const kindMaker: (RecordMaker<never> | undefined)[] = [];

/** One decision's header read from a log's columns, for a matcher: the same view is moved to the next index, so read it and do not keep it. */
class HeadView implements DecisionHead {
  i = 0;
  constructor(private readonly log: DecisionLog) {}
  get seq(): number {
    return this.i + 1;
  }
  get pass(): number | null {
    return this.log.passAt(this.i);
  }
  get time(): string {
    return this.log.timeAt(this.i);
  }
  get controller(): ControllerName {
    return this.log.controllerAt(this.i);
  }
  get action(): Action {
    return this.log.actionAt(this.i);
  }
  get object(): ObjectRef {
    return this.log.objectAt(this.i);
  }
}

/**
 * The recorder's list: decisions added at the end, and the newest taken back on a step back. `base`: the index of its
 * first decision, for a copy of a run's decisions from there on (a redo's); it answers nothing before it.
 *
 * A decision is kept as its record (`push`), or as the entry its kind's record is made from (`pushEntry`): then `at(i)`
 * makes the record, and the last MADE_KEPT made are kept for the readers that come back to them.
 */
export class DecisionLog implements DecisionList {
  /** per decision, its record or its entry (`entryRows`) */
  private readonly stored: unknown[] = [];
  private n = 0;
  /** how many of the decisions are kept as entries: none, and the readers read the records as a list */
  private entries = 0;
  // the header, a row per decision; grown by doubling
  private passes = new Int32Array(16); // -1: none
  private instants = new Uint32Array(16); // into `times`
  private kindCol = new Uint8Array(16);
  // The object and the machine id as the strings themselves, not interned: a reference is as small as an index into a
  // table, and a look-up in one hashed a ref made anew for each decision (about 100 ms of the 5,000-node outage hour).
  private readonly objectCol: ObjectRef[] = [];
  private readonly machineCol: (string | undefined)[] = [];
  private causeEnds = new Uint32Array(16); // the end of the decision's causes in `pool`
  private entryRows = new Uint8Array(16); // 1: `stored` holds the entry
  private pool = new Int32Array(16);
  /** the instants' time texts, in order (a decision's `time`) */
  private readonly times: string[] = [];
  private view?: HeadView;
  /** records made from entries, by row, oldest made first */
  private readonly made = new Map<number, Decision>();
  /**
   * Check mode (SimulationChecks.compactTrace): called with the record made as the entry is pushed and one made from the
   * entry again, at once and when the instant ends; throws on a difference.
   */
  check?: (eager: Decision, again: Decision, when: string) => void;
  /** check mode: the records made as their entries were pushed, in the instant not yet ended, with their rows */
  private pending: [number, Decision][] = [];

  constructor(readonly base = 0) {}

  get length(): number {
    return this.base + this.n;
  }

  at(i: number): Decision | undefined {
    const j = (i < 0 ? this.length + i : i) - this.base;
    if (j < 0 || j >= this.n) return undefined;
    return this.entryRows[j] === 0 ? (this.stored[j] as Decision) : this.madeAt(j);
  }

  push(d: Decision): void {
    const j = this.room();
    this.passes[j] = d.pass ?? -1;
    this.instants[j] = this.instantOf(d.time);
    this.kindCol[j] = kindOf(d.controller, d.action);
    this.objectCol.push(d.object);
    this.machineCol.push(d.machine?.id);
    this.addCauses(j, d.causes, 0, d.causes.length);
    this.entryRows[j] = 0;
    this.stored.push(d);
    this.n++;
  }

  /** Adds a decision kept as `entry`, its record made by `make` when read (one maker for each kind). */
  pushEntry<E>(h: EntryHead, make: RecordMaker<E>, entry: E): void {
    const j = this.room();
    this.passes[j] = h.pass ?? -1;
    this.instants[j] = this.instantOf(h.time);
    const k = (this.kindCol[j] = kindOf(h.controller, h.action));
    const had = kindMaker[k];
    if (had === undefined) kindMaker[k] = make as RecordMaker<never>;
    else if (had !== make) throw new Error(`DecisionLog: a second maker for ${h.controller} ${h.action}`);
    this.objectCol.push(h.object);
    this.machineCol.push(h.machineId);
    this.addCauses(j, h.causes, 0, h.causes.length);
    this.entryRows[j] = 1;
    this.stored.push(entry);
    this.entries++;
    this.n++;
    if (this.check) {
      const eager = make(entry, this.madeHead(j));
      this.check(eager, this.makeRow(j), 'at once');
      this.pending.push([j, eager]);
    }
  }

  /** Adds the decisions at indexes `start` to `end` of `from` at the end of this log (a hand-off's, a redo's, a start's copy). */
  copy(from: DecisionLog, start: number, end: number): void {
    if (start < from.base || end > from.length) throw new RangeError(`DecisionLog.copy: ${start}-${end} not in ${from.base}-${from.length}`);
    for (let i = start - from.base; i < end - from.base; i++) {
      const j = this.room();
      this.passes[j] = from.passes[i];
      this.instants[j] = this.instantOf(from.times[from.instants[i]]);
      this.kindCol[j] = from.kindCol[i];
      this.objectCol.push(from.objectCol[i]);
      this.machineCol.push(from.machineCol[i]);
      this.addCauses(j, from.pool, i === 0 ? 0 : from.causeEnds[i - 1], from.causeEnds[i]);
      // an entry is never written after it is pushed: both logs hold the same
      this.entries += this.entryRows[j] = from.entryRows[i];
      this.stored.push(from.stored[i]);
      this.n++;
    }
  }

  /** A new log of the decisions at indexes `start` to `end` of this one (its `base` is `start`). */
  copyOf(start: number, end: number): DecisionLog {
    const out = new DecisionLog(start);
    out.copy(this, start, end);
    return out;
  }

  /** Forgets every decision after the first `length`. */
  truncate(length: number): void {
    const j = length - this.base;
    if (j < 0) throw new RangeError(`DecisionLog.truncate: ${length} is before its first decision (${this.base})`);
    if (j >= this.n) return;
    if (this.entries > 0) {
      for (let r = j; r < this.n; r++) this.entries -= this.entryRows[r];
      for (const r of this.made.keys()) if (r >= j) this.made.delete(r);
      this.pending = this.pending.filter(([r]) => r < j);
    }
    this.n = j;
    this.stored.length = j;
    this.objectCol.length = j;
    this.machineCol.length = j;
    this.times.length = j === 0 ? 0 : this.instants[j - 1] + 1;
  }

  /** Check mode: the records made as their entries were pushed in the instant not yet ended, made again and compared. */
  checkMade(): void {
    const pending = this.pending;
    this.pending = [];
    for (const [j, eager] of pending) this.check?.(eager, this.makeRow(j), 'when the instant ended');
  }

  // the header's readers (index as `at`'s, never negative)
  passAt(i: number): number | null {
    const p = this.passes[i - this.base];
    return p < 0 ? null : p;
  }
  timeAt(i: number): string {
    return this.times[this.instants[i - this.base]];
  }
  controllerAt(i: number): ControllerName {
    return kindController[this.kindCol[i - this.base]];
  }
  actionAt(i: number): Action {
    return kindAction[this.kindCol[i - this.base]];
  }
  objectAt(i: number): ObjectRef {
    return this.objectCol[i - this.base];
  }
  /** The id of the machine whose transition the decision recorded, undefined for none. */
  machineIdAt(i: number): string | undefined {
    return this.machineCol[i - this.base];
  }
  causesAt(i: number): number[] {
    const j = i - this.base;
    return Array.from(this.pool.subarray(j === 0 ? 0 : this.causeEnds[j - 1], this.causeEnds[j]));
  }
  /** The header at index `i`, as a view moved by the next call (see HeadView). */
  headAt(i: number): DecisionHead {
    const v = (this.view ??= new HeadView(this));
    v.i = i;
    return v;
  }
  /** Whether a decision at indexes `start` to `end` has a header `pred` holds for. */
  someHead(start: number, end: number, pred: (h: DecisionHead) => boolean): boolean {
    for (let i = start; i < end; i++) if (pred(this.headAt(i))) return true;
    return false;
  }

  [Symbol.iterator](): Iterator<Decision> {
    return this.entries === 0 ? (this.stored as Decision[])[Symbol.iterator]() : this.records();
  }
  private *records(): Generator<Decision, void, void> {
    for (let i = this.base; i < this.length; i++) yield this.at(i)!;
  }

  slice(start?: number, end?: number): Decision[] {
    const len = this.length;
    const s = start === undefined ? 0 : start < 0 ? Math.max(0, len + start) : Math.min(start, len);
    if (s < this.base) throw new RangeError(`DecisionLog: decisions before ${this.base} are not kept (asked from ${s})`);
    const e = end === undefined ? len : end < 0 ? Math.max(0, len + end) : Math.min(end, len);
    if (this.entries === 0) return (this.stored as Decision[]).slice(s - this.base, Math.max(s, e) - this.base);
    const out: Decision[] = [];
    for (let i = s; i < e; i++) out.push(this.at(i)!);
    return out;
  }
  some(pred: (d: Decision, i: number) => unknown): boolean {
    for (let i = this.base; i < this.length; i++) if (pred(this.at(i)!, i)) return true;
    return false;
  }
  find(pred: (d: Decision, i: number) => unknown): Decision | undefined {
    for (let i = this.base; i < this.length; i++) {
      const d = this.at(i)!;
      if (pred(d, i)) return d;
    }
    return undefined;
  }
  filter(pred: (d: Decision, i: number) => unknown): Decision[] {
    const out: Decision[] = [];
    for (let i = this.base; i < this.length; i++) {
      const d = this.at(i)!;
      if (pred(d, i)) out.push(d);
    }
    return out;
  }
  map<U>(f: (d: Decision, i: number) => U): U[] {
    const out: U[] = [];
    for (let i = this.base; i < this.length; i++) out.push(f(this.at(i)!, i));
    return out;
  }

  /** A copy of every decision, as a plain list (comparisons, JSON). */
  toArray(): Decision[] {
    return this.slice(this.base);
  }
  /** JSON.stringify writes the list of decisions, as it did when the trace was an array. */
  toJSON(): Decision[] {
    return this.entries === 0 ? (this.stored as Decision[]) : this.toArray();
  }

  /** The record of the entry at row `j`: one made before and kept, or made now and kept (the oldest made dropped). */
  private madeAt(j: number): Decision {
    const kept = this.made.get(j);
    if (kept !== undefined) return kept;
    const d = this.makeRow(j);
    this.made.set(j, d);
    if (this.made.size > MADE_KEPT) this.made.delete(this.made.keys().next().value!);
    return d;
  }

  private makeRow(j: number): Decision {
    return kindMaker[this.kindCol[j]]!(this.stored[j] as never, this.madeHead(j));
  }

  private madeHead(j: number): MadeHead {
    const i = this.base + j;
    return {
      seq: i + 1,
      pass: this.passAt(i),
      time: this.timeAt(i),
      controller: this.controllerAt(i),
      action: this.actionAt(i),
      object: this.objectAt(i),
      causes: this.causesAt(i),
    };
  }

  /** The row for one more decision (the columns doubled when full). */
  private room(): number {
    const j = this.n;
    if (j === this.kindCol.length) {
      const cap = j * 2;
      this.passes = grown(this.passes, new Int32Array(cap));
      this.instants = grown(this.instants, new Uint32Array(cap));
      this.kindCol = grown(this.kindCol, new Uint8Array(cap));
      this.causeEnds = grown(this.causeEnds, new Uint32Array(cap));
      this.entryRows = grown(this.entryRows, new Uint8Array(cap));
    }
    return j;
  }

  private addCauses(j: number, from: ArrayLike<number>, start: number, end: number): void {
    let at = j === 0 ? 0 : this.causeEnds[j - 1];
    const need = at + end - start;
    if (need > this.pool.length) this.pool = grown(this.pool, new Int32Array(Math.max(need, this.pool.length * 2)));
    for (let k = start; k < end; k++) this.pool[at++] = from[k];
    this.causeEnds[j] = at;
  }

  /** The instant of a decision at `time`: the last one when the same (decisions come in time order); a new one ends the last (check mode). */
  private instantOf(time: string): number {
    const last = this.times.length - 1;
    if (last >= 0 && this.times[last] === time) return last;
    if (this.pending.length > 0) this.checkMade();
    this.times.push(time);
    return last + 1;
  }
}

function grown<T extends Int32Array | Uint32Array | Uint8Array>(old: T, into: T): T {
  into.set(old);
  return into;
}
