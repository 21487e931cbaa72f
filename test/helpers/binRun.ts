/**
 * Runs the real command, `node bin/controller-stepper.js …`, as a separate
 * process (exit code, stdout, stderr), the way a user or a CI script does.
 * bin/ loads the bundle out/cli.js: it is rebuilt first when a source file is
 * newer (`npm test` builds before the tests; a lone test run may not have).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

export const ROOT = join(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'controller-stepper.js');
const BUNDLE = join(ROOT, 'out', 'cli.js');

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

let fresh = false;
export function ensureBundle(): void {
  if (fresh) return;
  let built = 0;
  try {
    built = statSync(BUNDLE).mtimeMs;
  } catch {
    /* not built yet */
  }
  if (newest(join(ROOT, 'src')) > built) {
    // the same options as scripts/build.mjs; written aside and renamed, so a concurrent reader never sees half a file
    const tmp = `${BUNDLE}.${process.pid}.tmp`;
    buildSync({
      absWorkingDir: ROOT,
      entryPoints: ['src/cli/main.ts'],
      outfile: tmp,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: false,
      logLevel: 'warning',
    });
    renameSync(tmp, BUNDLE);
  }
  fresh = true;
}

export interface BinResult {
  code: number | null;
  out: string;
  err: string;
}

/** `input`: what the command reads on standard input (a pipe); without it, none (stdin is /dev/null). */
export function runBin(argv: readonly string[], env: Record<string, string> = {}, input?: string | Buffer, cwd = ROOT): BinResult {
  ensureBundle();
  const r = spawnSync(process.execPath, [BIN, ...argv], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `node bin/controller-stepper.js ARGS | head -N`: the command's exit code and its stderr. */
export function runBinIntoHead(argv: readonly string[], lines = 2): { code: number; err: string; shown: string } {
  ensureBundle();
  const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `node '${BIN}' ${quoted} 2>"$ERRFILE" | head -${lines}; echo "exit:\${PIPESTATUS[0]}"; cat "$ERRFILE" >&2; rm -f "$ERRFILE"`;
  const errFile = join(ROOT, 'out', `.head-err.${process.pid}.txt`);
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ERRFILE: errFile } });
  const m = /exit:(\d+)\n$/.exec(r.stdout);
  return { code: m ? Number(m[1]) : -1, err: r.stderr, shown: r.stdout.replace(/exit:\d+\n$/, '') };
}
