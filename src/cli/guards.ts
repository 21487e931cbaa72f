/**
 * Bounded, visible, interruptible runs (issue 17 §2): `replay`, `explain`
 * and `test` stop at --max-decisions or --max-seconds (generous but finite
 * defaults) and on Ctrl-C. The engine asks `shouldStop()` between instants
 * (SimulationOptions.shouldStop), and `shouldYield()` inside one too (after
 * each controller's work, between ReplicaSet syncs and binder pods), so a limit
 * or Ctrl-C stops a long instant part-way; the clock and the signal live here,
 * behind the io (CliIo.now, CliIo.interrupted), so tests inject them.
 *
 * A stop keeps everything decided so far whole: the command prints the run
 * so far, then one line on stderr says which limit stopped it, at which
 * simulated time, and how to raise it. Exit 2 for a limit (the run did not
 * finish: not a success), 130 for Ctrl-C (as a shell reports SIGINT).
 */
import type { Simulation } from '../engine';
import type { Micros } from '../engine/model/time';
import { formatOffset } from '../engine/trace/text';
import type { ParsedArgs } from './args';
import type { CliIo } from './io';

export const DEFAULT_MAX_DECISIONS = 5_000_000;
export const DEFAULT_MAX_SECONDS = 600;
export const LIMIT_EXIT = 2;
export const INTERRUPTED_EXIT = 130;
/** instants run between two pauses that let a Ctrl-C in (only when the io can pause) */
const INSTANTS_PER_PAUSE = 64;

export type StopReason = 'decisions' | 'seconds' | 'interrupted';

/** The progress line (a terminal's stderr only): simulated time reached / the run's end, decisions so far. */
export function progressText(sim: Simulation, until?: Micros): string {
  const at = (t: Micros) => formatOffset((t - sim.startTime) / 1000);
  return `controller-stepper: ${at(sim.now)}${until !== undefined ? ` / ${at(until)}` : ''}, ${sim.trace.length} decision(s) so far (Ctrl-C stops)`;
}

export class Guards {
  reason: StopReason | undefined;
  readonly maxDecisions: number;
  readonly maxSeconds: number;
  private sim: Simulation | undefined;
  private readonly started: number | undefined;
  private sincePause = 0;

  /** `pauses`: false where the run cannot be resumed after a pause (test: checkExpectations runs it) */
  constructor(
    args: Pick<ParsedArgs, 'maxDecisions' | 'maxSeconds'>,
    private readonly io: CliIo,
    private readonly pauses = true,
  ) {
    this.maxDecisions = args.maxDecisions ?? DEFAULT_MAX_DECISIONS;
    this.maxSeconds = args.maxSeconds ?? DEFAULT_MAX_SECONDS;
    this.started = io.now?.();
  }

  /** The simulation whose decisions are counted (test runs several, one after another). */
  watch(sim: Simulation): void {
    this.sim = sim;
  }

  /** For SimulationOptions.shouldStop: true at a limit, on Ctrl-C, and now and then for a pause. */
  readonly shouldStop = (): boolean => {
    if (this.reason) return true;
    if (this.sim && this.sim.trace.length >= this.maxDecisions) this.reason = 'decisions';
    else if (this.started !== undefined && this.io.now && this.io.now() - this.started >= this.maxSeconds * 1000) this.reason = 'seconds';
    else if (this.io.interrupted?.()) this.reason = 'interrupted';
    if (this.reason) return true;
    if (this.pauses && this.io.pause && ++this.sincePause >= INSTANTS_PER_PAUSE) {
      this.sincePause = 0;
      return true;
    }
    return false;
  };

  /**
   * For SimulationOptions.shouldYield, asked inside an instant (after each controller's work, between
   * two ReplicaSet syncs, between binder pods): true at a limit or on Ctrl-C, so that one long
   * instant (a scale to 100,000 replicas) stops there too, whole up to that point; never for a pause.
   */
  readonly shouldYield = (): boolean => {
    if (this.reason) return true;
    if (this.sim && this.sim.trace.length >= this.maxDecisions) this.reason = 'decisions';
    else if (this.started !== undefined && this.io.now && this.io.now() - this.started >= this.maxSeconds * 1000) this.reason = 'seconds';
    else if (this.io.interrupted?.()) this.reason = 'interrupted';
    return this.reason !== undefined;
  };

  /**
   * For SimulationOptions.shouldAbort, asked inside an instant after each controller's work: Ctrl-C
   * only (one long instant is where a user presses it; the limits wait for the instant's end).
   */
  readonly shouldAbort = (): boolean => {
    if (this.reason === 'interrupted') return true;
    if (!this.io.interrupted?.()) return false;
    this.reason = 'interrupted';
    return true;
  };

  /**
   * Runs `run` (a runUntil, some steps) to its end, pausing when the simulation stops for a pause
   * (so that a Ctrl-C gets in) and calling `after` each time it comes back. Resolves to whether it
   * finished; when not, `reason` says why.
   */
  async drive(sim: Simulation, run: () => void, after?: () => void, until?: Micros): Promise<boolean> {
    this.watch(sim);
    try {
      for (;;) {
        run();
        after?.();
        if (!sim.stopped) return true;
        if (this.reason) return false;
        this.io.progress?.(progressText(sim, until));
        await this.io.pause?.();
      }
    } finally {
      this.io.progress?.('');
    }
  }

  /** The stderr line for a stop; returns the exit code. */
  report(sim: Simulation): number {
    const at = formatOffset((sim.now - sim.startTime) / 1000);
    const decisions = `${sim.trace.length} decision(s)`;
    const soFar = 'the output above is the run so far';
    switch (this.reason) {
      case 'interrupted':
        this.io.err(`controller-stepper: interrupted at ${at} (${decisions}); ${soFar}\n`);
        return INTERRUPTED_EXIT;
      case 'seconds':
        this.io.err(
          `controller-stepper: stopped at ${at} (${decisions}): the run took longer than --max-seconds ${this.maxSeconds}; ${soFar}; raise the limit with --max-seconds S (default ${DEFAULT_MAX_SECONDS})\n`,
        );
        return LIMIT_EXIT;
      default:
        this.io.err(
          `controller-stepper: stopped at ${at} (${decisions}): the run reached --max-decisions ${this.maxDecisions}; ${soFar}; raise the limit with --max-decisions N (default ${DEFAULT_MAX_DECISIONS})\n`,
        );
        return LIMIT_EXIT;
    }
  }
}
