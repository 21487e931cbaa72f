/**
 * The panel's runs to a decision or a time (Next decision, Previous decision, Run Until…): the shown simulation run
 * in slices (Session.long), then the decision found selected and the position sent.
 */
import type { Simulation } from '../engine/simulation/api';
import type { Position } from './runAhead';
import type { Decision } from '../engine/trace/decision';
import { formatTime } from '../engine/model/time';
import { decisionMatcher, parseRunUntil } from './runUntil';
import { decisionMessage, offsetAndTime } from './decisionText';
import { LOOKAHEAD } from './realityRun';
import { isNoise } from './traceLookup';
import type { SessionResult } from './slices';

/** What the runs need of the session (Session is one). */
export interface DecisionRunHost {
  /** the shown simulation: only a run reads it (from a start still being made, Session.long makes it first) */
  readonly sim: Simulation;
  /** the shown position and the start time, read before the run without making the shown simulation */
  readonly shown: Position;
  readonly startTime: number;
  readonly passMarks: ReadonlyMap<number, number>;
  findInRun(seq: number): { decision: Decision; pass: number } | undefined;
  decision(seq: number): Decision | undefined;
  long(run: () => void, finish: () => SessionResult): SessionResult;
  focus(d: Decision): void;
  changed(focusSeq?: number): void;
  shownDecisions(): { inPass: Decision[] };
}

/** The last decision's seq of the shown trace, and how far a run to a decision looks. */
function fromShown(h: DecisionRunHost): { last: number; limit: number } {
  const trace = h.shown.trace;
  return { last: trace.length ? trace.at(-1)!.seq : 0, limit: h.shown.now + LOOKAHEAD };
}

export function nextDecision(h: DecisionRunHost): SessionResult {
  const { last, limit } = fromShown(h);
  let d: Decision | undefined;
  return h.long(
    () => (d = h.sim.runUntilDecision((x) => x.seq > last && !isNoise(x), limit, { interactive: true })),
    () => {
      if (d) h.focus(d);
      h.changed(d?.seq);
      return d ? { ok: true, message: decisionMessage(d, h.sim.startTime) } : { ok: false, message: 'No decision in the next 6 hours of simulated time.' };
    },
  );
}

/** Goes back to the latest earlier pass that holds a decision, and selects its last decision. */
export function previousDecision(h: DecisionRunHost): SessionResult {
  const pass = h.shown.pass;
  if (pass === null) return { ok: false, message: 'At the start: no earlier decision.' };
  const earlier = [...h.passMarks.keys()].filter((p) => p < pass).sort((a, b) => b - a)[0];
  if (earlier === undefined) return { ok: false, message: 'No earlier pass holds a decision.' };
  return h.long(
    () => h.sim.goToPass(earlier),
    () => {
      const focus = h
        .shownDecisions()
        .inPass.filter((d) => !isNoise(d))
        .at(-1);
      if (focus) h.focus(focus);
      h.changed(focus?.seq);
      return { ok: true };
    },
  );
}

/** Runs to a time, or to the next decision the text names (runUntil.ts parses it). */
export function runUntil(h: DecisionRunHost, text: string): SessionResult {
  const parsed = parseRunUntil(text, h.startTime);
  if (!parsed.ok) return parsed;
  const target = parsed.target;
  if (target.kind === 'time') {
    if (target.at < h.shown.now) {
      return { ok: false, message: `${formatTime(target.at)} is in the past (now ${formatTime(h.shown.now)}); use the timeline or Step Back.` };
    }
    return h.long(
      () => h.sim.runUntil(target.at, { interactive: true }),
      () => {
        h.changed();
        // as the panel and the scenario write times: an offset from the start, the clock time beside it
        return { ok: true, message: `Ran until ${offsetAndTime(h.sim.now, h.sim.startTime)}.` };
      },
    );
  }
  const { last, limit } = fromShown(h);
  const match = decisionMatcher(target, isNoise);
  let d: Decision | undefined;
  return h.long(
    () => (d = h.sim.runUntilDecision((x) => x.seq > last && match(x), limit, { interactive: true })),
    () => {
      if (d) h.focus(d);
      h.changed(d?.seq);
      if (!d) return { ok: false, message: `No ${target.description} in the next 6 hours of simulated time (now ${formatTime(h.sim.now)}).` };
      return { ok: true, message: decisionMessage(d, h.sim.startTime, true) };
    },
  );
}

/** A decision further on in the run selected (the Decisions tree keeps the whole run): its pass gone to first, or the instant it was made at. */
export function selectFurther(h: DecisionRunHost, seq: number): SessionResult {
  const ahead = h.findInRun(seq);
  if (!ahead) return { ok: false, message: `No decision ${seq} in this run.` };
  return h.long(
    () => h.sim.goToPass(ahead.pass),
    () => {
      const found = h.decision(seq) ?? h.sim.runUntilDecision((x) => x.seq === seq, h.sim.now + LOOKAHEAD);
      if (!found) return { ok: false, message: `Decision ${seq} was not made again.` };
      h.focus(found);
      h.changed(found.seq);
      return { ok: true };
    },
  );
}
