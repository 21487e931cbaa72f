import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../src/engine/snapshot/scenario';
import { loadSnapshot } from '../../src/engine/snapshot/load';
import { nodeFs, readChunks } from '../../src/platform/nodeFs';

const NODE = 'apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\n';

function withDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'nodefs-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('special files are refused with a message, before they are opened', () => {
  withDir((dir) => {
    const fifo = join(dir, 'pipe.yaml');
    execFileSync('mkfifo', [fifo]);
    const cases: [what: string, path: string, says: RegExp][] = [
      ['a FIFO', fifo, /FIFO/],
      ['/dev/zero', '/dev/zero', /character device/],
    ];
    for (const [what, path, says] of cases) {
      const snap = loadSnapshot(path, nodeFs());
      assert.deepEqual(
        snap.problems.map((p) => p.code),
        ['unreadable-file'],
        what,
      );
      assert.match(snap.problems[0].message, says, what);
      assert.match(snap.problems[0].message, /only regular files and folders are read/, what);
      writeFileSync(join(dir, 's.yaml'), `kind: Scenario\nsnapshot: ./n.yaml\ncontrollerManager:\n  configFile: ${path}\n`);
      writeFileSync(join(dir, 'n.yaml'), NODE);
      const s = loadScenario(join(dir, 's.yaml'), nodeFs(), { allowOutside: true });
      const e = s.problems.filter((p) => p.severity === 'error');
      assert.deepEqual(
        e.map((p) => `${p.code}@${p.position?.line}`),
        ['unreadable-file@4'],
        `${what} as configFile`,
      );
    }
  });
});

test('a folder with link loops and links back to its parents is read once per real folder', () => {
  withDir((dir) => {
    const snap = join(dir, 'snap');
    mkdirSync(join(snap, 'sub'), { recursive: true });
    writeFileSync(join(snap, 'sub', 'node.yaml'), NODE);
    symlinkSync('..', join(snap, 'sub', 'up'));
    symlinkSync('.', join(snap, 'sub', 'here'));
    symlinkSync(join(snap, 'loop-b.yaml'), join(snap, 'loop-a.yaml'));
    symlinkSync(join(snap, 'loop-a.yaml'), join(snap, 'loop-b.yaml'));
    const loaded = loadSnapshot(snap, nodeFs());
    assert.equal(loaded.cluster.nodes.size, 1);
    assert.equal(loaded.problems.filter((p) => p.code === 'duplicate-object').length, 0);
    const loops = loaded.problems.filter((p) => p.code === 'unreadable-file');
    assert.equal(loops.length, 2);
    for (const p of loops) assert.match(p.message, /symbolic link loop/);
  });
});

test('a regular file is read whole', () => {
  withDir((dir) => {
    const big = NODE + `# ${'x'.repeat(200_000)}\n`;
    writeFileSync(join(dir, 'n.yaml'), big);
    assert.equal(nodeFs().readText(join(dir, 'n.yaml')), big);
  });
});

test('a file read in pieces: the same text, in pieces under 128 KiB', () => {
  // longer strings made a streamed load's reading dear (nodeFs.ts PIECE_BYTES; bench/README.md, "Issue 16, fifth session")
  const cases: [name: string, text: string][] = [
    ['ASCII over several pieces', 'a'.repeat(300_000)],
    ['a two-byte character across the first boundary', `${'a'.repeat(64 * 1024 - 1)}é${'b'.repeat(1000)}`],
    ['a four-byte character across the first boundary', `${'a'.repeat(64 * 1024 - 2)}😀${'b'.repeat(1000)}`],
    ['empty', ''],
  ];
  withDir((dir) => {
    for (const [name, text] of cases) {
      writeFileSync(join(dir, 'f.txt'), text);
      const pieces = [...readChunks(join(dir, 'f.txt'))];
      assert.equal(pieces.join(''), text, name);
      for (const p of pieces) assert.ok(Buffer.byteLength(p) < 128 * 1024, `${name}: a piece of ${Buffer.byteLength(p)} bytes`);
    }
  });
});
