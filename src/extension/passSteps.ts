/**
 * Moving the session's simulation forward to a pass, a step at a time, so that the host's slices
 * (slices.ts) can stop it and a later slice can go on. A step may stop inside an instant
 * (SimulationOptions.shouldYield); the step that finishes such a part-done pass instant stays at
 * that pass, which is not the end of the simulation.
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

/** Steps towards pass `n` while `over()` (the slice) says go on: true when it stopped short. */
export function forwardToPass(sim: Simulation, n: number, over: () => boolean): boolean {
  for (let p = sim.pass ?? -1; p < n; p = sim.pass ?? -1) {
    if (over()) return true;
    const resuming = sim.partDone === true;
    sim.step();
    if ((sim.pass ?? -1) === p && !resuming) {
      if (sim.stopped === true) return true;
      return false;
    }
  }
  return false;
}
