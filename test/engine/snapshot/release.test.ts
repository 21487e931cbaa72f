import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSnapshot, loadSnapshotSource } from '../../../src/engine/snapshot/load';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs, type InputFs } from '../../../src/engine/snapshot/source';

// A "big" file: over objectPositionsUpTo (set low here), so the loader lets its text go once parsed.
const node = (name: string, extra = '') => `{"apiVersion":"v1","kind":"Node","metadata":{"name":"${name}"}${extra}}`;
const text = `\n{"apiVersion":"v1","kind":"List","items":[\n${node('a')},\n${node('b', ',"spec":{"unschedulable":"yes"}')}\n]}\n`;

/** Counts the reads, so the tests see when the text is read again. */
function countingFs(files: Record<string, string>): InputFs & { reads: number } {
  const fs = new MemoryFs(files);
  const out = Object.assign(Object.create(fs) as InputFs, { reads: 0 });
  out.readText = (p: string) => {
    out.reads++;
    return fs.readText(p);
  };
  return out as InputFs & { reads: number };
}

test('a big file read from disk gives up its text once parsed, and reads it again only to place a problem', () => {
  const fs = countingFs({ '/c/big.json': text });
  const snap = loadSnapshot('/c/big.json', fs, { objectPositionsUpTo: 10 });
  assert.equal(fs.reads, 2);
  const p = snap.problems.find((x) => x.code === 'wrong-type');
  assert.ok(p);
  assert.deepEqual([p.position?.file, p.position?.line], ['/c/big.json', 4]);
  // the same as with the text kept
  const kept = loadSnapshot({ file: '/c/big.json', text }, undefined, { objectPositionsUpTo: 10 });
  assert.deepEqual(snap.problems, kept.problems);
  assert.deepEqual(snap.objects, kept.objects);

  const clean = countingFs({ '/c/big.json': text.replace(',"spec":{"unschedulable":"yes"}', '') });
  const ok = loadSnapshot('/c/big.json', clean, { objectPositionsUpTo: 10 });
  assert.equal(clean.reads, 1, 'no problem, no second read');
  assert.equal(ok.cluster.nodes.size, 2);
});

test('loadSnapshotSource empties the text it was given; a file that cannot be read again gives problems without a line', () => {
  const source = {
    text,
    reread: (): string => {
      throw new Error('gone');
    },
  };
  const snap = loadSnapshotSource('/c/big.json', source, undefined, { objectPositionsUpTo: 10 });
  assert.equal(source.text, '');
  assert.equal(snap.cluster.nodes.size, 2);
  const p = snap.problems.find((x) => x.code === 'wrong-type');
  assert.deepEqual(p?.position, { file: '/c/big.json', line: 1, column: 1 });
  // small files keep their text, and every object its position
  const small = { text, reread: () => text };
  const s2 = loadSnapshotSource('/c/small.json', small);
  assert.equal(small.text, text);
  assert.equal(s2.objects[1].position?.line, 4);
});

test('a plain snapshot opened as a scenario loads the same through the releasing path', () => {
  const fs = new MemoryFs({ '/c/big.json': text });
  const sc = loadScenario('/c/big.json', fs);
  const direct = loadSnapshot('/c/big.json', fs);
  assert.deepEqual(sc.snapshot.objects, direct.objects);
  assert.deepEqual(sc.snapshot.problems, direct.problems);
  assert.ok(sc.plainSnapshot);
});
