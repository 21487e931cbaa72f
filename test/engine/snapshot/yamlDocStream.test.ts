import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { yamlStreamPieces, type YamlStreamPiece } from '../../../src/engine/snapshot/yamlListStream';

/** The stream's documents, as the streamed loader cuts them (yamlListStream.ts); Lists are yamlListStream.test.ts's. */
const yamlDocuments = yamlStreamPieces;
const pieces = (splits: YamlStreamPiece[]) => splits.map((s) => ('piece' in s ? s.piece : assert.fail('a document was too long, or a List')));

/** The text in chunks of `n` characters. */
const chunked = (text: string, n: number) => Array.from({ length: Math.ceil(text.length / n) }, (_, i) => text.slice(i * n, i * n + n));

const STREAM = [
  'kind: A\n',
  '---\nkind: B\ndata:\n  s: |\n    ---\n    --- not a marker: indented in a block scalar\n  t: "---"\n',
  '--- # a marker with a comment\nkind: C\n---x: a key, not a marker\n',
  '---\r\nkind: D\r\n',
  '--- {kind: E}\n...\n',
].join('');

test('documents are cut at --- lines only, whatever the chunk size, and each parses as it does in the whole stream', () => {
  const whole = parseAllDocuments(STREAM).map((d) => d.toJS());
  for (const n of [1, 2, 3, 5, 64, 1 << 16]) {
    const got = pieces([...yamlDocuments(chunked(STREAM, n))]);
    assert.equal(got.map((p) => p.text).join(''), STREAM.replace('...\n', ''), `chunks of ${n}: nothing lost or added but the end marker`);
    assert.deepEqual(
      got.flatMap((p) => parseAllDocuments(p.text).map((d) => d.toJS())),
      whole,
      `chunks of ${n}`,
    );
    assert.equal(got.length, 5);
  }
});

test('each document knows the line and offset it starts at', () => {
  const got = pieces([...yamlDocuments(chunked(STREAM, 7))]);
  for (const p of got) {
    assert.equal(STREAM.slice(p.at.offset, p.at.offset + p.text.length), p.text);
    assert.equal(p.at.line, STREAM.slice(0, p.at.offset).split('\n').length);
    assert.equal(p.at.column, 1);
  }
});

test('a document longer than the limit is reported once, not held, and the next one is read', () => {
  const text = `kind: A\n---\nkind: Big\ndata: |\n${'  x: 1\n'.repeat(2000)}---\nkind: C\n`;
  const got = [...yamlDocuments(chunked(text, 100), { maxDocumentChars: 1000 })];
  assert.equal(got.length, 3);
  assert.ok('piece' in got[0] && got[0].piece.text === 'kind: A\n');
  assert.ok('tooLong' in got[1] && got[1].tooLong.line === 2, JSON.stringify(got[1]));
  assert.ok('piece' in got[2] && got[2].piece.text === '---\nkind: C\n' && got[2].piece.at.line === 2005);
});

test('UTF-8 bytes are decoded across chunks and a BOM becomes a blank', () => {
  const text = '\ufeffname: é✓\n---\nname: ü\n';
  const bytes = new TextEncoder().encode(text);
  const got = pieces([...yamlDocuments(Array.from(bytes, (b) => new Uint8Array([b])))]);
  assert.deepEqual(
    got.map((p) => p.text),
    [' name: é✓\n', '---\nname: ü\n'],
  );
});
