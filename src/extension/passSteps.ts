/**
 * Moving the session's simulation forward to the next pass (Step), a user's step at a time
 * (`step(true)` keeps checkpoints near for a step back), so that the host's slices (slices.ts) can
 * stop it and a later slice can go on; Go to Pass uses the engine's goToPass, which asks the slice
 * before each pass. A step may stop inside an instant (SimulationOptions.shouldYield); the step that
 * finishes such a part-done pass instant stays at that pass, which is not the end of the simulation.
 */
import type { Simulation } from '../engine/simulation/api';

/** Steps until the simulation is at `target` (or stopped, or at its end). */
export function stepToPass(sim: Simulation, target: number): void {
  while ((sim.pass ?? -1) < target) {
    const [was, resuming] = [sim.pass, sim.partDone === true];
    sim.step(true);
    if (sim.stopped || (sim.pass === was && !resuming)) return;
  }
}
