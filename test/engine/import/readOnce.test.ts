/**
 * A file is read once: the evidence import recognises a file of objects and loads it from the same
 * read (recordedChunks.ts), and loading a snapshot or scenario reads each of its files once. The
 * shells' file system is counted (helpers/countingFs.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { importEvidenceFiles } from '../../../src/engine/import/files';
import { RECOGNISE_CHARS } from '../../../src/engine/import/index';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { parseTimestamp } from '../../../src/engine/model/time';
import { countingFs } from '../../helpers/countingFs';

const root = join(__dirname, '..', '..', '..');
const LOG = join(root, 'test/fixtures/real-evidence/kcm-1.28-node-down-taint-eviction.log');
const DUMP = join(root, 'test/fixtures/loader/cluster-info-dump-stdout.txt');

const node = (name: string) =>
  `{"apiVersion":"v1","kind":"Node","metadata":{"name":"${name}"},"status":{"nodeInfo":{"kubeletVersion":"v1.28.2"},"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2024-08-27T02:04:00Z","lastTransitionTime":"2024-08-27T02:04:00Z"}]}}`;
const LIST = (items: string[]) => `{\n    "apiVersion": "v1",\n    "items": [\n        ${items.join(',\n        ')}\n    ],\n    "kind": "List"\n}\n`;
/**
 * One line longer than the import reads to recognise a file: a compact List whose second Node comes
 * after that much blank (a file with any problem to place would be read again for its positions,
 * load.ts releasedJsonUnit, so the bulk is no object).
 */
const COMPACT_LONG = () => `{"apiVersion":"v1","kind":"List","items":[${node('long-1')},${' '.repeat(RECOGNISE_CHARS + 1024)}${node('long-2')}]}`;

function inDir(files: Record<string, string | Buffer>, body: (path: (name: string) => string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'read-once-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    copyFileSync(LOG, join(dir, 'kcm.log'));
    body((name) => join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the evidence import reads each file once', () => {
  const table: { name: string; files: Record<string, string | Buffer | (() => string)>; paths: string[]; snapshots?: string[]; snapshot: string[] }[] = [
    {
      name: 'a log and a JSON List of its nodes',
      files: { 'nodes.json': LIST([node('n1'), node('n2')]) },
      paths: ['kcm.log', 'nodes.json'],
      snapshot: ['nodes.json'],
    },
    {
      name: 'a YAML object, gzipped',
      files: { 'n.yaml.gz': gzipSync('apiVersion: v1\nkind: Node\nmetadata: {name: y1}\n') },
      paths: ['n.yaml.gz', 'kcm.log'],
      snapshot: ['n.yaml.gz'],
    },
    {
      name: 'a file that is no snapshot either (its lines counted from the same read)',
      files: { 'x.json': '{"a": 1}\n' },
      paths: ['kcm.log', 'x.json'],
      snapshot: [],
    },
    { name: 'with --snapshot', files: { 's.json': LIST([node('s1')]) }, paths: ['kcm.log'], snapshots: ['s.json'], snapshot: ['s.json'] },
    {
      name: 'a cluster-info dump printed to stdout: imported and loaded from one read',
      files: { 'dump.txt': readFileSync(DUMP, 'utf8') },
      paths: ['dump.txt', 'kcm.log'],
      snapshot: ['dump.txt'],
    },
    {
      name: `a compact List on one line longer than the ${RECOGNISE_CHARS / 2 ** 20} Mi characters read to recognise it`,
      files: { 'long.json': COMPACT_LONG },
      paths: ['kcm.log', 'long.json'],
      snapshot: ['long.json'],
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const files = Object.fromEntries(Object.entries(row.files).map(([k, v]) => [k, typeof v === 'function' ? v() : v]));
      inDir(files, (path) => {
        const c = countingFs();
        const r = importEvidenceFiles(
          row.paths.map(path),
          { fs: c.fs, readChunks: (p) => c.readChunks(p) },
          { now: 0, at: parseTimestamp('2024-09-01T00:00:00Z'), snapshots: row.snapshots?.map(path) },
        );
        assert.ok(r.ok, (r as { message?: string }).message);
        assert.deepEqual([...c.reads].sort(), [...row.paths, ...(row.snapshots ?? [])].map((f): [string, number] => [path(f), 1]).sort());
        const line = /\nsnapshot: (.*)\n/.exec(r.imported.text)?.[1];
        assert.deepEqual(line ? ([] as string[]).concat(JSON.parse(line) as string | string[]) : [], row.snapshot.map(path));
      });
    });
  }
});

describe('loading a snapshot or a scenario reads each file once', () => {
  const table: {
    name: string;
    files: Record<string, string | Buffer>;
    load: (path: (name: string) => string, fs: ReturnType<typeof countingFs>['fs']) => number;
    reads: string[];
  }[] = [
    {
      name: 'a JSON export as a plain snapshot',
      files: { 'c.json': LIST([node('a'), node('b')]) },
      load: (p, fs) => loadScenario(p('c.json'), fs).snapshot.cluster.nodes.size,
      reads: ['c.json'],
    },
    {
      name: 'a gzipped export',
      files: { 'c.json.gz': gzipSync(LIST([node('a')])) },
      load: (p, fs) => loadScenario(p('c.json.gz'), fs).snapshot.cluster.nodes.size,
      reads: ['c.json.gz'],
    },
    {
      name: 'a scenario and its snapshot',
      files: { 's.yaml': 'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nsnapshot: ./c.json\n', 'c.json': LIST([node('a')]) },
      load: (p, fs) => loadScenario(p('s.yaml'), fs).snapshot.cluster.nodes.size,
      reads: ['s.yaml', 'c.json'],
    },
    {
      name: 'a folder',
      files: { 'a.json': LIST([node('a')]), 'b.yaml': 'apiVersion: v1\nkind: Node\nmetadata: {name: b}\n' },
      load: (p, fs) => loadSnapshot(p('.'), fs).cluster.nodes.size,
      reads: ['a.json', 'b.yaml'],
    },
    {
      name: 'a file streamed item by item',
      files: { 'c.json': LIST([node('a'), node('b')]) },
      load: (p, fs) => loadSnapshot(p('c.json'), fs, { streamFilesAbove: 0 }).cluster.nodes.size,
      reads: ['c.json'],
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      inDir(row.files, (path) => {
        const c = countingFs();
        const nodes = row.load(path, c.fs);
        assert.ok(nodes > 0);
        assert.deepEqual([...c.reads].sort(), row.reads.map((f): [string, number] => [path(f), 1]).sort());
      });
    });
  }
});
