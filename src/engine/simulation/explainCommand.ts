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

/** `controller-stepper explain FILE --object OBJECT --until AT`, or undefined when the expectation names no object. */
export function whyCommand(file: string, r: Pick<ExpectationResult, 'object' | 'at'>): string | undefined {
  return r.object ? `controller-stepper explain ${shellWord(file)} --object ${shellWord(r.object)} --until ${r.at}` : undefined;
}
