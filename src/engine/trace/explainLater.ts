/**
 * Decisions whose `because` is made when first read. The outage hour at 5,000 nodes records
 * 31,093 ReplicaSetStatusUpdated decisions, each with five or six checks (a dozen objects), and
 * nearly none is ever read: the recorder keeps what makes them (a function, or an object with
 * `explain()` that can serve the decision's machine transition as well), and the record's
 * `because` is an accessor that calls it once and keeps what it made.
 *
 * The record stays a plain object with `because` in its place among the fields (JSON, the keys'
 * order and deep comparisons see the same record as one recorded with its checks): the accessor
 * is one pair for all records, not one made per record (bench/README.md, the `rsync` branch's
 * section), and what it reads is a non-enumerable symbol field of the record.
 */
import type { Check, Decision } from './decision';

const EXPLAIN = Symbol('explain');

/** What makes a decision's checks when first read: a function, or an object that keeps what they are made from. */
export type Explanation = (() => Check[]) | { explain(): Check[] };
type Later = Decision & { [EXPLAIN]: Explanation | Check[] };

const because: PropertyDescriptor = {
  get(this: Later): Check[] {
    const x = this[EXPLAIN];
    if (Array.isArray(x)) return x;
    const made = typeof x === 'function' ? x() : x.explain();
    this[EXPLAIN] = made;
    return made;
  },
  enumerable: true,
  configurable: true,
};
const explainField: PropertyDescriptor = { value: undefined, writable: true, enumerable: false, configurable: true };

/** `rec` without `because` yet and without the fields after it; `rest` adds those after the accessor. */
export function explainLater<T extends Omit<Decision, 'because' | 'causes' | 'machine' | 'source' | 'details'>>(
  rec: T,
  explain: Explanation,
  causes: number[],
  machine: Decision['machine'],
  source: string,
  details: Record<string, unknown> | undefined,
): Decision {
  Object.defineProperty(rec, 'because', because);
  const d = rec as unknown as Later;
  d.causes = causes;
  d.machine = machine;
  d.source = source;
  if (details !== undefined) d.details = details;
  Object.defineProperty(d, EXPLAIN, explainField);
  d[EXPLAIN] = explain;
  return d;
}
