/** A YAML List document read as a stream, item by item, gives what it gives read whole. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { MemoryFs } from '../../../src/engine/snapshot/source';

const where = (ps: { position?: { line?: number; column?: number }; severity: string; code: string }[]) =>
  ps.map((p) => `${p.position?.line ?? '-'}:${p.position?.column ?? '-'} ${p.severity} ${p.code}`);
const both = (name: string, text: string) => {
  const fs = new MemoryFs({ [name]: text });
  fs.chunkChars = 11;
  return { whole: loadSnapshot(name, fs), streamed: loadSnapshot(name, fs, { streamFilesAbove: 0 }) };
};
const node = (name: string, spec: object = {}) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'topology.kubernetes.io/zone': 'a' } },
  spec,
  status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
});
const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', creationTimestamp: '2025-12-31T00:00:00Z' },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx', args: ['line one\n\n- not an item\n'] }] },
  status: { phase: 'Running' },
});

describe('a YAML List, streamed', () => {
  const cases: [name: string, text: string][] = [
    [
      'kubectl get -o yaml (kind: List after the items), problems inside items',
      stringify({
        apiVersion: 'v1',
        items: [node('n1'), pod('p1'), node('n2', { taints: [{ key: 'k', effect: 'NoSleep' }] }), pod('p1')],
        kind: 'List',
        metadata: { resourceVersion: '' },
      }),
    ],
    [
      'a typed NodeList whose items have no kind, its kind after them',
      stringify({ apiVersion: 'v1', items: [node('n1'), node('n2')].map(({ kind: _k, ...rest }) => rest), kind: 'NodeList' }),
    ],
    ['an indented sequence', stringify({ items: [node('n1'), pod('p1')], kind: 'List' }, { indentSeq: true })],
    // a flow collection that starts an item may close at the item's `-` column: the item goes on to it
    [
      'flow-mapping items closing at the `-` column, at column 0, with a block item after',
      'apiVersion: v1\nitems:\n- {\n  apiVersion: v1, kind: Node,\n  metadata: {name: n1}\n}\n- {apiVersion: v1, kind: Node, metadata: {name: n2}}\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n3}\nkind: List\n',
    ],
    [
      'flow items closing at the `-` column of an indented sequence, a comment after the bracket',
      'kind: List\nitems:\n  - {\n    apiVersion: v1, kind: Node,\n    metadata: {name: n1}\n  } # n1\n  - {apiVersion: v1, kind: Node, metadata: {name: n2}}\n',
    ],
    // an item is one object whatever its shape: a sequence there is one bad item, not a list of objects
    [
      'items that are sequences (on one line, as a block, over lines to the `-` column): one not-an-object each, at the item',
      'items:\n- [1, 2]\n- - a\n  - b\n- [\n  3\n]\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\nkind: List\n',
    ],
    // the first item waits for the List's kind (printed after the items): the ones after it wait too
    [
      'a typed NodeList whose first item has no kind, the second a kind',
      stringify({ apiVersion: 'v1', items: [(({ kind: _k, ...rest }) => rest)(node('n1')), node('n2'), node('n3')], kind: 'NodeList' }),
    ],
  ];
  for (const [name, text] of cases) {
    it(name, () => {
      const { whole, streamed } = both('/list.yaml', text);
      assert.ok(whole.cluster.nodes.size > 0 && whole.problems.every((p) => p.code !== 'yaml-syntax'));
      assert.deepEqual([...streamed.cluster.nodes.keys()], [...whole.cluster.nodes.keys()]);
      assert.deepEqual([...streamed.cluster.pods.keys()], [...whole.cluster.pods.keys()]);
      assert.deepEqual(
        streamed.objects.map((o) => o.object),
        whole.objects.map((o) => o.object),
      );
      assert.deepEqual(where(streamed.problems.filter((p) => p.severity !== 'info')), where(whole.problems.filter((p) => p.severity !== 'info')));
    });
  }
});
