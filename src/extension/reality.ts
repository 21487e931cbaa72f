/**
 * The reality lane: the scenario's `reality:` lined up with the simulated
 * decisions, for the timeline and the Why. No vscode here.
 *
 * Compared once, over the whole span of the evidence, in a run of its own
 * (the simulation is deterministic: its decisions have the seqs the stepped
 * run gives them), and the timeline shows what lies at or before the current
 * time. Comparing the trace so far at every step would call a real decision
 * "only real" merely because the simulation has not reached it yet, and would
 * re-pair decisions as the trace grows (compare pairs the nearest first over
 * all pairs): a link the user clicked could change meaning one step later.
 */
import { formatDuration, formatTime } from '../engine';
import type { CompareReport } from '../engine/import/compare';
import { compareWithReality } from '../engine/import/compareRun';
import type { Simulation } from '../engine/simulation/api';
import type { Scenario } from '../engine/snapshot/types';
import type { OnlySimulatedMark, RealityLane, RealityMark, RealityWhy } from '../protocol/webview';

const signed = (d: number): string => (d < 0 ? `-${formatDuration(-d)}` : `+${formatDuration(d)}`);

/** The comparison as the webview draws it, with lookups for the Why. */
export class RealityIndex {
  readonly lane: RealityLane;
  private readonly bySeq = new Map<number, RealityWhy>();

  constructor(report: CompareReport) {
    const real: RealityMark[] = [];
    const mark = (r: CompareReport['matched'][number]['real']) => ({
      index: r.entry.index,
      at: formatTime(r.entry.at),
      action: r.entry.action,
      object: r.entry.object,
      ...(r.entry.detail !== undefined ? { detail: r.entry.detail } : {}),
      ...(r.entry.controller !== undefined ? { controller: r.entry.controller } : {}),
      ...(r.entry.evidence !== undefined ? { evidence: r.entry.evidence } : {}),
    });
    for (const m of report.matched) {
      const r: RealityMark = { ...mark(m.real), status: 'matched', seq: m.sim.decision.seq, delta: signed(m.delta) };
      real.push(r);
      // PodsMarkedNotReady is one decision for several pods: each pod's real entry matches it
      const known = this.bySeq.get(r.seq!);
      if (!known) this.bySeq.set(r.seq!, { status: 'matched', real: r, seq: r.seq, reasons: [] });
      else (known.alsoMatched ??= []).push(r);
    }
    for (const o of report.onlyReal) real.push({ ...mark(o.real), status: 'onlyReal', reasons: o.reasons });
    real.sort((a, b) => a.at.localeCompare(b.at) || a.index - b.index);
    const onlySimulated: OnlySimulatedMark[] = [];
    for (const o of report.onlySimulated) {
      const d = o.sim.decision;
      if (this.bySeq.has(d.seq)) continue;
      onlySimulated.push({ seq: d.seq, at: formatTime(o.sim.time), action: d.action, object: o.sim.object, reasons: o.reasons });
      this.bySeq.set(d.seq, { status: 'onlySimulated', seq: d.seq, reasons: o.reasons });
    }
    this.lane = { tolerance: formatDuration(report.tolerance), real, onlySimulated };
  }

  /** The real side of a simulated decision: the entry it matched, or why reality has none. */
  forDecision(seq: number): RealityWhy | undefined {
    return this.bySeq.get(seq);
  }

  /** A `reality:` entry by its index. */
  entry(index: number): RealityMark | undefined {
    return this.lane.real.find((r) => r.index === index);
  }

  /** The Why of a real entry: matched (with its decision) or only real (with the likely reasons). */
  forEntry(index: number): RealityWhy | undefined {
    const r = this.entry(index);
    if (!r) return undefined;
    if (r.status !== 'matched') return { status: 'onlyReal', real: r, reasons: r.reasons ?? [] };
    // this entry first, then the others its simulated decision matched
    const d = this.bySeq.get(r.seq!);
    const others = [d?.real, ...(d?.alsoMatched ?? [])].filter((x): x is RealityMark => !!x && x.index !== r.index);
    return { status: 'matched', real: r, seq: r.seq, reasons: [], ...(others.length ? { alsoMatched: others } : {}) };
  }
}

/** The scenario's `reality:` compared with a run of its own (`make`) over the evidence's span; undefined without `reality:`. */
export function realityIndexOf(scenario: Scenario, make: () => Simulation): RealityIndex | undefined {
  const report = scenario.reality?.length ? compareWithReality(make()) : undefined;
  return report ? new RealityIndex(report) : undefined;
}
