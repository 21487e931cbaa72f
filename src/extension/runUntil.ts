/**
 * The Run Until… input, parsed once at the edge: a time (an offset from the
 * scenario's start such as `10m`, `+1m30s`, or an RFC3339 instant) or a
 * decision filter such as `next TaintAdded on node-a1`,
 * `PodEvicted Pod/default/web-1`, `next decision`.
 */
import { ACTIONS, type Action, type Decision } from '../engine/trace/decision';
import { formatDuration, formatTime, parseDuration, parseTimestamp, type Micros } from '../engine/model/time';
import { MAX_HORIZON } from '../engine/model/limits';

export type RunUntilTarget = { kind: 'time'; at: Micros } | { kind: 'decision'; action?: Action; object?: string; description: string };

export type ParseResult = { ok: true; target: RunUntilTarget } | { ok: false; message: string };

const ALL_ACTIONS: readonly string[] = [...new Set(Object.values(ACTIONS).flat())];

export function parseRunUntil(text: string, startTime: Micros): ParseResult {
  const input = text.trim();
  if (!input) return { ok: false, message: 'Give a time (10m, RFC3339) or a decision (next TaintAdded on node-a1).' };
  // the engine stops at its horizon: a time beyond it is refused here, before anything runs
  const last = startTime + MAX_HORIZON;
  const beyond = `"${input}" is beyond the simulation's horizon: it runs at most ${formatDuration(MAX_HORIZON)}, until ${formatTime(last)}.`;
  const abs = parseTimestamp(input);
  if (abs !== undefined) return abs > last ? { ok: false, message: beyond } : { ok: true, target: { kind: 'time', at: abs } };
  const offset = parseDuration(input.replace(/^\+/, ''));
  if (offset !== undefined) {
    if (offset < 0) return { ok: false, message: `"${input}" is before the start.` };
    if (offset > MAX_HORIZON) return { ok: false, message: beyond };
    return { ok: true, target: { kind: 'time', at: startTime + offset } };
  }
  // digits and a unit that do not parse (too large a number, a unit out of order) are a time, not a decision's name
  if (/^[+-]?\d[\d.eE+]*\s*(ns|us|µs|ms|s|m|h)\b/i.test(input))
    return {
      ok: false,
      message: `"${input}" is not a time the simulation can run to: an offset from the start such as 10m or 1h30m (at most ${formatDuration(MAX_HORIZON)}), or an RFC3339 time.`,
    };
  const words = input.split(/\s+/);
  if (words[0].toLowerCase() === 'next') words.shift();
  if (words[0]?.toLowerCase() === 'decision' && words.length === 1) {
    return { ok: true, target: { kind: 'decision', description: 'the next decision' } };
  }
  let action: Action | undefined;
  if (words.length && !/[/]/.test(words[0]) && words[0].toLowerCase() !== 'on') {
    const found = ALL_ACTIONS.find((a) => a.toLowerCase() === words[0].toLowerCase());
    if (!found) return { ok: false, message: `"${words[0]}" is not a decision. Decisions: ${ALL_ACTIONS.join(', ')}.` };
    action = found as Action;
    words.shift();
  }
  if (words[0]?.toLowerCase() === 'on' || words[0]?.toLowerCase() === 'for') words.shift();
  const object = words.length ? words.join(' ') : undefined;
  if (!action && !object) return { ok: false, message: `Cannot read "${input}".` };
  const description = ['next', action ?? 'decision', object ? `on ${object}` : ''].filter(Boolean).join(' ');
  return { ok: true, target: { kind: 'decision', action, object, description } };
}

/** `node-a1` matches `Node/node-a1`; `web-1` matches `Pod/default/web-1`; a full ref must match exactly. */
export function objectMatches(ref: string, wanted: string): boolean {
  if (ref === wanted) return true;
  if (wanted.includes('/')) return ref.toLowerCase() === wanted.toLowerCase();
  return ref.slice(ref.lastIndexOf('/') + 1) === wanted;
}

export function decisionMatcher(target: Extract<RunUntilTarget, { kind: 'decision' }>, isNoise: (d: Decision) => boolean): (d: Decision) => boolean {
  return (d) => (target.action ? d.action === target.action : !isNoise(d)) && (target.object === undefined || objectMatches(d.object, target.object));
}
