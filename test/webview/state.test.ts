import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../../src/webview/state';
import type { PodItem, UpdateMessage } from '../../src/protocol/webview';

const update = (full: boolean, pods: { upsert: PodItem[]; remove: string[] }, nodes = { upsert: [], remove: [] }): UpdateMessage => ({
  type: 'update', full, time: 'T', pass: 0, lastPass: 0, zones: [], nodes, pods,
  replicaSets: { upsert: [], remove: [] }, machines: { upsert: [], remove: [] }, decisions: [], passMarks: [],
});
const pod = (name: string, node: string, evictionAt?: string): PodItem => ({ ref: `Pod/ns/${name}`, node, phase: 'Running', ready: true, ...(evictionAt ? { evictionAt } : {}) });

/** The index as grouping all the pods again would make it. */
function grouped(s: Store): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of s.pods.values()) (out[p.node] ??= []).push(p.ref);
  for (const refs of Object.values(out)) refs.sort();
  return out;
}
const indexed = (s: Store): Record<string, string[]> =>
  Object.fromEntries([...s.podsByNode].map(([node, pods]) => [node, [...pods.values()].map((p) => { assert.equal(s.pods.get(p.ref), p, 'the index holds the items the store holds'); return p.ref; }).sort()]));

test('the pods by node follow every delta: moved, replaced, removed, and a full update', () => {
  const s = new Store();
  s.apply(update(true, { upsert: [pod('a', 'n1'), pod('b', 'n1'), pod('c', 'n2'), pod('d', '')], remove: [] }));
  assert.deepEqual(indexed(s), grouped(s));
  const before = s.nodesVersion;
  s.apply(update(false, { upsert: [pod('a', 'n2'), pod('b', 'n1', 'T2'), pod('e', 'n3')], remove: ['c', 'd'].map((n) => `Pod/ns/${n}`) }));
  assert.deepEqual(indexed(s), grouped(s));
  assert.deepEqual(indexed(s), { n1: ['Pod/ns/b'], n2: ['Pod/ns/a'], n3: ['Pod/ns/e'] });
  assert.equal(s.podsByNode.get('n1')?.get('Pod/ns/b')?.evictionAt, 'T2', 'the new item, not the one it replaced');
  assert.equal(s.nodesVersion, before, 'pods alone do not redraw the node list');
  s.apply(update(false, { upsert: [], remove: [] }, { upsert: [{ ref: 'Node/n1', name: 'n1', zone: 'Zone/a', ready: 'True', taints: [], unschedulable: false }] as never, remove: [] }));
  assert.equal(s.nodesVersion, before + 1);
  s.apply(update(true, { upsert: [pod('z', 'n9')], remove: [] }));
  assert.deepEqual(indexed(s), { n9: ['Pod/ns/z'] });
});

const init = (name: string) => ({
  type: 'init' as const,
  scenario: { name, file: `/ws/${name}.yaml`, kubernetesVersion: '1.31', plainSnapshot: false, controllerMemory: 'reconstructed', binder: 'simplified', settings: {}, overrides: {} },
  problems: [], assumptions: [], settings: { collapseNoise: true, playSpeed: 2 }, startTime: 'T', whatIfKeys: [],
});
const selected = {
  type: 'selection' as const,
  object: 'Node/node-a1',
  seq: 7,
  decision: { decision: { seq: 7, time: 'T', pass: 1, controller: 'world', action: 'KubeletStopped', object: 'Node/node-a1', summary: 's', because: [], causes: [], machine: null, source: 'x' }, chain: [] },
  explanation: { object: 'Node/node-a1', exists: true, happened: [], whyNot: [] },
  machine: { id: 'node/node-a1', state: 'ready', graph: { root: { path: '', key: 'n', type: 'atomic' as const, children: [] }, transitions: [] } },
};

test('another scenario, loading or opened, leaves nothing of the old one: no selection, why, machine, nodes or marks', () => {
  for (const next of [{ type: 'loading' as const, name: 'big.json' }, init('second')]) {
    const s = new Store();
    s.apply(init('first'));
    s.apply(update(true, { upsert: [pod('a', 'n1')], remove: [] }));
    s.apply(selected as never);
    assert.equal(s.selection.object, 'Node/node-a1');
    s.apply(next as never);
    assert.deepEqual(s.selection, {});
    assert.equal(s.decision, undefined);
    assert.equal(s.explanation, undefined);
    assert.equal(s.machine, undefined);
    assert.equal(s.pods.size, 0);
    assert.equal(s.known.size, 0);
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
