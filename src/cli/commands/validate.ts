/**
 * `validate FILE...`: the problems the language server would show, with
 * file:line:column; exit 1 when any is an error.
 */
import { loadScenario } from '../../engine/snapshot/scenario';
import { createSimulation } from '../../engine';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { reportProblems } from '../open';

export function validate(args: ParsedArgs, io: CliIo): number {
  if (!args.files.length) throw new UsageError('validate takes one or more FILEs');
  let errors = 0;
  let warnings = 0;
  for (const file of args.files) {
    if (!io.fs.stat(file)) {
      io.err(`controller-stepper: cannot read ${file}: no such file or folder\n`);
      return 2;
    }
    const scenario = loadScenario(file, io.fs);
    const problems = createSimulation(scenario, { version: args.version, set: args.set }).problems;
    reportProblems(io, problems);
    errors += problems.filter((p) => p.severity === 'error').length;
    warnings += problems.filter((p) => p.severity === 'warning').length;
  }
  io.out(`${args.files.length} file(s): ${errors} error(s), ${warnings} warning(s)\n`);
  return errors ? 1 : 0;
}
