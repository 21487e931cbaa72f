/**
 * `npm test` runs the unit files a few to a process (scripts/test-groups.mjs). A file's top-level hooks must stay its
 * own there, as in a process of its own, and a failure must still name its file and its test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const repo = resolve(__dirname, '../..');
// a runner started from a test file is told by this variable that it is a child, and runs nothing
const { NODE_TEST_CONTEXT: _child, ...env } = process.env;

const FILES: Record<string, string> = {
  // a top-level beforeEach: in a group it must run before this file's tests only
  'test/a/hooks.test.ts': `import { test, beforeEach } from 'node:test';
const g = globalThis as { eachRuns?: string[] };
beforeEach(() => { (g.eachRuns ??= []).push('hooks'); });
test('one test of the file with the hook', () => {});
`,
  'test/a/seesHooks.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
test('the other file is not under the first one’s beforeEach', () => {
  assert.deepEqual((globalThis as { eachRuns?: string[] }).eachRuns, ['hooks']);
});
`,
  'test/b/fails.test.ts': `import { test } from 'node:test';
import assert from 'node:assert/strict';
test('a passing test', () => {});
test('the failing test', () => { assert.equal(1, 2); });
`,
};

test('a group of files runs each with its own hooks, and a failure names its file and its test', () => {
  const root = mkdtempSync(join(tmpdir(), 'cs-groups-test-'));
  let groups: string[] = [];
  try {
    const files = Object.keys(FILES).map((f) => join(root, f));
    for (const [f, text] of Object.entries(FILES)) {
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), text);
    }
    const made = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { writeGroups } from ${JSON.stringify(join(repo, 'scripts', 'test-groups.mjs'))}; console.log(JSON.stringify(writeGroups(${JSON.stringify(root)}, ${JSON.stringify(files)})))`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(made.status, 0, made.stderr);
    groups = JSON.parse(made.stdout);
    assert.equal(groups.length, 1, 'three small files make one group');
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...groups], { cwd: repo, env, encoding: 'utf8' });
    const out = r.stdout + r.stderr;
    assert.equal(r.status, 1, out);
    assert.match(out, /ℹ tests 4\n/, out);
    assert.match(out, /ℹ pass 3\n/, out);
    // the failure is under its file's suite, and the list of failures at the end gives the file's path
    assert.match(out, /▶ test\/b\/fails\.test\.ts\n\s+✔ a passing test[^\n]*\n\s+✖ the failing test/, out);
    assert.match(out, /\n✖ test\/b\/fails\.test\.ts /, out);
    assert.match(out, /test at [^\n]*test\/b\/fails\.test\.ts:\d+:\d+\n✖ the failing test/, out);
    assert.doesNotMatch(out, /✖ test\/a\//, out);
  } finally {
    rmSync(root, { recursive: true, force: true });
    if (groups.length) rmSync(dirname(groups[0]), { recursive: true, force: true });
  }
});

/** planGroups(files, seconds) as scripts/test-groups.mjs makes it (a module of its own, run by plain node). */
function plan(files: string[], seconds: Record<string, number>): { files: string[]; s: number }[] {
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { planGroups } from ${JSON.stringify(join(repo, 'scripts', 'test-groups.mjs'))}; console.log(JSON.stringify(planGroups(${JSON.stringify(files)}, ${JSON.stringify(seconds)})))`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('the groups are made from the recorded seconds and run longest first, a slow file alone', () => {
  const cases: { name: string; files: string[]; seconds: Record<string, number>; groups: [string[], number][] }[] = [
    {
      name: 'a slow file alone, the rest in path order up to 25 s a group, a file not recorded taken as 2 s',
      files: ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `test/${x}.test.ts`),
      seconds: { 'test/a.test.ts': 40, 'test/b.test.ts': 10, 'test/c.test.ts': 10, 'test/d.test.ts': 10, 'test/e.test.ts': 16 },
      groups: [
        [['test/a.test.ts'], 40],
        [['test/b.test.ts', 'test/c.test.ts'], 20],
        [['test/e.test.ts'], 16],
        [['test/d.test.ts', 'test/f.test.ts'], 12],
      ],
    },
    {
      name: 'no more than 20 files to a group',
      files: Array.from({ length: 25 }, (_, i) => `test/f${String(i).padStart(2, '0')}.test.ts`),
      seconds: Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`test/f${String(i).padStart(2, '0')}.test.ts`, 0.5])),
      groups: [
        [Array.from({ length: 20 }, (_, i) => `test/f${String(i).padStart(2, '0')}.test.ts`), 10],
        [Array.from({ length: 5 }, (_, i) => `test/f${String(i + 20).padStart(2, '0')}.test.ts`), 2.5],
      ],
    },
  ];
  for (const c of cases)
    assert.deepEqual(
      plan(c.files, c.seconds),
      c.groups.map(([files, s]) => ({ files, s })),
      c.name,
    );
});

/** writeGroups(root, files) in a root of its own with `durations` as its recorded file (undefined: none): the group files' names, and stderr. */
function written(files: string[], durations: string | undefined): { names: string[]; stderr: string } {
  const root = mkdtempSync(join(tmpdir(), 'cs-groups-write-'));
  try {
    if (durations !== undefined) {
      mkdirSync(join(root, 'scripts'));
      writeFileSync(join(root, 'scripts', 'test-durations.json'), durations);
    }
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { writeGroups } from ${JSON.stringify(join(repo, 'scripts', 'test-groups.mjs'))}; console.log(JSON.stringify(writeGroups(${JSON.stringify(root)}, ${JSON.stringify(files.map((f) => join(root, f)))})))`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    const groups: string[] = JSON.parse(r.stdout);
    if (groups.length) rmSync(dirname(groups[0]), { recursive: true, force: true });
    return { names: groups.map((g) => g.slice(dirname(g).length + 1)), stderr: r.stderr };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the group files sort by name in the plan’s order (the runner starts them sorted), past 100 groups too', () => {
  // 130 slow files: a group each
  const files = Array.from({ length: 130 }, (_, i) => `test/s${String(i).padStart(3, '0')}.test.ts`);
  const { names } = written(files, JSON.stringify(Object.fromEntries(files.map((f, i) => [f, 200 - i]))));
  assert.equal(names.length, 130);
  assert.deepEqual([...names].sort(), names, 'sorted by name, they are in the plan’s order');
});

test('a recorded-times file that is not JSON (a merge’s conflict markers) groups as if none were recorded, and says so; files not recorded are named', () => {
  const files = ['test/a.test.ts', 'test/b.test.ts'];
  const broken = written(files, '{\n<<<<<<< HEAD\n  "test/a.test.ts": 3\n=======\n  "test/a.test.ts": 4\n>>>>>>> other\n}\n');
  assert.equal(broken.names.length, 1);
  assert.match(broken.stderr, /test-durations\.json is not JSON/);
  const some = written(files, JSON.stringify({ 'test/a.test.ts': 3 }));
  assert.match(some.stderr, /1 test file\(s\) with no recorded time[^\n]*test\/b\.test\.ts/);
  assert.doesNotMatch(some.stderr, /test\/a\.test\.ts/);
});
