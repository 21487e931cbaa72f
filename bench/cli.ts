/** What every bench tool's command line shares: its options, how its main ends the process, and how it bundles its child. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import CLI_NODE_OPTIONS from '../bin/node-options.json';

/** The value after `name` on the command line, else `def`. */
export function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
}

/** Runs `main`: its number is the exit code; a throw prints its stack and exits 1. */
export function runMain(main: () => Promise<number>, prefix = ''): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`${prefix}${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

/** Bundles `entry` (a path in `checkout`, or absolute) as the command line ships the engine: one CommonJS file for node 20. */
export async function bundleChild(checkout: string, entry: string, out: string): Promise<string> {
  await build({
    absWorkingDir: checkout,
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  return out;
}

/**
 * The module each line of a bundle comes from (esbuild's `// path` comment before each module),
 * indexed by line number (from 1); engine modules without their `src/engine/` prefix.
 */
export function bundleModules(bundle: string): string[] {
  const out: string[] = [];
  let file = '';
  bundle.split('\n').forEach((line, i) => {
    const m = /^\/\/ ((?:src|bench|node_modules)\/\S+)$/.exec(line);
    if (m) file = m[1].replace(/^src\/engine\//, '');
    out[i + 1] = file;
  });
  return out;
}

/** Bundles a child written as source text (importing one checkout's engine by absolute paths): its entry is kept beside `out`. */
export function bundleSource(checkout: string, source: string, out: string): Promise<string> {
  const entry = `${out}.entry.ts`;
  writeFileSync(entry, source);
  return bundleChild(checkout, entry, out);
}

/**
 * The V8 options a bench child runs with: the command line's (bin/node-options.json, as
 * bin/controller-stepper.js starts it), the young generation's semi-space as asked (MiB); none at
 * all with 0, as the extension host runs the engine.
 */
export function childNodeOptions(semiSpaceMib = 64): string[] {
  if (semiSpaceMib <= 0) return [];
  return CLI_NODE_OPTIONS.map((o) => (o.startsWith('--max-semi-space-size=') ? `--max-semi-space-size=${semiSpaceMib}` : o));
}

/**
 * The opening the hour's tools share (hourHeap, hourProfile, traceKept): `--inputs DIR` (its outage.yaml), the checkout
 * measured (`--checkout`, this one by default), a scratch folder named `name-PID`, the child bundled from that checkout
 * into it, and the child's node flags; undefined after the usage line when `--inputs` is missing.
 */
export async function hourTool(
  name: string,
  usage: string,
  child: (checkout: string) => string,
): Promise<{ checkout: string; scenario: string; dir: string; entry: string; node: string[] } | undefined> {
  const inputs = arg('--inputs');
  if (!inputs) {
    process.stderr.write(`usage: ${usage}\n`);
    return undefined;
  }
  const checkout = resolve(arg('--checkout', resolve(__dirname, '..'))!);
  const dir = join(tmpdir(), `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const entry = await bundleSource(checkout, child(checkout), join(dir, `${name}.js`));
  const node = [process.execPath, '--expose-gc', '--max-old-space-size=16384', ...childNodeOptions()];
  return { checkout, scenario: join(resolve(inputs), 'outage.yaml'), dir, entry, node };
}
