/**
 * The simulation's causes memory: per object, the decision each fact names
 * (SimHost.remember / recall: the facts listed at the top of simHost.ts), and
 * the causes a decision may cite (earlier decisions only).
 */
import type { ObjectRef } from '../model/types';

/** The causes memory (SimHost.facts): per object, in pairs, a fact and the decision it names. */
export type Facts = Map<ObjectRef, (string | number)[]>;

/** What setFact's write replaced, as its undo log keeps it: the earlier decision (a seq, never negative) or one of these. */
export const FACT_APPENDED = -1;
export const OBJECT_ADDED = -2;

/**
 * Remembers in `facts` that `fact` of `object` is decision `seq`; returns what the write replaced
 * (the earlier decision, FACT_APPENDED or OBJECT_ADDED), which undoFacts needs to take it back.
 */
export function setFact(facts: Facts, object: ObjectRef, fact: string, seq: number): number {
  const list = facts.get(object);
  if (list === undefined) {
    facts.set(object, [fact, seq]);
    return OBJECT_ADDED;
  }
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === fact) {
      const was = list[i + 1] as number;
      list[i + 1] = seq;
      return was;
    }
  }
  list.push(fact, seq);
  return FACT_APPENDED;
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
 * The causes memory put back to what it was before `logs` (SimHost.factLog's quadruples: object,
 * fact, seq, what the write replaced; oldest first) were written, in place: each write taken back,
 * newest first. An object's list is edited back in place and an object first remembered in the
 * logs goes, so the map keeps its order (facts are never forgotten but by a restore, so an
 * object's place is where its first fact put it, in the live run as in a replay). Rebuilding the
 * lists of the objects remembered since from every log up to the checkpoint read all of those
 * logs (150,000 and more entries during an outage at 5,000 nodes) on every restore.
 */
export function undoFacts(live: Facts, logs: readonly (readonly (string | number)[])[]): void {
  for (let l = logs.length - 1; l >= 0; l--) {
    const log = logs[l];
    for (let i = log.length - 4; i >= 0; i -= 4) {
      const object = log[i] as ObjectRef;
      const was = log[i + 3] as number;
      if (was === OBJECT_ADDED) {
        live.delete(object);
        continue;
      }
      const list = live.get(object)!;
      // newest first, so an appended pair is the list's last one again
      if (was === FACT_APPENDED) {
        list.length -= 2;
        continue;
      }
      const fact = log[i + 1];
      for (let j = 0; j < list.length; j += 2)
        if (list[j] === fact) {
          list[j + 1] = was;
          break;
        }
    }
  }
}

/** The causes memory made from `logs` (SimHost.factLog's quadruples, oldest first): what undoFacts must give. */
export function factsFrom(logs: readonly (readonly (string | number)[])[]): Facts {
  const facts: Facts = new Map();
  for (const log of logs) for (let i = 0; i < log.length; i += 4) setFact(facts, log[i] as ObjectRef, log[i + 1] as string, log[i + 2] as number);
  return facts;
}
