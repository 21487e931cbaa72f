/**
 * The command line that shows the why (or why not) of a failed expectation's object at its
 * time. The CLI's `test` prints it and VS Code's Testing view shows it, so the two give the
 * same command, quoted for the shell the same way.
 */
import type { ExpectationResult } from './api';

/** A word as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `controller-stepper explain FILE --object OBJECT --until AT`, or undefined when the expectation names no object.
 * `runFlags`: the flags the run was made with that the explanation needs to be of the same run (--version, --set,
 * --allow-outside), as words.
 */
export function whyCommand(file: string, r: Pick<ExpectationResult, 'object' | 'at'>, runFlags: readonly string[] = []): string | undefined {
  if (!r.object) return undefined;
  const flags = runFlags.map((w) => ` ${shellWord(w)}`).join('');
  return `controller-stepper explain ${shellWord(file)} --object ${shellWord(r.object)} --until ${r.at}${flags}`;
}
