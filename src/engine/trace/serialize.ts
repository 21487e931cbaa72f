/**
 * The decision trace on the wire (spec 2.1): JSON Lines, one decision a line,
 * with the fields in exactly this order: seq, time, pass, controller, action,
 * object, summary, because, causes, machine, source, then details when
 * present. The order is written out here, not left to how the record was
 * built, so the output is byte-identical for the same input.
 */
import type { Decision } from './decision';
import type { DecisionList } from './decisionLog';

/** The field order of spec 2.1. */
export const DECISION_FIELDS = ['seq', 'time', 'pass', 'controller', 'action', 'object', 'summary', 'because', 'causes', 'machine', 'source'] as const;

/** A copy of the decision with its fields in the spec's order (details last, only when present). */
export function orderedDecision(d: Decision): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of DECISION_FIELDS) {
    out[k] =
      k === 'machine'
        ? d.machine
          ? { id: d.machine.id, from: d.machine.from, to: d.machine.to, event: d.machine.event }
          : null
        : k === 'because'
          ? d.because.map((c) => (c.values === undefined ? { rule: c.rule } : { rule: c.rule, values: c.values }))
          : d[k];
  }
  if (d.details !== undefined) out.details = d.details;
  return out;
}

/** One decision as one line of JSON (no trailing newline). */
export function decisionToJson(d: Decision): string {
  return JSON.stringify(orderedDecision(d));
}

/** The whole trace as JSON Lines: one decision a line, each line ending in a newline. */
export function traceToJsonLines(trace: DecisionList): string {
  let out = '';
  for (const d of trace) out += decisionToJson(d) + '\n';
  return out;
}

/** Parses JSON Lines back into decisions (blank lines skipped). Throws on a line that is not JSON. */
export function parseJsonLines(text: string): Decision[] {
  const out: Decision[] = [];
  for (const line of text.split('\n')) {
    if (line.trim()) out.push(JSON.parse(line) as Decision);
  }
  return out;
}
