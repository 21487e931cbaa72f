/**
 * Which monitor pass a decision is shown in. The engine records the pass
 * counter as it was when the decision was made, so a world event at a pass's
 * instant (applied before the pass, spec 1.3) carries the previous pass, and
 * so does everything decided between two passes. The panel shows each
 * decision in the pass whose step brought it: the pass at the same instant,
 * or else the next pass. Then "Next decision" stops on a pass that shows the
 * decision, and the timeline's counts are what the pass shows.
 */
import type { Decision } from '../engine/trace/decision';
import type { DecisionList } from '../engine/trace/decisionLog';
import { decisionBySeq } from './traceLookup';
import { LOG_ROWS } from '../protocol/webview';
import type { Simulation } from '../engine/simulation/api';
import { STEP_BACK_CHECKPOINTS } from '../engine/simulation/checkpointPlacement';

/**
 * Why pass n cannot be gone to, or undefined when it can: a whole number from 0 to the simulation's last pass (the
 * engine refuses, by throwing, a pass beyond its horizon).
 */
export function passProblem(lastPass: number, n: unknown): string | undefined {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return `No pass ${String(n)}: a pass is a whole number from 0.`;
  if (n > lastPass) return `No pass ${n}: the simulation stops at pass ${lastPass}, its horizon.`;
  return undefined;
}

/**
 * The panel's jump to pass `n` (Go to Pass, the Decisions tree). `forward` (from the shown pass): the last passes are
 * stepped as a user's steps are, so that the Step Back after the jump restores the pass before instead of replaying it
 * (the pass after the Unknown pass at 5,000 nodes: its monitor pass over every node, ~115 ms), and the passes before
 * them as a plain run's: interactive all the way keeps a checkpoint every ten passes too (to pass 300 at 5,000 nodes 40
 * checkpoints for 7, 0.5-0.8 s and ~400 MiB more). Back, a plain goToPass: checkpoints on the way made it 1.3× the CPU.
 * Called again by a slice's continuation, it goes on where it stopped.
 */
export function jumpTo(sim: Simulation, n: number, forward: boolean): void {
  const near = n - STEP_BACK_CHECKPOINTS - 2;
  if (forward && (sim.pass ?? -1) < near) {
    sim.goToPass(near);
    if (sim.stopped) return;
  }
  sim.goToPass(n, forward ? { interactive: true } : undefined);
}

export class PassIndex {
  /** pass -> the time of its first decision: the pass's instant (its MonitorPass comes first at that instant) */
  private readonly starts = new Map<number, string>();

  /** Learns the instants of the passes; decisions must come in trace order. */
  observe(d: Decision): void {
    if (d.pass !== null && !this.starts.has(d.pass)) this.starts.set(d.pass, d.time);
  }

  /** The pass a decision is shown in (0 for what came before the first pass). */
  shownIn(d: Decision): number {
    if (d.pass === null) return 0;
    return d.time === this.starts.get(d.pass) ? d.pass : d.pass + 1;
  }
}

/**
 * The decisions of the furthest run, kept when stepping back (the run is deterministic: the same
 * prefix again), with the pass each is shown in.
 */
export class FurthestRun {
  readonly passes = new PassIndex();
  private readonly run: Decision[] = [];

  /** Learns the passes' instants and extends the run from the trace's new decisions. */
  catchUp(trace: DecisionList): void {
    for (let i = this.run.length; i < trace.length; i++) {
      const d = trace.at(i)!;
      this.passes.observe(d);
      this.run.push(d);
    }
  }

  find(seq: number): Decision | undefined {
    return decisionBySeq(this.run, seq);
  }

  /** The whole run so far (also what lies after the current position, once reached), by the pass each decision is shown in. */
  byPass(includeNoise: boolean, isNoise: (d: Decision) => boolean): Map<number, Decision[]> {
    const out = new Map<number, Decision[]>();
    for (const d of this.run) {
      if (!includeNoise && isNoise(d)) continue;
      const p = this.passes.shownIn(d);
      const list = out.get(p);
      if (list) list.push(d);
      else out.set(p, [d]);
    }
    return out;
  }
}

