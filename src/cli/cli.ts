/**
 * The command line (spec 4) as a function: `cli(argv, io)` returns the exit
 * code (0 ok, 1 assertion or validation failure, 2 bad usage, unreadable or
 * invalid input, a run stopped by a guard (guards.ts), or an internal error;
 * 130 interrupted). main.ts only wires it to the process.
 */
import { parseArgs, UsageError, type ParsedArgs } from './args';
import type { CliIo } from './io';
import { replay } from './commands/replay';
import { explain } from './commands/explain';
import { validate } from './commands/validate';
import { runTests } from './commands/test';
import { generate } from './commands/generate';
import { version } from './commands/version';
import { importCommand, IMPORT_USAGE } from './commands/import';
import { compareCommand, COMPARE_USAGE } from './commands/compare';

export const USAGE = `Usage:
  controller-stepper replay FILE [--until 10m|RFC3339] [--steps N] [--version 1.12]
                                 [--set nodeMonitorGracePeriod=20s ...]
                                 [--output trace|state|both] [--format text|json|yaml] [--ticks]
  controller-stepper explain FILE --object Pod/default/web-1 [--until ...] [--format text|json] [--lists]
  controller-stepper validate FILE...     the language server's diagnostics; exit 1 on errors
  controller-stepper test FILE... [--format text|json|junit]
                                          run the scenarios' expect: blocks; exit 1 on failure
                                          (junit: JUnit XML for CI test reports)
  replay, explain and test also take [--max-decisions N] (default 5000000 decisions per run)
  and [--max-seconds S] (default 600 seconds of real time): a run that reaches one stops there,
  prints what it has so far and exits 2; Ctrl-C does the same and exits 130.
  controller-stepper version              the tool's own version and the Kubernetes versions it simulates
  controller-stepper generate --nodes 5000 --pods-per-node 30 --zones 3 [--seed 1] [--version 1.12]
                              [--format json|yaml] [--detail full|lean] [--outage ZONE:60s:30m]
                              [--out DIR] > big.json   (--out: DIR/cluster.json, and with --outage DIR/scenario.yaml)
                              (lean: no managedFields, images or token volumes; a full 5,000-node
                              export is over 1 GB, more than one JavaScript string can hold)

  ${IMPORT_USAGE}
  ${COMPARE_USAGE}   (exit 1 when simulation and reality differ)

FILE is a scenario file, or a snapshot (kubectl export: file or folder); - reads it from
standard input (kubectl get … -o yaml | controller-stepper replay -), as does a pipe named as FILE.
Text output: times relative to the start (given once in the header); the monitor-pass
ticks are hidden (--ticks shows them); on a terminal lines are cut to its width
(--format json has them whole).
Exit codes: 0 ok, 1 an expectation or validation failed, 2 bad usage, unreadable or
invalid input (nothing is simulated), a run stopped at --max-decisions or --max-seconds
(stderr says which, at what simulated time), or an internal error (CONTROLLER_STEPPER_DEBUG=1
shows its stack); 130 interrupted (Ctrl-C); 141 when the reader of the output went away (| head).
`;

const COMMANDS: Record<string, (args: ParsedArgs, io: CliIo) => Promise<number> | number> = {
  replay,
  explain,
  validate,
  test: runTests,
  generate,
  version,
};

/** Commands that parse their own options (commands/ownArgs.ts). */
const OWN_ARGS: Record<string, (argv: readonly string[], io: CliIo) => number> = { import: importCommand, compare: compareCommand };

/**
 * Runs one command. An exception is a bug of ours, not of the input: one
 * clear line and exit 2, with the stack only when asked (io.debug, set by
 * CONTROLLER_STEPPER_DEBUG=1), never a stack trace by default.
 */
export async function cli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (e) {
    const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    io.err(`controller-stepper: internal error (a bug in controller-stepper, not in your input): ${what.split('\n')[0]}\n`);
    if (io.debug && e instanceof Error && e.stack) io.err(`${e.stack}\n`);
    else io.err('controller-stepper: run again with CONTROLLER_STEPPER_DEBUG=1 for the stack trace\n');
    return 2;
  }
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  // `--version` alone is what people type to ask for the tool's version (with a command it is the
  // Kubernetes version to simulate, and takes a value)
  if (argv.length === 1 && argv[0] === '--version') argv = ['version'];
  const own = argv[0] !== undefined ? OWN_ARGS[argv[0]] : undefined;
  if (own) return own(argv.slice(1), io);
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`controller-stepper: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  // Asked-for help goes to stdout (so `| less` works); help after a usage mistake goes to stderr.
  if (args.help || args.command === 'help' || !args.command) {
    (args.command || args.help ? io.out : io.err)(USAGE);
    return args.command || args.help ? 0 : 2;
  }
  const command = COMMANDS[args.command];
  if (!command) {
    io.err(`controller-stepper: unknown command "${args.command}"\n\n${USAGE}`);
    return 2;
  }
  if (args.format === 'junit' && args.command !== 'test') {
    io.err(`controller-stepper ${args.command}: --format junit is for test only\n`);
    return 2;
  }
  if (args.color !== undefined) io = { ...io, color: args.color };
  try {
    return await command(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`controller-stepper ${args.command}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
