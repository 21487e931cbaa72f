import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../../src/webview/state';
import type { NodeItem, NodePodCount, NodesMessage, PodItem, UpdateMessage } from '../../src/protocol/webview';
import { emptyUpdate } from '../helpers/updateMessage';

const update = (full: boolean, podCounts: { upsert: NodePodCount[]; remove: string[] }, nodes: UpdateMessage['nodes'] = { items: [] }): UpdateMessage =>
  emptyUpdate({ full, nodes, podCounts });
const pod = (name: string, node: string, evictionAt?: string): PodItem => ({
  ref: `Pod/ns/${name}`,
  node,
  phase: 'Running',
  ready: true,
  ...(evictionAt ? { evictionAt } : {}),
});
const count = (node: string, pods: number, evicting = 0): NodePodCount => ({ ref: `Node/${node}`, pods, evicting });
const nodeItem = (name: string): NodeItem => ({ ref: `Node/${name}`, name, zone: 'Zone/a', ready: 'True', taints: [], unschedulable: false });
/** the node rows of an update: these keys (unfiltered), every one in the window */
const rows = (...names: string[]): UpdateMessage['nodes'] => ({ keys: names.map((n) => `Node/${n}`), filter: '', items: names.map(nodeItem) });

test('the store holds the pod counts by node and the shown node’s pods, each replaced by what the host sends', () => {
  const s = new Store();
  s.apply(update(true, { upsert: [count('n1', 2), count('n2', 1)], remove: [] }, rows('n1', 'n2')));
  const before = s.nodesVersion;
  s.apply(update(false, { upsert: [count('n1', 2, 1)], remove: ['Node/n2'] }));
  assert.deepEqual([...s.podCounts.values()], [count('n1', 2, 1)]);
  assert.equal(s.nodesVersion, before, 'counts alone do not re-sort the node list (the row stamp holds the count)');
  const v = s.podsVersion;
  s.apply({ type: 'selection', object: 'Node/n1', nodePods: { node: 'n1', pods: [pod('a', 'n1'), pod('b', 'n1', 'T2')] } });
  assert.deepEqual(
    s.nodePods?.pods.map((p) => p.ref),
    ['Pod/ns/a', 'Pod/ns/b'],
  );
  assert.ok(s.podsVersion > v);
  s.apply({ ...update(false, { upsert: [], remove: [] }), selection: { object: 'Node/n1', nodePods: { node: 'n1', pods: [pod('b', 'n1', 'T3')] } } });
  assert.deepEqual(s.nodePods?.pods, [pod('b', 'n1', 'T3')], 'the pods of the update’s selection replace those before');
  s.apply({ ...update(false, { upsert: [], remove: [] }), selection: { object: 'Zone/a' } });
  assert.equal(s.nodePods, undefined, 'no node shown: no pods');
  s.apply(update(true, { upsert: [count('n9', 1)], remove: [] }, rows('n9')));
  assert.deepEqual([...s.podCounts.keys()], ['Node/n9']);
});

// The counts come with the rows of the node window, as their items (nodeWindow.ts); the keys, once the panel has the
// unfiltered order, as a mask over it.
test('the node window: counts of the rows held alone, keys from a mask over the unfiltered order', () => {
  const s = new Store();
  const names = ['a-1', 'a-2', 'a-10', 'b-1', 'b-2'];
  const all = names.map((n) => `Node/${n}`);
  s.apply(update(true, { upsert: [count('a-1', 3), count('a-2', 1)], remove: [] }, { ...rows(...names), items: names.slice(0, 2).map(nodeItem) }));
  const nodes = (m: Partial<NodesMessage>): NodesMessage => ({ type: 'nodes', refs: [], items: [], podCounts: { upsert: [], remove: [] }, ...m });
  const cases: { what: string; message: NodesMessage | UpdateMessage; keys: string[]; counts: string[] }[] = [
    { what: 'the open: the first rows and their counts', message: update(false, { upsert: [], remove: [] }), keys: all, counts: ['a-1 3', 'a-2 1'] },
    {
      what: 'scrolled: the window is the last three, with their counts; those of rows that left go',
      message: nodes({
        refs: ['Node/a-10', 'Node/b-1', 'Node/b-2'],
        items: ['a-10', 'b-1', 'b-2'].map(nodeItem),
        podCounts: { upsert: [count('b-1', 5)], remove: [] },
      }),
      keys: all,
      counts: ['b-1 5'],
    },
    { what: 'a count in the window changed', message: update(false, { upsert: [count('b-2', 2)], remove: [] }), keys: all, counts: ['b-1 5', 'b-2 2'] },
    {
      what: 'a filter: its keys as a mask',
      message: nodes({
        mask: '01010',
        filter: 'b',
        zones: [],
        refs: ['Node/a-2', 'Node/b-1'],
        items: [nodeItem('a-2')],
        podCounts: { upsert: [count('a-2', 1)], remove: [] },
      }),
      keys: ['Node/a-2', 'Node/b-1'],
      counts: ['a-2 1', 'b-1 5'],
    },
    {
      what: 'the filter cleared: every node again, from a mask of ones',
      message: nodes({
        mask: '11111',
        filter: '',
        zones: [],
        refs: ['Node/a-1'],
        items: [nodeItem('a-1')],
        podCounts: { upsert: [count('a-1', 3)], remove: [] },
      }),
      keys: all,
      counts: ['a-1 3'],
    },
    {
      what: 'a step whose keys are a mask',
      message: update(false, { upsert: [], remove: [] }, { mask: '10001', filter: 'x', zones: [], items: [] }),
      keys: ['Node/a-1', 'Node/b-2'],
      counts: ['a-1 3'],
    },
  ];
  for (const c of cases) {
    s.apply(c.message);
    assert.deepEqual(s.nodeKeys, c.keys, `${c.what}: keys`);
    assert.deepEqual([...s.podCounts.values()].map((x) => `${x.ref.slice(5)} ${x.pods}`).sort(), c.counts, `${c.what}: counts`);
  }
});