/**
 * The decisions shown at a position: those of the current pass and, when the
 * simulation stopped between passes, those since the pass (at instants
 * before the next one). `pass` null: before the first pass.
 */
export function decisionsAt(trace: DecisionList, pass: number | null, index: PassIndex): { inPass: Decision[]; afterPass: Decision[] } {
  const cur = pass ?? -1;
  // shown passes never decrease along the trace, and the current position is its end
  let i = trace.length;
  while (i > 0 && index.shownIn(trace.at(i - 1)!) > cur) i--;
  let j = i;
  while (j > 0 && index.shownIn(trace.at(j - 1)!) === cur) j--;
  return { inPass: trace.slice(j, i), afterPass: trace.slice(i) };
}

/**
 * The decisions an update carries: at most LOG_ROWS (and the selected one), with the counts of all
 * (routine ticks not counted), so that a pass where 1,667 nodes go Unknown is not one 2 MiB message.
 */
export function logRows(
  shown: { inPass: Decision[]; afterPass: Decision[] },
  selectedSeq: number | undefined,
  isNoise: (d: Decision) => boolean,
): { inPass: Decision[]; afterPass: Decision[]; cut?: { inPass: number; afterPass: number } } {
  if (shown.inPass.length + shown.afterPass.length <= LOG_ROWS) return shown;
  const inPass = shown.inPass.slice(0, LOG_ROWS);
  const afterPass = shown.afterPass.slice(0, LOG_ROWS - inPass.length);
  if (selectedSeq !== undefined && !inPass.some((d) => d.seq === selectedSeq) && !afterPass.some((d) => d.seq === selectedSeq)) {
    const inIt = shown.inPass.find((d) => d.seq === selectedSeq);
    if (inIt) inPass.push(inIt);
    const after = shown.afterPass.find((d) => d.seq === selectedSeq);
    if (after) afterPass.push(after);
  }
  const real = (ds: readonly Decision[]) => ds.reduce((n, d) => (isNoise(d) ? n : n + 1), 0);
  return { inPass, afterPass, cut: { inPass: real(shown.inPass), afterPass: real(shown.afterPass) } };
}

/**
 * The timeline's marks: the passes that hold decisions (routine ticks not counted), from the
 * furthest run (kept when stepping back), counted incrementally (the trace only grows, except
 * when stepping back cuts it), and which marks the webview has not been told.
 */
export class PassMarks {
  readonly byPass = new Map<number, number>();
  private readonly sent = new Map<number, number>();
  private readonly counting = new Map<number, number>();
  private seen = 0;
  private lastSeq = 0;

  /** The marks to send: all of them when `full`, else those new or changed since the last call. */
  update(trace: DecisionList, index: PassIndex, isNoise: (d: Decision) => boolean, full: boolean): { pass: number; decisions: number }[] {
    if (this.seen > trace.length || (this.seen > 0 && trace.at(this.seen - 1)?.seq !== this.lastSeq)) {
      this.counting.clear();
      this.seen = 0;
    }
    for (let i = this.seen; i < trace.length; i++) {
      const d = trace.at(i)!;
      if (isNoise(d)) continue;
      const p = index.shownIn(d);
      this.counting.set(p, (this.counting.get(p) ?? 0) + 1);
    }
    this.seen = trace.length;
    this.lastSeq = trace.length ? trace.at(-1)!.seq : 0;
    for (const [p, n] of this.counting) if ((this.byPass.get(p) ?? 0) < n) this.byPass.set(p, n);
    const marks: { pass: number; decisions: number }[] = [];
    for (const [pass, decisions] of this.byPass) {
      if (!full && this.sent.get(pass) === decisions) continue;
      marks.push({ pass, decisions });
      this.sent.set(pass, decisions);
    }
    return marks.sort((a, b) => a.pass - b.pass);
  }
}
