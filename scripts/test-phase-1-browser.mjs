#!/usr/bin/env node
// Phase run by `npm test` after the unit tests: the built webview in Debian's
// chromium (installed when missing), driven by playwright-core. The files run in
// one process, each in a describe() named by its path (as the unit groups,
// scripts/test-groups.mjs), sharing one chromium (harness/page.ts shareChromium):
// a process, tsx and a chromium launch per file were ~37 s of the phase.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from '../test/e2e/install.mjs';

const root = new URL('..', import.meta.url).pathname;
ensureChromium();
if (!existsSync(join(root, 'out', 'webview.js'))) {
  const b = spawnSync('node', ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}
// the files named (test/webview/x.browser.ts), else every one
const named = process.argv.slice(2);
const files = named.length
  ? named
  : readdirSync(join(root, 'test', 'webview'))
      .filter((f) => f.endsWith('.browser.ts'))
      .sort()
      .map((f) => join('test', 'webview', f));
const dir = mkdtempSync(join(tmpdir(), 'cs-browser-group-'));
const group = join(dir, 'browser.cjs');
writeFileSync(
  group,
  [
    "const { describe, after } = require('node:test');",
    `after(require(${JSON.stringify(join(root, 'test/webview/harness/page.ts'))}).shareChromium());`,
    ...files.map((f) => `describe(${JSON.stringify(f)}, () => {\n  require(${JSON.stringify(join(root, f))});\n});`),
  ].join('\n'),
);
const r = spawnSync('node', ['--import', 'tsx', '--test', '--test-concurrency=1', group], { cwd: root, stdio: 'inherit' });
rmSync(dir, { recursive: true, force: true });
process.exit(r.status ?? 1);
