/**
 * The simulation's causes memory: per object, the decision each fact names
 * (SimHost.remember / recall: the facts listed at the top of simHost.ts), and
 * the causes a decision may cite (earlier decisions only).
 */
import type { ObjectRef } from '../model/types';

/** The causes memory (SimHost.facts): per object, in pairs, a fact and the decision it names. */
export type Facts = Map<ObjectRef, (string | number)[]>;

/** Remembers in `facts` that `fact` of `object` is decision `seq`. */
export function setFact(facts: Facts, object: ObjectRef, fact: string, seq: number): void {
  const list = facts.get(object);
  if (list === undefined) {
    facts.set(object, [fact, seq]);
    return;
  }
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === fact) {
      list[i + 1] = seq;
      return;
    }
  }
  list.push(fact, seq);
}

/** Lists of decisions per object up to this long are kept at their exact size (see decide). */
export const SHORT_LIST = 8;

/** The distinct causes that are earlier decisions, ascending; an array of its exact size (the trace keeps it). */
export function causesBefore(causes: readonly number[], seq: number): number[] {
  if (causes.length === 1) {
    const c = causes[0];
    return c > 0 && c < seq ? [c] : [];
  }
  const out: number[] = [];
  if (causes.length > 16) {
    for (const c of new Set(causes)) if (c > 0 && c < seq) out.push(c);
  } else {
    for (const c of causes) if (c > 0 && c < seq && !out.includes(c)) out.push(c);
  }
  if (out.length > 1) out.sort((a, b) => a - b);
  // pushing reserved room for 16
  return out.length ? out.slice() : out;
}
