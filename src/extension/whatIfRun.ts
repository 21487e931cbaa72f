/**
 * Change Setting and Re-run from the panel: the scenario made again with one
 * setting changed, run (in slices) to the current time, and its trace
 * compared with the session's (whatIf.ts).
 */
import type { Simulation, SimulationOptions } from '../engine/simulation/api';
import { formatTime } from '../engine/model/time';
import type { HostMessage, WhatIfComparison } from '../protocol/webview';
import type { SessionResult } from './slices';
import type { Position } from './runAhead';
import { compareTraces } from './whatIf';
import { isNoise } from './traceLookup';

/** What a what-if needs of the session (Session is one). */
export interface WhatIfHost {
  /** the shown position and problems: a start still being made answers them as captured, without being made (swapAtOpen.ts) */
  readonly shown: Position;
  readonly problems: Simulation['problems'];
  readonly options: SimulationOptions;
  make(options: SimulationOptions): Simulation;
  long(run: () => void, finish: () => SessionResult, stopped?: () => boolean | undefined): SessionResult;
  readonly post: (m: HostMessage) => void;
  lastComparison?: WhatIfComparison;
}

export function runWhatIf(h: WhatIfHost, key: string, value: string): SessionResult {
  let changed: Simulation;
  try {
    changed = h.make({ ...h.options, set: { ...(h.options.set ?? {}), [key]: value } });
  } catch (e) {
    return { ok: false, message: `Cannot re-run with ${key}=${value}: ${(e as Error).message}` };
  }
  const errors = changed.problems.filter((p) => p.severity === 'error' && !h.problems.some((q) => q.code === p.code && q.message === p.message));
  if (errors.length) return { ok: false, message: `Cannot re-run with ${key}=${value}: ${errors.map((p) => p.message).join('; ')}` };
  const until = h.shown.now;
  return h.long(
    () => changed.runUntil(until),
    () => {
      h.lastComparison = compareTraces(h.shown.trace, changed.trace, { setting: key, value, until: formatTime(until) }, isNoise);
      h.post({ type: 'whatIf', comparison: h.lastComparison });
      const c = h.lastComparison;
      return {
        ok: true,
        message: `${key}=${value}: ${c.onlyOriginal.length} decisions only originally, ${c.onlyChanged.length} only with the change, ${c.moved.length} at other times, ${c.same} the same.`,
      };
    },
    () => changed.stopped,
  );
}
