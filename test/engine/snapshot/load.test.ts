import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { loadSnapshot, kindFromFileName } from '../../../src/engine/snapshot/load';
import { MemoryFs, type InputFs } from '../../../src/engine/snapshot/source';
import { nodeFs } from '../../../src/platform/nodeFs';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';
import type { Problem } from '../../../src/engine/problems';

const at = (p: Problem) => `${p.position?.line}:${p.position?.column} ${p.severity} ${p.code}`;
const codes = (ps: Problem[]) => ps.map((p) => `${p.severity} ${p.code}`);

const LIST_YAML = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: node-a
    labels: {topology.kubernetes.io/zone: zone-a}
  spec:
    taints:
    - {key: node.kubernetes.io/unreachable, effect: NoExecute, timeAdded: "2026-01-01T00:00:10Z"}
  status:
    conditions:
    - {type: Ready, status: Unknown, lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2026-01-01T00:00:05Z"}
- apiVersion: v1
  kind: Pod
  metadata: {name: web-1, namespace: default, creationTimestamp: "2025-12-31T00:00:00Z"}
  spec:
    nodeName: node-a
    tolerations:
    - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
  status: {phase: Running}
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata: {name: web, namespace: default}
  spec: {replicas: 3, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}}}
- apiVersion: extensions/v1beta1
  kind: DaemonSet
  metadata: {name: kube-proxy, namespace: kube-system}
- apiVersion: coordination.k8s.io/v1beta1
  kind: Lease
  metadata: {name: node-a, namespace: kube-node-lease}
  spec: {holderIdentity: node-a, leaseDurationSeconds: 40, renewTime: "2026-01-01T00:00:20.123456Z"}
- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: kube-controller-manager, namespace: kube-system}
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: default}
`;

test('a kind: List of every kind the engine uses fills the cluster, indexes pods by node and keeps other kinds as ignored', () => {
  const snap = loadSnapshot({ file: 'list.yaml', text: LIST_YAML });
  const c = snap.cluster;
  assert.deepEqual([c.nodes.size, c.pods.size, c.replicaSets.size, c.daemonSets.size, c.leases.size], [1, 1, 1, 1, 1]);
  assert.deepEqual(c.podsByNode.get('node-a'), new Set(['default/web-1']));
  assert.equal(c.ignored.length, 2, 'the Service and the kube-system Lease');
  assert.deepEqual(snap.problems.map(at), ['1:1 info ignored-kind', '34:3 info ignored-lease']);
  assert.equal(c.replicaSets.get('default/web')!.replicas, 3);
  assert.equal(c.leases.get('node-a')!.renewTime! % 1_000_000, 123456);
  assert.equal(formatTime(snap.latestTimestamp!), '2026-01-01T00:00:20.123Z', 'the Lease renewTime is the latest timestamp');
  assert.deepEqual(
    snap.objects.map((o) => `${o.kind}/${o.name}@${o.position?.line}`),
    [
      'Node/node-a@4',
      'Pod/default/web-1@15',
      'ReplicaSet/default/web@23',
      'DaemonSet/kube-system/kube-proxy@27',
      'Lease/kube-node-lease/node-a@30',
      'Lease/kube-system/kube-controller-manager@34',
      'Service/default/web@37',
    ],
  );
  assert.equal(snap.partial, false);
});

test('a multi-document YAML stream with a leading --- and empty documents loads every object', () => {
  const text = `---
