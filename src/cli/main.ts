import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cli } from './cli';
import { nodeFs, readChunks, writeChunks } from '../platform/nodeFs';

// A reader that went away (`| head`) ends the command at once and quietly, with the
// status a shell gives a command stopped by SIGPIPE (141), never a stack trace.
const CLOSED_PIPE = 141;
const quietOnClosedPipe = (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(CLOSED_PIPE); else throw e; };
process.stdout.on('error', quietOnClosedPipe);
process.stderr.on('error', quietOnClosedPipe);
// A failed write destroys the stream at once but reports it a tick later: stop before writing on.
const write = (stream: NodeJS.WriteStream) => (t: string) => { if (stream.destroyed) process.exit(CLOSED_PIPE); stream.write(t); };
// bin/controller-stepper.js sits next to package.json's folder (npx runs it through a symlink).
const toolVersion = (() => { try { return JSON.parse(readFileSync(join(dirname(realpathSync(process.argv[1])), '..', 'package.json'), 'utf8')).version as string; } catch { return undefined; } })();

// Ctrl-C: the running command stops at the next instant, prints what it has and exits 130 (cli/guards.ts).
// A second Ctrl-C ends the process at once, as without the handler.
let interrupted = false;
process.on('SIGINT', () => { if (interrupted) process.exit(130); interrupted = true; });

// Progress only on a terminal's stderr: one line, redrawn at most every 100 ms (\r, then clear to its end).
let drawnAt = Number.NEGATIVE_INFINITY;
const progress = process.stderr.isTTY ? (text: string) => {
  const now = performance.now();
  if (text && now - drawnAt < 100) return;
  drawnAt = text ? now : Number.NEGATIVE_INFINITY;
  const width = process.stderr.columns ?? 80;
  process.stderr.write(`\r${text.slice(0, Math.max(0, width - 1))}\x1b[K${text ? '' : '\r'}`);
} : undefined;

cli(process.argv.slice(2), {
  out: write(process.stdout), err: write(process.stderr), fs: nodeFs(), writeFile: writeChunks, readChunks,
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  debug: process.env.CONTROLLER_STEPPER_DEBUG === '1',
  toolVersion,
  now: () => performance.now(),
  interrupted: () => interrupted,
  progress,
  pause: () => new Promise<void>((resolve) => setImmediate(resolve)),
}).then((code) => { process.exitCode = code; });
