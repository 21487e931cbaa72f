/**
 * How far `replay` and `explain` run when no --until or --steps is given:
 * ten minutes past the scenario's last event or expectation (and at least
 * ten minutes), so that the consequences of the last event are seen — the
 * default podEvictionTimeout and toleration are five minutes.
 */
import type { Scenario, TimeSpec } from '../engine/snapshot/types';
import { minutes, parseDuration, parseTimestamp, type Micros } from '../engine/model/time';
import { UsageError } from './args';

export const DEFAULT_MARGIN = minutes(10);

export function timeOf(spec: TimeSpec, start: Micros): Micros {
  return 'offset' in spec ? start + spec.offset : spec.time;
}

export function defaultHorizon(scenario: Scenario, start: Micros): Micros {
  let last = start;
  for (const e of scenario.events) last = Math.max(last, timeOf(e.at, start));
  let horizon = last + DEFAULT_MARGIN;
  for (const x of scenario.expect) horizon = Math.max(horizon, timeOf(x.at, start));
  return horizon;
}

/** `--until`: an offset from the start (`10m`, `1h30m`) or an RFC3339 time. */
export function parseUntil(text: string, start: Micros): Micros {
  const d = parseDuration(text);
  if (d !== undefined) {
    if (d < 0) throw new UsageError(`--until must not be negative, found "${text}"`);
    return start + d;
  }
  const t = parseTimestamp(text);
  if (t !== undefined) return t;
  throw new UsageError(`--until wants a duration from the start (e.g. 10m) or an RFC3339 time, not "${text}"`);
}
