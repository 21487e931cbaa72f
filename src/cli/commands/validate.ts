/**
 * `validate FILE...`: the problems the language server shows (the same lint
 * rules: schema, references, timing lints, settings the version lacks), with
 * file:line:column; exit 1 when any is an error.
 */
import { lintFile } from '../../engine/lint';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { CLI_ROOTS, reportProblems } from '../open';

export function validate(args: ParsedArgs, io: CliIo): number {
  if (!args.files.length) throw new UsageError('validate takes one or more FILEs');
  let errors = 0;
  let warnings = 0;
  let unreadable = 0;
  for (const file of args.files) {
    if (!io.fs.stat(file)) {
      io.err(`controller-stepper: cannot read ${file}: no such file or folder\n`);
      return 2;
    }
    const problems = lintFile(file, io.fs, { versionOverride: args.version, set: args.set, allowOutside: args.allowOutside, roots: CLI_ROOTS });
    reportProblems(io, problems);
    // as a missing file: the input could not be read, so nothing was checked (exit 2, not 1)
    if (problems.some((p) => p.code === 'unreadable-file' && p.position?.file === file)) unreadable++;
    errors += problems.filter((p) => p.severity === 'error').length;
    warnings += problems.filter((p) => p.severity === 'warning').length;
  }
  io.out(`${args.files.length} file(s): ${errors} error(s), ${warnings} warning(s)\n`);
  if (unreadable) {
    io.err(`controller-stepper: ${unreadable} of ${args.files.length} file(s) could not be read\n`);
    return 2;
  }
  return errors ? 1 : 0;
}
