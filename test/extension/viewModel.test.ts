import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildClusterView, buildClusterViewFromRecords, diffItems, zoneOfLabels } from '../../src/extension/viewModel';
import { EvictionIndex } from '../../src/extension/countdowns';
import { emptyCluster } from '../../src/engine/model/cluster';
import type { Decision } from '../../src/engine/trace/decision';

const zoneCases: { name: string; labels: Record<string, string>; zone: string }[] = [
  { name: 'a zone label alone names the zone', labels: { 'topology.kubernetes.io/zone': 'a' }, zone: 'Zone/a' },
  { name: 'a region prefixes the zone', labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'a' }, zone: 'Zone/r/a' },
  {
    name: 'the beta labels are read when the GA ones are missing',
    labels: { 'failure-domain.beta.kubernetes.io/region': 'r', 'failure-domain.beta.kubernetes.io/zone': 'b' },
    zone: 'Zone/r/b',
  },
  { name: 'a region without a zone is Zone/REGION/', labels: { 'topology.kubernetes.io/region': 'r' }, zone: 'Zone/r/' },
  { name: 'an unlabelled node is in Zone/', labels: {}, zone: 'Zone/' },
];
for (const c of zoneCases) test(`zone key: ${c.name}`, () => assert.equal(zoneOfLabels(c.labels), c.zone));

const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-01T00:01:00Z' };
const d = (seq: number, action: string, object: string, details?: Record<string, unknown>) => ({ seq, action, object, details }) as unknown as Decision;

test('a scheduled eviction is pending until it is cancelled or done', () => {
  const idx = new EvictionIndex();
  const trace = [
    d(1, 'PodEvictionScheduled', 'Pod/ns/a', { node: 'n1', deadline: '2026-01-01T00:06:00.000Z' }),
    d(2, 'PodEvictionScheduled', 'Pod/ns/b', { node: 'n1', deadline: '2026-01-01T00:02:00.000Z' }),
  ];
  assert.deepEqual(
    [...idx.update(trace)],
    [
      ['Pod/ns/a', { at: '2026-01-01T00:06:00.000Z', node: 'n1' }],
      ['Pod/ns/b', { at: '2026-01-01T00:02:00.000Z', node: 'n1' }],
    ],
  );
  trace.push(d(3, 'PodEvictionCancelled', 'Pod/ns/a'), d(4, 'PodEvicted', 'Pod/ns/b'));
  assert.deepEqual([...idx.update(trace)], []);
});

test('the eviction index starts again when stepping back cut the trace', () => {
  const idx = new EvictionIndex();
  const long = [d(1, 'PodEvictionScheduled', 'Pod/ns/a', { deadline: 'T1' }), d(2, 'PodEvicted', 'Pod/ns/a')];
  assert.equal(idx.update(long).size, 0);
  assert.deepEqual([...idx.update(long.slice(0, 1)).keys()], ['Pod/ns/a']);
  // same length, different decisions (re-run after a what-if): read again
  assert.deepEqual([...idx.update([d(7, 'PodEvictionScheduled', 'Pod/ns/z', { deadline: 'T2' })]).keys()], ['Pod/ns/z']);
});

/** A trace of 1,000 scheduled evictions, then the first 100 done and 10 cancelled, then 10 scheduled again. */
function evictionTrace(): Decision[] {
  const t: Decision[] = [];
  let seq = 0;
  for (let i = 0; i < 1000; i++) t.push(d(++seq, 'PodEvictionScheduled', `Pod/ns/p${i}`, { node: `n${i % 7}`, deadline: `T${i % 5}` }));
  for (let i = 0; i < 100; i++) t.push(d(++seq, 'PodEvicted', `Pod/ns/p${i}`));
  for (let i = 100; i < 110; i++) t.push(d(++seq, 'PodEvictionCancelled', `Pod/ns/p${i}`));
  for (let i = 100; i < 110; i++) t.push(d(++seq, 'PodEvictionScheduled', `Pod/ns/p${i}`, { node: 'n9', deadline: 'T9' }));
  return t;
}

/** The index a fresh EvictionIndex makes of `trace`: what a step back must give. */
const fresh = (trace: readonly Decision[]) => [...new EvictionIndex().update(trace)].sort((a, b) => (a[0] < b[0] ? -1 : 1));

