/** A YAML stream cut into documents, and a List document into its items, without a parse. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { yamlStreamPieces, type YamlStreamPiece } from '../../../src/engine/snapshot/yamlListStream';

/** Each piece as `kind@line: value` (the value as the yaml package parses the piece's text). */
const read = (text: string, chunk = 5, max?: number) => {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += chunk) chunks.push(text.slice(i, i + chunk));
  return [...yamlStreamPieces(chunks, max === undefined ? {} : { maxDocumentChars: max })].map((p: YamlStreamPiece) => {
    if ('tooLong' in p) return `tooLong@${p.tooLong.line}`;
    const [kind, piece] = 'item' in p ? ['item', p.item] : 'listEnd' in p ? ['listEnd', p.listEnd] : ['doc', p.piece];
    return `${kind}@${piece.at.line}: ${JSON.stringify(parse(piece.text))}`;
  });
};

const KUBECTL = `apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
- apiVersion: v1
  kind: Pod
  metadata:
    name: p1
  spec:
    containers:
    - args:
      - |
        a script

        - not an item
      name: c
kind: List
metadata:
  resourceVersion: ""
`;

describe('YAML stream pieces', () => {
  const cases: [name: string, text: string, want: string[]][] = [
    [
      "kubectl -o yaml: each item alone (a block scalar with a blank line and a dash inside stays in its item), then the List's own keys",
      KUBECTL,
      [
        'item@3: {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}',
        'item@7: {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"},"spec":{"containers":[{"args":["a script\\n\\n- not an item\\n"],"name":"c"}]}}',
        'listEnd@1: {"apiVersion":"v1","items":[],"kind":"List","metadata":{"resourceVersion":""}}',
      ],
    ],
    [
      'an indented sequence, as other printers write it',
      'kind: NodeList\nitems:\n  - metadata:\n      name: a\n  - metadata:\n      name: b\n',
      ['item@3: {"metadata":{"name":"a"}}', 'item@5: {"metadata":{"name":"b"}}', 'listEnd@1: {"kind":"NodeList","items":[]}'],
    ],
    [
      'documents: a List and a single object',
      `${KUBECTL.split('\n').slice(0, 6).join('\n')}\nkind: List\n---\nkind: Node\nmetadata: {name: n2}\n`,
      [
        'item@3: {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}',
        'listEnd@1: {"apiVersion":"v1","items":[],"kind":"List"}',
        'doc@8: {"kind":"Node","metadata":{"name":"n2"}}',
      ],
    ],
    ['items that are not a sequence: the document whole', 'items:\n  a: 1\nkind: Thing\n', ['doc@1: {"items":{"a":1},"kind":"Thing"}']],
    ['an empty list', 'items: []\nkind: List\n', ['doc@1: {"items":[],"kind":"List"}']],
    ['CRLF line ends', 'items:\r\n- a: 1\r\n- b: 2\r\nkind: List\r\n', ['item@2: {"a":1}', 'item@3: {"b":2}', 'listEnd@1: {"items":[],"kind":"List"}']],
    ['comments between items', 'items:\n# the first\n- a: 1\n# the second\n- b: 2\n', ['item@3: {"a":1}', 'item@5: {"b":2}', 'listEnd@1: {"items":[]}']],
    [
      'a flow collection that starts an item closes at its `-` column: the item goes on to it',
      'items:\n- {\n  a: 1\n}\n- [\n  2\n]\nkind: List\n',
      ['item@2: {"a":1}', 'item@5: [2]', 'listEnd@1: {"items":[],"kind":"List"}'],
    ],
  ];
  for (const [name, text, want] of cases) it(name, () => assert.deepEqual(read(text), want));

  it('chunks of any size cut the same', () => {
    for (const chunk of [1, 3, 64, 1 << 16]) assert.deepEqual(read(KUBECTL, chunk), read(KUBECTL, 7), `chunks of ${chunk}`);
  });

  it('an item over the limit is left out alone; a document over it too', () => {
    const big = `items:\n- a: 1\n- b: ${'x'.repeat(200)}\n- c: 3\n`;
    assert.deepEqual(read(big, 5, 100), ['item@2: {"a":1}', 'tooLong@3', 'item@4: {"c":3}', 'listEnd@1: {"items":[]}']);
    assert.deepEqual(read(`a: ${'x'.repeat(200)}\n---\nb: 1\n`, 5, 100), ['tooLong@1', 'doc@2: {"b":1}']);
  });

  it("columns are the file's: the item keeps its indentation", () => {
    const pieces = [...yamlStreamPieces([KUBECTL])];
    const first = pieces[0];
    assert.ok('item' in first);
    assert.equal(first.item.text.split('\n')[0], '  apiVersion: v1');
  });
});

describe('YAML stream pieces cut by offsets: the same pieces and positions wherever a chunk ends', () => {
  const streams: [name: string, text: string][] = [
    ['a kubectl List with multi-byte characters', KUBECTL.replace('name: n1', 'name: né日😀').replace('a script', 'un café ☕ 😀')],
    ['documents, a List among them', `kind: A\n---\n${KUBECTL}--- # c\nkind: B\n  x: 😀\n...\n---\nkind: C\n`],
    ['CRLF line ends and no last line break', 'items:\r\n- a: é\r\n  b: 😀\r\n- c: 3\r\nkind: List'],
    ['blank and comment lines between items, and a tail', 'x: 1\nitems:\n\n# first\n- a: 1\n\n  # in\n- b: 2\n# end\nkind: List\n'],
    ['flow items closing at the `-` column', 'items:\n- {\n  a: é,\n  b: [\n  1]\n} # é\n- [\n  2\n]\n- c: 3\nkind: List\n'],
  ];
  const all = (chunks: (string | Uint8Array)[]) => [...yamlStreamPieces(chunks)];
  for (const [name, text] of streams) {
    const whole = all([text]);
    it(`${name}: split at every character and at every byte`, () => {
      for (let i = 1; i < text.length; i++) assert.deepEqual(all([text.slice(0, i), text.slice(i)]), whole, `split at character ${i}`);
      const bytes = new TextEncoder().encode(text);
      for (let i = 1; i < bytes.length; i++) assert.deepEqual(all([bytes.slice(0, i), bytes.slice(i)]), whole, `split at byte ${i}`);
    });
    it(`${name}: each piece is the stream's text at its offset and line (an item's dash blanked; a List's keys from its first line)`, () => {
      assert.ok(whole.length > 1);
      for (const p of whole) {
        if ('tooLong' in p) continue;
        const piece = 'item' in p ? p.item : 'listEnd' in p ? p.listEnd : p.piece;
        const at = text.slice(piece.at.offset);
        const want = 'item' in p ? `${' '.repeat(p.indent + 1)}${at.slice(p.indent + 1)}` : at;
        // the stream's last line may lack its line break; the piece's has one
        const got = 'listEnd' in p ? piece.text.slice(0, piece.text.indexOf('\n')).replace(/^items: \[\]/, 'items:') : piece.text.replace(/\n$/, '');
        assert.equal(want.slice(0, got.length), got, `the piece at ${piece.at.offset}`);
        assert.ok(piece.text.endsWith('\n'));
        assert.equal(piece.at.line, text.slice(0, piece.at.offset).split('\n').length);
      }
    });
  }
});
