/**
 * The run's decisions, in seq order (decision `seq` at index `seq - 1`), as its readers see them. Readers go through
 * `length`, `at(i)`, iteration and the few array methods below, never through indexes of a stored array: what the
 * recorder keeps per decision can then change (a compact entry, its record made when read) without any reader knowing.
 * A plain `readonly Decision[]` is a DecisionList too, so functions taking one take a test's literal list as well.
 */
import type { Decision } from './decision';

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

/** The recorder's list: decisions added at the end, and the newest taken back on a step back. */
export class DecisionLog implements DecisionList {
  private readonly records: Decision[] = [];

  get length(): number {
    return this.records.length;
  }

  at(i: number): Decision | undefined {
    return this.records[i < 0 ? this.records.length + i : i];
  }

  push(d: Decision): void {
    this.records.push(d);
  }

  /** Forgets every decision after the first `length`. */
  truncate(length: number): void {
    if (length < this.records.length) this.records.length = length;
  }

  [Symbol.iterator](): Iterator<Decision> {
    return this.records[Symbol.iterator]();
  }

  slice(start?: number, end?: number): Decision[] {
    return this.records.slice(start, end);
  }
  some(pred: (d: Decision, i: number) => unknown): boolean {
    return this.records.some((d, i) => pred(d, i));
  }
  find(pred: (d: Decision, i: number) => unknown): Decision | undefined {
    return this.records.find((d, i) => pred(d, i));
  }
  filter(pred: (d: Decision, i: number) => unknown): Decision[] {
    return this.records.filter((d, i) => pred(d, i));
  }
  map<U>(f: (d: Decision, i: number) => U): U[] {
    return this.records.map((d, i) => f(d, i));
  }

  /** A copy of every decision, as a plain list (comparisons, JSON). */
  toArray(): Decision[] {
    return this.records.slice();
  }
  /** JSON.stringify writes the list of decisions, as it did when the trace was an array. */
  toJSON(): Decision[] {
    return this.records;
  }
}
