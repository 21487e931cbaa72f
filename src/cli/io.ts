/**
 * Everything the command line touches outside itself, so `cli(argv, io)` is
 * a function tests can call with in-memory streams and files.
 */
import type { InputFs } from '../engine/snapshot/source';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  fs: InputFs;
  /** colour the text output (a terminal, or --color) */
  color: boolean;
  /** the terminal's width when stdout is one: text trace lines are cut to it */
  columns?: number;
  /** print the stack of an internal error (CONTROLLER_STEPPER_DEBUG=1) */
  debug?: boolean;
  /** the tool's own version (package.json), for `controller-stepper version` */
  toolVersion?: string;
  /** writes a file (creating its folder), chunk by chunk: `generate --out` writes clusters too big for one string */
  writeFile?(path: string, chunks: Iterable<string>): void;
  /** milliseconds on a monotonic clock, for --max-seconds (tests inject one; without it the limit is not checked) */
  now?(): number;
  /** whether Ctrl-C (SIGINT) was pressed since the command started */
  interrupted?(): boolean;
  /** lets the event loop run (so a Ctrl-C gets in) in the middle of a long run */
  pause?(): Promise<void>;
  /**
   * Only when stderr is a terminal: shows `text` as the single progress line (each call replaces it;
   * '' clears it). Never set for a pipe or a file, so their stderr has no progress text.
   */
  progress?(text: string): void;
  /**
   * The folder of the file stdout is redirected into (`import … > out/scenario.yaml`): what `import` writes there is
   * read from there, so its paths are written relative to it. Undefined for a terminal, a pipe, or where it cannot be told.
   */
  outputFolder?(): string | undefined;
  /**
   * Called once an input is loaded and its simulation built, before anything runs: the command line's
   * own process sets its run options there (runOptions.ts); tests leave it out.
   */
  loaded?(): void;
  /** reads a file chunk by chunk (`import` streams evidence bigger than one string) */
  readChunks?(path: string): Iterable<string>;
}
