/**
 * The panel's runs to a decision or a time (Next decision, Previous decision, Run Until…): the shown simulation run
 * in slices (Session.long), then the decision found selected and the position sent.
 */
import type { Simulation } from '../engine/simulation/api';
import type { Decision } from '../engine/trace/decision';
import { formatTime } from '../engine/model/time';
import { decisionMatcher, parseRunUntil } from './runUntil';
import { decisionMessage, offsetAndTime } from './decisionText';
import { LOOKAHEAD } from './realityRun';
import { isNoise } from './traceLookup';
import type { SessionResult } from './slices';

/** What the runs need of the session (Session is one). */
export interface DecisionRunHost {
  readonly sim: Simulation;
  readonly passMarks: ReadonlyMap<number, number>;
  long(run: () => void, finish: () => SessionResult): SessionResult;
  focus(d: Decision): void;
  changed(focusSeq?: number): void;
  shownDecisions(): { inPass: Decision[] };
}

export function nextDecision(h: DecisionRunHost): SessionResult {
  const last = h.sim.trace.length ? h.sim.trace[h.sim.trace.length - 1].seq : 0;
  const limit = h.sim.now + LOOKAHEAD;
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
  const pass = h.sim.pass;
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
  const parsed = parseRunUntil(text, h.sim.startTime);
  if (!parsed.ok) return parsed;
  const target = parsed.target;
  if (target.kind === 'time') {
    if (target.at < h.sim.now) {
      return { ok: false, message: `${formatTime(target.at)} is in the past (now ${formatTime(h.sim.now)}); use the timeline or Step Back.` };
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
  const last = h.sim.trace.length ? h.sim.trace[h.sim.trace.length - 1].seq : 0;
  const match = decisionMatcher(target, isNoise);
  const limit = h.sim.now + LOOKAHEAD;
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
