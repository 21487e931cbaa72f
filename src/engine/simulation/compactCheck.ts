/**
 * Check mode of the compact trace (SimulationChecks.compactTrace): a decision kept as an entry (DecisionLog.pushEntry)
 * has its record made as it is decided and made again from the entry, at once and when its instant ends, and the two
 * must write the same JSON. A maker that reads something a later decision changes, or an entry written after it was
 * pushed, shows as a difference here instead of as a record that reads otherwise later.
 */
import type { Decision } from '../trace/decision';
import type { DecisionLog } from '../trace/decisionLog';
import { orderedDecision } from '../trace/serialize';

function sameRecord(eager: Decision, again: Decision, when: string): void {
  const a = JSON.stringify(orderedDecision(eager));
  const b = JSON.stringify(orderedDecision(again));
  if (a !== b)
    throw new Error(`checks.compactTrace: decision ${eager.seq} (${eager.action} ${eager.object}) made from its entry ${when}:\n  ${b}\nas decided:\n  ${a}`);
}

/** Turns the check on for `log` (or off). */
export function checkCompactTrace(log: DecisionLog, on: boolean): void {
  log.check = on ? sameRecord : undefined;
}
