/**
 * The simplified binder's filters, score and words, one table each: what
 * kube-scheduler's NodeUnschedulable, TaintToleration, NodeAffinity and
 * NodeResourcesFit decide, and how its FitError reads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toNodeRecord, toPodRecord } from '../../../../src/engine/model/convert';
import type { KObject } from '../../../../src/engine/model/types';
import {
  emptyUsage,
  leastAllocatedScore,
  naturalCompare,
  nodeFacts,
  placementReason,
  resourceMisfit,
  misfitReasons,
  INSUFFICIENT_CPU,
  INSUFFICIENT_MEMORY,
  TOO_MANY_PODS,
  type Usage,
} from '../../../../src/engine/controllers/scheduler/fit';
import { matchesPlacement, requiredPlacement } from '../../../../src/engine/controllers/scheduler/nodeAffinity';
import { fitErrorMessage, wordingFor } from '../../../../src/engine/controllers/scheduler/reasons';
import { nodeAllocatable, podRequests, type Allocatable, type Requests } from '../../../../src/engine/controllers/scheduler/resources';

const MI = 1024 * 1024;

function pod(spec: KObject = {}): ReturnType<typeof toPodRecord> & object {
  return toPodRecord({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'u', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
    status: { phase: 'Pending' },
  })!;
}

function node(o: { name?: string; labels?: Record<string, string>; taints?: KObject[]; unschedulable?: boolean; ready?: string; allocatable?: KObject } = {}) {
  const name = o.name ?? 'n1';
  return toNodeRecord({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}`, labels: { 'kubernetes.io/hostname': name, ...o.labels }, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: {
      conditions: [{ type: 'Ready', status: o.ready ?? 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      ...(o.allocatable ? { allocatable: o.allocatable } : {}),
    },
  })!;
}

const w31 = wordingFor(31);

test('filters 1–4 give the first reason in the default profile order, in kube-scheduler words', () => {
  const cases: { name: string; pod?: KObject; node?: Parameters<typeof node>[0]; want: string | undefined }[] = [
    { name: 'a Ready, untainted, schedulable node passes', want: undefined },
    { name: 'a cordoned node is unschedulable', node: { unschedulable: true }, want: 'node(s) were unschedulable' },
    {
      name: 'a cordoned node passes for a pod tolerating node.kubernetes.io/unschedulable',
      node: { unschedulable: true },
      pod: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] },
      want: undefined,
    },
    {
      name: 'cordon is checked before taints',
      node: { unschedulable: true, taints: [{ key: 'a', effect: 'NoSchedule' }] },
      want: 'node(s) were unschedulable',
    },
    {
      name: 'an untolerated NoSchedule taint filters the node, named with its value',
      node: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      want: 'node(s) had untolerated taint {dedicated: gpu}',
    },
    {
      name: 'an untolerated NoExecute taint filters the node (empty value as kube-scheduler prints it)',
      node: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] },
      want: 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }',
    },
    { name: 'a PreferNoSchedule taint is ignored', node: { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }, want: undefined },
    {
      name: 'the first untolerated taint in the node order is named',
      node: {
        taints: [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'b', effect: 'NoExecute' },
        ],
      },
      pod: { tolerations: [{ key: 'a', operator: 'Exists' }] },
      want: 'node(s) had untolerated taint {b: }',
    },
    {
      name: 'a NoExecute toleration does not tolerate the NoSchedule taint of the same key',
      node: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] },
      pod: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] },
      want: 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }',
    },
    {
      name: 'taints are checked before node affinity',
      node: { taints: [{ key: 'a', effect: 'NoSchedule' }] },
      pod: { nodeSelector: { disk: 'ssd' } },
      want: 'node(s) had untolerated taint {a: }',
    },
    {
      name: 'a nodeSelector the node does not match filters it',
      pod: { nodeSelector: { disk: 'ssd' } },
      want: "node(s) didn't match Pod's node affinity/selector",
    },
    { name: 'a nodeSelector the node matches passes', node: { labels: { disk: 'ssd' } }, pod: { nodeSelector: { disk: 'ssd' } }, want: undefined },
    {
      name: 'node affinity is checked before readiness',
      node: { ready: 'Unknown' },
      pod: { nodeSelector: { disk: 'ssd' } },
      want: "node(s) didn't match Pod's node affinity/selector",
    },
    { name: 'a NotReady node without taints is not ready', node: { ready: 'False' }, want: 'node(s) were not ready' },
    { name: 'an Unknown node without taints is not ready', node: { ready: 'Unknown' }, want: 'node(s) were not ready' },
    {
      name: 'a not-Ready node with the unreachable taint reports the taint, as kube-scheduler does',
      node: { ready: 'Unknown', taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] },
      want: 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }',
    },
  ];
  for (const c of cases) {
    const p = pod(c.pod);
    const n = node(c.node);
    assert.equal(placementReason(p, requiredPlacement(p), nodeFacts(n), n.meta.name, w31), c.want, c.name);
  }
});

test('required node affinity matches as kube-scheduler does, per operator', () => {
  const term = (...matchExpressions: KObject[]) => ({
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions }] } } },
  });
  const labels = { zone: 'a', cores: '8', 'kubernetes.io/hostname': 'n1' };
  const cases: { name: string; spec: KObject; want: boolean }[] = [
    { name: 'no requirement matches every node', spec: {}, want: true },
    { name: 'In with the value matches', spec: term({ key: 'zone', operator: 'In', values: ['a', 'b'] }), want: true },
    { name: 'In without the value does not match', spec: term({ key: 'zone', operator: 'In', values: ['b'] }), want: false },
    { name: 'In on a missing label does not match', spec: term({ key: 'gpu', operator: 'In', values: ['x'] }), want: false },
    { name: 'NotIn with the value does not match', spec: term({ key: 'zone', operator: 'NotIn', values: ['a'] }), want: false },
    { name: 'NotIn on a missing label matches', spec: term({ key: 'gpu', operator: 'NotIn', values: ['x'] }), want: true },
    { name: 'Exists on a present label matches', spec: term({ key: 'zone', operator: 'Exists' }), want: true },
    { name: 'Exists on a missing label does not match', spec: term({ key: 'gpu', operator: 'Exists' }), want: false },
    { name: 'DoesNotExist on a missing label matches', spec: term({ key: 'gpu', operator: 'DoesNotExist' }), want: true },
    { name: 'DoesNotExist on a present label does not match', spec: term({ key: 'zone', operator: 'DoesNotExist' }), want: false },
    { name: 'Gt compares as integers (8 > 4)', spec: term({ key: 'cores', operator: 'Gt', values: ['4'] }), want: true },
    { name: 'Gt is strict (8 > 8 is false)', spec: term({ key: 'cores', operator: 'Gt', values: ['8'] }), want: false },
    { name: 'Gt compares numbers, not text (8 > 10 is false)', spec: term({ key: 'cores', operator: 'Gt', values: ['10'] }), want: false },
    { name: 'Lt compares as integers (8 < 10)', spec: term({ key: 'cores', operator: 'Lt', values: ['10'] }), want: true },
    { name: 'Gt on a label that is not an integer does not match', spec: term({ key: 'zone', operator: 'Gt', values: ['1'] }), want: false },
    { name: 'Gt on a missing label does not match', spec: term({ key: 'gpu', operator: 'Gt', values: ['1'] }), want: false },
    {
      name: 'expressions of one term are ANDed',
      spec: term({ key: 'zone', operator: 'In', values: ['a'] }, { key: 'cores', operator: 'Lt', values: ['4'] }),
      want: false,
    },
    {
      name: 'terms are ORed',
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
                { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
              ],
            },
          },
        },
      },
      want: true,
    },
    {
      name: 'an empty term matches no node',
      spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{}] } } } },
      want: false,
    },
    {
      name: 'an empty list of terms matches no node',
      spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } },
      want: false,
    },
    {
      name: 'matchFields metadata.name In the node name matches',
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
            },
          },
        },
      },
      want: true,
    },
    {
      name: 'matchFields metadata.name In another name does not match',
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }],
            },
          },
        },
      },
      want: false,
    },
    {
      name: 'matchFields metadata.name NotIn another name matches',
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n2'] }] }],
            },
          },
        },
      },
      want: true,
    },
    { name: 'nodeSelector and affinity must both match', spec: { nodeSelector: { zone: 'b' }, ...term({ key: 'zone', operator: 'Exists' }) }, want: false },
    {
      name: 'preferred affinity is not a requirement',
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] } }],
          },
        },
      },
      want: true,
    },
  ];
  for (const c of cases) {
    const p = pod(c.spec);
    assert.equal(matchesPlacement(requiredPlacement(p), labels, 'n1'), c.want, c.name);
  }
  assert.equal(requiredPlacement(pod({ nodeSelector: { 'kubernetes.io/hostname': 'n1' } })).perNode, true, 'a hostname selector is decided node by node');
  assert.equal(requiredPlacement(pod({ nodeSelector: { zone: 'a' } })).perNode, false, 'a zone selector is decided per class');
});

test('a pod requests what kube-scheduler computes (PodRequests), with 100m/200Mi defaults for scoring only', () => {
  const cases: { name: string; spec: KObject; want: Requests }[] = [
    {
      name: 'a container without requests requests nothing, and scores as 100m/200Mi',
      spec: {},
      want: { milliCpu: 0, memory: 0, nonZeroMilliCpu: 100, nonZeroMemory: 200 * MI },
    },
    {
      name: 'requests are summed over containers',
      spec: {
        containers: [
          { name: 'a', resources: { requests: { cpu: '100m', memory: '128Mi' } } },
          { name: 'b', resources: { requests: { cpu: '0.5', memory: '1Gi' } } },
        ],
      },
      want: { milliCpu: 600, memory: 1152 * MI, nonZeroMilliCpu: 600, nonZeroMemory: 1152 * MI },
    },
    {
      name: 'a request of zero is kept as zero for scoring too',
      spec: { containers: [{ name: 'a', resources: { requests: { cpu: '0', memory: '64Mi' } } }] },
      want: { milliCpu: 0, memory: 64 * MI, nonZeroMilliCpu: 0, nonZeroMemory: 64 * MI },
    },
    {
      name: 'a larger init container sets the request',
      spec: {
        initContainers: [{ name: 'i', resources: { requests: { cpu: '2', memory: '1Mi' } } }],
        containers: [{ name: 'a', resources: { requests: { cpu: '1', memory: '2Mi' } } }],
      },
      want: { milliCpu: 2000, memory: 2 * MI, nonZeroMilliCpu: 2000, nonZeroMemory: 2 * MI },
    },
    {
      name: 'a sidecar (restartPolicy Always) adds to the containers',
      spec: {
        initContainers: [{ name: 's', restartPolicy: 'Always', resources: { requests: { cpu: '250m', memory: '1Mi' } } }],
        containers: [{ name: 'a', resources: { requests: { cpu: '1', memory: '2Mi' } } }],
      },
      want: { milliCpu: 1250, memory: 3 * MI, nonZeroMilliCpu: 1250, nonZeroMemory: 3 * MI },
    },
    {
      name: 'overhead is added',
      spec: { overhead: { cpu: '10m', memory: '1Mi' }, containers: [{ name: 'a', resources: { requests: { cpu: '1', memory: '2Mi' } } }] },
      want: { milliCpu: 1010, memory: 3 * MI, nonZeroMilliCpu: 1010, nonZeroMemory: 3 * MI },
    },
    {
      name: 'limits alone are not requests here (the API server would have copied them)',
      spec: { containers: [{ name: 'a', resources: { limits: { cpu: '1' } } }] },
      want: { milliCpu: 0, memory: 0, nonZeroMilliCpu: 100, nonZeroMemory: 200 * MI },
    },
  ];
  for (const c of cases) assert.deepEqual(podRequests(pod(c.spec)), c.want, c.name);
});

test('pods that share a containers list share its requests, but for the pods whose init containers or overhead add to them', () => {
  // one list, as the loader and podFromTemplate share it between the pods of a ReplicaSet
  const containers = [{ name: 'a', resources: { requests: { cpu: '1', memory: '2Mi' } } }];
  const plain: Requests = { milliCpu: 1000, memory: 2 * MI, nonZeroMilliCpu: 1000, nonZeroMemory: 2 * MI };
  const cases: { name: string; first: KObject; then: KObject; want: Requests }[] = [
    { name: 'the same list', first: { containers }, then: { containers }, want: plain },
    {
      name: 'an init container read after the list was',
      first: { containers },
      then: { containers, initContainers: [{ name: 'i', resources: { requests: { cpu: '2', memory: '1Mi' } } }] },
      want: { milliCpu: 2000, memory: 2 * MI, nonZeroMilliCpu: 2000, nonZeroMemory: 2 * MI },
    },
    {
      name: 'overhead read after the list was',
      first: { containers },
      then: { containers, overhead: { cpu: '10m', memory: '1Mi' } },
      want: { milliCpu: 1010, memory: 3 * MI, nonZeroMilliCpu: 1010, nonZeroMemory: 3 * MI },
    },
    {
      name: 'the list read after a pod with overhead',
      first: { containers, overhead: { cpu: '10m', memory: '1Mi' } },
      then: { containers },
      want: plain,
    },
  ];
  for (const c of cases) {
    const a = pod(c.first),
      b = pod(c.then);
    assert.equal((b.raw.spec as KObject).containers, containers, `${c.name}: the record keeps the list itself`);
    podRequests(a);
    assert.deepEqual(podRequests(b), c.want, c.name);
  }
  assert.equal(podRequests(pod({ containers })), podRequests(pod({ containers })), 'one object for the pods of one list');
});

test('a node allows its allocatable, and the kubelet default of 110 pods when it reports none', () => {
  const cases: { name: string; allocatable?: KObject; want: Allocatable }[] = [
    {
      name: 'cpu in millicores, memory in bytes, pods',
      allocatable: { cpu: '7910m', memory: '31369424Ki', pods: '110' },
      want: { milliCpu: 7910, memory: 31369424 * 1024, pods: 110, reported: true },
    },
    {
      name: 'whole cores and Gi',
      allocatable: { cpu: '4', memory: '15Gi', pods: 250 },
      want: { milliCpu: 4000, memory: 15 * 1024 * MI, pods: 250, reported: true },
    },
    { name: 'a key missing from a reported allocatable is zero', allocatable: { cpu: '4' }, want: { milliCpu: 4000, memory: 0, pods: 0, reported: true } },
    { name: 'no allocatable: 110 pods, cpu and memory not checked', want: { milliCpu: undefined, memory: undefined, pods: 110, reported: false } },
  ];
  for (const c of cases) assert.deepEqual(nodeAllocatable(node({ allocatable: c.allocatable })), c.want, c.name);
});

test('NodeResourcesFit filters on pods, cpu and memory against the requests of the pods bound there', () => {
  const alloc: Allocatable = { milliCpu: 1000, memory: 1000 * MI, pods: 3, reported: true };
  const req = (milliCpu: number, memory: number): Requests => ({ milliCpu, memory, nonZeroMilliCpu: milliCpu || 100, nonZeroMemory: memory || 200 * MI });
  const used = (o: Partial<Usage>): Usage => ({ ...emptyUsage(), ...o });
  const cases: { name: string; req: Requests; used: Usage; alloc?: Allocatable; want: number; words?: string[] }[] = [
    { name: 'an empty node fits', req: req(100, 100 * MI), used: used({}), want: 0 },
    { name: 'exactly the room left fits', req: req(400, 500 * MI), used: used({ milliCpu: 600, memory: 500 * MI, pods: 2 }), want: 0 },
    {
      name: 'one millicore too many is Insufficient cpu',
      req: req(401, 0),
      used: used({ milliCpu: 600, pods: 1 }),
      want: INSUFFICIENT_CPU,
      words: ['Insufficient cpu'],
    },
    {
      name: 'one byte too many is Insufficient memory',
      req: req(0, 500 * MI + 1),
      used: used({ memory: 500 * MI }),
      want: INSUFFICIENT_MEMORY,
      words: ['Insufficient memory'],
    },
    {
      name: 'the pods limit is Too many pods, even for a pod requesting nothing',
      req: req(0, 0),
      used: used({ pods: 3 }),
      want: TOO_MANY_PODS,
      words: ['Too many pods'],
    },
    {
      name: 'every failing resource is a reason, in fitsRequest order',
      req: req(2000, 2000 * MI),
      used: used({ pods: 3 }),
      want: TOO_MANY_PODS | INSUFFICIENT_CPU | INSUFFICIENT_MEMORY,
      words: ['Too many pods', 'Insufficient cpu', 'Insufficient memory'],
    },
    { name: 'a pod requesting no cpu fits a full node', req: req(0, 0), used: used({ milliCpu: 1000, memory: 1000 * MI }), want: 0 },
    {
      name: 'a node reporting no allocatable checks only the 110 pods',
      req: req(99_000, 99_000 * MI),
      used: used({ pods: 109 }),
      alloc: { milliCpu: undefined, memory: undefined, pods: 110, reported: false },
      want: 0,
    },
  ];
  for (const c of cases) {
    const got = resourceMisfit(c.req, c.alloc ?? alloc, c.used);
    assert.equal(got, c.want, c.name);
    if (c.words) assert.deepEqual(misfitReasons(got, w31), c.words, c.name);
  }
});

test('the score is least allocated over cpu and memory (weight 1 each), from non-zero requests, rounded down', () => {
  const alloc: Allocatable = { milliCpu: 4000, memory: 8000 * MI, pods: 110, reported: true };
  const r: Requests = { milliCpu: 0, memory: 0, nonZeroMilliCpu: 100, nonZeroMemory: 200 * MI };
  const cases: { name: string; used: Partial<Usage>; alloc?: Allocatable; want: number }[] = [
    // cpu (4000-100)*100/4000 = 97.5 -> 97; memory (8000-200)*100/8000 = 97.5 -> 97; (97+97)/2 = 97
    { name: 'an empty node scores by the pod alone', used: {}, want: 97 },
    // cpu (4000-2100)/4000 = 47.5 -> 47; memory 97 -> (47+97)/2 = 72
    { name: 'cpu used lowers the score', used: { nonZeroMilliCpu: 2000 }, want: 72 },
    // cpu 97; memory (8000-8200) < 0 -> 0; 97/2 = 48
    { name: 'a resource over its allocatable scores 0', used: { nonZeroMemory: 8000 * MI }, want: 48 },
    { name: 'a node without allocatable scores 0', used: {}, alloc: { milliCpu: undefined, memory: undefined, pods: 110, reported: false }, want: 0 },
    // memory 0 allocatable is left out of the average: cpu alone, 97
    { name: 'a resource the node has none of is left out of the average', used: {}, alloc: { milliCpu: 4000, memory: 0, pods: 110, reported: true }, want: 97 },
  ];
  for (const c of cases) assert.equal(leastAllocatedScore(r, c.alloc ?? alloc, { ...emptyUsage(), ...c.used }), c.want, c.name);
});

test('ties go to names in natural order', () => {
  const cases: [string, string, number][] = [
    ['ip-10-0-0-9', 'ip-10-0-0-10', -1],
    ['node-2', 'node-10', -1],
    ['a', 'b', -1],
    ['node-b1', 'node-a9', 1],
    ['n1', 'n1', 0],
    ['n01', 'n1', -1],
    ['n', 'n1', -1],
  ];
  for (const [a, b, want] of cases) assert.equal(Math.sign(naturalCompare(a, b)), want, `${a} vs ${b}`);
});

test('the FitError message is kube-scheduler’s: reasons as "count reason", sorted as strings, with a final period', () => {
  assert.equal(
    fitErrorMessage(
      3333,
      new Map([
        ['Insufficient cpu', 2222],
        ['node(s) had untolerated taint {node.kubernetes.io/unreachable: }', 1111],
      ]),
    ),
    '0/3333 nodes are available: 1111 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2222 Insufficient cpu.',
  );
  assert.equal(
    fitErrorMessage(6, { 'Insufficient cpu': 3, 'node(s) were unschedulable': 3 }),
    '0/6 nodes are available: 3 Insufficient cpu, 3 node(s) were unschedulable.',
  );
  assert.equal(fitErrorMessage(0, {}), 'no nodes available to schedule pods');
});

test('the taint and affinity reasons read as each version of kube-scheduler wrote them', () => {
  const taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' as const };
  const cases: { minor: number; taint: string; affinity: string }[] = [
    { minor: 12, taint: "node(s) had taints that the pod didn't tolerate", affinity: "node(s) didn't match node selector" },
    { minor: 18, taint: "node(s) had taint {node.kubernetes.io/unreachable: }, that the pod didn't tolerate", affinity: "node(s) didn't match node selector" },
    {
      minor: 24,
      taint: "node(s) had taint {node.kubernetes.io/unreachable: }, that the pod didn't tolerate",
      affinity: "node(s) didn't match Pod's node affinity/selector",
    },
    { minor: 31, taint: 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }', affinity: "node(s) didn't match Pod's node affinity/selector" },
    { minor: 35, taint: 'node(s) had untolerated taint(s)', affinity: "node(s) didn't match Pod's node affinity/selector" },
  ];
  for (const c of cases) {
    const w = wordingFor(c.minor);
    assert.equal(w.taint(taint), c.taint, `1.${c.minor} taint`);
    assert.equal(w.affinity, c.affinity, `1.${c.minor} affinity`);
  }
});
