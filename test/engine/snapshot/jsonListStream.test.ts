import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  readJsonList,
  readJsonListAsync,
  type Chunk,
  type ListItem,
  type ListSummary,
  type ListSyntaxError,
} from '../../../src/engine/snapshot/jsonListStream';
import { LineIndex } from '../../../src/engine/snapshot/positions';
import { Random } from '../../../src/engine/generate/random';

interface Read {
  items: ListItem[];
  errors: ListSyntaxError[];
  summary: ListSummary;
  head?: Record<string, unknown>;
}

function read(chunks: Iterable<Chunk>, maxItemChars?: number): Read {
  const items: ListItem[] = [];
  const errors: ListSyntaxError[] = [];
  let head: Record<string, unknown> | undefined;
  const summary = readJsonList(chunks, { item: (i) => items.push(i), error: (e) => errors.push(e), head: (k) => (head = k) }, { maxItemChars });
  return { items, errors, summary, head };
}

/** The text cut at random places (sizes 1..max). */
function* cut(text: string, random: Random, max: number): Generator<string> {
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(random.float() * max);
    yield text.slice(i, i + n);
    i += n;
  }
}

const bytes = (text: string, size: number): Uint8Array[] => {
  const all = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.subarray(i, i + size));
  return out;
};

/** Strings that look like the separators and brackets a List reader searches for. */
const TRICKY = ['},{"apiVersion":', '},\n        {\n            "apiVersion": ', '"}]', '\\', '\\"', '{[', ']}', 'é✓😀', ',', '\n', '\u2028', '"items": ['];

function randomValue(r: Random, depth: number): unknown {
  const pick = r.float();
  if (depth > 3 || pick < 0.3) {
    const s = r.float();
    if (s < 0.4) return TRICKY[Math.floor(r.float() * TRICKY.length)] + String(Math.floor(r.float() * 100));
    if (s < 0.6) return Math.floor(r.float() * 1e6) / 100;
    if (s < 0.7) return null;
    if (s < 0.8) return r.float() < 0.5;
    return `v${Math.floor(r.float() * 1000)}`;
  }
  if (pick < 0.55) return Array.from({ length: Math.floor(r.float() * 4) }, () => randomValue(r, depth + 1));
  const o: Record<string, unknown> = {};
  if (depth > 0 && r.float() < 0.5) o.apiVersion = 'v1';
  for (let k = Math.floor(r.float() * 5); k > 0; k--) o[TRICKY[Math.floor(r.float() * TRICKY.length)] + k] = randomValue(r, depth + 1);
  return o;
}

