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

const noExecute = (key: string) => ({ key, effect: 'NoExecute' });
const noSchedule = (key: string) => ({ key, effect: 'NoSchedule' });

test('a pod is bound to the first node by name that is Ready and whose NoSchedule/NoExecute taints it tolerates', () => {
  const cases: { name: string; nodes: Record<string, unknown>[]; tolerations?: Record<string, unknown>[]; want?: string; blocked?: string[] }[] = [
    { name: 'the first Ready node by name wins', nodes: [nodeObject('b'), nodeObject('a'), nodeObject('c')], want: 'a' },
    { name: 'a NotReady node is skipped', nodes: [nodeObject('a', { ready: 'False' }), nodeObject('b')], want: 'b' },
    { name: 'an Unknown node is skipped', nodes: [nodeObject('a', { ready: 'Unknown' }), nodeObject('b')], want: 'b' },
    { name: 'a NoSchedule taint the pod does not tolerate skips the node', nodes: [nodeObject('a', { taints: [noSchedule('dedicated')] }), nodeObject('b')], want: 'b' },
    { name: 'a NoExecute taint the pod does not tolerate skips the node', nodes: [nodeObject('a', { taints: [noExecute('example.com/maint')] }), nodeObject('b')], want: 'b' },
    { name: 'a PreferNoSchedule taint does not skip the node', nodes: [nodeObject('a', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }), nodeObject('b')], want: 'a' },
    { name: 'a tolerated taint does not skip the node', nodes: [nodeObject('a', { taints: [noSchedule('dedicated')] }), nodeObject('b')], tolerations: [{ key: 'dedicated', operator: 'Exists' }], want: 'a' },
    { name: 'the default unreachable toleration does not make a NoSchedule unreachable taint tolerable', nodes: [nodeObject('a', { taints: [noSchedule('node.kubernetes.io/unreachable')] }), nodeObject('b')], want: 'b' },
    { name: 'a cordoned node is skipped', nodes: [nodeObject('a', { unschedulable: true }), nodeObject('b')], want: 'b' },
    { name: 'a cordoned node is used by a pod tolerating node.kubernetes.io/unschedulable', nodes: [nodeObject('a', { unschedulable: true }), nodeObject('b')], tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }], want: 'a' },
    { name: 'no node fits: the pod is unschedulable', nodes: [nodeObject('a', { ready: 'False' }), nodeObject('b', { taints: [noExecute('x')] })], blocked: ['a', 'b'] },
  ];
  for (const c of cases) {
    const w = new World({ minor: 31, binder: true, nodes: c.nodes, pods: [podObject('p', undefined, { tolerations: c.tolerations })] });
    w.settle();
    const pod = w.host.cluster.pods.get('default/p')!;
    if (c.want) {
      assert.equal(pod.nodeName, c.want, c.name);
      const bound = w.host.actions('PodBound');
      assert.equal(bound.length, 1, c.name);
      assert.ok(bound[0]!.because[0]!.rule.includes('simplified binder'), `${c.name}: says it is a simplification`);
      assert.ok(bound[0]!.summary.includes('simplified'), c.name);
    } else {
      assert.equal(pod.nodeName, undefined, c.name);
      const u = w.host.actions('PodUnschedulable');
      assert.equal(u.length, 1, c.name);
      assert.ok(u[0]!.because[0]!.rule.includes('simplified binder'), c.name);
      assert.deepEqual(u[0]!.because.slice(1).map((b) => b.values!.node), c.blocked, c.name);
    }
  }
});

test('an unschedulable pod is reported once, then bound when a node becomes Ready', () => {
  const w = new World({ minor: 31, binder: true, nodes: [nodeObject('a', { ready: 'Unknown' })], pods: [podObject('p', undefined)] });
  w.settle();
  w.advance(60);
  assert.equal(w.host.actions('PodUnschedulable').length, 1);
  // an unrelated node update changes nothing
  const n = w.host.cluster.nodes.get('a')!;
  const before = toNodeRecord(nodeObject('a', { ready: 'Unknown' }))!;
  w.host.announceNode('updated', n, before);
  w.settle();
  assert.equal(w.host.actions('PodUnschedulable').length, 1, 'not repeated while nothing changed');
  // the whyNot names the blocking check
  const why = w.binder!.whyNot(w.host, 'Pod/default/p');
  assert.equal(why[0]!.check.rule, 'node is not Ready (Ready=Unknown)');
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
  const w = new World({ minor: 31, binder: true, nodes: [nodeObject('a')], pods: [podObject('gone', undefined, { deleting: true }), podObject('done', undefined, { phase: 'Succeeded' })] });
  w.settle();
  assert.equal(w.host.decisions.length, 0);
});

test('replacement pods are bound to healthy nodes, citing their PodsCreated', () => {
  const w = new World({
    minor: 31, binder: true,
    nodes: [nodeObject('a-1', { ready: 'Unknown', taints: [noExecute('node.kubernetes.io/unreachable'), noSchedule('node.kubernetes.io/unreachable')] }), nodeObject('b-1')],
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
  assert.match(bound[0]!.because[1]!.rule, /a-1 skipped: node is not Ready/);
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

test('why a pod is not bound lists the first nodes and counts the rest by reason', () => {
  const nodes = Array.from({ length: 30 }, (_, i) => nodeObject(`n${String(i).padStart(2, '0')}`, { ready: i % 2 ? 'False' : 'Unknown' }));
  const w = new World({ minor: 31, binder: true, nodes, pods: [podObject('p', undefined)] });
  w.settle();
  const why = w.binder!.whyNot(w.host, 'Pod/default/p');
  assert.equal(why.length, 21);
  assert.deepEqual(why[20]!.check.values, { 'node is not Ready (Ready=Unknown)': 5, 'node is not Ready (Ready=False)': 5 });
  const u = w.host.actions('PodUnschedulable')[0]!;
  assert.deepEqual(u.details!.reasons, { 'node is not Ready (Ready=Unknown)': 15, 'node is not Ready (Ready=False)': 15 });
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
