#!/usr/bin/env node
// `npm test`: type-check, lint (ESLint) and format check (Prettier), then every
// unit/integration test under test/ with
// node's own test runner (TypeScript through tsx), then the suites that need
// a browser or a real VS Code (scripts/test-*.mjs phases, when present).
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findTests, writeGroups } from './test-groups.mjs';

const root = new URL('..', import.meta.url).pathname;
// Each step's wall time, printed at the end: what CI's minutes go to.
const took = [];
let step = '';
const say = (title) => console.log(`# ${(step = title)}`);
const run = (cmd, args, opts = {}) => {
  const t = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  took.push(`${step}: ${((Date.now() - t) / 1000).toFixed(1)} s${r.status === 0 ? '' : ' (failed)'}`);
  return r.status ?? 1;
};

const only = process.argv.slice(2);
let failed = 0;

if (!only.length) {
  say('type-check (tsc)');
  if (run('npx', ['tsc', '-p', '.', '--noEmit']) !== 0) failed++;
  say('lint (eslint)');
  if (run('npm', ['run', '--silent', 'lint']) !== 0) failed++;
  say('format (prettier --check)');
  if (run('npm', ['run', '--silent', 'format:check']) !== 0) failed++;
  say('build (esbuild)');
  if (run('node', ['scripts/build.mjs']) !== 0) failed++;
}

// Files named on the command line run a process each, as node's runner runs them; the whole
// suite runs a few files to a process (test-groups.mjs).
const files = only.length ? only : findTests(join(root, 'test'));
const entries = only.length ? files : writeGroups(root, files);
say(`unit and integration tests (${files.length} files${only.length ? '' : `, in ${entries.length} processes`})`);
if (run('node', ['--import', 'tsx', '--test', '--test-concurrency=2', ...entries]) !== 0) failed++;
if (!only.length) rmSync(dirname(entries[0]), { recursive: true, force: true });

// Slower suites (browser, real VS Code) register themselves as scripts/test-phase-*.mjs.
if (!only.length && existsSync(join(root, 'scripts'))) {
  for (const phase of readdirSync(join(root, 'scripts'))
    .filter((f) => /^test-phase-.*\.mjs$/.test(f))
    .sort()) {
    say(phase);
    if (run('node', [join('scripts', phase)]) !== 0) failed++;
  }
}

if (took.length > 1) console.log(`# wall time\n${took.map((t) => `#   ${t}`).join('\n')}`);
process.exit(failed ? 1 : 0);
