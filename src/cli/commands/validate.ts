/**
 * `validate FILE...`: the problems the language server shows (the same lint
 * rules: schema, references, timing lints, settings the version lacks), with
 * file:line:column; exit 1 when any is an error.
 */
import { lintFile } from '../../engine/lint';
import type { Problem } from '../../engine/problems';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { CLI_ROOTS, reportProblems } from '../open';

export function validate(args: ParsedArgs, io: CliIo): number {
  if (!args.files.length) throw new UsageError('validate takes one or more FILEs');
  let errors = 0;
  let warnings = 0;
  let unreadable = 0;
  const linted: { file: string; problems: Problem[] }[] = [];
  for (const file of args.files) {
    if (!io.fs.stat(file)) {
      io.err(`controller-stepper: cannot read ${file}: no such file or folder\n`);
      return 2;
    }
    linted.push({ file, problems: lintFile(file, io.fs, { versionOverride: args.version, set: args.set, allowOutside: args.allowOutside, roots: CLI_ROOTS }) });
  }
  // A scenario reports the problems of the config file it reads too: when that file is given as
  // well, its own lint says them (at the whole flag, where the scenario's points at the value)
  const key = (p: Problem) => `${p.position?.file}:${p.position?.line}:${p.code}:${p.message}`;
  const own = new Set(linted.flatMap(({ file, problems }) => problems.filter((p) => p.position?.file === file).map(key)));
  for (const { file, problems: all } of linted) {
    const problems = all.filter((p) => p.position?.file === file || !own.has(key(p)));
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
