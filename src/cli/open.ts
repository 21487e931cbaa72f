/**
 * Opening an input for a command: load the scenario (or plain snapshot),
 * report its problems on stderr with file:line:column, and build the
 * simulation. Unreadable input (a missing file, or nothing usable with errors)
 * is exit 2; anything else that was wrong is reported and the rest runs,
 * labelled partial.
 */
import { loadScenario } from '../engine/snapshot/scenario';
import { unsafeToRun } from '../engine/model/limits';
import { createSimulation, formatProblem, type Problem, type Simulation } from '../engine';
import type { Scenario } from '../engine/snapshot/types';
import type { ParsedArgs } from './args';
import type { CliIo } from './io';

export type Opened = { ok: true; scenario: Scenario; sim: Simulation } | { ok: false; code: number };

export function reportProblems(io: CliIo, problems: readonly Problem[], includeInfo = false): void {
  for (const p of problems) if (includeInfo || p.severity !== 'info') io.err(`${formatProblem(p)}\n`);
}

export function openInput(file: string, args: ParsedArgs, io: CliIo): Opened {
  if (!io.fs.stat(file)) {
    io.err(`controller-stepper: cannot read ${file}: no such file or folder\n`);
    return { ok: false, code: 2 };
  }
  const scenario = loadScenario(file, io.fs, { allowOutside: args.allowOutside });
  const usable = scenario.snapshot.objects.length > 0 || scenario.events.length > 0;
  if (!usable && scenario.problems.some((p) => p.severity === 'error')) {
    reportProblems(io, scenario.problems);
    io.err(`controller-stepper: nothing in ${file} could be used\n`);
    return { ok: false, code: 2 };
  }
  const sim = createSimulation(scenario, { version: args.version, set: args.set });
  if (unsafeToRun(sim.problems)) {
    reportProblems(io, sim.problems);
    io.err(`controller-stepper: ${file} cannot be simulated within the simulation's limits (see the errors above)\n`);
    return { ok: false, code: 2 };
  }
  // The simulation's problems include the scenario's (loader + settings).
  reportProblems(io, sim.problems);
  if (scenario.snapshot.partial) io.err(`controller-stepper: ${file}: some input could not be read; the rest was loaded (partial)\n`);
  return { ok: true, scenario, sim };
}
