/**
 * Moving the session's simulation forward to the next pass (Step), a user's step at a time
 * (`step(true)` keeps checkpoints near for a step back), so that the host's slices (slices.ts) can
 * stop it and a later slice can go on; Go to Pass uses the engine's goToPass, which asks the slice
 * before each pass. A step may stop inside an instant (SimulationOptions.shouldYield); the step that
 * finishes such a part-done pass instant stays at that pass, which is not the end of the simulation.
 */
import type { Simulation } from '../engine/simulation/api';

/**
 * Until the simulation is at `target`: a pass whose instant was left part-done is not reached yet
 * (the step that reached it may have been cut inside it).
 */
const short = (sim: Simulation, target: number): boolean => (sim.pass ?? -1) < target || (sim.pass === target && sim.partDone === true);

/** Steps until the simulation is at `target`, its instant whole (or stopped, or at its end). */
export function stepToPass(sim: Simulation, target: number): void {
  // a slice that cut the target pass's instant left it part-done and stopped: the next slice finishes it (it returned at
  // once, still stopped, and the host's slices went round forever)
  while (short(sim, target)) {
    const [was, resuming] = [sim.pass, sim.partDone === true];
    sim.step(true);
    if (sim.stopped || (sim.pass === was && !resuming)) return;
  }
}
