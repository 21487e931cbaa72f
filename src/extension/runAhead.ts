/**
 * Run-ahead: a second simulation of the same scenario and options, kept one pass ahead of the one the
 * panel shows (two, when the pass after the next is forecast heavy: `runOn`) and advanced in the host's idle time, so that a Step onto the pass it has reached is a
 * swap instead of the engine's step (the pass in which 1,667 nodes go Unknown takes over a second of
 * engine at 5,000 nodes, and a user reads a pass before stepping on). The simulation is deterministic:
 * the ahead one, at the same position, is the shown one, decision for decision and record for record.
 *
 * What keeps the swap invisible: the views' caches read the simulation they are given (KeptView) or
 * the trace by seq (the run, the passes, the marks), and the change reports, which are per simulation,
 * are taken and dropped by the ahead one when it stands on the shown position, so that what it hands
 * over are exactly the changes from the shown pass to the next, as the shown one would have reported.
 * A position is known by its pass, time and trace: the ahead one catches up (goToPass) to any other
 * move of the shown one, and waits where it cannot stand on the shown position (a Run Until to a time
 * between passes, a run cancelled mid-way); before the first pass it is a simulation made afresh.
 *
 * A companion (the session's views: KeptView.ahead) goes with each simulation and is handed over with it at
 * a swap: it takes the ahead one's reports where they would be dropped, and once the next pass is
 * prepared it prepares what the step onto it will need, so that the step does not compute it.
 */
import type { Simulation, SimulationOptions } from '../engine/simulation/api';

/**
 * Makes a simulation a slice at a time: each call works while `more()` says so, and gives the simulation once made.
 * `like`: the shown simulation (the same scenario and options), whose start the new one may take instead of making its own.
 */
export type MakeInSlices = (like?: Simulation) => (more: () => boolean) => Simulation | undefined;

/** Makes the session's simulations; `inSlices`, the same simulation made a slice at a time (see MakeInSlices). */
export type MakeSimulation = ((options: SimulationOptions) => Simulation) & {
  inSlices?: (options: SimulationOptions, like?: Simulation) => (more: () => boolean) => Simulation | undefined;
};

/** The session's simulations made a slice at a time where the factory can (`inSlices`), else at once. */
export function slicedMake(make: MakeSimulation, options: SimulationOptions): MakeInSlices {
  return (like) => make.inSlices?.(options, like) ?? (() => make(options));
}

/** What goes with each simulation (its views), kept in step with it by the ahead simulation's idle work. */
export interface Companion<V> {
  make(): V;
  /**
   * The ahead simulation stands on the shown position: what it reported changed until now is taken (and dropped),
   * a slice at a time (while `more()` says so); true while work is left (it is asked again, then, before any other).
   */
  align(sim: Simulation, v: V, more: () => boolean): boolean;
  /** the ahead simulation stands on its pass, prepared: a slice of what a step onto it will need; true while work is left */
  prepare(sim: Simulation, v: V, more: () => boolean): boolean;
}

/** No companion: the reports are dropped, and the step makes its views itself. */
export const NO_COMPANION: Companion<undefined> = {
  make: () => undefined,
  align: (a) => {
    a.takePodChanges?.({});
    a.takeRecordChanges?.();
    return false;
  },
  prepare: () => false,
};

/** What a position is known by (positionOf). */
export type Position = Pick<Simulation, 'pass' | 'now' | 'trace' | 'partDone'>;

/**
 * The shown position while no simulation stands on it yet: the open's simulation was handed to the run-ahead, and the
 * shown one is still being made like it (swapAtOpen.ts). Only the start is shown so: before the first pass, a position
 * is the same for every simulation of the scenario, and `standsFor` (the open's) gives the start to take (MakeInSlices).
 */
export interface ShownStart extends Position {
  readonly pass: null;
  readonly lastPass: number;
  nextPassHeavy(): boolean;
  readonly standsFor: Simulation;
}

/** The shown simulation, or the start standing for it while it is made. */
export type Shown = Simulation | ShownStart;

function isStart(shown: Shown): shown is ShownStart {
  return 'standsFor' in shown;
}

/** Where a simulation stands, for comparing two runs of the same scenario; undefined inside an instant. */
export function positionOf(sim: Position): string | undefined {
  if (sim.partDone) return undefined;
  const t = sim.trace;
  return `${sim.pass}|${sim.now}|${t.length}|${t.length ? t.at(-1)!.seq : 0}`;
}