const init = (name: string) => ({
  type: 'init' as const,
  scenario: {
    name,
    file: `/ws/${name}.yaml`,
    kubernetesVersion: '1.31',
    plainSnapshot: false,
    controllerMemory: 'reconstructed',
    binder: 'simplified',
    settings: {},
    overrides: {},
  },
  problems: [],
  assumptions: [],
  settings: { collapseNoise: true, playSpeed: 2 },
  startTime: 'T',
  whatIfKeys: [],
});
const selected = {
  type: 'selection' as const,
  object: 'Node/node-a1',
  seq: 7,
  decision: {
    decision: {
      seq: 7,
      time: 'T',
      pass: 1,
      controller: 'world',
      action: 'KubeletStopped',
      object: 'Node/node-a1',
      summary: 's',
      because: [],
      causes: [],
      machine: null,
      source: 'x',
    },
    chain: [],
  },
  explanation: { object: 'Node/node-a1', exists: true, happened: [], whyNot: [] },
  machine: { id: 'node/node-a1', state: 'ready', graph: { root: { path: '', key: 'n', type: 'atomic' as const, children: [] }, transitions: [] } },
};

test('another scenario, loading or opened, leaves nothing of the old one: no selection, why, machine, nodes or marks', () => {
  for (const next of [{ type: 'loading' as const, name: 'big.json' }, init('second')]) {
    const s = new Store();
    s.apply(init('first'));
    s.apply(update(true, { upsert: [count('n1', 1)], remove: [] }));
    s.apply(selected as never);
    assert.equal(s.selection.object, 'Node/node-a1');
    s.apply(next as never);
    assert.deepEqual(s.selection, {});
    assert.equal(s.decision, undefined);
    assert.equal(s.explanation, undefined);
    assert.equal(s.machine, undefined);
    assert.equal(s.podCounts.size, 0);
    assert.equal(s.nodePods, undefined);
    assert.equal(s.details.size, 0);
    assert.deepEqual(s.nodeKeys, []);
    assert.equal(s.loading, next.type === 'loading' ? 'big.json' : undefined);
    assert.equal(s.init?.scenario.name, next.type === 'init' ? 'second' : undefined);
  }
});

test('an update carries the selection at its position and replaces the one before, also with nothing', () => {
  const s = new Store();
  s.apply(selected as never);
  s.apply({ ...update(false, { upsert: [], remove: [] }), selection: { object: 'Node/node-a1' } });
  assert.deepEqual(s.selection, { object: 'Node/node-a1' });
  assert.equal(s.decision, undefined, 'the decision is gone when the update no longer has it');
  s.apply({ ...update(false, { upsert: [], remove: [] }), selection: {} });
  assert.deepEqual(s.selection, {});
  assert.equal(s.machine, undefined);
});

test('a selection whose why waits for the start being made is marked waiting until the whole selection comes, and a new scenario forgets it', () => {
  const s = new Store();
  s.apply({ type: 'select', object: 'Node/n1' });
  s.apply({ type: 'selection', object: 'Node/n1', waiting: true });
  assert.equal(s.waiting, true);
  assert.deepEqual(s.selection, { object: 'Node/n1' });
  s.apply({ type: 'selection', object: 'Node/n1', explanation: { object: 'Node/n1', exists: true, happened: [], whyNot: [] } as never });
  assert.equal(s.waiting, undefined);
  s.apply({ type: 'selection', object: 'Node/n1', waiting: true });
  s.apply({ type: 'loading', name: 'other.yaml' });
  assert.equal(s.waiting, undefined);
});
