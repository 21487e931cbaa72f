/**
 * A mark of the panel's reality lane selected: the session goes to the pass that shows the matched simulated
 * decision, or, for a real decision the simulation did not make, to the first pass at or after its time.
 */
import type { Simulation } from '../engine/simulation/api';
import type { Decision } from '../engine/trace/decision';
import { parseTimestamp, type Micros } from '../engine/model/time';
import type { RealityIndex } from './reality';
import type { SessionResult } from './slices';
import type { Position } from './runAhead';

/** How far Next Decision / Run Until (and a reality mark's decision) look ahead before giving up (simulated time). */
export const LOOKAHEAD: Micros = 6 * 3_600_000_000;

/** What selecting a reality mark needs of the session (Session is one). */
export interface RealityHost {
  /** the shown simulation: only a run reads it (from a start still being made, Session.long makes it first) */
  readonly sim: Simulation;
  /** the shown position, read before a run without making the shown simulation */
  readonly shown: Position;
  selected?: string;
  selectedSeq?: number;
  selectedReal?: number;
  reality(): RealityIndex | undefined;
  findInRun(seq: number): { decision: Decision; pass: number } | undefined;
  decision(seq: number): Decision | undefined;
  focus(d: Decision): void;
  changed(focusSeq?: number): void;
  long(run: () => void, finish: () => SessionResult): SessionResult;
}

/** The selected real entry (dropped once the position is before it), else the selected decision `d`, against reality. */
export function realityOfSelection(h: RealityHost, d: Decision | undefined) {
  const index = h.reality();
  if (!index) return undefined;
  if (h.selectedReal !== undefined) {
    const r = index.entry(h.selectedReal);
    if (r && parseTimestamp(r.at)! <= h.shown.now) return index.forEntry(h.selectedReal);
    h.selectedReal = undefined;
  }
  return d ? index.forDecision(d.seq) : undefined;
}

/**
 * Goes to the pass that shows the matched simulated decision and selects it, or, for a real decision the
 * simulation did not make, to the first pass at or after its time, selecting its object. The Why then shows
 * the real decision and how it compares.
 */
export function selectRealityMark(h: RealityHost, index: number): SessionResult {
  const r = h.reality()?.entry(index);
  if (!r) return { ok: false, message: `No reality: entry ${index + 1} in this scenario.` };
  if (r.seq !== undefined) {
    const seq = r.seq;
    // first run on until the decision was made (unless the run has it), then go to the pass that shows it
    let searched = h.findInRun(seq) !== undefined;
    const limit = h.shown.now + LOOKAHEAD;
    let target: number | undefined;
    return h.long(
      () => {
        if (!searched) {
          h.sim.runUntilDecision((x) => x.seq === seq, limit);
          if (h.sim.stopped) return;
          searched = true;
        }
        target ??= h.findInRun(seq)?.pass;
        if (target !== undefined) h.sim.goToPass(target);
      },
      () => {
        if (target === undefined) return { ok: false, message: `The simulated decision ${seq} was not made again.` };
        const d = h.decision(seq);
        if (d) h.focus(d);
        h.selectedReal = index;
        h.changed(d?.seq);
        return { ok: true, message: `${r.at} ${r.action} ${r.object}: matched #${seq} (${r.delta})` };
      },
    );
  }
  const at = parseTimestamp(r.at)!;
  return h.long(
    () => h.sim.goToPass(Math.max(0, Math.ceil((at - h.sim.startTime) / h.sim.config.nodeMonitorPeriod))),
    () => {
      h.selected = r.object;
      h.selectedSeq = undefined;
      h.selectedReal = index;
      h.changed();
      return { ok: true, message: `${r.at} ${r.action} ${r.object}: only in reality` };
    },
  );
}
