/**
 * The simplified binder and the simplified kubelet start, through their
 * public entry points on the virtual clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime, seconds } from '../../../../src/engine/model/time';
import { toNodeRecord, toPodRecord } from '../../../../src/engine/model/convert';
import { createSimplifiedBinder } from '../../../../src/engine/controllers/scheduler';
import { World, nodeObject, podObject, rsObject, T0 } from '../replicaSet/harness';
import type { KObject } from '../../../../src/engine/model/types';
import { podCondition } from '../../../../src/engine/model/records';

const noExecute = (key: string) => ({ key, effect: 'NoExecute' });
const noSchedule = (key: string) => ({ key, effect: 'NoSchedule' });

const alloc = (o: KObject, allocatable: KObject): KObject => ({ ...o, status: { ...(o.status as KObject), allocatable } });
const requesting = (o: KObject, requests: KObject): KObject => ({
  ...o,
  spec: { ...(o.spec as KObject), containers: [{ name: 'c', image: 'nginx', resources: { requests } }] },
});
const withSpec = (o: KObject, spec: KObject): KObject => ({ ...o, spec: { ...(o.spec as KObject), ...spec } });
const labelled = (o: KObject, labels: Record<string, string>): KObject => ({
  ...o,
  metadata: { ...(o.metadata as KObject), labels: { ...((o.metadata as KObject).labels as KObject), ...labels } },
});
const small = (name: string, o: Parameters<typeof nodeObject>[1] = {}) => alloc(nodeObject(name, o), { cpu: '1', memory: '1Gi', pods: '110' });

test('a pod is bound to a feasible node with the best least-allocated score, ties by name in natural order', () => {
  const busy = (name: string, node: string) => requesting(podObject(name, undefined, { node }), { cpu: '500m', memory: '256Mi' });
  const cases: { name: string; nodes: KObject[]; bound?: KObject[]; pod?: KObject; want?: string; blocked?: string }[] = [
    { name: 'equal nodes: the first by natural name (n9 before n10)', nodes: [small('n10'), small('n9'), small('n11')], want: 'n9' },
    { name: 'the least allocated node wins over the first by name', nodes: [small('a'), small('b')], bound: [busy('x', 'a')], want: 'b' },
    {
      name: 'allocation is counted from requests, with 100m/200Mi for a container without',
      nodes: [small('a'), small('b')],
      bound: [podObject('x', undefined, { node: 'a' })],
      want: 'b',
    },
    {
      name: 'a bigger node is less allocated with the same pods',
      nodes: [small('a'), alloc(nodeObject('b'), { cpu: '4', memory: '4Gi', pods: '110' })],
      bound: [busy('x', 'b')],
      want: 'b',
    },
    { name: 'a finished pod does not count', nodes: [small('a'), small('b')], bound: [{ ...busy('x', 'a'), status: { phase: 'Succeeded' } }], want: 'a' },
    { name: 'a NotReady node is skipped', nodes: [small('a', { ready: 'False' }), small('b')], want: 'b' },
    { name: 'an Unknown node is skipped', nodes: [small('a', { ready: 'Unknown' }), small('b')], want: 'b' },
    { name: 'a NoSchedule taint the pod does not tolerate skips the node', nodes: [small('a', { taints: [noSchedule('dedicated')] }), small('b')], want: 'b' },
    {
      name: 'a NoExecute taint the pod does not tolerate skips the node',
      nodes: [small('a', { taints: [noExecute('example.com/maint')] }), small('b')],
      want: 'b',
    },
    {
      name: 'a PreferNoSchedule taint does not skip the node',
      nodes: [small('a', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }), small('b')],
      want: 'a',
    },
    {
      name: 'a tolerated taint does not skip the node',
      nodes: [small('a', { taints: [noSchedule('dedicated')] }), small('b')],
      pod: podObject('p', undefined, { tolerations: [{ key: 'dedicated', operator: 'Exists' }] }),
      want: 'a',
    },
    {
      name: 'the default unreachable toleration does not make a NoSchedule unreachable taint tolerable',
      nodes: [small('a', { taints: [noSchedule('node.kubernetes.io/unreachable')] }), small('b')],
      want: 'b',
    },
    { name: 'a cordoned node is skipped', nodes: [small('a', { unschedulable: true }), small('b')], want: 'b' },
    {
      name: 'a cordoned node is used by a pod tolerating node.kubernetes.io/unschedulable',
      nodes: [small('a', { unschedulable: true }), small('b')],
      pod: podObject('p', undefined, { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }),
      want: 'a',
    },
    {
      name: 'a node without room for the cpu request is skipped',
      nodes: [small('a'), small('b')],
      bound: [busy('x', 'a'), busy('y', 'b'), busy('z', 'b')],
      pod: requesting(podObject('p', undefined), { cpu: '400m' }),
      want: 'a',
    },
    {
      name: 'a node at its pods limit is skipped',
      nodes: [alloc(nodeObject('a'), { cpu: '8', memory: '8Gi', pods: '1' }), small('b')],
      pod: podObject('p', undefined),
      bound: [],
      want: 'a',
    },
    {
      name: 'a nodeSelector sends the pod to the matching node',
      nodes: [small('a'), labelled(small('b'), { disk: 'ssd' })],
      bound: [busy('x', 'b')],
      pod: withSpec(podObject('p', undefined), { nodeSelector: { disk: 'ssd' } }),
      want: 'b',
    },
    {
      name: 'a hostname nodeSelector sends the pod to that node',
      nodes: [small('a'), small('b')],
      bound: [busy('x', 'b')],
      pod: withSpec(podObject('p', undefined), { nodeSelector: { 'kubernetes.io/hostname': 'b' } }),
      want: 'b',
    },
    {
      name: 'required node affinity matchFields metadata.name sends the pod to that node',
      nodes: [small('a'), small('b')],
      bound: [busy('x', 'b')],
      pod: withSpec(podObject('p', undefined), {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b'] }] }] },
          },
        },
      }),
      want: 'b',
    },
    {
      name: 'required node affinity with Gt picks among the matching nodes',
      nodes: [labelled(small('a'), { cores: '2' }), labelled(small('b'), { cores: '16' })],
      bound: [busy('x', 'b')],
      pod: withSpec(podObject('p', undefined), {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] }] },
          },
        },
      }),
      want: 'b',
    },
    {
      name: 'no node fits: the pod is unschedulable, in kube-scheduler words and counts',
      nodes: [small('a', { ready: 'False' }), small('b', { taints: [noExecute('x')] }), alloc(nodeObject('c'), { cpu: '100m', memory: '1Gi', pods: '110' })],
      pod: requesting(podObject('p', undefined), { cpu: '200m' }),
      blocked: '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {x: }, 1 node(s) were not ready.',
    },
  ];
  for (const c of cases) {
    const w = new World({ minor: 31, binder: true, nodes: c.nodes, pods: [...(c.bound ?? []), c.pod ?? podObject('p', undefined)] });
    w.settle();
    const pod = w.host.cluster.pods.get('default/p')!;
    if (c.want) {
      assert.equal(pod.nodeName, c.want, c.name);
      const bound = w.host.actions('PodBound');
      assert.equal(bound.length, 1, c.name);
      assert.ok(bound[0]!.because[0]!.rule.includes('simplified binder'), `${c.name}: says it is a simplification`);
      assert.ok(bound[0]!.summary.includes('simplified binder, not kube-scheduler'), c.name);
    } else {
      assert.equal(pod.nodeName, undefined, c.name);
      const u = w.host.actions('PodUnschedulable');
      assert.equal(u.length, 1, c.name);
      assert.equal(u[0]!.because[0]!.rule, `simplified binder, in kube-scheduler's words: ${c.blocked}`, c.name);
      assert.ok(u[0]!.because[1]!.rule.startsWith('simplified binder (not kube-scheduler)'), c.name);
      // then the guards it went through, as the why-not words them (becauseGuards.test.ts)
      assert.deepEqual(
        u[0]!.because.slice(2).map((g) => g.values![g.rule.split(/[ :]/)[1]!]),
        [true, false],
        `${c.name}: podPending, then findNodesThatFitPod false`,
      );
      assert.equal(u[0]!.details!.message, c.blocked, c.name);
      assert.equal(u[0]!.summary, `${c.blocked} (simplified binder, not kube-scheduler)`, c.name);
      const cond = pod.conditions.find((x) => x.type === 'PodScheduled');
      assert.deepEqual(
        cond && { status: cond.status, reason: cond.reason, message: cond.message },
        { status: 'False', reason: 'Unschedulable', message: c.blocked },
        `${c.name}: the pod's PodScheduled condition, as kube-scheduler writes it`,
      );
    }
  }
});

test("pods bound one after another spread over the nodes and never exceed a node's pods, cpu or memory", () => {
  const nodes = [
    alloc(nodeObject('n1'), { cpu: '1', memory: '2Gi', pods: '3' }),
    alloc(nodeObject('n2'), { cpu: '1', memory: '2Gi', pods: '3' }),
    alloc(nodeObject('n3'), { cpu: '2', memory: '2Gi', pods: '110' }),
  ];
  const pods = Array.from({ length: 10 }, (_, i) => requesting(podObject(`p${i}`, undefined, { createdAgo: 100 - i }), { cpu: '400m', memory: '128Mi' }));
  const w = new World({ minor: 31, binder: true, nodes, pods });
  w.settle();
  const on = (n: string) =>
    w
      .pods()
      .filter((p) => p.nodeName === n)
      .map((p) => p.meta.name);
  // scores (cpu share left + memory share left) / 2, each rounded down: n3 has twice the cpu, so
  // p0 n3 86 | p1 n1 76 (n3 73) | p2 n2 76 | p3 n3 73 (n1 53) | p4 n3 60 | p5 n1 53 (n3 47) | p6 n2 53
  // | p7 n3 47 (n1 and n2 have 200m left) | p8 n3 34, its last 400m | p9 fits nowhere
  assert.deepEqual(on('n1'), ['p1', 'p5']);
  assert.deepEqual(on('n2'), ['p2', 'p6']);
  assert.deepEqual(on('n3'), ['p0', 'p3', 'p4', 'p7', 'p8']);
  assert.deepEqual(
    w.host.actions('PodBound').map((d) => d.details!.score),
    [86, 76, 76, 73, 60, 53, 53, 47, 34],
  );
  const u = w.host.actions('PodUnschedulable');
  assert.deepEqual(
    u.map((d) => d.object),
    ['Pod/default/p9'],
  );
  assert.equal(u[0]!.details!.message, '0/3 nodes are available: 3 Insufficient cpu.');
});

test('PodBound says which node, its score and room, and what the other nodes failed', () => {
  const w = new World({
    minor: 31,
    binder: true,
    nodes: [small('a', { taints: [noSchedule('node.kubernetes.io/unreachable')] }), small('b'), small('c', { unschedulable: true })],
    pods: [requesting(podObject('p', undefined), { cpu: '250m', memory: '256Mi' })],
  });
  w.settle();
  const d = w.host.actions('PodBound')[0]!;
  assert.equal(d.summary, 'Bound to b, the least allocated of 1 feasible node (score 75; simplified binder, not kube-scheduler)');
  assert.deepEqual(d.because[0]!.values, {
    node: 'b',
    score: 75,
    pods: '1/110',
    cpuRequests: '250m/1000m',
    memoryRequests: `${256 * 1024 * 1024}/${1024 * 1024 * 1024}`,
    feasible: 1,
  });
  assert.equal(d.because[1]!.rule, '2 of 3 nodes filtered out');
  assert.deepEqual(d.because[1]!.values, { 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }': 1, 'node(s) were unschedulable': 1 });
  assert.ok(d.because[2]!.rule.startsWith('simplified binder (not kube-scheduler)'));
  assert.deepEqual(d.details, { node: 'b', score: 75, feasible: 1, filtered: 2, reasons: d.because[1]!.values });
});

test('an unschedulable pod is tried again when a pod leaves a node, and then bound there', () => {
  const nodes = [alloc(nodeObject('a'), { cpu: '1', memory: '1Gi', pods: '1' })];
  const w = new World({ minor: 31, binder: true, nodes, pods: [podObject('x', undefined, { node: 'a' }), podObject('p', undefined)] });
  w.settle();
  assert.equal(w.host.actions('PodUnschedulable')[0]!.details!.message, '0/1 nodes are available: 1 Too many pods.');
  w.advance(30);
  assert.equal(w.host.actions('PodUnschedulable').length, 1, 'not repeated while nothing changed');
  w.evict('default/x');
  w.settle();
  const p = w.host.cluster.pods.get('default/p')!;
  assert.equal(p.nodeName, 'a');
  assert.equal(w.host.actions('PodBound')[0]!.time, formatTime(T0 + seconds(30)));
  assert.deepEqual(
    p.conditions.find((x) => x.type === 'PodScheduled'),
    podCondition('PodScheduled', 'True', T0 + seconds(30), undefined, undefined),
    'bound: True, without the reason and message',
  );
});

test('an unschedulable pod is reported once, then bound when a node becomes Ready', () => {
  const w = new World({ minor: 31, binder: true, nodes: [nodeObject('a', { ready: 'Unknown' })], pods: [podObject('p', undefined)] });
  w.settle();
  w.advance(60);
  assert.equal(w.host.actions('PodUnschedulable').length, 1);
  assert.equal(w.host.actions('PodUnschedulable')[0]!.details!.message, '0/1 nodes are available: 1 node(s) were not ready.');
  // an unrelated node update changes nothing
  const n = w.host.cluster.nodes.get('a')!;
  const before = toNodeRecord(nodeObject('a', { ready: 'Unknown' }))!;
  w.host.announceNode('updated', n, before);
  w.settle();
  assert.equal(w.host.actions('PodUnschedulable').length, 1, 'not repeated while nothing changed');
  // the whyNot gives kube-scheduler's message, then each node's reasons
  const why = w.binder!.whyNot(w.host, 'Pod/default/p');
  assert.equal(why[0]!.outcome, 'PodBound');
  assert.equal(why[0]!.blocking?.guard, 'findNodesThatFitPod');
  assert.equal(why[0]!.blocking?.unmet, '0/1 nodes are available: 1 node(s) were not ready.');
  assert.equal(why[0]!.counterfactual, undefined, 'no input of the pod makes a not-ready node fit');
  assert.equal(why[1]!.check.rule, 'node(s) were not ready');
  n.conditions = n.conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'True' } : c));
  w.host.announceNode('updated', n, before);
  w.settle();
  assert.equal(w.host.cluster.pods.get('default/p')!.nodeName, 'a');
  assert.equal(w.host.actions('PodBound')[0]!.time, formatTime(T0 + seconds(60)));
});

test('a new node added mid-run retries the waiting pods at once', () => {
  const w = new World({ minor: 31, binder: true, nodes: [], pods: [podObject('p', undefined)] });
  w.settle();
  assert.equal(w.host.actions('PodUnschedulable').length, 1);
  w.advance(5);
  const n = toNodeRecord(nodeObject('new'))!;
  w.host.cluster.nodes.set('new', n);
  w.host.announceNode('added', n);
  w.settle();
  assert.equal(w.host.cluster.pods.get('default/p')!.nodeName, 'new');
});

test('a bound pod becomes Running and Ready after podStartupDelay, once its node is Ready', () => {
  const w = new World({ minor: 31, binder: true, podStartupDelay: seconds(5), nodes: [nodeObject('a')], pods: [podObject('p', undefined, { ready: false })] });
  w.settle();
  const pod = w.host.cluster.pods.get('default/p')!;
  assert.equal(pod.nodeName, 'a');
  assert.equal(pod.phase, 'Pending');
  assert.equal(w.binder!.whyNot(w.host, 'Pod/default/p')[0]!.wouldFireAt, formatTime(T0 + seconds(5)));
  w.runUntil(T0 + seconds(5));
  assert.equal(pod.phase, 'Running');
  assert.equal(pod.conditions.find((c) => c.type === 'Ready')!.status, 'True');
  assert.equal(pod.conditions.find((c) => c.type === 'Ready')!.lastTransitionTime, T0 + seconds(5));
  const started = w.host.actions('PodStarted');
  assert.equal(started.length, 1);
  assert.deepEqual(started[0]!.causes, [w.host.actions('PodBound')[0]!.seq]);
});

test('a pod whose node is not Ready when it is due to start waits for the node', () => {
  const w = new World({ minor: 31, binder: true, podStartupDelay: seconds(5), nodes: [nodeObject('a')], pods: [podObject('p', undefined, { ready: false })] });
  w.settle();
  const n = w.host.cluster.nodes.get('a')!;
  const readyNode = toNodeRecord(nodeObject('a'))!;
  n.conditions = n.conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown' } : c));
  w.host.announceNode('updated', n, readyNode);
  w.runUntil(T0 + seconds(30));
  const pod = w.host.cluster.pods.get('default/p')!;
  assert.equal(pod.phase, 'Pending');
  assert.match(w.binder!.whyNot(w.host, 'Pod/default/p')[0]!.check.rule, /node is not Ready/);
  const unknownNode = toNodeRecord(nodeObject('a', { ready: 'Unknown' }))!;
  n.conditions = n.conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'True' } : c));
  w.host.announceNode('updated', n, unknownNode);
  w.runUntil(T0 + seconds(35));
  assert.equal(pod.phase, 'Running');
  assert.equal(w.host.actions('PodStarted')[0]!.time, formatTime(T0 + seconds(35)));
});

test('pods from the snapshot that are already bound are left as they are', () => {
  const w = new World({ minor: 31, binder: true, nodes: [nodeObject('a')], pods: [podObject('p', undefined, { node: 'a', phase: 'Pending', ready: false })] });
  w.runUntil(T0 + seconds(60));
  assert.equal(w.host.decisions.length, 0);
  assert.equal(w.host.cluster.pods.get('default/p')!.phase, 'Pending');
});

test('terminating and finished pods are not bound', () => {
  const w = new World({
    minor: 31,
    binder: true,
    nodes: [nodeObject('a')],
    pods: [podObject('gone', undefined, { deleting: true }), podObject('done', undefined, { phase: 'Succeeded' })],
  });
  w.settle();
  assert.equal(w.host.decisions.length, 0);
});

test('replacement pods are bound to healthy nodes, citing their PodsCreated', () => {
  const w = new World({
    minor: 31,
    binder: true,
    nodes: [
      nodeObject('a-1', { ready: 'Unknown', taints: [noExecute('node.kubernetes.io/unreachable'), noSchedule('node.kubernetes.io/unreachable')] }),
      nodeObject('b-1'),
    ],
    replicaSets: [rsObject('web', { replicas: 2 })],
    pods: [podObject('web-x', 'web', { node: 'a-1' }), podObject('web-y', 'web', { node: 'b-1' })],
  });
  w.settle();
  const evicted = w.evict('default/web-x');
  w.settle();
  const created = w.host.actions('PodsCreated')[0]!;
  assert.deepEqual(created.causes, [evicted]);
  const bound = w.host.actions('PodBound');
  assert.equal(bound.length, 1);
  assert.deepEqual(bound[0]!.causes, [created.seq]);
  assert.equal(bound[0]!.details!.node, 'b-1');
  assert.deepEqual(bound[0]!.because[1]!.values, { 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }': 1 });
  // the replacement ran and the ReplicaSet counts it
  assert.equal(w.replicaSet('default/web').status.readyReplicas, 2);
});

test('the binder restores from a checkpoint', () => {
  const w = new World({ minor: 31, binder: true, podStartupDelay: seconds(5), nodes: [nodeObject('a')], pods: [podObject('p', undefined, { ready: false })] });
  w.settle();
  const fresh = createSimplifiedBinder();
  fresh.restore(JSON.parse(JSON.stringify(w.binder!.save())));
  assert.equal(fresh.nextWake(), T0 + seconds(5));
  void toPodRecord;
});

test("why a pod is not bound gives kube-scheduler's message, the first nodes by name with their reasons, and counts the rest", () => {
  const nodes = Array.from({ length: 30 }, (_, i) =>
    nodeObject(`n${i}`, { ready: i % 2 ? 'False' : 'Unknown', ...(i % 3 === 0 ? { taints: [noSchedule('node.kubernetes.io/not-ready')] } : {}) }),
  );
  const w = new World({ minor: 31, binder: true, nodes, pods: [podObject('p', undefined)] });
  w.settle();
  const why = w.binder!.whyNot(w.host, 'Pod/default/p');
  const message = '0/30 nodes are available: 10 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 20 node(s) were not ready.';
  assert.equal(why[0]!.blocking?.unmet, message);
  assert.ok(why[0]!.check.rule.startsWith(message), why[0]!.check.rule);
  assert.equal(why.length, 22);
  assert.deepEqual(
    why.slice(1, 4).map((x) => [x.what, x.check.rule]),
    [
      ['bound to n0 (simplified binder)', 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }'],
      ['bound to n1 (simplified binder)', 'node(s) were not ready'],
      ['bound to n2 (simplified binder)', 'node(s) were not ready'],
    ],
  );
  assert.deepEqual(why[21]!.check.values, { nodes: 10 });
  const u = w.host.actions('PodUnschedulable')[0]!;
  assert.deepEqual(u.details!.reasons, { 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }': 10, 'node(s) were not ready': 20 });
});

test('after a restart, pods the binder bound but that have not started yet still start', () => {
  const w = new World({ minor: 31, binder: true, podStartupDelay: seconds(5), nodes: [nodeObject('a')], pods: [podObject('p', undefined, { ready: false })] });
  w.settle();
  w.runUntil(T0 + seconds(2));
  // the controllers are rebuilt, as after restartControllerManager
  const again = createSimplifiedBinder();
  w.host.controllers.splice(w.host.controllers.indexOf(w.binder!), 1, again);
  again.start(w.host, 'fresh');
  w.runUntil(T0 + seconds(7));
  assert.equal(w.host.cluster.pods.get('default/p')!.phase, 'Running');
  assert.equal(w.host.actions('PodStarted')[0]!.time, formatTime(T0 + seconds(7)));
});
