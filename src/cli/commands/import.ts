/**
 * `import FILE|DIR... [--snapshot S] [--version 1.x] [--at RFC3339]`: read the
 * evidence (files, or folders of them, gzipped or not), infer the scenario,
 * print it as YAML on stdout; problems go to stderr with file:line:column.
 * Files are read in chunks when the shell can, so a big audit log is never
 * one string. The reading is the engine's (import/files.ts), shared with the
 * extension's Import Evidence.
 */
import { relative, resolve } from 'node:path';
import { formatProblem, parseTimestamp } from '../../engine';
import { importEvidenceFiles } from '../../engine/import/files';
import { MAX_MINOR, MIN_MINOR, parseKubeVersion } from '../../engine/versions/table';
import type { CliIo } from '../io';
import { ownOptions, OwnUsageError } from './ownArgs';

export const IMPORT_USAGE = 'controller-stepper import FILE|DIR... [--snapshot SNAPSHOT] [--version 1.x] [--at RFC3339] > scenario.yaml';

export function importCommand(argv: readonly string[], io: CliIo): number {
  let o;
  try {
    o = ownOptions(argv, { snapshot: 'repeat', version: 'one', at: 'one', name: 'one' });
  } catch (e) {
    if (e instanceof OwnUsageError) {
      io.err(`controller-stepper import: ${e.message}\nUsage: ${IMPORT_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (o.help) {
    io.out(`Usage: ${IMPORT_USAGE}\n`);
    return 0;
  }
  if (!o.files.length) {
    io.err(`controller-stepper import: give one or more evidence files or folders\nUsage: ${IMPORT_USAGE}\n`);
    return 2;
  }
  const version = o.one.version;
  const parsed = version === undefined ? undefined : parseKubeVersion(version);
  if (version !== undefined && !parsed) {
    io.err(`controller-stepper import: --version ${version} is not a version from 1.${MIN_MINOR} to 1.${MAX_MINOR}\n`);
    return 2;
  }
  let at: number | undefined;
  if (o.one.at !== undefined) {
    at = parseTimestamp(o.one.at);
    if (at === undefined) {
      io.err(`controller-stepper import: --at wants an RFC3339 time such as 2026-06-17T13:00:00Z, not "${o.one.at}"\n`);
      return 2;
    }
  }
  const outcome = importEvidenceFiles(
    o.files,
    { fs: io.fs, readChunks: (f) => (io.readChunks ? io.readChunks(f) : [io.fs.readText(f)]) },
    {
      now: Date.now() * 1000,
      at,
      version: parsed ? `1.${parsed.minor}` : undefined,
      snapshots: o.many.snapshot,
      name: o.one.name,
      writtenPath: writtenPathFor(io.outputFolder?.()),
    },
  );
  const problems = outcome.ok ? outcome.imported.problems : outcome.problems;
  for (const p of problems) io.err(`${formatProblem(p)}\n`);
  if (!outcome.ok) {
    io.err(`controller-stepper${/^(none of|the snapshot )/.test(outcome.message) ? ' import' : ''}: ${outcome.message}\n`);
    return 2;
  }
  io.out(outcome.imported.text);
  return 0;
}

/**
 * The scenario reads its snapshot paths relative to its own file, and the command line was given them relative to
 * the shell's folder: into a file whose folder is known (`> out/scenario.yaml`) they are written relative to it, else
 * (a terminal, a pipe) absolute, so that the scenario finds them wherever it is kept.
 */
export function writtenPathFor(folder: string | undefined, cwd = process.cwd()): (path: string) => string {
  return (path) => {
    const absolute = resolve(cwd, path);
    return folder === undefined ? absolute : relative(folder, absolute) || '.';
  };
}