function randomList(r: Random): string {
  const items = Array.from({ length: Math.floor(r.float() * 12) }, (_, i) =>
    r.float() < 0.9 ? { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}` }, x: randomValue(r, 1) } : randomValue(r, 1),
  );
  const list = { apiVersion: 'v1', kind: r.float() < 0.5 ? 'List' : 'PodList', metadata: { resourceVersion: '1', note: '"items": [' }, items };
  const indent = [0, 1, 2, 4, '\t'][Math.floor(r.float() * 5)];
  const text = JSON.stringify(list, null, indent);
  return r.float() < 0.3 ? text.replace(/\n/g, '\r\n') : text;
}

test('random Lists read in random chunks equal JSON.parse of the whole text, item by item', () => {
  const r = new Random(7);
  for (let n = 0; n < 400; n++) {
    const text = randomList(r);
    const whole = JSON.parse(text) as { items: unknown[]; kind: string };
    const got = read(cut(text, r, [1, 7, 64, 4096][n % 4]));
    assert.deepEqual(got.errors, [], text);
    assert.deepEqual(
      got.items.map((i) => i.value),
      whole.items,
      text,
    );
    assert.equal(got.summary.shape, 'list');
    assert.equal(got.summary.keys.kind, whole.kind);
    // every item's text and position are where the item is in the whole text
    const lines = new LineIndex(text);
    for (const item of got.items) {
      assert.equal(text.slice(item.at.offset, item.at.offset + item.text.length), item.text);
      assert.deepEqual({ line: item.at.line, column: item.at.column }, lines.lineCol(item.at.offset));
    }
  }
});

test("the List's own keys before its items are known when the first item arrives", () => {
  const got = read(['{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":"n"}}]}']);
  assert.deepEqual(got.head, { kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion: '9' } });
  assert.deepEqual(
    got.items.map((i) => i.value),
    [{ metadata: { name: 'n' } }],
  );
});

test('bytes are decoded as UTF-8 across chunk boundaries, and a BOM counts as a blank', () => {
  const text = '\ufeff{"items":[{"name":"é✓😀"},{"name":"ünïcödé"}]}';
  for (const size of [1, 2, 3, 5]) {
    const got = read(bytes(text, size));
    assert.deepEqual(
      got.items.map((i) => i.value),
      [{ name: 'é✓😀' }, { name: 'ünïcödé' }],
      `chunks of ${size} bytes`,
    );
    assert.equal(got.items[0].at.column, 12, 'offsets count the BOM as one character, as the loader does for a whole text');
  }
});

test('a top-level array is a list of items, and an object without items is given back whole', () => {
  assert.deepEqual(
    read(['[{"a":1}, 2, "x"]']).items.map((i) => i.value),
    [{ a: 1 }, 2, 'x'],
  );
  const obj = read(['{"kind":"Pod","metadata":{"name":"p"},"n":1,"t":true}']);
  assert.equal(obj.summary.shape, 'object');
  assert.deepEqual(obj.summary.keys, { kind: 'Pod', metadata: { name: 'p' }, n: 1, t: true });
  assert.equal(read(['kind: List\n']).summary.shape, 'not-json');
  assert.equal(read(['  \n']).summary.shape, 'empty');
});

/** A kubectl-like List, 4-space indented, of `n` pods. */
function kubectlList(n: number, crlf = false): string {
  const items = Array.from({ length: n }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-${i}`,
      namespace: 'default',
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web' },
        { apiVersion: 'v1', kind: 'X', name: 'y' },
      ],
    },
    spec: { nodeName: `node-${i % 7}`, containers: [{ name: 'c', image: 'nginx', command: ['sh', '-c', 'echo "}," && echo {'] }] },
  }));
  const text = `${JSON.stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`;
  return crlf ? text.replace(/\n/g, '\r\n') : text;
}

test('a syntax error inside one item of pretty-printed JSON loses that item only, at its line and column', () => {
  for (const crlf of [false, true]) {
    const good = kubectlList(200, crlf);
    // item 120's name loses its closing quote's comma: `"web-120"` -> `"web-120" "x"`
    const text = good.replace('"name": "web-120",', '"name": "web-120" "x",');
    const at = text.indexOf('"x"', text.indexOf('"web-120"'));
    const want = new LineIndex(text).lineCol(at);
    for (const size of [100, 4096, 1 << 20]) {
      const got = read(cut(text, new Random(size), size));
      assert.equal(got.errors.length, 1, JSON.stringify(got.errors));
      assert.deepEqual({ line: got.errors[0].at.line, column: got.errors[0].at.column }, want);
      assert.equal(got.errors[0].lost, 'item');
      assert.equal(got.items.length, 199);
      assert.ok(!got.items.some((i) => (i.value as { metadata: { name: string } }).metadata.name === 'web-120'));
      assert.equal((got.items[199 - 1].value as { metadata: { name: string } }).metadata.name, 'web-199', 'the items after it still load');
    }
  }
});

