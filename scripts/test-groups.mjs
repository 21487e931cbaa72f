// How `npm test` runs the unit files: a few files to a process instead of one each.
// node's runner starts a process per file, and each paid about a second (node, tsx, and
// tsx compiling and loading the engine again) before its first test: ~280 s of CPU for the
// suite on a 2-core machine. A group is a small CommonJS file that requires its test files,
// each inside a describe() named by the file's path, so that a file's top-level hooks stay
// its own (node 20's test() attaches to the suite whose callback is running) and a failure
// names its file and its test. Node 20 has no --test-isolation=none; this is that, in
// groups, so that the slow files still spread over both cores.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

// Files whose tests took 15 s or more on the CI machine (bench/README.md, "ciwall"): each runs in a
// group of its own, the slowest first, so that none is left to run alone at the end.
export const SLOW_FIRST = [
  'test/extension/swapAtOpen.test.ts',
  'test/engine/simulation/pendingCheckpoint.test.ts',
  'test/engine/simulation/handOff.test.ts',
  'test/extension/runAhead.test.ts',
  'test/cli/exitCodes.test.ts',
  'test/engine/controllers/nodeLifecycle/restoreWarm.test.ts',
  'test/engine/controllers/scheduler/prepare.test.ts',
  'test/extension/pendingStart.test.ts',
  'test/fuzz/corpus.test.ts',
  'test/extension/session.openItems.test.ts',
  'test/engine/snapshot/kubectlYaml.test.ts',
  'test/engine/controllers/scheduler/prepareSlice.test.ts',
  'test/extension/session.slices.test.ts',
  'test/engine/simulation/nodesPutBack.test.ts',
  'test/engine/whyNot.property.test.ts',
  'test/engine/whyNot.complete.test.ts',
  'test/cli/samePositions.test.ts',
];

/** Files to a group for the rest: large enough that the load is shared, small enough to balance two cores. */
const GROUP_SIZE = 12;

/** The group files for `files` (absolute paths), written under a fresh temporary folder. */
export function writeGroups(root, files) {
  const slow = SLOW_FIRST.map((f) => join(root, f)).filter((f) => files.includes(f));
  const rest = files.filter((f) => !slow.includes(f));
  const groups = slow.map((f) => [f]);
  for (let i = 0; i < rest.length; i += GROUP_SIZE) groups.push(rest.slice(i, i + GROUP_SIZE));
  const dir = mkdtempSync(join(tmpdir(), 'cs-test-groups-'));
  return groups.map((g, i) => {
    const path = join(dir, `group-${String(i + 1).padStart(2, '0')}.cjs`);
    const body = g.map((f) => `describe(${JSON.stringify(relative(root, f))}, () => {\n  require(${JSON.stringify(f)});\n});\n`);
    writeFileSync(path, `const { describe } = require('node:test');\n${body.join('')}`);
    return path;
  });
}