/** A simulation's idle preparation (the pending checkpoint, the binder's index), a slice at a time where it can be cut; true while work is left. */
export function prepareIdle(sim: Simulation, more: () => boolean): boolean {
  if (sim.prepareSlice) return sim.prepareSlice(more);
  sim.prepare?.();
  return false;
}

/** The checkpoint a simulation's last step left pending, a slice at a time (prepareIdle where it cannot be taken alone); true while work is left. */
function pendingCheckpoint(sim: Simulation, more: () => boolean): boolean {
  return sim.prepareSlice ? sim.prepareSlice(more, true) : prepareIdle(sim, more);
}

/**
 * A new shown simulation with its preparation done at once (the binder's node index: 150–170 ms at 5,000 nodes
 * and 150,000 pods, a few percent of the load before it). Idle time would do it, but a user who steps on at once
 * leaves none, and the first placement builds it then: in the generated outage, the click after the Unknown pass
 * (290–350 ms, against 116–156 ms prepared: a Session in node, quick steps). The steps keep it up to date after.
 */
export function preparedNow(sim: Simulation): Simulation {
  sim.prepare?.();
  return sim;
}

/**
 * The run-ahead's work done at once, without slices, until the ahead simulation's companion is `ready` (prepared on
 * the next pass) or nothing is left: for an open that would rather make the next pass before its first paint than
 * after it (at 5,000 nodes the ahead simulation's making and pass 0 are about a second, which a user who clicks Step
 * within a second or two of the paint otherwise waits for).
 */
export function runAheadNow<V>(ahead: RunAhead<V>, shown: Simulation, ready: (views: V) => boolean): void {
  const more = (): boolean => ahead.views === undefined || !ready(ahead.views);
  while (more() && ahead.slice(shown, more));
}

/**
 * Where the ahead simulation stands relative to the shown one (positions as `positionOf` gives them):
 * - `apart`: its change reports are not those of the shown pass to the next (it has yet to catch up and align);
 * - `aligned`: its reports were dropped when it stood on the shown position `on`, and it has only gone on toward the
 *   next pass since;
 * - `ranOn`: it went on past the next pass from the shown position `from` (see `runOn`); `on`, once its reports were
 *   dropped on the next pass, is that pass's position, which the shown one reaches by stepping itself.
 */
type Phase = { kind: 'apart' } | { kind: 'aligned'; on: string } | { kind: 'ranOn'; from: string; on?: string };

const APART: Phase = { kind: 'apart' };

/** The shown position at which the ahead one's reports were dropped (a step from there may take it over), if any. */
function alignedOn(p: Phase): string | undefined {
  return p.kind === 'apart' ? undefined : p.on;
}

export class RunAhead<V = undefined> {
  /** the ahead simulation (made in the first idle slices, see `making`; dropped when run-ahead is turned off) */
  private ahead?: Simulation;
  /** the ahead simulation's companion */
  private aheadViews?: V;
  /** the ahead simulation while it is being made, a slice at a time */
  private making?: (more: () => boolean) => Simulation | undefined;
  private phase: Phase = APART;
  /** a shown position the ahead one cannot stand on (see the header); apart from the phase: it is only compared with the shown position */
  private unreachable?: string;
  /** while the ahead one runs: its slice's `more` (its shouldStop and shouldYield ask it) */
  private more?: () => boolean;

  constructor(
    private readonly make: MakeInSlices,
    public enabled = true,
    private readonly companion: Companion<V> = NO_COMPANION as Companion<V>,
  ) {}

  /** The ahead simulation, if any (the bench times its engine calls). */
  get sim(): Simulation | undefined {
    return this.ahead;
  }

  /** The ahead simulation's companion, if any. */
  get views(): V | undefined {
    return this.aheadViews;
  }

  /** Whether the ahead simulation is running: its shouldStop and shouldYield are then this, not the session's. */
  get working(): boolean {
    return this.more !== undefined;
  }

  /** The ahead simulation's shouldStop and shouldYield while it runs: its idle slice is over. */
  over(): boolean {
    return this.more !== undefined && !this.more();
  }

  /** Turns run-ahead on or off (off: the ahead simulation's memory is let go). */
  setEnabled(on: boolean): void {
    this.enabled = on;
    if (!on) this.drop();
  }

