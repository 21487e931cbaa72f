#!/usr/bin/env node
// `npm test`: type-check, lint (ESLint) and format check (Prettier), then every
// unit/integration test under test/ with
// node's own test runner (TypeScript through tsx), then the suites that need
// a browser or a real VS Code (scripts/test-*.mjs phases, when present).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  return r.status ?? 1;
};

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const only = process.argv.slice(2);
let failed = 0;

if (!only.length) {
  console.log('# type-check (tsc)');
  if (run('npx', ['tsc', '-p', '.', '--noEmit']) !== 0) failed++;
  console.log('# lint (eslint)');
  if (run('npm', ['run', '--silent', 'lint']) !== 0) failed++;
  console.log('# format (prettier --check)');
  if (run('npm', ['run', '--silent', 'format:check']) !== 0) failed++;
  console.log('# build (esbuild)');
  if (run('node', ['scripts/build.mjs']) !== 0) failed++;
}

const files = only.length ? only : findTests(join(root, 'test'));
console.log(`# unit and integration tests (${files.length} files)`);
if (run('node', ['--import', 'tsx', '--test', '--test-concurrency=2', ...files]) !== 0) failed++;

// Slower suites (browser, real VS Code) register themselves as scripts/test-phase-*.mjs.
if (!only.length && existsSync(join(root, 'scripts'))) {
  for (const phase of readdirSync(join(root, 'scripts'))
    .filter((f) => /^test-phase-.*\.mjs$/.test(f))
    .sort()) {
    console.log(`# ${phase}`);
    if (run('node', [join('scripts', phase)]) !== 0) failed++;
  }
}

process.exit(failed ? 1 : 0);