apiVersion: v1
kind: Node
metadata: {name: n1}
---
---
apiVersion: v1
kind: Node
metadata: {name: n2}
...
`;
  const snap = loadSnapshot({ file: 'multi.yaml', text });
  assert.deepEqual([...snap.cluster.nodes.keys()], ['n1', 'n2']);
  assert.deepEqual(snap.problems, []);
});

test('typed lists give their items a kind, even when kind comes after items', () => {
  const text = JSON.stringify({ items: [{ metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n' } }], kind: 'PodList', apiVersion: 'v1' });
  const snap = loadSnapshot({ file: 'x.json', text });
  assert.deepEqual([...snap.cluster.pods.keys()], ['ns/p']);
  assert.deepEqual(codes(snap.problems), ['info kind-inferred', 'warning pods-on-missing-nodes']);
});

test('a List whose items have no kind takes it from a cluster-info dump file name', () => {
  const fs = new MemoryFs({
    '/dump/nodes.json': JSON.stringify({ kind: 'List', items: [{ metadata: { name: 'n1' }, status: {} }] }),
    '/dump/default/pods.json': JSON.stringify({ kind: 'List', items: [{ metadata: { name: 'p1', namespace: 'default' }, spec: {} }] }),
    '/dump/default/replicasets.json': JSON.stringify({ kind: 'List', items: [{ metadata: { name: 'rs', namespace: 'default' }, spec: { selector: {} } }] }),
    '/dump/default/web-1/logs.txt': 'a log',
  });
  const snap = loadSnapshot('/dump', fs);
  assert.deepEqual([snap.cluster.nodes.size, snap.cluster.pods.size, snap.cluster.replicaSets.size], [1, 1, 1]);
  assert.deepEqual(snap.files, ['/dump/default/pods.json', '/dump/default/replicasets.json', '/dump/nodes.json'], 'folders are read recursively in name order');
  assert.deepEqual(codes(snap.problems), ['info kind-inferred', 'info kind-inferred', 'info kind-inferred', 'info skipped-file']);
});

test('file names name kinds as kubectl cluster-info dump and sonobuoy write them', () => {
  const cases: [string, string | undefined][] = [
    ['nodes.json', 'Node'],
    ['kube-system/pods.json', 'Pod'],
    ['replicasets.yaml', 'ReplicaSet'],
    ['core_v1_nodes.json', 'Node'],
    ['apps_v1_daemonsets.json', 'DaemonSet'],
    ['coordination.k8s.io_v1_leases.json', 'Lease'],
    ['services.json', undefined],
    ['cluster.yaml', undefined],
  ];
  for (const [file, kind] of cases) assert.equal(kindFromFileName(file), kind, file);
});

test('kubectl cluster-info dump printed to stdout: every JSON list is read and the log text between them is reported as skipped', () => {
  const snap = loadSnapshot(resolve(__dirname, '../../fixtures/loader/cluster-info-dump-stdout.txt'), nodeFs());
  const c = snap.cluster;
  assert.deepEqual([c.nodes.size, c.pods.size, c.replicaSets.size], [1, 1, 1]);
  assert.equal(c.pods.get('kube-system/kube-proxy-abcde')!.nodeName, 'node-1');
  assert.deepEqual(snap.problems.map(at), [
    '8:9 info kind-inferred',
    '42:9 info kind-inferred',
    '61:1 info skipped-text',
    '64:1 info skipped-text',
    '65:1 info skipped-text',
    '71:9 info kind-inferred',
  ]);
  assert.equal(snap.problems[2].position!.endLine, 63);
  assert.equal(snap.partial, false);
});

test('a raw item with no kind and no recognisable shape is ignored with a warning', () => {
  const snap = loadSnapshot({ file: 'x.json', text: '{"metadata": {"name": "thing"}, "spec": {"foo": 1}}' });
  assert.deepEqual(snap.problems.map(at), ['1:1 warning unknown-kind']);
  assert.equal(snap.cluster.ignored.length, 1);
});

test('a Node and a Pod without kind are recognised by their shape, with a warning', () => {
  const text = JSON.stringify([
    { metadata: { name: 'n' }, status: { nodeInfo: { kubeletVersion: 'v1.12.1' } } },
    { metadata: { name: 'p' }, spec: { containers: [] } },
  ]);
  const snap = loadSnapshot({ file: 'x.json', text });
  assert.equal(snap.cluster.nodes.size, 1);
  assert.equal(snap.cluster.pods.size, 1);
  assert.deepEqual(codes(snap.problems), ['warning kind-guessed', 'warning kind-guessed']);
});

test('an apiVersion the engine does not know for a kind it uses is a warning, and the object is still read', () => {
  const snap = loadSnapshot({ file: 'x.yaml', text: 'apiVersion: apps/v1beta1\nkind: ReplicaSet\nmetadata: {name: r}\nspec: {selector: {}}\n' });
  assert.deepEqual(snap.problems.map(at), ['1:13 warning unsupported-api-version']);
  assert.equal(snap.cluster.replicaSets.size, 1);
});

test('a duplicate object: the last one wins, with a warning where the second one is', () => {
  const text = 'kind: Node\napiVersion: v1\nmetadata: {name: n, labels: {v: "1"}}\n---\nkind: Node\napiVersion: v1\nmetadata: {name: n, labels: {v: "2"}}\n';
  const snap = loadSnapshot({ file: 'd.yaml', text });
  assert.equal(snap.cluster.nodes.get('n')!.meta.labels.v, '2');
  assert.deepEqual(snap.problems.map(at), ['5:1 warning duplicate-object']);
  assert.match(snap.problems[0].message, /first at d\.yaml:1/);
  assert.equal(snap.objects.length, 1);
});

test('a duplicate pod moved to another node leaves the pods-by-node index consistent', () => {
  const pod = (node: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'd' }, spec: { nodeName: node } });
  const snap = loadSnapshot({ file: 'x.json', text: JSON.stringify({ kind: 'List', items: [pod('n1'), pod('n2')] }) });
  assert.deepEqual([...snap.cluster.podsByNode.entries()], [['n2', new Set(['d/p'])]]);
});

// --- bad input: problems with exact positions; the rest still loads --------------------------

interface BadCase {
  name: string;
  file: string;
  text: string;
  /** line:column severity code of every problem */
  want: string[];
  /** nodes that still load */
  nodes: string[];
  partial: boolean;
  message?: RegExp;
}

const bad: BadCase[] = [
  {
    name: 'malformed YAML in one document is reported where it is, and the other documents still load',
    file: 'bad.yaml',
    text: 'apiVersion: v1\nkind: Node\nmetadata: {name: ok1}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: [broken}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: ok2}\n',
    // each at the bracket it does not close (unclosedFlow.ts), not where the parser gave up
    want: ['7:11 error yaml-syntax', '7:18 error yaml-syntax'],
    nodes: ['ok1', 'ok2'],
    partial: true,
  },
  {
    name: 'malformed JSON is reported at the offending character',
    file: 'bad.json',
    text: '{\n  "kind": "List",\n  "items": [\n    {"kind": "Node", "metadata": {"name": "a"}}\n    {"kind": "Node"}\n  ]\n}\n',
    want: ['5:5 error json-syntax'],
    nodes: [],
    partial: true,
    message: /expected ',' or '\]'(?!.*cut off)/,
  },
  {
    name: 'a JSON export cut off inside a string: the string is where, the message says the file ends early',
    file: 'cut.json',
    text: '{\n  "kind": "List",\n  "items": [\n    {"kind": "Node", "metadata": {"name": "a", "labels": {"zone": "us-ea',
    want: ['4:67 error json-syntax'],
    nodes: [],
    partial: true,
    message: /^unterminated string: the file ends before its JSON does \(cut off when it was saved or copied\?\); the file is left out$/,
  },
  {
    name: 'a JSON export cut off after a comma: the end of the file is where',
    file: 'cut.json',
    text: '{"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "a"}},',
    want: ['1:72 error json-syntax'],
    nodes: [],
    partial: true,
    message: /^expected a value, found end of input: the file ends before its JSON does/,
  },
  {
    name: 'a condition status that is not True, False or Unknown is an error at the value and taken as Unknown',
    file: 'cond.json',
    text: '{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n"},\n "status": {"conditions": [\n  {"type": "Ready", "status": "Yes"}\n ]}}\n',
    want: ['3:31 error bad-condition-status'],
    nodes: ['n'],
    partial: true,
    message: /found the string "Yes"; taken as Unknown/,
  },
  {
    name: 'a taint with a bad effect is an error at the effect and the taint is left out',
    file: 'taint.yaml',
    text: 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n\nspec:\n  taints:\n  - key: a\n    effect: NoExecut\n',
    want: ['8:13 error bad-taint-effect'],
    nodes: ['n'],
    partial: true,
  },
  {
    name: 'a bad timestamp is an error at the value and read as the zero time',
    file: 'time.yaml',
    text: 'apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus:\n  conditions:\n  - type: Ready\n    status: "True"\n    lastHeartbeatTime: yesterday\n',
    want: ['8:24 error bad-timestamp'],
    nodes: ['n'],
    partial: true,
  },
  {
    name: 'an object without metadata.name is an error and left out',
    file: 'noname.yaml',
    text: 'apiVersion: v1\nkind: Node\nmetadata:\n  labels: {a: b}\n',
    want: ['4:3 error missing-field'],
    nodes: [],
    partial: true,
  },
  {
    name: 'a file that is only a line of text is not a snapshot: an error that says it is plain text',
    file: 'scalar.yaml',
    text: 'just some text\n',
    want: ['1:1 error not-kubernetes'],
    nodes: [],
    partial: true,
  },
  {
    name: 'a document that is not a mapping, beside a Node, is a warning',
    file: 'mixed.yaml',
    text: 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\njust some text\n',
    want: ['5:1 warning not-an-object'],
    nodes: ['n1'],
    partial: false,
  },
  {
    name: 'deeply nested brackets are reported, not a hang or a crash',
    file: 'deep.json',
    text: '['.repeat(100_000),
    want: ['1:2002 error json-syntax'],
    nodes: [],
    partial: true,
  },
];

for (const c of bad) {
  test(c.name, () => {
    const snap = loadSnapshot({ file: c.file, text: c.text });
    assert.deepEqual(snap.problems.map(at), c.want);
    assert.equal(snap.problems[0].position!.file, c.file);
    assert.deepEqual([...snap.cluster.nodes.keys()], c.nodes);
    assert.equal(snap.partial, c.partial);
    if (c.message) assert.match(snap.problems[0].message, c.message);
  });
}

test('tolerationSeconds that is not a number is an error at the value and the toleration is left out', () => {
  const text =
    'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: d}\nspec:\n  tolerations:\n  - key: k\n    operator: Exists\n    tolerationSeconds: "300"\n  - operator: Exists\n';
  const snap = loadSnapshot({ file: 'tol.yaml', text });
  assert.deepEqual(snap.problems.map(at), ['8:24 error wrong-type']);
  assert.match(snap.problems[0].message, /tolerationSeconds/);
  assert.deepEqual(snap.cluster.pods.get('d/p')!.tolerations, [{ operator: 'Exists' }]);
});

test('the end of a problem range is known too', () => {
  const snap = loadSnapshot({ file: 'c.json', text: '{"kind":"Node","metadata":{"name":"n"},"status":{"conditions":[{"type":"Ready","status":"Yes"}]}}' });
  const p = snap.problems[0].position!;
  assert.deepEqual([p.line, p.column, p.endLine, p.endColumn, p.offset, p.endOffset], [1, 89, 1, 94, 88, 93]);
});

test('a file over 480 MiB is refused before it is read, naming its size and the limit', () => {
  const fs: InputFs = {
    stat: (p) => (p === '/huge.json' ? { kind: 'file', size: 1024 ** 3 } : undefined),
    readText: () => assert.fail('a file that is too large must not be read'),
    list: () => [],
  };
  const snap = loadSnapshot(['/huge.json'], fs);
  assert.deepEqual(codes(snap.problems), ['error file-too-large']);
  assert.match(snap.problems[0].message, /is 1 GiB; the loader reads files up to 480 MiB/);
  assert.equal(snap.partial, true);
});

test('a binary file, a missing file and an empty file are problems, and the good file still loads', () => {
  const fs = new MemoryFs({
    '/in/a.bin.json': 'PK\u0003\u0004\u0000\u0000\u0000garbage',
    '/in/b.yaml': 'kind: Node\napiVersion: v1\nmetadata: {name: n}\n',
    '/in/c.yaml': '',
  });
  const snap = loadSnapshot(['/in', '/nowhere.yaml'], fs);
  assert.deepEqual(codes(snap.problems), ['error file-not-found', 'error binary-file', 'info empty-file']);
  assert.deepEqual([...snap.cluster.nodes.keys()], ['n']);
  assert.equal(snap.partial, true);
});

test('a file the file system cannot read is one unreadable-file problem at its start, and the load is partial', () => {
  const NODE = 'kind: Node\napiVersion: v1\nmetadata: {name: n}\n';
  /** a file system on which reading /in/a.yaml by `what` throws `error` */
  const refusing = (what: 'readText' | 'readChunks', error: string): InputFs => {
    const fs = new MemoryFs({ '/in/a.yaml': NODE, '/in/b.yaml': NODE.replace('name: n', 'name: m') });
    const refuse = (p: string, how: string) => {
      if (p === '/in/a.yaml' && how === what) throw new Error(error);
    };
    return {
      stat: (p) => fs.stat(p),
      list: (d) => fs.list(d),
      readText: (p) => (refuse(p, 'readText'), fs.readText(p)),
      readChunks: (p) => (refuse(p, 'readChunks'), fs.readChunks(p)),
    };
  };
  const cases: [name: string, fs: InputFs, streamFilesAbove: number | undefined, message: string][] = [
    ['read whole: readText throws', refusing('readText', 'EIO: i/o error'), undefined, '/in/a.yaml: cannot read the file (EIO: i/o error)'],
    ['streamed: readChunks throws', refusing('readChunks', 'EACCES: permission denied'), 0, '/in/a.yaml: cannot read the file (EACCES: permission denied)'],
  ];
  for (const [name, fs, streamFilesAbove, message] of cases) {
    const snap = loadSnapshot('/in', fs, { streamFilesAbove });
    assert.deepEqual(
      snap.problems.filter((p) => p.severity !== 'info'),
      [{ code: 'unreadable-file', severity: 'error', message, position: { file: '/in/a.yaml', line: 1, column: 1 } }],
      name,
    );
    assert.equal(snap.partial, true, name);
    assert.deepEqual([...snap.cluster.nodes.keys()], ['m'], `${name}: the other file still loads`);
  }
});

test('the latest timestamp covers heartbeats, transitions, taints, leases and creation times, but not deletion times', () => {
  const text = JSON.stringify({
    kind: 'List',
    items: [
      {
        kind: 'Node',
        metadata: { name: 'n', creationTimestamp: '2026-01-01T00:00:00Z' },
        spec: { taints: [{ key: 'k', effect: 'NoExecute', timeAdded: '2026-01-01T00:05:00Z' }] },
        status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:03:00Z' }] },
      },
      { kind: 'Pod', metadata: { name: 'p', namespace: 'd', deletionTimestamp: '2027-01-01T00:00:00Z' } },
    ],
  });
  assert.equal(loadSnapshot({ file: 'x.json', text }).latestTimestamp, parseTimestamp('2026-01-01T00:05:00Z'));
  assert.equal(loadSnapshot({ file: 'x.json', text: '{"kind":"List","items":[]}' }).latestTimestamp, undefined);
});

test('a generated 20,000-pod JSON snapshot loads through the fast path, every pod indexed by its node', () => {
  const items: unknown[] = [];
  for (let n = 0; n < 200; n++) {
    items.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: `node-${n}`, labels: { 'topology.kubernetes.io/zone': `z${n % 3}` } },
      status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2025-12-01T00:00:00Z' }] },
    });
    items.push({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: `node-${n}`, namespace: 'kube-node-lease' },
      spec: { renewTime: '2026-01-01T00:00:09.500000Z' },
    });
    for (let p = 0; p < 100; p++) {
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `web-${n}-${p}`,
          namespace: 'default',
          uid: `u-${n}-${p}`,
          creationTimestamp: '2025-12-31T00:00:00Z',
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs', controller: true }],
        },
        spec: {
          nodeName: `node-${n}`,
          tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
        },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-12-31T00:00:05Z' }] },
      });
    }
  }
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2);
  const snap = loadSnapshot({ file: 'big.json', text });
  assert.equal(snap.cluster.pods.size, 20_000);
  assert.equal(snap.cluster.nodes.size, 200);
  assert.equal(snap.cluster.leases.size, 200);
  assert.equal(snap.cluster.podsByNode.get('node-7')!.size, 100);
  assert.deepEqual(snap.problems, []);
  const pod = snap.cluster.pods.get('default/web-7-3')!;
  const raw = snap.objects.find((o) => o.name === 'default/web-7-3')!.object;
  assert.equal(pod.raw, raw, 'raw is kept by reference, not copied');
  assert.equal(pod.meta.ownerReferences, (raw.metadata as { ownerReferences: unknown }).ownerReferences, 'well-formed owner references are shared, not copied');
  assert.equal(pod.tolerations[0].tolerationSeconds, 300);
  assert.equal(formatTime(snap.latestTimestamp!), '2026-01-01T00:00:09.500Z');
});

test('a cluster-info dump that starts with a line of text (not JSON) is still cut into its JSON lists', () => {
  const text = 'Cluster info dumped to standard output\n' + readFileSync(resolve(__dirname, '../../fixtures/loader/cluster-info-dump-stdout.txt'), 'utf8');
  const snap = loadSnapshot({ file: 'dump.txt', text });
  assert.deepEqual([snap.cluster.nodes.size, snap.cluster.pods.size, snap.cluster.replicaSets.size], [1, 1, 1]);
  assert.deepEqual(snap.problems.slice(0, 2).map(at), ['1:1 info skipped-text', '9:9 info kind-inferred']);
  assert.equal(snap.problems.filter((p) => p.severity === 'error').length, 0);
});

test('a duplicate takes the place of the last one read: map order, pods-by-node index and objects', () => {
  const pod = (name: string, node?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'd' }, spec: node ? { nodeName: node } : {} });
  const node = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { v } } });
  const lease = (name: string, holder: string) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease' },
    spec: { holderIdentity: holder },
  });
  const table: { name: string; items: object[]; pods?: string[]; byNode?: [string, string[]][]; nodes?: string[]; leases?: string[] }[] = [
    { name: 'a pod again on the same node', items: [pod('a', 'n1'), pod('b', 'n1'), pod('a', 'n1')], pods: ['d/b', 'd/a'], byNode: [['n1', ['d/b', 'd/a']]] },
    { name: 'a pod again on another node', items: [pod('a', 'n1'), pod('b', 'n2'), pod('a', 'n2')], pods: ['d/b', 'd/a'], byNode: [['n2', ['d/b', 'd/a']]] },
    { name: 'a pod again, unbound', items: [pod('a', 'n1'), pod('b', 'n1'), pod('a')], pods: ['d/b', 'd/a'], byNode: [['n1', ['d/b']]] },
    { name: 'a node again', items: [node('x', '1'), node('y', '1'), node('x', '2')], nodes: ['y', 'x'] },
    { name: 'a Lease again', items: [lease('x', 'a'), lease('y', 'a'), lease('x', 'b')], leases: ['y', 'x'] },
  ];
  for (const row of table) {
    const snap = loadSnapshot({ file: 'x.json', text: JSON.stringify({ kind: 'List', items: row.items }) });
    assert.equal(snap.problems.filter((p) => p.code === 'duplicate-object').length, 1, row.name);
    assert.equal(snap.objects.length, row.items.length - 1, row.name);
    if (row.pods) assert.deepEqual([...snap.cluster.pods.keys()], row.pods, row.name);
    if (row.byNode)
      assert.deepEqual(
        [...snap.cluster.podsByNode].map(([n, s]) => [n, [...s]]),
        row.byNode,
        row.name,
      );
    if (row.nodes) assert.deepEqual([...snap.cluster.nodes.keys()], row.nodes, row.name);
    if (row.leases) assert.deepEqual([...snap.cluster.leases.keys()], row.leases, row.name);
  }
  assert.equal(
    loadSnapshot({ file: 'x.json', text: JSON.stringify({ kind: 'List', items: [node('x', '1'), node('x', '2')] }) }).cluster.nodes.get('x')!.meta.labels.v,
    '2',
  );
});
