/**
 * MarkPodsNotReady (upstream TestPodStatusChange and
 * TestMonitorNodeHealthMarkPodsNotReady*, in spirit): when Ready leaves True
 * the node's pods get Ready=False, with a retry on failure from 1.16;
 * processPod marks a pod bound to a not-ready node.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, pod, lease, at, iso, drive } from './helpers';

test('when Ready leaves True every pod on the node is marked not ready, one decision per node', () => {
  for (const minor of [12, 31, 35]) {
    const r = rig({
      minor,
      nodes: [node('a'), node('b')],
      leases: minor > 12 ? [lease('a', 0), lease('b', 0)] : [],
      pods: [pod('default', 'p1', 'a'), pod('default', 'p2', 'a', { ready: 'False' }), pod('default', 'q', 'b')],
    });
    drive(r, 70, { alive: () => ['b'], lease: minor > 12 });
    const d = r.decisions('PodsMarkedNotReady');
    const unknownAt = minor === 35 ? 55 : 45;
    assert.deepEqual(
      d.map((x) => [x.object, x.time]),
      [['Node/a', iso(unknownAt)]],
      `1.${minor}`,
    );
    assert.deepEqual(d[0].details, { pods: ['default/p1'] });
    assert.deepEqual(d[0].causes, [r.decisions('NodeStatusUnknown', 'Node/a')[0].seq]);
    const p1 = r.host.cluster.pods.get('default/p1')!.conditions[0];
    assert.equal(p1.status, 'False');
    // 1.12's MarkAllPodsNotReady only flips the status; later versions also set lastTransitionTime
    assert.equal(p1.lastTransitionTime, minor === 12 ? at(-3600) : at(unknownAt), `1.${minor}`);
    assert.equal(r.host.cluster.pods.get('default/q')!.conditions[0].status, 'True');
    // 1.12 writes every pod with a Ready condition, later versions only those that change
    const writes = r.host.calls.filter((c) => c.startsWith('updatePod')).sort();
    assert.deepEqual(writes, minor === 12 ? ['updatePod default/p1', 'updatePod default/p2'] : ['updatePod default/p1'], `1.${minor}`);
  }
});

test('a failed pod update is retried on the next pass from 1.17 (nodesToRetry), never in 1.12', () => {
  for (const [minor, retried] of [
    [12, false],
    [16, false],
    [17, true],
    [31, true],
  ] as const) {
    const r = rig({ minor, nodes: [node('a'), node('b')], pods: [pod('default', 'p1', 'a')], faults: { 'update pods': 1 } });
    drive(r, 70, { alive: () => ['b'], lease: false });
    const d = r.decisions('PodsMarkedNotReady');
    assert.deepEqual(
      d.map((x) => x.time),
      retried ? [iso(50)] : [],
      `1.${minor}`,
    );
    assert.equal(r.host.cluster.pods.get('default/p1')!.conditions[0].status, retried ? 'False' : 'True');
  }
});

test('MarkPodsNotReady asks for each pod write only a host on which a write can fail, and marks the same pods', () => {
  const cases: { name: string; mayFail: boolean | undefined; faults?: Record<string, number>; asked: string[]; marked: string[] }[] = [
    {
      name: 'a host that says no call can fail is not asked per pod',
      mayFail: false,
      asked: [],
      marked: ['default/p1', 'default/p2'],
    },
    {
      name: 'a host that says a call can fail is asked for every pod, and the failed write leaves its pod ready',
      mayFail: true,
      faults: { 'update pods': 1 },
      asked: ['Pod/default/p1', 'Pod/default/p2'],
      marked: ['default/p2'],
    },
    {
      name: 'a host that does not say is asked for every pod',
      mayFail: undefined,
      asked: ['Pod/default/p1', 'Pod/default/p2'],
      marked: ['default/p1', 'default/p2'],
    },
  ];
  for (const c of cases) {
    const r = rig({ minor: 35, nodes: [node('a'), node('b')], pods: [pod('default', 'p1', 'a'), pod('default', 'p2', 'a')], faults: c.faults });
    if (c.mayFail !== undefined) r.host.apiCallsMayFail = () => c.mayFail!;
    const asked: string[] = [];
    const apiCall = r.host.apiCall.bind(r.host);
    r.host.apiCall = (controller, verb, resource, object, machine) => {
      if (verb === 'update' && resource === 'pods') asked.push(object);
      return apiCall(controller, verb, resource, object, machine);
    };
    drive(r, 58, { alive: () => ['b'], lease: false });
    assert.deepEqual(asked, c.asked, c.name);
    assert.deepEqual(
      r.decisions('PodsMarkedNotReady').map((d) => d.details),
      [{ pods: c.marked }],
      c.name,
    );
  }
});

test('a pod bound to a not-ready node is marked not ready by the pod handler (processPod)', () => {
  const r = rig({ minor: 31, nodes: [node('a'), node('b')] });
  drive(r, 50, { alive: () => ['b'], lease: false });
  const p = pod('default', 'late', 'a');
  r.host.now = at(52);
  r.host.cluster.pods.set('default/late', p);
  r.host.cluster.podsByNode.set('a', new Set(['default/late']));
  r.c.onPodEvent!(r.host, 'added', p);
  r.runUntil(at(52));
  assert.deepEqual(
    r.decisions('PodsMarkedNotReady').map((d) => [d.time, d.details]),
    [[iso(52), { pods: ['default/late'] }]],
  );
  assert.equal(r.decisions('PodsMarkedNotReady')[0].source.startsWith('nodelifecycle: processPod'), true);
});
