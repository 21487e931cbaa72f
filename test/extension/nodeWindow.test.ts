import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeWindow } from '../../src/extension/nodeWindow';
import { FIRST_ROWS } from '../../src/protocol/lists';
import type { Delta, NodeItem, NodePodCount } from '../../src/protocol/webview';

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
/** the keys the panel makes of rows: sent whole, or a mask over `order` (the unfiltered keys it holds) */
const keysOf = (rows: { keys?: string[]; mask?: string }, order: readonly string[] | undefined): string[] | undefined =>
  rows.mask !== undefined ? (order ?? []).filter((_, i) => rows.mask![i] === '1') : rows.keys;

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
  assert.deepEqual(keysOf(f, full.keys), ['Node/a-5', 'Node/b-7', 'Node/b-50']);
  assert.deepEqual(f.refs, keysOf(f, full.keys), 'the window: the first rows of the filtered list');
  assert.deepEqual(f.zones, [
    { zone: 'Zone/a', count: 1 },
    { zone: 'Zone/b', count: 2 },
  ]);
  assert.equal(f.tall, '010');
  assert.equal(f.total, 200);
  const healed = new Map(now).set('Node/a-5', node('a', 5));
  const step = w.update(healed, { upsert: [node('a', 5)], remove: [] }, false);
  assert.deepEqual(keysOf(step, full.keys), ['Node/b-7', 'Node/b-50'], 'a node that no longer matches leaves the keys');
  assert.deepEqual(step.items, [], 'and the window');
  assert.deepEqual(w.update(healed, none, false), { items: [] });
  // a window of rows never sent: their items, then none again
  const win = w.window(['Node/b-50', 'Node/a-0'], healed);
  assert.deepEqual(win.refs, ['Node/b-50'], 'a row the filter dropped is not in the window');
  assert.deepEqual(win.items, [], 'held already');
});

const count = (ref: string, pods: number, evicting = 0): NodePodCount => ({ ref, pods, evicting });
const counted = (d: Delta<NodePodCount>) => [...d.upsert.map((c) => `${c.ref.slice(5)} ${c.pods}/${c.evicting}`), ...d.remove.map((r) => `-${r.slice(5)}`)];