  /**
   * `sim` (the open's, which stands on the shown start, its views made: swapAtOpen.ts) becomes the ahead simulation,
   * with a companion of its own: it goes on to the next pass without a copy of its own to make first.
   */
  adopt(sim: Simulation): void {
    this.drop();
    if (!this.enabled) return;
    this.ahead = sim;
    this.aheadViews = this.companion.make();
  }

  drop(): void {
    this.ahead = undefined;
    this.aheadViews = undefined;
    this.making = undefined;
    this.phase = APART;
    this.unreachable = undefined;
  }

  /**
   * A step from `shown`: the ahead simulation when it stands on the shown position or has gone on from
   * it toward the next pass (the step finishes its part-done work), with its companion; `shown` and
   * `shownViews` take their place, to run on two passes in idle time. Else undefined, and the shown one
   * steps itself. A shown start (`ShownStart`) has no simulation yet: `making`, the one being made for it, takes its place
   * with `shownViews`, and is made in the ahead one's idle slices.
   */
  takeOver(shown: Simulation, shownViews: V): { sim: Simulation; views: V } | undefined;
  takeOver(shown: ShownStart, shownViews: V, making: (more: () => boolean) => Simulation | undefined): { sim: Simulation; views: V } | undefined;
  takeOver(shown: Shown, shownViews: V, making?: (more: () => boolean) => Simulation | undefined): { sim: Simulation; views: V } | undefined {
    const a = this.ahead;
    const on = alignedOn(this.phase);
    if (!a || !this.enabled || on === undefined) return undefined;
    // the rest of a restore a step back or reset left for idle time (GoToPassOptions.viewsFirst) is done where it is then
    // the position aligned on; else the step goes on from it (a redo at once takes that rest into its hand-off: redo.ts)
    if (!isStart(shown) && shown.partDone && on === positionOf({ pass: shown.pass, now: shown.now, trace: shown.trace, partDone: false }))
      shown.finishRestore?.();
    if (on !== positionOf(shown)) return undefined;
    const views = this.aheadViews as V;
    this.ahead = isStart(shown) ? undefined : shown;
    this.making = making;
    this.aheadViews = shownViews;
    this.phase = APART;
    this.unreachable = undefined;
    return { sim: a, views };
  }

  /**
   * One idle slice: works while `more()` says so (at least one piece) and returns true while work is left.
   * A piece is the controllers' work between two of their yield points (the ahead simulation's making,
   * its controllers' start included, is cut in pieces too: simulationInSlices).
   */
  slice(shown: Shown, more: () => boolean): boolean {
    if (!this.enabled) return false;
    const key = positionOf(shown);
    if (key === undefined || key === this.unreachable) return false;
    const target = (shown.pass ?? -1) + 1;
    if (target > shown.lastPass) return false;
    this.more = more;
    try {
      return this.work(shown, key, target);
    } finally {
      this.more = undefined;
    }
  }

