import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryFs, basenamePath, dirnamePath, joinPath, normalizePath, resolveFrom, utf8Length } from '../../../src/engine/snapshot/source';
import { LineIndex, findJsonSyntaxError, locateJsonPaths, pathKey, splitJsonStream } from '../../../src/engine/snapshot/positions';

test('paths are joined, normalised and split as pure strings', () => {
  const cases: [string, string][] = [
    [joinPath('a/b', 'c.yaml'), 'a/b/c.yaml'],
    [joinPath('/s', './cluster.yaml'), '/s/cluster.yaml'],
    [joinPath('/s/x', '../y/z.json'), '/s/y/z.json'],
    [joinPath('/s', '/abs/f.yaml'), '/abs/f.yaml'],
    [joinPath('.', 'f.yaml'), 'f.yaml'],
    [normalizePath('a//b/./c/'), 'a/b/c'],
    [normalizePath('../a/../../b'), '../../b'],
    [normalizePath('/..'), '/'],
    [normalizePath('C:\\work\\s\\..\\f.yaml'), 'C:/work/f.yaml'],
    [dirnamePath('a/b/c.yaml'), 'a/b'],
    [dirnamePath('c.yaml'), '.'],
    [dirnamePath('/c.yaml'), '/'],
    [basenamePath('/a/b/c.yaml'), 'c.yaml'],
    [resolveFrom('/s', 'sub/f.yaml'), '/s/sub/f.yaml'],
    [resolveFrom('/s', '/t/f.yaml'), '/t/f.yaml'],
  ];
  for (const [got, want] of cases) assert.equal(got, want);
});

test('the in-memory file system lists folders, stats files and claims sizes', () => {
  const fs = new MemoryFs({ '/a/x.yaml': 'x: 1', '/a/sub/y.json': '{}', '/b.yaml': 'é' });
  assert.deepEqual(fs.list('/a'), ['sub', 'x.yaml']);
  assert.deepEqual(fs.list('/'), ['a', 'b.yaml']);
  assert.deepEqual(fs.stat('/a'), { kind: 'dir', size: 0 });
  assert.deepEqual(fs.stat('/b.yaml'), { kind: 'file', size: 2 });
  assert.equal(fs.stat('/nope'), undefined);
  assert.equal(fs.readText('/a/./sub/../x.yaml'), 'x: 1');
  fs.write('/big.json', '{}', 2 ** 40);
  assert.equal(fs.stat('/big.json')!.size, 2 ** 40);
  assert.equal(utf8Length('a€😀'), 1 + 3 + 4);
});

test('line and column of an offset', () => {
  const idx = new LineIndex('ab\ncd\n\nef');
  assert.deepEqual(idx.lineCol(0), { line: 1, column: 1 });
  assert.deepEqual(idx.lineCol(4), { line: 2, column: 2 });
  assert.deepEqual(idx.lineCol(6), { line: 3, column: 1 });
  assert.deepEqual(idx.lineCol(8), { line: 4, column: 2 });
});

test('JSON paths are located in one pass, escaped keys included', () => {
  const text = '{"a": [1, {"b\\u0063": "x"}], "d": {"e": null}}';
  const found = locateJsonPaths(text, 0, [['a', 1, 'bc'], ['d', 'e'], ['a'], ['missing']]);
  assert.equal(text.slice(found.get(pathKey(['a', 1, 'bc']))!.start, found.get(pathKey(['a', 1, 'bc']))!.end), '"x"');
  assert.equal(text.slice(found.get(pathKey(['d', 'e']))!.start, found.get(pathKey(['d', 'e']))!.end), 'null');
  assert.equal(found.get(pathKey(['a']))!.start, 6);
  assert.equal(found.has(pathKey(['missing'])), false);
});

test('JSON syntax errors are found where they are', () => {
  const cases: [string, number, RegExp][] = [
    ['{"a": 1,}', 8, /property name/],
    ['[1 2]', 3, /',' or '\]'/],
    ['{"a": tru}', 6, /expected a value/],
    ['"abc', 0, /unterminated string/],
    ['{"a": "x\ny"}', 8, /control character/],
    ['{} {}', 3, /after the end/],
  ];
  for (const [text, offset, message] of cases) {
    const err = findJsonSyntaxError(text)!;
    assert.equal(err.offset, offset, text);
    assert.match(err.message, message, text);
  }
  assert.equal(findJsonSyntaxError('{"ok": [true, false, null, -1.5e3]}'), undefined);
});

test('a stream of JSON values with text between them is cut into segments', () => {
  const text = '{"a": 1}\nlog line {\n[INFO] x\n[1,\n 2]\n{"bad": \n  oops}\n{"c": 3}';
  assert.deepEqual(
    splitJsonStream(text).map((s) => `${s.kind}:${JSON.stringify(text.slice(s.start, s.end).trim())}`),
    ['json:"{\\"a\\": 1}"', 'text:"log line {\\n[INFO] x"', 'json:"[1,\\n 2]"', 'bad-json:"{\\"bad\\": \\n  oops}"', 'json:"{\\"c\\": 3}"'],
  );
});
