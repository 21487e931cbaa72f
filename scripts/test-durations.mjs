#!/usr/bin/env node
// Records how long each unit test file takes, for scripts/test-groups.mjs to order the groups by
// (the longest first onto the two workers). Run it after a change that makes a file much slower or
// faster, on a quiet machine, and commit scripts/test-durations.json:
//   node scripts/test-durations.mjs [--top N] [FILE...]
// It runs the suite as `npm test` runs it (a few files to a process, two processes at a time), or only
// the files named (their times replace theirs in the record), and prints the N slowest tests (25 unless told).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { writeGroups, DURATIONS, findTests } from './test-groups.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;

const files = args.length ? args.map((f) => join(root, f)) : findTests(join(root, 'test'));
const entries = writeGroups(root, files);
const log = join(mkdtempSync(join(tmpdir(), 'cs-test-durations-')), 'tests.jsonl');
const t = Date.now();
const r = spawnSync(
  'node',
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    '--test-reporter=dot',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-durations-reporter.mjs',
    `--test-reporter-destination=${log}`,
    ...entries,
  ],
  { stdio: 'inherit', cwd: root },
);
rmSync(dirname(entries[0]), { recursive: true, force: true });
const rows = readFileSync(log, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
// In a group a file is the describe at the top; its tests are one level down.
const byFile = Object.fromEntries(
  rows
    .filter((x) => x.nesting === 0 && x.name.startsWith('test/'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((x) => [x.name, Math.round(x.ms / 100) / 10]),
);
const missing = files.map((f) => relative(root, f)).filter((f) => !(f in byFile));
if (r.status !== 0 || missing.length) {
  console.error(`not recorded: the suite failed (${r.status})${missing.length ? `; no time for ${missing.join(', ')}` : ''}`);
  process.exit(1);
}
const before = args.length && existsSync(join(root, DURATIONS)) ? JSON.parse(readFileSync(join(root, DURATIONS), 'utf8')) : {};
const merged = Object.fromEntries(Object.entries({ ...before, ...byFile }).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(root, DURATIONS), `${JSON.stringify(merged, null, 2)}\n`);
// A file's own tests are one level down in its group, reported with the file's path.
for (const x of rows) if (x.nesting === 1) x.testFile = relative(root, x.file);
const tests = rows
  .filter((x) => x.nesting === 1)
  .sort((a, b) => b.ms - a.ms)
  .slice(0, top);
console.log(`\n${DURATIONS}: ${files.length} files, ${((Date.now() - t) / 1000).toFixed(1)} s wall`);
console.log(`the ${top} slowest tests (s, a file's top-level test or describe):`);
for (const x of tests) console.log(`${(x.ms / 1000).toFixed(1).padStart(7)}  ${x.testFile}: ${x.name}`);
