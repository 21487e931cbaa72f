import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateClusterStream, listChunks } from '../../src/engine/generate/index';
import { fullRawProto, type RawMode } from '../../bench/rawRefProto';

/** A small full-detail export written as the bench writes its own (kubectl's 4-space indent, the chunks' lengths beside it). */
function writeExport(dir: string): { full: { json: string; lengths: string; headChars: number }; items: unknown[] } {
  const json = join(dir, 'cluster-full.json');
  const lengths: number[] = [];
  const chunks: string[] = [];
  for (const c of listChunks(generateClusterStream({ nodes: 4, podsPerNode: 3, zones: 2, seed: 7, detail: 'full' }).items, 'json', 4)) {
    lengths.push(c.length);
    chunks.push(c);
  }
  const fd = openSync(json, 'w');
  writeSync(fd, chunks.join(''));
  closeSync(fd);
  writeFileSync(join(dir, 'lengths.json'), JSON.stringify(lengths));
  const items = (JSON.parse(chunks.join('')) as { items: unknown[] }).items;
  return { full: { json, lengths: join(dir, 'lengths.json'), headChars: '{\n    "apiVersion": "v1",\n    "items": [\n'.length }, items };
}

test('every raw the ceiling keeps reads back to the object exported, in order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rawref-'));
  try {
    const { full, items } = writeExport(dir);
    const cases: [mode: RawMode, readsBack: boolean][] = [
      ['tree', false],
      ['none', false],
      ['novalid', false],
      ['offset', true],
      ['bytes', true],
      ['bytesjs', true],
      ['string', true],
    ];
    for (const [mode, readsBack] of cases) {
      const back: unknown[] = [];
      const out = fullRawProto(
        full,
        mode,
        () => undefined,
        (o) => back.push(o),
      );
      assert.equal(out.items, items.length, `${mode}: every item read`);
      assert.equal(out.records, items.length, `${mode}: every item a record`);
      assert.deepEqual(back, readsBack ? items : [], `${mode}: what reads back`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
