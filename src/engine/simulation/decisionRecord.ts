/** The trace's record of a decision (SimHost.decide). */
import type { Decision, DecisionInput } from '../trace/decision';

export function decisionRecord(d: DecisionInput, seq: number, time: string, pass: number | null, causes: number[]): Decision {
  // details in the literal rather than added after: an added field is a separate allocation per decision
  return d.details !== undefined
    ? {
        seq,
        time,
        pass,
        controller: d.controller,
        action: d.action,
        object: d.object,
        summary: d.summary,
        because: d.because,
        causes,
        machine: d.machine ?? null,
        source: d.source,
        details: d.details,
      }
    : {
        seq,
        time,
        pass,
        controller: d.controller,
        action: d.action,
        object: d.object,
        summary: d.summary,
        because: d.because,
        causes,
        machine: d.machine ?? null,
        source: d.source,
      };
}
