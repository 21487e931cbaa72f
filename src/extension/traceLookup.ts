/** Decisions of a trace by their numbers, a decision's causes, and which decisions are routine ticks. */
import { NOISE_ACTIONS, type Decision } from '../engine/trace/decision';
import type { DecisionList } from '../engine/trace/decisionLog';

/** A routine tick (MonitorPass and the like): collapsed in the log, left out of counts and comparisons. */
export const isNoise = (d: Decision): boolean => NOISE_ACTIONS.has(d.action);

/** The decision numbered `seq`: where a whole trace has it (seq - 1), else searched for. */
export function decisionBySeq(trace: DecisionList, seq: number): Decision | undefined {
  const guess = seq > 0 ? trace.at(seq - 1) : undefined;
  return guess?.seq === seq ? guess : trace.find((d) => d.seq === seq);
}

/** The causes of a decision, transitively, oldest first. */
export function chainOf(trace: DecisionList, d: Decision): Decision[] {
  const seen = new Map<number, Decision>();
  const todo = [...d.causes];
  while (todo.length) {
    const seq = todo.pop() as number;
    if (seen.has(seq) || seq === d.seq) continue;
    const c = decisionBySeq(trace, seq);
    if (!c) continue;
    seen.set(seq, c);
    todo.push(...c.causes);
  }
  return [...seen.values()].sort((a, b) => a.seq - b.seq);
}
