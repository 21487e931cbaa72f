/**
 * Causal chains: from a decision, follow `causes` transitively back to the
 * world events that started it. The trace is indexed by seq (trace.at(seq - 1)).
 */
import type { Decision } from './decision';
import type { DecisionList } from './decisionLog';

/**
 * Every decision the given one cites, directly or through others, oldest
 * first (by seq), without duplicates and without the decision itself. Causes
 * that point outside the trace (e.g. after it was truncated) are skipped.
 */
export function causeChain(trace: DecisionList, seq: number): Decision[] {
  const seen = new Set<number>();
  const stack = seq > 0 ? [...(trace.at(seq - 1)?.causes ?? [])] : [];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen.has(s) || s === seq) continue;
    const d = s > 0 ? trace.at(s - 1) : undefined;
    if (!d || d.seq !== s) continue;
    seen.add(s);
    for (const c of d.causes) if (!seen.has(c)) stack.push(c);
  }
  return [...seen].sort((a, b) => a - b).map((s) => trace.at(s - 1)!);
}

/** The world decisions at the root of a chain: the events that, in the end, caused the decision. */
export function rootCauses(trace: DecisionList, seq: number): Decision[] {
  return causeChain(trace, seq).filter((d) => d.controller === 'world');
}
