/**
 * `import … --snapshot S > out/scenario.yaml`: the scenario reads its snapshot paths relative to its own file, the
 * command line is given them relative to the shell's folder. Written into a file whose folder is known, they are
 * written relative to it; to a terminal or a pipe, absolute. Either way the scenario finds its snapshot from where it
 * is kept (it was written as given, and `out/scenario.yaml` looked for `out/<path>`: file-not-found).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, ensureBundle, runBin } from '../helpers/binRun';
import { writtenPathFor } from '../../src/cli/commands/import';

const LOG = join(ROOT, 'test/fixtures/real-evidence/kcm-1.28-node-down-taint-eviction.log');
const NODES = join(ROOT, 'examples/clusters/three-zones.yaml');

const cases: { name: string; folder?: string; path: string; cwd: string; written: string }[] = [
  { name: 'to a terminal or a pipe: absolute', path: 'real/nodes.json', cwd: '/w', written: '/w/real/nodes.json' },
  { name: 'an absolute path stays absolute there', path: '/data/nodes.json', cwd: '/w', written: '/data/nodes.json' },
  { name: 'into a file in a subfolder: back up to it', folder: '/w/out', path: 'real/nodes.json', cwd: '/w', written: '../real/nodes.json' },
  { name: 'into a file beside it', folder: '/w/real', path: 'real/nodes.json', cwd: '/w', written: 'nodes.json' },
  { name: 'an absolute path into a file: relative to its folder', folder: '/w/out', path: '/w/real/x.json', cwd: '/elsewhere', written: '../real/x.json' },
  { name: 'the folder itself (a snapshot folder)', folder: '/w/dump', path: 'dump', cwd: '/w', written: '.' },
];
for (const c of cases)
  test(`import writes a snapshot path ${c.name}`, () => {
    assert.equal(writtenPathFor(c.folder, c.cwd)(c.path), c.written);
  });

test(
  'import … --snapshot real/nodes.yaml > out/scenario.yaml: the scenario replays from where it is kept',
  { skip: process.platform !== 'linux' && "stdout's file is read from /proc" },
  () => {
    ensureBundle();
    const dir = mkdtempSync(join(tmpdir(), 'cs-import-paths-'));
    try {
      mkdirSync(join(dir, 'real'));
      mkdirSync(join(dir, 'out'));
      copyFileSync(NODES, join(dir, 'real', 'nodes.yaml'));
      copyFileSync(LOG, join(dir, 'kcm.log'));
      const fd = openSync(join(dir, 'out', 'scenario.yaml'), 'w');
      const r = spawnSync(process.execPath, [BIN, 'import', 'kcm.log', '--snapshot', 'real/nodes.yaml', '--at', '2026-08-27T03:00:00Z'], {
        cwd: dir,
        stdio: ['ignore', fd, 'pipe'],
        encoding: 'utf8',
      });
      closeSync(fd);
      assert.equal(r.status, 0, r.stderr);
      const written = readFileSync(join(dir, 'out', 'scenario.yaml'), 'utf8');
      assert.match(written, /^snapshot: "\.\.\/real\/nodes\.yaml"$/m);
      // from the shell's folder it replays; from the scenario's own the snapshot is outside both it and the workspace,
      // which a scenario reads only when allowed (the path found, not file-not-found)
      assert.equal(runBin(['replay', 'out/scenario.yaml', '--until', '1m'], {}, undefined, dir).code, 0);
      const inOut = runBin(['replay', 'scenario.yaml', '--until', '1m'], {}, undefined, join(dir, 'out'));
      assert.match(inOut.err, /error path-outside: \.\.\/real\/nodes\.yaml is outside/);
      assert.equal(runBin(['replay', 'scenario.yaml', '--until', '1m', '--allow-outside'], {}, undefined, join(dir, 'out')).code, 0);
      // printed (a pipe): the absolute path, which replays from the shell's folder too
      const piped = runBin(['import', 'kcm.log', '--snapshot', 'real/nodes.yaml', '--at', '2026-08-27T03:00:00Z'], {}, undefined, dir);
      assert.equal(piped.code, 0, piped.err);
      assert.equal(/^snapshot: (.*)$/m.exec(piped.out)?.[1], JSON.stringify(join(dir, 'real', 'nodes.yaml')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

// A snapshot the loader rejects makes a scenario that replays nothing ("1 error(s) in the input"): the import says so
// and fails, instead of printing that scenario with exit 0.
const badSnapshots: { name: string; text: string; code: RegExp }[] = [
  {
    name: 'a kubectl get nodes table',
    text: 'NAME     STATUS   ROLES    AGE   VERSION\nn1       Ready    <none>   1d    v1.28.1\n',
    code: /error not-kubernetes/,
  },
  {
    name: 'YAML cut in the middle of an object',
    text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: "n1\n',
    code: /error /,
  },
];
for (const c of badSnapshots)
  test(`import --snapshot with ${c.name}: exit 2, the error and no scenario`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-import-badsnap-'));
    try {
      copyFileSync(LOG, join(dir, 'kcm.log'));
      writeFileSync(join(dir, 'nodes.txt'), c.text);
      const r = runBin(['import', 'kcm.log', '--snapshot', 'nodes.txt', '--at', '2026-08-27T03:00:00Z'], {}, undefined, dir);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, c.code);
      assert.match(r.err, /snapshot nodes\.txt/);
      assert.equal(r.out, '');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
