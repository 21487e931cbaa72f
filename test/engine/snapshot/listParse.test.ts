import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseListSharing } from '../../../src/engine/snapshot/listParse';
import { loadSnapshot } from '../../../src/engine/snapshot/load';

const same = (text: string, first = 0) => {
  const got = parseListSharing(text, first);
  assert.ok(got, `recognised: ${text.slice(0, 60)}`);
  assert.equal(JSON.stringify(got), JSON.stringify(JSON.parse(text)));
  return got;
};

test('a List parsed item by item is what JSON.parse gives, whatever the spacing, strings and nesting', () => {
  same('{"apiVersion":"v1","items":[{"kind":"Pod","metadata":{"name":"a"}},{"kind":"Pod","metadata":{"name":"b"}}],"kind":"List"}');
  same(
    '  {\n  "items" : [\n    {"kind": "Node", "x": [1, [2, {"y": "]}"}]]},\n  3, "s", null, [] ,\n {"items": [1]}\n ],\n "kind": "List", "metadata": {"items": []}\n}\n  ',
    2,
  );
  same('{"items":[]}');
  same('{"items":[ \n ]}');
  same('{"kind":"PodList","items":[{"kind":"Pod","q":"a \\"quoted\\" ], and a \\\\"}, {"kind":"Pod","q":"\\\\\\""}]}');
  same('{"a":{"items":[1,2]},"items":[{"b":"\\u00e9té ✓"}]}');
});

