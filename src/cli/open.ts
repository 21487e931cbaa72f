/**
 * Opening an input for a command: load the scenario (or plain snapshot),
 * report its problems on stderr with file:line:column, and build the
 * simulation. An error in the input (a missing file or snapshot, a file that
 * is not a snapshot or scenario, an unknown or ill-typed setting in the file
 * or in --set, an unsupported --version, an invalid expectation) is exit 2
 * before anything is simulated (spec 4, "Exit codes"); warnings are reported
 * and never change the exit code.
 */
import { loadScenario } from '../engine/snapshot/scenario';
import { unsafeToRun } from '../engine/model/limits';
import { createSimulation, formatProblem, hasErrors, type Problem, type Simulation, type SimulationOptions } from '../engine';
import type { Scenario } from '../engine/snapshot/types';
import type { ParsedArgs } from './args';
import type { CliIo } from './io';
import { escapeControl } from '../engine/trace/text';
import { sortProblems } from '../engine/lint';

export type Opened = { ok: true; scenario: Scenario; sim: Simulation } | { ok: false; code: number };

export function reportProblems(io: CliIo, problems: readonly Problem[], includeInfo = false): void {
  for (const p of problems) if (includeInfo || p.severity !== 'info') io.err(`${escapeControl(formatProblem(p))}\n`);
}

/**
 * The command line's workspace is the folder it runs in: a scenario may read its own folder tree
 * and the current folder's; anything else only with --allow-outside.
 */
export const CLI_ROOTS: readonly string[] = ['.'];

export function openInput(
  file: string,
  args: ParsedArgs,
  io: CliIo,
  guards?: Pick<SimulationOptions, 'shouldStop' | 'shouldAbort' | 'shouldYield'>,
  reject?: (scenario: Scenario) => string | undefined,
): Opened {
  if (!io.fs.stat(file)) {
    io.err(`controller-stepper: cannot read ${file}: no such file or folder\n`);
    return { ok: false, code: 2 };
  }
  const scenario = loadScenario(file, io.fs, { allowOutside: args.allowOutside, roots: CLI_ROOTS });
  // an input the command cannot use at all (test of a snapshot): its reason alone, not the loader's warnings before it
  const unusable = reject?.(scenario);
  if (unusable !== undefined) {
    io.err(`controller-stepper: ${file}: ${unusable}\n`);
    return { ok: false, code: 2 };
  }
  // An export with no object at all (an empty file or folder, or `kubectl get … | replay -` after kubectl
  // failed) has nothing to simulate: exit 2 with the reason, not a run of an empty cluster that says ok
  if (scenario.plainSnapshot && isEmptyCluster(scenario) && !hasErrors(scenario.problems)) {
    reportProblems(io, scenario.problems);
    io.err(`controller-stepper: ${file} holds no Kubernetes object (Node, Pod, ReplicaSet, DaemonSet or Lease): nothing to simulate\n`);
    return { ok: false, code: 2 };
  }
  // Building the simulation only resolves settings and memory; nothing runs until it is stepped.
  const sim = createSimulation(scenario, {
    version: args.version,
    set: args.set,
    shouldStop: guards?.shouldStop,
    shouldAbort: guards?.shouldAbort,
    shouldYield: guards?.shouldYield,
  });
  // The simulation's problems include the scenario's (loader + settings). An error unsafe to
  // run past (unsafeToRun: a file outside the workspace, a clock past its range...) is an
  // error like the others here: the command line simulates nothing after any error.
  const failed = hasErrors(sim.problems) || unsafeToRun(sim.problems);
  // where the clock would start matters only to a run: after an error there is none
  // in the file's order, as validate and the editor list them (the loader finds them phase by phase)
  reportProblems(io, sortProblems(failed ? sim.problems.filter((p) => p.code !== 'no-start-time') : [...sim.problems], file));
  if (failed) {
    const n = sim.problems.filter((p) => p.severity === 'error').length;
    io.err(`controller-stepper: ${file}: ${n} error(s) in the input; nothing was simulated\n`);
    return { ok: false, code: 2 };
  }
  if (scenario.snapshot.partial) io.err(`controller-stepper: ${file}: some input could not be read; the rest was loaded (partial)\n`);
  io.loaded?.();
  return { ok: true, scenario, sim };
}

function isEmptyCluster(scenario: Scenario): boolean {
  const c = scenario.snapshot.cluster;
  return c.nodes.size + c.pods.size + c.replicaSets.size + c.daemonSets.size + c.leases.size === 0;
}