const cutCases: { name: string; to: number; changed: string[] }[] = [
  { name: 'a step back over the rescheduled evictions puts back the cancelled state', to: 1110, changed: [...Array(10)].map((_, i) => `Pod/ns/p${100 + i}`) },
  {
    name: 'a step back over the cancellations puts back the first schedule',
    to: 1100,
    changed: [...Array(10)].map((_, i) => `Pod/ns/p${100 + i}`),
  },
  {
    name: 'a step back over five evictions puts back those pods, and the first schedule of the rescheduled ones',
    to: 1095,
    changed: [...Array(15)].map((_, i) => `Pod/ns/p${95 + i}`),
  },
];
for (const c of cutCases)
  test(`the eviction index, cut back: ${c.name}, reading none of the decisions kept and reporting only the pods that changed`, () => {
    const trace = evictionTrace();
    const idx = new EvictionIndex();
    idx.update(trace);
    let reads = 0;
    const cut = new Proxy(trace.slice(0, c.to), {
      get(t, k, r) {
        if (typeof k === 'string' && /^\d+$/.test(k)) reads++;
        return Reflect.get(t, k, r);
      },
    });
    const after = [...idx.update(cut)].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    assert.deepEqual(after, fresh(trace.slice(0, c.to)));
    assert.ok(reads <= 2, `${reads} decisions read`);
    assert.deepEqual([...(idx.changed as Set<string>)].sort(), [...c.changed].sort());
    // and on from there, as a fresh index would
    assert.deepEqual(
      [...idx.update(trace)].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      fresh(trace),
    );
  });

test('the view from the live records matches the view from the exported state', () => {
  const cluster = emptyCluster();
  cluster.nodes.set('n1', {
    kind: 'Node',
    meta: { name: 'n1', uid: 'u', labels: { 'topology.kubernetes.io/zone': 'a' }, annotations: {}, ownerReferences: [], creationTimestamp: 0 },
    conditions: [{ type: 'Ready', status: 'Unknown', lastHeartbeatTime: 0, lastTransitionTime: 0 }],
    taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
    unschedulable: true,
    raw: {},
  });
  cluster.pods.set('ns/p', {
    kind: 'Pod',
    meta: {
      name: 'p',
      namespace: 'ns',
      uid: 'u2',
      labels: {},
      annotations: {},
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u3', controller: true }],
      creationTimestamp: 0,
    },
    nodeName: 'n1',
    tolerations: [],
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: 0 }],
    restartCount: 0,
    raw: {},
  });
  const evictions = new Map([['Pod/ns/p', { at: 'T', node: 'n1' }]]);
  const fromRecords = buildClusterViewFromRecords(cluster, evictions);
  const fromState = buildClusterView(
    {
      objects: {
        apiVersion: 'v1',
        kind: 'List',
        items: [
          {
            kind: 'Node',
            metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'a' } },
            spec: { taints: [unreachable], unschedulable: true },
            status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
          },
          {
            kind: 'Pod',
            metadata: { name: 'p', namespace: 'ns', ownerReferences: [{ kind: 'ReplicaSet', name: 'rs', controller: true }] },
            spec: { nodeName: 'n1' },
            status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
          },
        ],
      },
    },
    evictions,
  );
  assert.deepEqual([...fromRecords.nodes], [...fromState.nodes]);
  assert.deepEqual([...fromRecords.pods], [...fromState.pods]);
  assert.equal(fromRecords.pods.get('Pod/ns/p')?.evictionAt, 'T');
});

test('the cluster view reads nodes, pods and ReplicaSets from the state list', () => {
  const view = buildClusterView({
    objects: {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          kind: 'Node',
          metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'a' } },
          spec: { taints: [unreachable], unschedulable: true },
          status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
        },
        { kind: 'Node', metadata: { name: 'n2' } },
        {
          kind: 'Pod',
          metadata: { name: 'p', namespace: 'ns', ownerReferences: [{ kind: 'ReplicaSet', name: 'rs', controller: true }] },
          spec: { nodeName: 'n1' },
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
        },
        { kind: 'ReplicaSet', metadata: { name: 'rs', namespace: 'ns' }, spec: {}, status: { replicas: 1, readyReplicas: 0 } },
        { kind: 'Lease', metadata: { name: 'n1' } },
      ],
    },
  });
  assert.deepEqual(view.nodes.get('Node/n1'), {
    ref: 'Node/n1',
    name: 'n1',
    zone: 'Zone/a',
    ready: 'Unknown',
    taints: ['node.kubernetes.io/unreachable:NoExecute'],
    unschedulable: true,
  });
  assert.equal(view.nodes.get('Node/n2')?.ready, 'None');
  assert.deepEqual(view.pods.get('Pod/ns/p'), { ref: 'Pod/ns/p', node: 'n1', phase: 'Running', ready: false, owner: 'ReplicaSet/ns/rs' });
  assert.deepEqual(view.replicaSets.get('ReplicaSet/ns/rs'), { ref: 'ReplicaSet/ns/rs', desired: 1, current: 1, ready: 0 });
});

test('the delta holds what is new or changed and what is gone, nothing else', () => {
  const a = new Map([
    ['x', { ref: 'x', v: [1] }],
    ['y', { ref: 'y', v: [2] }],
    ['z', { ref: 'z', v: [3] }],
  ]);
  const b = new Map([
    ['x', { ref: 'x', v: [1] }],
    ['y', { ref: 'y', v: [4] }],
    ['w', { ref: 'w', v: [5] }],
  ]);
  assert.deepEqual(diffItems(a, b), {
    upsert: [
      { ref: 'y', v: [4] },
      { ref: 'w', v: [5] },
    ],
    remove: ['z'],
  });
  assert.deepEqual(diffItems(undefined, b).upsert.length, 3);
});
