/**
 * Gzipped snapshots through the loader and node's file access: real files
 * gzipped by gzip(1) (test/fixtures/gzip, SOURCES.md there) load as their
 * plain originals do, named .gz or not, in folders too; limits apply to the
 * decompressed bytes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { nodeFs, readChunks } from '../../../src/platform/nodeFs';
import { GzipLimitError } from '../../../src/engine/snapshot/gzip';
import { REAL_FIXTURES } from '../../helpers/realFixtures';

const fixtures = new URL('../../fixtures/gzip', import.meta.url).pathname;
const real = REAL_FIXTURES;
const summary = (path: string, options = {}) => {
  const s = loadSnapshot(path, nodeFs(), options);
  return {
    nodes: [...s.cluster.nodes.keys()],
    replicaSets: [...s.cluster.replicaSets.keys()],
    problems: s.problems.filter((p) => p.severity !== 'info').map((p) => `${p.code} ${p.message.replace(path, 'FILE')}`),
  };
};

function withDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'gzip-load-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('gzipped snapshots', () => {
  const cases: [gz: string, plain: string][] = [
    ['sonobuoy-kind-v1.20-core_v1_nodes.json.gz', 'sonobuoy-kind-v1.20-core_v1_nodes.json'],
    ['mustgather-replicasets-gzipped-without-suffix.yaml', 'mustgather-ocp-kube-system-replicasets.yaml'],
  ];
  for (const [gz, plain] of cases) {
    it(`${gz} loads as ${plain} does, read whole or streamed`, () => {
      const want = summary(join(real, plain));
      assert.ok(want.nodes.length + want.replicaSets.length > 0);
      assert.deepEqual(summary(join(fixtures, gz)), want);
      assert.deepEqual(summary(join(fixtures, gz), { streamFilesAbove: 0 }).nodes, want.nodes);
    });
  }

  it('a folder reads its .json.gz files; the kind still comes from the name (nodes.json.gz)', () => {
    withDir((dir) => {
      copyFileSync(join(fixtures, 'sonobuoy-kind-v1.20-core_v1_nodes.json.gz'), join(dir, 'core_v1_nodes.json.gz'));
      writeFileSync(join(dir, 'notes.txt.gz'), gzipSync('not a snapshot'));
      const s = loadSnapshot(dir, nodeFs());
      assert.equal(s.cluster.nodes.size, summary(join(real, 'sonobuoy-kind-v1.20-core_v1_nodes.json')).nodes.length);
      assert.ok(s.problems.some((p) => p.code === 'skipped-file' && p.message.includes('notes.txt.gz')));
    });
  });

  it('stat gives the decompressed size from the trailer, and the compressed size beside it', () => {
    const st = nodeFs().stat(join(fixtures, 'sonobuoy-kind-v1.20-core_v1_nodes.json.gz'))!;
    assert.equal(st.size, 17878);
    assert.equal(st.compressed, 2155);
  });

  it('a file over the limit when decompressed is refused by a whole read with the reason, and streamed when it may be', () => {
    withDir((dir) => {
      const node = (i: number) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: `n${i}` } });
      const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: 2000 }, (_, i) => node(i)) });
      const path = join(dir, 'nodes.json.gz');
      writeFileSync(path, gzipSync(text));
      const refused = loadSnapshot(path, nodeFs(), { maxFileBytes: 10_000 });
      assert.deepEqual(
        refused.problems.map((p) => p.code),
        ['file-too-large'],
      );
      assert.match(refused.problems[0].message, /decompressed/);
      // a trailer that gives the size modulo 4 GiB (a file of 4 GiB and 10 bytes says 10): the whole read stops at the
      // limit and the file is streamed instead (node's zlib checks the trailer, so the size is what stat says, not the file)
      const fs = nodeFs();
      const s = loadSnapshot(path, {
        ...fs,
        stat: (p: string) => ({ ...fs.stat(p)!, size: 10 }),
        readText: (p: string) => {
          throw new GzipLimitError(`${p} decompresses to more than 10 bytes`, 'size');
        },
      });
      assert.equal(s.cluster.nodes.size, 2000);
    });
  });

  it('a gzip bomb is refused with a message, not an out-of-memory abort', () => {
    withDir((dir) => {
      const path = join(dir, 'bomb.json');
      writeFileSync(path, gzipSync(Buffer.alloc(80 * 1024 * 1024, ' '), { level: 9 }));
      const s = loadSnapshot(path, nodeFs(), { streamFilesAbove: 0 });
      assert.equal(s.partial, true);
      assert.match(s.problems.map((p) => p.message).join('\n'), /gzip bomb/);
      assert.throws(() => {
        for (const _ of readChunks(path)) {
          /* read */
        }
      }, /is gzipped and it decompresses to more than 250 times/);
    });
  });
});
