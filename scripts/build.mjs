#!/usr/bin/env node
// esbuild emits the bundles; tsc only type-checks. Each entry point that
// exists is bundled, so the shells can land one at a time.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const watch = process.argv.includes('--watch');
const entries = [
  { in: 'src/cli/main.ts', out: 'out/cli.js', platform: 'node', format: 'cjs' },
  { in: 'src/extension/extension.ts', out: 'out/extension.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  { in: 'src/extension/expectationWorker.ts', out: 'out/expectationWorker.js', platform: 'node', format: 'cjs' },
  { in: 'src/server/server.ts', out: 'out/server.js', platform: 'node', format: 'cjs' },
  { in: 'src/webview/main.ts', out: 'out/webview.js', platform: 'browser', format: 'iife' },
];

for (const e of entries) {
  if (!existsSync(root + e.in)) continue;
  await build({
    absWorkingDir: root,
    entryPoints: [e.in],
    outfile: e.out,
    bundle: true,
    platform: e.platform,
    format: e.format,
    target: e.platform === 'node' ? 'node20' : 'es2022',
    external: e.external ?? [],
    sourcemap: true,
    minify: !watch && e.platform === 'browser',
    logLevel: 'warning',
  });
}
