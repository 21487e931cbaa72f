import { fstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { cli } from './cli';
import { parseArgs } from './args';
import type { CliIo } from './io';
import { nodeFs, readChunks, writeChunks } from '../platform/nodeFs';
import { copyPipedInputs, removeCopies, STDIN, withPipedInputs } from '../platform/pipedInput';
import { setRunOptions } from './runOptions';

// A reader that went away (`| head`) ends the command at once and quietly, with the
// status a shell gives a command stopped by SIGPIPE (141), never a stack trace.
const CLOSED_PIPE = 141;
const INTERRUPTED = 130;

/** What the thread that runs the command needs from the one that owns the terminal. */
interface Terminal {
  color: boolean;
  columns?: number;
  /** stderr is a terminal: the progress line is drawn */
  progress: boolean;
  toolVersion?: string;
  /** one Int32: 1 once Ctrl-C was pressed */
  interrupt: SharedArrayBuffer;
}

/** Messages from the command's thread to the terminal's. */
type FromCommand = { out: string } | { err: string } | { progress: string } | { done: number };

function ioFor(
  terminal: Terminal,
  write: { out(t: string): void; err(t: string): void; progress?(t: string): void },
  pause: boolean,
  piped: ReadonlyMap<string, string>,
): CliIo {
  const interrupt = new Int32Array(terminal.interrupt);
  return {
    out: write.out,
    err: write.err,
    fs: withPipedInputs(nodeFs(), piped),
    writeFile: writeChunks,
    readChunks: (path) => readChunks(piped.get(path) ?? path),
    outputFolder: stdoutFolder,
    color: terminal.color,
    columns: terminal.columns,
    debug: process.env.CONTROLLER_STEPPER_DEBUG === '1',
    toolVersion: terminal.toolVersion,
    now: () => performance.now(),
    interrupted: () => Atomics.load(interrupt, 0) === 1,
    progress: write.progress,
    pause: pause ? () => new Promise<void>((resolve) => setImmediate(resolve)) : undefined,
    loaded: () => setRunOptions(setFlagsFromString, process.execArgv, process.env.NODE_OPTIONS),
  };
}

/** The folder of the regular file stdout was redirected into, where Linux tells it (/proc/self/fd/1); else undefined. */
function stdoutFolder(): string | undefined {
  try {
    return fstatSync(1).isFile() ? dirname(realpathSync('/proc/self/fd/1')) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `test` runs each scenario in one synchronous call, and one instant of it can hold minutes of
 * work (the sync after a scale to 100,000 replicas), so the command runs in a worker thread:
 * this thread stays free to take Ctrl-C and sets the shared flag, which the engine reads
 * after each controller's work (SimulationOptions.shouldAbort). The other commands let the
 * event loop in between instants (io.pause) and run here.
 */
function runsInWorker(argv: readonly string[]): boolean {
  try {
    return parseArgs(argv).command === 'test';
  } catch {
    return false; // a usage error: cli() reports it, here
  }
}

/** The FILE arguments (pipes among them are read before the command starts: platform/pipedInput.ts). */
function fileArgs(argv: readonly string[]): string[] {
  try {
    return parseArgs(argv).files;
  } catch {
    return [];
  }
}

if (isMainThread) {
  const quietOnClosedPipe = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(CLOSED_PIPE);
    else throw e;
  };
  process.stdout.on('error', quietOnClosedPipe);
  process.stderr.on('error', quietOnClosedPipe);
  // A failed write destroys the stream at once but reports it a tick later: stop before writing on.
  const write = (stream: NodeJS.WriteStream) => (t: string) => {
    if (stream.destroyed) process.exit(CLOSED_PIPE);
    stream.write(t);
  };
  // bin/controller-stepper.js sits next to package.json's folder (npx runs it through a symlink).
  const toolVersion = (() => {
    try {
      return JSON.parse(readFileSync(join(dirname(realpathSync(process.argv[1])), '..', 'package.json'), 'utf8')).version as string;
    } catch {
      return undefined;
    }
  })();

  // Ctrl-C: the running command stops at its next safe point, prints what it has and exits 130 (cli/guards.ts).
  // A second Ctrl-C ends the process at once, as without the handler.
  const interrupt = new SharedArrayBuffer(4);
  const flag = new Int32Array(interrupt);
  process.on('SIGINT', () => {
    if (Atomics.load(flag, 0) === 1) process.exit(INTERRUPTED);
    Atomics.store(flag, 0, 1);
  });

  // Progress only on a terminal's stderr: one line, redrawn at most every 100 ms (\r, then clear to its end).
  let drawnAt = Number.NEGATIVE_INFINITY;
  const progress = process.stderr.isTTY
    ? (text: string) => {
        const now = performance.now();
        if (text && now - drawnAt < 100) return;
        drawnAt = text ? now : Number.NEGATIVE_INFINITY;
        const width = process.stderr.columns ?? 80;
        process.stderr.write(`\r${text.slice(0, Math.max(0, width - 1))}\x1b[K${text ? '' : '\r'}`);
      }
    : undefined;

  const argv = process.argv.slice(2);
  const terminal: Terminal = {
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    progress: progress !== undefined,
    toolVersion,
    interrupt,
  };
  const out = write(process.stdout),
    err = write(process.stderr);
  const files = fileArgs(argv);
  if (files.includes(STDIN) && process.stdin.isTTY) err('controller-stepper: reading standard input (-) from the terminal; end it with Ctrl-D\n');
  let piped: Map<string, string> | undefined;
  try {
    piped = copyPipedInputs(files);
    process.on('exit', () => removeCopies(piped!));
  } catch (e) {
    err(`controller-stepper: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  }
  if (!piped) {
    // reported above: nothing is run
  } else if (runsInWorker(argv)) {
    const worker = new Worker(__filename, { workerData: { argv, terminal, piped } });
    let code: number | undefined;
    worker.on('message', (m: FromCommand) => {
      if ('out' in m) out(m.out);
      else if ('err' in m) err(m.err);
      else if ('progress' in m) progress?.(m.progress);
      else code = m.done;
    });
    worker.on('error', (e) => {
      err(
        `controller-stepper: internal error (a bug in controller-stepper, not in your input): ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}\n`,
      );
      code = 2;
    });
    worker.on('exit', () => {
      process.exitCode = code ?? 2;
    });
  } else {
    cli(argv, ioFor(terminal, { out, err, progress }, true, piped)).then((c) => {
      process.exitCode = c;
    });
  }
} else {
  const { argv, terminal, piped } = workerData as { argv: string[]; terminal: Terminal; piped: Map<string, string> };
  const port = parentPort!;
  const send = (m: FromCommand) => port.postMessage(m);
  cli(
    argv,
    ioFor(
      terminal,
      { out: (t) => send({ out: t }), err: (t) => send({ err: t }), progress: terminal.progress ? (t) => send({ progress: t }) : undefined },
      true,
      piped,
    ),
  ).then((c) => send({ done: c }));
}
