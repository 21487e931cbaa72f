/**
 * A decision as the extension's own texts show it (the Decisions tree, the
 * messages of Next Decision and Run Until): its time as an offset from the
 * start, as scenarios are written, and the clock times inside its summary
 * too; the clock time where there is room for it (a tooltip, brackets).
 */
import { formatOffset, timesAsOffsets } from '../engine/trace/text';
import type { Decision } from '../engine/trace/decision';
import { formatTime, type Micros } from '../engine/model/time';

const offsetOf = (time: string, startMs: number): string => {
  const t = Date.parse(time);
  return Number.isNaN(t) || Number.isNaN(startMs) ? time : formatOffset(t - startMs);
};

/** `+1m10s (2026-01-01T00:01:10.000Z)`: an instant of the simulation and its start, in microseconds. */
export function offsetAndTime(t: Micros, start: Micros): string {
  return `${formatOffset((t - start) / 1000)} (${formatTime(t)})`;
}

/** `+1m10s (2026-…) TaintAdded Node/node-a1`, and `: summary` with `withSummary`; `start` in microseconds. */
export function decisionMessage(d: Decision, start: Micros, withSummary = false): string {
  const startMs = start / 1000;
  const head = `${offsetOf(d.time, startMs)} (${d.time}) ${d.action} ${d.object}`;
  return withSummary ? `${head}: ${timesAsOffsets(d.summary, startMs, false)}` : head;
}

/** The tree item's description (offsets only: it is one short line) and tooltip (the clock times too). */
export function decisionTreeText(d: Decision, startMs: number): { description: string; tooltip: string } {
  return {
    description: `${offsetOf(d.time, startMs)} ${timesAsOffsets(d.summary, startMs, false)}`,
    tooltip: [`${offsetOf(d.time, startMs)} (${d.time})`, timesAsOffsets(d.summary, startMs), ...d.because.map((b) => `• ${b.rule}`), d.source].join('\n'),
  };
}
