import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeWindow } from '../../src/extension/nodeWindow';
import { FIRST_ROWS } from '../../src/protocol/lists';
import type { NodeItem } from '../../src/protocol/webview';

const node = (zone: string, n: number, ready = 'True', taints: string[] = []): NodeItem => ({
  ref: `Node/${zone}-${n}`,
  name: `${zone}-${n}`,
  zone: `Zone/${zone}`,
  ready,
  taints,
  unschedulable: false,
});
const byRef = (items: NodeItem[]) => new Map(items.map((i) => [i.ref, i]));
const none = { upsert: [], remove: [] };

test('the node list: keys in zone then natural order with their headings and shapes; the items of the first rows; the filter in the host', () => {
  const items = [...Array.from({ length: 100 }, (_, i) => node('b', i)), ...Array.from({ length: 100 }, (_, i) => node('a', i))];
  const w = new NodeWindow();
  const full = w.update(byRef(items), { upsert: items, remove: [] }, true);
  assert.deepEqual(full.keys?.slice(0, 3), ['Node/a-0', 'Node/a-1', 'Node/a-2']);
  assert.equal(full.keys?.[10], 'Node/a-10', 'natural: a-9 before a-10');
  assert.deepEqual(full.zones, [
    { zone: 'Zone/a', count: 100 },
    { zone: 'Zone/b', count: 100 },
  ]);
  assert.equal(full.tall, '0'.repeat(200));
  assert.equal(full.items.length, FIRST_ROWS);

  const cases: { what: string; change: NodeItem[]; keys: boolean; tall?: string; items: string[] }[] = [
    { what: 'a node out of the window changed, no shape', change: [node('b', 50, 'Unknown')], keys: false, items: [] },
    { what: 'a node in the window changed', change: [node('a', 5, 'Unknown')], keys: false, items: ['Node/a-5'] },
    {
      what: 'a node out of the window tainted: its shape alone',
      change: [node('b', 7, 'Unknown', ['node.kubernetes.io/unreachable:NoExecute'])],
      keys: false,
      tall: `${'0'.repeat(107)}1${'0'.repeat(92)}`,
      items: [],
    },
    { what: 'nothing changed', change: [], keys: false, items: [] },
  ];
  let now = byRef(items);
  for (const c of cases) {
    now = new Map(now);
    for (const i of c.change) now.set(i.ref, i);
    const rows = w.update(now, { upsert: c.change, remove: [] }, false);
    assert.equal(rows.keys !== undefined, c.keys, `${c.what}: keys`);
    assert.equal(rows.tall, c.tall, `${c.what}: shapes`);
    assert.deepEqual(
      rows.items.map((i) => i.ref),
      c.items,
      `${c.what}: items`,
    );
  }

  // a filter that keeps every node (True and Unknown both hold a `u`): no keys, the same window, nothing sent again
  const all = w.setFilter('u', now);
  assert.equal(all.keys, undefined);
  assert.equal(all.filter, 'u');
  assert.equal(all.refs.length, FIRST_ROWS);
  assert.deepEqual(all.items, []);
  // the filter keeps what a row shows (name, taints, Ready), and follows the steps
  const f = w.setFilter('Unknown', now);
  assert.deepEqual(f.keys, ['Node/a-5', 'Node/b-7', 'Node/b-50']);
  assert.deepEqual(f.refs, f.keys, 'the window: the first rows of the filtered list');
  assert.deepEqual(f.zones, [
    { zone: 'Zone/a', count: 1 },
    { zone: 'Zone/b', count: 2 },
  ]);
  assert.equal(f.tall, '010');
  assert.equal(f.total, 200);
  const healed = new Map(now).set('Node/a-5', node('a', 5));
  const step = w.update(healed, { upsert: [node('a', 5)], remove: [] }, false);
  assert.deepEqual(step.keys, ['Node/b-7', 'Node/b-50'], 'a node that no longer matches leaves the keys');
  assert.deepEqual(step.items, [], 'and the window');
  assert.deepEqual(w.update(healed, none, false), { items: [] });
  // a window of rows never sent: their items, then none again
  const win = w.window(['Node/b-50', 'Node/a-0'], healed);
  assert.deepEqual(win.refs, ['Node/b-50'], 'a row the filter dropped is not in the window');
  assert.deepEqual(win.items, [], 'held already');
});
