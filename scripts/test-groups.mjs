// How `npm test` runs the unit files: a few files to a process instead of one each.
// node's runner starts a process per file, and each paid about a second (node, tsx, and
// tsx compiling and loading the engine again) before its first test: ~280 s of CPU for the
// suite on a 2-core machine. A group is a small CommonJS file that requires its test files,
// each inside a describe() named by the file's path, so that a file's top-level hooks stay
// its own (node 20's test() attaches to the suite whose callback is running) and a failure
// names its file and its test. Node 20 has no --test-isolation=none; this is that, in
// groups, so that the slow files still spread over both cores.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** The unit test files under `dir`, in path order. */
export function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** Each file's seconds in the last recorded run (scripts/test-durations.mjs writes it). */
export const DURATIONS = 'scripts/test-durations.json';

/** A file this slow runs in a process of its own. */
const SOLO_S = 15;
/** The rest go, in path order, into groups of up to this many seconds and files: big enough that a
 * process's start is shared, small enough that the last groups to finish leave neither worker idle long. */
const GROUP_S = 25;
const GROUP_FILES = 20;
/** A file not yet recorded (new since the last record). */
const UNKNOWN_S = 2;

/**
 * The processes for `files` (paths relative to the root) and their expected seconds, longest first: node's runner
 * starts its files sorted by name as its two workers free up, and the group files are named in this order
 * (writeGroups), so the longest-processing-time rule keeps one slow group from running alone at the end.
 */
export function planGroups(files, seconds) {
  const s = (f) => seconds[f] ?? UNKNOWN_S;
  const groups = [];
  let open = null;
  for (const f of files) {
    if (s(f) >= SOLO_S) {
      groups.push({ files: [f], s: s(f) });
      continue;
    }
    if (!open || open.s + s(f) > GROUP_S || open.files.length >= GROUP_FILES) groups.push((open = { files: [], s: 0 }));
    open.files.push(f);
    open.s += s(f);
  }
  return groups.sort((a, b) => b.s - a.s);
}

/** The recorded seconds, or none (every file then taken as UNKNOWN_S) when the file is missing or not JSON (a merge's conflict markers). */
function recorded(root) {
  const p = join(root, DURATIONS);
  if (!existsSync(p)) return {};
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch (e) {
    console.warn(`# ${DURATIONS} is not JSON (${e.message}): the tests are grouped as if nothing were recorded`);
    return {};
  }
}

/** The group files for `files` (absolute paths), written under a fresh temporary folder. */
export function writeGroups(root, files) {
  const seconds = recorded(root);
  const unrecorded = files.map((f) => relative(root, f)).filter((f) => seconds[f] === undefined);
  if (unrecorded.length)
    console.warn(
      `# ${unrecorded.length} test file(s) with no recorded time, taken as ${UNKNOWN_S} s (node scripts/test-durations.mjs FILE… records them): ${unrecorded.join(', ')}`,
    );
  const groups = planGroups(
    files.map((f) => relative(root, f)),
    seconds,
  );
  const dir = mkdtempSync(join(tmpdir(), 'cs-test-groups-'));
  return groups.map((g, i) => {
    // the runner sorts the files by name: the names keep the plan's order for up to 999 groups
    const path = join(dir, `group-${String(i + 1).padStart(3, '0')}.cjs`);
    const body = g.files.map((f) => `describe(${JSON.stringify(f)}, () => {\n  require(${JSON.stringify(join(root, f))});\n});\n`);
    writeFileSync(path, `const { describe } = require('node:test');\n${body.join('')}`);
    return path;
  });
}