test("the pod counts cross for the window's rows alone, as their items; the keys as a mask over the order the panel holds", () => {
  let items = Array.from({ length: 200 }, (_, i) => node('a', i));
  const w = new NodeWindow();
  const all = items.map((i) => count(i.ref, 30));
  const open = w.updateWithCounts(byRef(items), { upsert: items, remove: [] }, true, { upsert: all, remove: [] });
  const order = open.nodes.keys;
  assert.equal(order?.length, 200, 'the open: every key, whole');
  assert.equal(open.nodes.mask, undefined);
  assert.equal(open.podCounts.upsert.length, FIRST_ROWS, 'the open: the counts of the first rows, not of 200 nodes');

  type Case = { what: string; act: () => { keys?: string[]; mask?: string; podCounts: Delta<NodePodCount> }; keys?: string[] | 'whole'; counts: string[] };
  const step =
    (counts: Delta<NodePodCount>, change: NodeItem[] = []) =>
    () => {
      if (change.length) items = items.map((i) => change.find((c) => c.ref === i.ref) ?? i);
      const u = w.updateWithCounts(byRef(items), { upsert: change, remove: [] }, false, counts);
      return { ...u.nodes, podCounts: u.podCounts };
    };
  const naturally = (refs: string[]) => refs.sort((x, y) => x.length - y.length || (x < y ? -1 : 1));
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `Node/a-${from + i}`);
  const cases: Case[] = [
    { what: 'a count out of the window changed', act: step({ upsert: [count('Node/a-150', 30, 30)], remove: [] }), counts: [] },
    { what: 'a count in the window changed', act: step({ upsert: [count('Node/a-3', 30, 30)], remove: [] }), counts: ['a-3 30/30'] },
    { what: 'the same count sent again', act: step({ upsert: [count('Node/a-3', 30, 30)], remove: [] }), counts: [] },
    { what: 'a node in the window lost its pods', act: step({ upsert: [], remove: ['Node/a-4'] }), counts: ['-a-4'] },
    {
      what: 'scrolled to the end: the counts of the rows that came into view, the changed one as it is now',
      act: () => w.window(range(140, 200), byRef(items)),
      counts: range(140, 200).map((r) => `${r.slice(5)} 30/${r === 'Node/a-150' ? 30 : 0}`),
    },
    {
      what: 'the rows that left the window are forgotten: a change there crosses no more',
      act: step({ upsert: [count('Node/a-3', 1)], remove: [] }),
      counts: [],
    },
    {
      what: 'a filter: its keys a mask over the order; the counts of its first rows',
      act: step({ upsert: [], remove: [] }, [node('a', 7, 'Unknown'), node('a', 190, 'Unknown')]),
      counts: [],
    },
    {
      what: 'narrowed to two: fewer characters than a mask, the keys cross whole',
      act: () => w.setFilter('unknown', byRef(items)),
      keys: 'whole',
      counts: ['a-7 30/0', 'a-190 30/0'],
    },
    { what: 'widened to half', act: () => w.setFilter('1', byRef(items)), keys: naturally(range(0, 200).filter((r) => r.includes('1'))), counts: [] },
    { what: 'the widening keystroke: every key, as a mask of ones', act: () => w.setFilter('', byRef(items)), keys: naturally(range(0, 200)), counts: [] },
    {
      what: 'a node came: the order changed, the keys cross whole',
      act: () => {
        items = [...items, node('a', 200)];
        const u = w.updateWithCounts(byRef(items), { upsert: [node('a', 200)], remove: [] }, false, { upsert: [count('Node/a-200', 2)], remove: [] });
        return { ...u.nodes, podCounts: u.podCounts };
      },
      keys: 'whole',
      counts: [],
    },
  ];
  const widened = cases.findIndex((c) => c.what.startsWith('the widening'));
  for (const [i, c] of cases.entries()) {
    const m = c.act();
    if (c.keys === 'whole') {
      assert.equal(m.mask, undefined, `${c.what}: no mask`);
      assert.equal(m.keys?.length, c.what.startsWith('narrowed') ? 2 : items.length, `${c.what}: keys`);
    } else if (c.keys) {
      assert.equal(m.keys, undefined, `${c.what}: no refs`);
      assert.equal(m.mask?.length, order?.length, `${c.what}: a mask over the order`);
      assert.deepEqual(keysOf(m, order), c.keys, `${c.what}: keys`);
    }
    // the counts of the first rows after a new list: compare only those the case names (the window's rows are counted whole)
    const got = counted(m.podCounts);
    if (c.what === 'widened to half') assert.ok(got.length > 0, `${c.what}: the first rows' counts`);
    else if (i === widened) assert.equal(got.length, FIRST_ROWS - 1, `${c.what}: the first rows' counts (a-4 has no pods)`);
    else assert.deepEqual(got, c.counts, `${c.what}: counts`);
  }
  // the panel restarted (sendAll): it holds no order, so the next keys cross whole
  w.clearFilter();
  const again = w.updateWithCounts(byRef(items), { upsert: items, remove: [] }, true, { upsert: items.map((i) => count(i.ref, 30)), remove: [] });
  assert.equal(again.nodes.keys?.length, 201);
  assert.equal(again.podCounts.upsert.length, FIRST_ROWS);
});

test("the node filter matches the zone a node's heading names: at 5,000 nodes named by address, typing the outage's zone finds its nodes", () => {
  // the 5,000-node outage's names carry no zone (ip-10-1-0-118.ec2.internal): the zone is only in the list's headings
  const at = (zone: string, name: string): NodeItem => ({ ...node(zone, 0), ref: `Node/${name}`, name, zone: `Zone/us-east-1/${zone}` });
  const items = [at('us-east-1a', 'ip-10-0-0-4.ec2.internal'), at('us-east-1b', 'ip-10-1-0-118.ec2.internal'), at('us-east-1b', 'ip-10-1-0-9.ec2.internal')];
  const w = new NodeWindow();
  const full = w.update(byRef(items), { upsert: items, remove: [] }, true);
  const cases: { filter: string; keys: string[] }[] = [
    { filter: 'us-east-1b', keys: ['Node/ip-10-1-0-9.ec2.internal', 'Node/ip-10-1-0-118.ec2.internal'] },
    { filter: 'US-EAST-1A', keys: ['Node/ip-10-0-0-4.ec2.internal'] },
    { filter: 'us-east-1/us-east-1b', keys: ['Node/ip-10-1-0-9.ec2.internal', 'Node/ip-10-1-0-118.ec2.internal'] },
    { filter: '0-118', keys: ['Node/ip-10-1-0-118.ec2.internal'] },
  ];
  for (const c of cases) assert.deepEqual(keysOf(w.setFilter(c.filter, byRef(items)), full.keys), c.keys, c.filter);
});
