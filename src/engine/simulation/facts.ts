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

/**
 * The causes memory as it was at a checkpoint, from the live one: `since` are the logs of what was
 * remembered after it (triples, as SimHost.factLog), `upTo` the logs up to it, oldest first. Only
 * the objects remembered since change: their lists are made again from `upTo` (gone when they had
 * none then), in place, so the map keeps its order (facts are never forgotten but by a restore, so
 * an object's place is where its first fact put it, in the live run as in a replay). Made again in
 * full, the memory was 150,000 and more setFact calls on every restore during an outage at 5,000 nodes.
 */
export function factsAt(live: Facts, since: readonly (readonly (string | number)[])[], upTo: readonly (readonly (string | number)[])[]): Facts {
  const touched = new Set<ObjectRef>();
  for (const log of since) for (let i = 0; i < log.length; i += 3) touched.add(log[i] as ObjectRef);
  if (touched.size === 0) return live;
  const then: Facts = new Map();
  for (const log of upTo)
    for (let i = 0; i < log.length; i += 3) {
      const object = log[i] as ObjectRef;
      if (touched.has(object)) setFact(then, object, log[i + 1] as string, log[i + 2] as number);
    }
  for (const object of touched) {
    const list = then.get(object);
    if (list === undefined) live.delete(object);
    else live.set(object, list);
  }
  return live;
}

/** The causes memory made from `logs` (triples, oldest first): what factsAt must equal. */
export function factsFrom(logs: readonly (readonly (string | number)[])[]): Facts {
  const facts: Facts = new Map();
  for (const log of logs) for (let i = 0; i < log.length; i += 3) setFact(facts, log[i] as ObjectRef, log[i + 1] as string, log[i + 2] as number);
  return facts;
}
