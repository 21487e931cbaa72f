/**
 * `compare SCENARIO [--tolerance 5s] [--format text|json] [--version 1.x]`:
 * replay the scenario and line its `reality:` up with the simulated
 * decisions. Exit 0 when they agree, 1 when they differ, 2 on bad input.
 */
import { CLI_ROOTS } from '../open';
import { createSimulation, formatProblem, hasErrors, parseDuration } from '../../engine';
import { loadScenario } from '../../engine/snapshot/scenario';
import { compareWithReality } from '../../engine/import/compareRun';
import { compareToJson, formatCompareText } from '../../engine/import/compareText';
import { MAX_MINOR, MIN_MINOR, parseKubeVersion } from '../../engine/versions/table';
import type { CliIo } from '../io';
import { ownOptions, OwnUsageError } from './ownArgs';

export const COMPARE_USAGE = 'controller-stepper compare SCENARIO [--tolerance 5s] [--format text|json] [--version 1.x] [--allow-outside]';

export function compareCommand(argv: readonly string[], io: CliIo): number {
  let o;
  try {
    o = ownOptions(argv, { tolerance: 'one', format: 'one', version: 'one' });
  } catch (e) {
    if (e instanceof OwnUsageError) {
      io.err(`controller-stepper compare: ${e.message}\nUsage: ${COMPARE_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (o.help) {
    io.out(`Usage: ${COMPARE_USAGE}\n`);
    return 0;
  }
  if (o.files.length !== 1) {
    io.err(`controller-stepper compare: give one scenario file\nUsage: ${COMPARE_USAGE}\n`);
    return 2;
  }
  const format = o.one.format ?? 'text';
  if (format !== 'text' && format !== 'json') {
    io.err(`controller-stepper compare: --format is text or json, not "${format}"\n`);
    return 2;
  }
  const tolText = o.one.tolerance;
  const tolerance = tolText === undefined ? undefined : parseDuration(tolText);
  if (tolText !== undefined && (tolerance === undefined || tolerance < 0)) {
    io.err(`controller-stepper compare: --tolerance wants a duration such as 5s, not "${tolText}"\n`);
    return 2;
  }
  if (o.one.version !== undefined && !parseKubeVersion(o.one.version)) {
    io.err(`controller-stepper compare: --version ${o.one.version} is not a version from 1.${MIN_MINOR} to 1.${MAX_MINOR}\n`);
    return 2;
  }
  const file = o.files[0];
  if (!io.fs.stat(file)) {
    io.err(`controller-stepper: cannot read ${file}: no such file or folder\n`);
    return 2;
  }
  const scenario = loadScenario(file, io.fs, { allowOutside: o.allowOutside, roots: CLI_ROOTS });
  for (const p of scenario.problems) if (p.severity !== 'info') io.err(`${formatProblem(p)}\n`);
  if (hasErrors(scenario.problems)) {
    io.err(`controller-stepper compare: ${file} has errors; nothing was simulated\n`);
    return 2;
  }
  if (!scenario.reality?.length) {
    io.err(
      `controller-stepper compare: ${file} has no reality: entries, so there is nothing to compare with. import writes them from the controllers' decisions the evidence shows (Events, kube-controller-manager log lines, audit writes of taints, pod deletions and scale changes); evidence of heartbeats, object states or other controllers alone gives none\n`,
    );
    return 2;
  }
  const sim = createSimulation(scenario, { version: o.one.version });
  for (const p of sim.problems) if (p.severity === 'error') io.err(`${formatProblem(p)}\n`);
  if (hasErrors(sim.problems)) return 2;
  io.loaded?.();
  const report = compareWithReality(sim, tolerance)!;
  if (format === 'json') io.out(`${JSON.stringify(compareToJson(report))}\n`);
  else io.out(formatCompareText(report, `compare: ${file} (Kubernetes ${sim.behaviour.version.text} simulated)`));
  return report.agree ? 0 : 1;
}
