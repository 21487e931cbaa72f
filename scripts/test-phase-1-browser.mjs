#!/usr/bin/env node
// Phase run by `npm test` after the unit tests: the built webview in Debian's
// chromium (installed when missing), driven by playwright-core.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChromium } from '../test/e2e/install.mjs';

const root = new URL('..', import.meta.url).pathname;
ensureChromium();
if (!existsSync(join(root, 'out', 'webview.js'))) {
  const b = spawnSync('node', ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}
const files = readdirSync(join(root, 'test', 'webview'))
  .filter((f) => f.endsWith('.browser.ts'))
  .map((f) => join('test', 'webview', f));
const r = spawnSync('node', ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
