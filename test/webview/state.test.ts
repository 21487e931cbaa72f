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