/** `text` with the first `from` after item `name`'s name replaced. */
function breakItem(text: string, name: string, from: string, to: string): string {
  const at = text.indexOf(from, text.indexOf(`"name": "${name}"`));
  assert.ok(at > 0, from);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

test('a broken structure in pretty-printed JSON (a missing bracket or quote) loses the text up to the next item', () => {
  const good = kubectlList(50);
  for (const [what, broken] of [
    ['a missing closing brace', breakItem(good, 'web-3', '}\n                ]', '\n                ]')],
    ['an unterminated string', breakItem(good, 'web-3', '"web-3",', '"web-3,')],
    ['a bracket of the wrong kind', breakItem(good, 'web-3', '"ownerReferences": [', '"ownerReferences": {')],
  ] as const) {
    const got = read(cut(broken, new Random(3), 333));
    assert.equal(got.errors.length, 1, `${what}: ${JSON.stringify(got.errors)}`);
    assert.equal(got.errors[0].lost, 'items');
    const names = got.items.map((i) => (i.value as { metadata: { name: string } }).metadata.name);
    assert.deepEqual(
      names,
      Array.from({ length: 50 }, (_, i) => `web-${i}`).filter((n) => n !== 'web-3'),
      what,
    );
    // where the walk found it broken: inside the item web-3
    const lines = new LineIndex(broken);
    const [from, to] = ['"web-3', '"web-4"'].map((n) => lines.lineCol(broken.indexOf(n)).line);
    assert.ok(got.errors[0].at.line >= from - 5 && got.errors[0].at.line < to, `${what}: line ${got.errors[0].at.line}, not in ${from}..${to}`);
  }
});

test('in compact JSON a broken structure leaves out the rest of the file, and says so where it broke', () => {
  const text = JSON.stringify({ items: [{ a: 1 }, { b: [1, 2] }, { c: 3 }, { d: 4 }] }).replace('[1,2]}', '[1,2}');
  const got = read(cut(text, new Random(1), 5));
  assert.deepEqual(
    got.items.map((i) => i.value),
    [{ a: 1 }],
  );
  assert.equal(got.errors.length, 1);
  assert.equal(got.errors[0].lost, 'rest');
  assert.equal(got.errors[0].at.column, text.indexOf('[1,2}') + 5);
});

test('in compact JSON an error inside balanced brackets loses one item', () => {
  const text = JSON.stringify({ items: [{ a: 1 }, { b: 2 }, { c: 3 }] }).replace('{"b":2}', '{"b":2 "x":1}');
  const got = read([text]);
  assert.deepEqual(
    got.items.map((i) => i.value),
    [{ a: 1 }, { c: 3 }],
  );
  assert.equal(got.errors[0].lost, 'item');
  assert.equal(got.errors[0].at.column, text.indexOf('"x"') + 1);
});

test('a missing comma between items is reported and both items are read', () => {
  const got = read(['{"items":[{"a":1}\n {"b":2}]}']);
  assert.deepEqual(
    got.items.map((i) => i.value),
    [{ a: 1 }, { b: 2 }],
  );
  assert.deepEqual([got.errors[0].at.line, got.errors[0].at.column], [2, 2]);
});

test('a file cut short keeps the items before the cut and says where it ends', () => {
  const text = kubectlList(10);
  const cutAt = text.indexOf('"web-7"');
  const got = read([text.slice(0, cutAt)]);
  assert.equal(got.items.length, 7);
  assert.equal(got.errors.length, 1);
  assert.equal(got.errors[0].lost, 'rest');
});

test('an item that never closes is given up after the size limit, not held whole', () => {
  const text = `{"items":[{"a":1},{"b":"${'x'.repeat(5000)}`;
  const got = read(cut(`${text}${'y'.repeat(5000)}`, new Random(2), 100), 1000);
  assert.deepEqual(
    got.items.map((i) => i.value),
    [{ a: 1 }],
  );
  assert.equal(got.errors.length, 1);
  assert.match(got.errors[0].message, /more than 1000 characters/);
});

test('text after the List is reported with its position', () => {
  const got = read(['{"items":[{"a":1}]}\n\nextra']);
  assert.equal(got.items.length, 1);
  assert.deepEqual([got.errors[0].at.line, got.errors[0].at.column], [3, 1]);
});

test('an async iterable of chunks gives the same items', async () => {
  const text = kubectlList(30);
  async function* chunks() {
    for (const c of cut(text, new Random(5), 999)) yield c;
  }
  const items: unknown[] = [];
  await readJsonListAsync(chunks(), { item: (i) => items.push(i.value), error: (e) => assert.fail(e.message) });
  assert.deepEqual(items, (JSON.parse(text) as { items: unknown[] }).items);
});
