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
 */
export class DecisionLog implements DecisionList {
  private readonly records: Decision[] = [];
  private n = 0;
  // the header, a row per decision; grown by doubling
  private passes = new Int32Array(16); // -1: none
  private instants = new Uint32Array(16); // into `times`
  private kindCol = new Uint8Array(16);
  private objects = new Uint32Array(16); // into `names`
  private machines = new Uint32Array(16); // into `names`, 0: none
  private causeEnds = new Uint32Array(16); // the end of the decision's causes in `pool`
  private pool = new Int32Array(16);
  /** the instants' time texts, in order (a decision's `time`) */
  private readonly times: string[] = [];
  /** the interned objects and machine ids (0 is none) */
  private readonly names: string[] = [''];
  private readonly ids = new Map<string, number>();
  private view?: HeadView;

  constructor(readonly base = 0) {}

  get length(): number {
    return this.base + this.n;
  }

  at(i: number): Decision | undefined {
    const j = (i < 0 ? this.length + i : i) - this.base;
    return j >= 0 ? this.records[j] : undefined;
  }

  push(d: Decision): void {
    const j = this.room();
    this.passes[j] = d.pass ?? -1;
    this.instants[j] = this.instantOf(d.time);
    this.kindCol[j] = kindOf(d.controller, d.action);
    this.objects[j] = this.intern(d.object);
    this.machines[j] = d.machine ? this.intern(d.machine.id) : 0;
    this.addCauses(j, d.causes, 0, d.causes.length);
    this.records.push(d);
    this.n++;
  }

  /** Adds the decisions at indexes `start` to `end` of `from` at the end of this log (a hand-off's, a redo's, a start's copy). */
  copy(from: DecisionLog, start: number, end: number): void {
    if (start < from.base || end > from.length) throw new RangeError(`DecisionLog.copy: ${start}-${end} not in ${from.base}-${from.length}`);
    for (let i = start - from.base; i < end - from.base; i++) {
      const j = this.room();
      this.passes[j] = from.passes[i];
      this.instants[j] = this.instantOf(from.times[from.instants[i]]);
      this.kindCol[j] = from.kindCol[i];
      this.objects[j] = this.intern(from.names[from.objects[i]]);
      const m = from.machines[i];
      this.machines[j] = m === 0 ? 0 : this.intern(from.names[m]);
      this.addCauses(j, from.pool, i === 0 ? 0 : from.causeEnds[i - 1], from.causeEnds[i]);
      this.records.push(from.records[i]);
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
    this.n = j;
    this.records.length = j;
    this.times.length = j === 0 ? 0 : this.instants[j - 1] + 1;
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
    return this.names[this.objects[i - this.base]];
  }
  /** The id of the machine whose transition the decision recorded, undefined for none. */
  machineIdAt(i: number): string | undefined {
    const m = this.machines[i - this.base];
    return m === 0 ? undefined : this.names[m];
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
    return this.records[Symbol.iterator]();
  }

  slice(start?: number, end?: number): Decision[] {
    if (this.base === 0) return this.records.slice(start, end);
    const len = this.length;
    const s = start === undefined ? 0 : start < 0 ? Math.max(0, len + start) : Math.min(start, len);
    if (s < this.base) throw new RangeError(`DecisionLog: decisions before ${this.base} are not kept (asked from ${s})`);
    const e = end === undefined ? len : end < 0 ? Math.max(0, len + end) : Math.min(end, len);
    return this.records.slice(s - this.base, Math.max(s, e) - this.base);
  }
  some(pred: (d: Decision, i: number) => unknown): boolean {
    return this.records.some((d, i) => pred(d, i + this.base));
  }
  find(pred: (d: Decision, i: number) => unknown): Decision | undefined {
    return this.records.find((d, i) => pred(d, i + this.base));
  }
  filter(pred: (d: Decision, i: number) => unknown): Decision[] {
    return this.records.filter((d, i) => pred(d, i + this.base));
  }
  map<U>(f: (d: Decision, i: number) => U): U[] {
    return this.records.map((d, i) => f(d, i + this.base));
  }

  /** A copy of every decision, as a plain list (comparisons, JSON). */
  toArray(): Decision[] {
    return this.records.slice();
  }
  /** JSON.stringify writes the list of decisions, as it did when the trace was an array. */
  toJSON(): Decision[] {
    return this.records;
  }

  /** The row for one more decision (the columns doubled when full). */
  private room(): number {
    const j = this.n;
    if (j === this.kindCol.length) {
      const cap = j * 2;
      this.passes = grown(this.passes, new Int32Array(cap));
      this.instants = grown(this.instants, new Uint32Array(cap));
      this.kindCol = grown(this.kindCol, new Uint8Array(cap));
      this.objects = grown(this.objects, new Uint32Array(cap));
      this.machines = grown(this.machines, new Uint32Array(cap));
      this.causeEnds = grown(this.causeEnds, new Uint32Array(cap));
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

  /** The instant of a decision at `time`: the last one when the same (decisions come in time order). */
  private instantOf(time: string): number {
    const last = this.times.length - 1;
    if (last >= 0 && this.times[last] === time) return last;
    this.times.push(time);
    return last + 1;
  }

  private intern(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }
}

function grown<T extends Int32Array | Uint32Array | Uint8Array>(old: T, into: T): T {
  into.set(old);
  return into;
}
