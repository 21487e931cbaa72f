/** What every bench tool's command line shares: its options, how its main ends the process, and how it bundles its child. */
import { writeFileSync } from 'node:fs';
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
