import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../../src/webview/state';
import type { NodePodCount, PodItem, UpdateMessage } from '../../src/protocol/webview';
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

test('the store holds the pod counts by node and the shown node’s pods, each replaced by what the host sends', () => {
  const s = new Store();
  s.apply(update(true, { upsert: [count('n1', 2), count('n2', 1)], remove: [] }));
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
  s.apply(update(true, { upsert: [count('n9', 1)], remove: [] }));
  assert.deepEqual([...s.podCounts.keys()], ['Node/n9']);
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