test('items of one kind share their equal parts as they are parsed', () => {
  const pod = (n: string) => ({ kind: 'Pod', metadata: { name: n, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27.3' }] } });
  const got = same(JSON.stringify({ kind: 'List', items: [pod('a'), pod('b'), { kind: 'Node', metadata: { labels: { app: 'web' } } }] }));
  const [a, b, n] = got.items as { metadata: { labels: unknown }; spec?: unknown }[];
  assert.equal(b.metadata.labels, a.metadata.labels);
  assert.equal(b.spec, a.spec);
  assert.notEqual(n.metadata.labels, a.metadata.labels, 'only with the previous object of the same kind');
});

test('anything else is left to JSON.parse (undefined)', () => {
  for (const text of [
    '[{"kind":"Pod"}]',
    '{"kind":"Pod","metadata":{"name":"a"}}',
    '{"items":null}',
    '{"items":[1,2,]}',
    '{"items":[1 2]}',
    '{"items":[1,2]',
    '{"items":[1,2]} {"items":[]}',
    '{"items":[1,2]} x',
    '{"items":[1],"items":[2]}',
    '{"items":[1],"items":null}',
    '{"it\\u0065ms":[1],"items":[2]}',
    '{"items":[{"a":1]}',
    '{"items":["unterminated]}',
  ])
    assert.equal(parseListSharing(text, 0), undefined, text);
});

test('the loader gives the same objects, problems and positions for a big List as for a small one', () => {
  const items = [
    { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
    { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' }, spec: { unschedulable: 'yes' } },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'd' }, spec: { nodeName: 'n1' } },
  ];
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 1);
  const big = loadSnapshot({ file: 'c.json', text }, undefined, { objectPositionsUpTo: 10 });
  const small = loadSnapshot({ file: 'c.json', text });
  assert.deepEqual(big.problems, small.problems);
  assert.deepEqual(
    big.objects.map((o) => o.object),
    small.objects.map((o) => o.object),
  );
  assert.deepEqual([...big.cluster.nodes.keys()], ['n1', 'n2']);
  const broken = loadSnapshot({ file: 'c.json', text: text.replace('"n2"', '"n2",,') }, undefined, { objectPositionsUpTo: 10 });
  assert.deepEqual(
    broken.problems.map((p) => p.code),
    ['json-syntax'],
  );
});

test('items found by their separator are exactly the items JSON.parse finds, whatever the items hold', () => {
  // The separator learned from the first two items (`},{"apiVersion":`) also occurs inside items
  // (nested lists of objects that start with apiVersion), and some items end otherwise (other
  // spacing, another first key, scalars, the last item): every case must still come out whole.
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const owner = () => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs${rnd(3)}` });
  const item = (k: number): unknown => {
    switch (rnd(8)) {
      case 0:
        return { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${k}`, ownerReferences: [owner(), owner(), owner()] } };
      case 1:
        return { kind: 'Pod', apiVersion: 'v1', metadata: { name: `p${k}` } };
      case 2:
        return rnd(2) ? k : `s},{"apiVersion":${k}`;
      case 3:
        return { apiVersion: 'v1', kind: 'Node', q: '},{\\"apiVersion\\":', list: [{ apiVersion: 'x' }, { apiVersion: 'y' }] };
      case 4:
        return [{ apiVersion: 'v1' }, { apiVersion: 'v2' }];
      default:
        return { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${k}`, labels: { app: `a${rnd(2)}` } } };
    }
  };
  const spaces = ['', ' ', '\n  '];
  for (let round = 0; round < 300; round++) {
    const n = rnd(12);
    const parts: string[] = [];
    for (let k = 0; k < n; k++) parts.push(JSON.stringify(item(k), null, rnd(4) === 0 ? 1 : undefined));
    let body = '';
    for (let k = 0; k < parts.length; k++) body += (k ? `${spaces[rnd(4) === 0 ? rnd(3) : 0]},${spaces[rnd(5) === 0 ? rnd(3) : 0]}` : '') + parts[k];
    same(`{"apiVersion":"v1","items":[${body}],"kind":"List"}`);
  }
  // a separator from the first two items that then never occurs again, and one that occurs only inside items
  same(`{"items":[{"a":1},{"b":2},{"c":3}, {"b":4}]}`);
  same(`{"items":[{"a":1},{"b":{"x":[{"z":1},{"b":2}]}},{"c":[{"q":1},{"b":5}]}]}`);
});

test('a syntax error inside an item is found whichever way the item was found', () => {
  for (const text of [
    '{"items":[{"apiVersion":"v1"},{"apiVersion":"v1","x":[1,]},{"apiVersion":"v1"}]}',
    '{"items":[{"apiVersion":"v1"},{"apiVersion":"v1"},{"apiVersion":"v1" "x":1}]}',
    '{"items":[{"apiVersion":"v1"},{"apiVersion":"v1"},{"apiVersion":"v1"},]}',
    '{"items":[{"apiVersion":"v1"},{"apiVersion":"v1"},{"apiVersion":"v1"}}',
  ])
    assert.equal(parseListSharing(text, 0), undefined, text);
});

test('the item-by-item parse of big Lists loads real exports and generated clusters exactly as a whole parse does', async () => {
  const { readFileSync, readdirSync, statSync } = await import('node:fs');
  const { join, resolve } = await import('node:path');
  const { generateClusterText } = await import('../../../src/engine/generate');
  const texts: { file: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.json')) texts.push({ file: p, text: readFileSync(p, 'utf8') });
    }
  };
  walk(resolve(__dirname, '../../../../shared/fixtures/real'));
  assert.ok(
    texts.some((t) => t.text.includes('"items"')),
    'the real fixtures hold Lists',
  );
  // full detail (managedFields entries, which are lists of objects inside each item), compact and as kubectl indents
  for (const indent of [0, 4]) {
    texts.push({
      file: `generated-${indent}.json`,
      text: generateClusterText({ nodes: 6, podsPerNode: 4, detail: 'full', managedFields: 1, seed: 3, indent }).cluster,
    });
  }
  for (const { file, text } of texts) {
    const whole = loadSnapshot({ file, text });
    const big = loadSnapshot({ file, text }, undefined, { objectPositionsUpTo: 0 });
    assert.deepEqual(
      big.objects.map((o) => o.object),
      whole.objects.map((o) => o.object),
      file,
    );
    assert.deepEqual(
      big.problems.map((p) => p.code),
      whole.problems.map((p) => p.code),
      file,
    );
    assert.deepEqual([...big.cluster.pods.keys()], [...whole.cluster.pods.keys()], file);
  }
});