  private work(shown: Shown, key: string, target: number): boolean {
    if (!this.ahead) {
      // the shown one's controllers' memory at its start is taken (simulationInSlices: their start reads every pod again)
      this.making ??= this.make(isStart(shown) ? shown.standsFor : shown);
      const made = this.making(this.more!);
      if (!made) return true;
      this.making = undefined;
      this.ahead = made;
      // (a making handed over by takeOver comes with the views of the position it was made for)
      this.aheadViews ??= this.companion.make();
      return true;
    }
    const a = this.ahead;
    if (this.phase.kind === 'ranOn') {
      if (this.phase.from === key) return this.runOn(a, key, target + 1);
      // the shown one moved since the ahead one ran on: onto the pass it aligned on (a step), or elsewhere
      this.phase = this.phase.on === undefined ? APART : { kind: 'aligned', on: this.phase.on };
    }
    if (alignedOn(this.phase) !== key) {
      this.phase = APART;
      if (isStart(shown) || shown.pass === null) {
        // Before the first pass there is no pass to go to: the ahead one goes back to its own start (its first
        // checkpoint, as the shown one's Reset), a restore of what it stepped since, in this slice. It used to be made
        // again from scratch, and the Step after a Step Back from pass 0 stepped pass 0 itself meanwhile (0.26-0.41 s at 5,000 nodes).
        if (positionOf(a) !== key) {
          a.reset();
          if (positionOf(a) !== key) {
            this.ahead = this.aheadViews = undefined;
            return true;
          }
          if (!this.more!()) return true;
        }
      } else if (positionOf(a) !== key) {
        // The passes the shown one stepped are taken from its checkpoints where it kept them (handOff.ts), not stepped
        // again: after a swap onto a heavy pass the other simulation, left on the pass before, stepped it a second time.
        // A hand-off done or under way ends the slice; the next one finds where it stands.
        if (a.handOffSlice?.(shown, shown.pass, this.more!) !== undefined) return true;
        // after a step back, its restore in parts, a slice at a time (one block of 139-306 ms at 5,000 nodes)
        a.goToPass(shown.pass, { interactive: true, restoreInPieces: true });
        if (a.pass !== shown.pass || a.partDone) return this.cut(a, key);
        if (positionOf(a) !== key) {
          this.unreachable = key;
          return false;
        }
        // the alignment (the view's update of that pass's changes) in a slice of its own: this one finished the pass.
        // The next one finds it there and does not ask goToPass again, which would take the checkpoint it left pending at once.
        if (!this.more!()) return true;
      }
      // from here its reports are those of the shown pass to the next
      if (this.companion.align(a, this.aheadViews as V, this.more!)) return true;
      this.phase = { kind: 'aligned', on: key };
      if (!this.more!()) return true;
    }
    if (a.pass !== target || a.partDone) {
      // the checkpoint the catch-up left pending is taken in slices here, as the shown one's is, not by goToPass at once
      // (only it: the binder's node index, which a swap does not need, is made once the views are prepared, below)
      if (!a.partDone && pendingCheckpoint(a, this.more!)) return true;
      a.goToPass(target, { interactive: true });
      if (a.pass !== target || a.partDone) return this.cut(a, key);
      if (!this.more!()) return true;
    }
    // The checkpoint its pass left pending (the step onto it would take it), its views, and only then the rest of the
    // shown one's idle preparation (the binder's index, which a swap does not need: 120-140 ms after the first pass at
    // 5,000 nodes, which held a click at once after the open off the swap; bench/README.md "fork").
    if (a.hasPendingCheckpoint === true) {
      if (pendingCheckpoint(a, this.more!)) return true;
      if (!this.more!()) return true;
    }
    // (never past a heavy pass: the shown one would then step it itself; nor from a shown start whose simulation is being
    // made, whose step takes this one over on the next pass: swapAtOpen.ts)
    if (target < shown.lastPass && !isStart(shown) && a.nextPassHeavy?.() && !shown.nextPassHeavy?.()) {
      if (prepareIdle(a, this.more!) || !this.more!()) return true;
      this.phase = { kind: 'ranOn', from: key };
      return this.runOn(a, key, target + 1);
    }
    return this.companion.prepare(a, this.aheadViews as V, this.more!) || prepareIdle(a, this.more!);
  }

  /**
   * The pass after the next is forecast heavy (the zone's nodes going Unknown: over a second of engine at 5,000 nodes,
   * and the pass after it as much again for the simulation that steps it second): the ahead one aligns on the next pass
   * and goes on to the heavy one in the idle time of this pass already, so that a click onto it after reading two
   * passes does not wait for it (after reading one, 3 s at load 3, it found it part-way and waited 0.5-0.7 s). The step
   * onto the next pass, a light one, is then the shown one's own.
   */
  private runOn(a: Simulation, key: string, heavy: number): boolean {
    if (this.phase.kind === 'ranOn' && this.phase.on === undefined) {
      if (this.companion.align(a, this.aheadViews as V, this.more!)) return true;
      this.phase = { kind: 'ranOn', from: key, on: positionOf(a) };
      if (!this.more!()) return true;
    }
    if (a.pass !== heavy || a.partDone) {
      a.goToPass(heavy, { interactive: true });
      if (a.pass !== heavy || a.partDone) return this.cut(a, key);
      if (!this.more!()) return true;
    }
    if (prepareIdle(a, this.more!)) return true;
    return this.more!() ? this.companion.prepare(a, this.aheadViews as V, this.more!) : true;
  }

  /** A goToPass that stopped short: cut by the slice (work left), or it cannot get there (no more instants). */
  private cut(a: Simulation, key: string): boolean {
    if (a.stopped) return true;
    this.unreachable = key;
    return false;
  }
}
