/**
 * The ReplicaSet controller and the simplified binder inside the real
 * simulation (loader, host, world events, node lifecycle and taint eviction):
 * the stories of issue 3 told end to end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import { verifyingFactory } from './verifyingFactory';
import { parseDuration } from '../../../../src/engine/model/time';
import { scenarioOf, T0_MICROS, type EventSpec } from '../../../helpers/scenario';
import { nodeObject, podObject, rsObject } from './harness';
import type { DecisionList } from '../../../../src/engine/trace/decisionLog';

const run = (objects: Record<string, unknown>[], events: EventSpec[], until: string, version = '1.31') => {
  const sim = createSimulation(scenarioOf({ objects, events, version }), { controllerFactory: verifyingFactory });
  sim.runUntil(T0_MICROS + parseDuration(until)!);
  return sim;
};
const of = (sim: { trace: DecisionList }, action: string) => sim.trace.filter((d) => d.action === action);

test('scaling 3 to 10 creates 7 pods in slow-start batches 1, 2, 4 that are bound and become ready', () => {
  const sim = run(
    [
      nodeObject('n1'),
      nodeObject('n2'),
      rsObject('web', { replicas: 3, status: { replicas: 3, readyReplicas: 3, availableReplicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 } }),
      ...[0, 1, 2].map((i) => podObject(`web-${i}`, 'web', { node: 'n1' })),
    ],
    [{ at: '10s', kind: 'scale', replicaSet: 'default/web', replicas: 10 } as EventSpec],
    '20s',
  );
  const created = of(sim, 'PodsCreated');
  assert.equal(created.length, 1);
  assert.deepEqual(created[0]!.details!.batches, [1, 2, 4]);
  assert.equal(created[0]!.causes.length, 1);
  assert.equal(sim.trace.at(created[0]!.causes[0]! - 1)!.action, 'ObjectApplied');
  assert.equal(of(sim, 'PodBound').length, 7);
  assert.ok(
    of(sim, 'PodBound').every((d) => d.details!.node === 'n1'),
    'the first Ready node by name',
  );
  const rs = sim.state().objects.items.find((o) => (o as { kind: string }).kind === 'ReplicaSet') as {
    status: { replicas: number; readyReplicas: number; observedGeneration: number };
  };
  assert.equal(rs.status.replicas, 10);
  assert.equal(rs.status.readyReplicas, 10);
  assert.equal(rs.status.observedGeneration, 2);
});

test('scaling 0 to 10 creates batches 1, 2, 4, 3', () => {
  const sim = run(
    [nodeObject('n1'), rsObject('web', { replicas: 0 })],
    [{ at: '5s', kind: 'scale', replicaSet: 'default/web', replicas: 10 } as EventSpec],
    '10s',
  );
  assert.deepEqual(
    of(sim, 'PodsCreated').map((d) => d.details!.batches),
    [[1, 2, 4, 3]],
  );
});

test('a create fault aborts the slow start at its first batch; the status write brings the ReplicaSet back at once', () => {
  const sim = run(
    [nodeObject('n1'), rsObject('web', { replicas: 0 })],
    [
      { at: '5s', kind: 'fail', verb: 'create', resource: 'pods', count: 1 } as EventSpec,
      { at: '5s', kind: 'scale', replicaSet: 'default/web', replicas: 4 } as EventSpec,
    ],
    '10s',
  );
  const failed = of(sim, 'ApiCallFailed');
  assert.equal(failed.length, 1);
  const status = of(sim, 'ReplicaSetStatusUpdated');
  const failure = status.findIndex((d) => d.summary.includes('ReplicaFailure: FailedCreate'));
  assert.ok(failure >= 0 && status[failure]!.seq > failed[0]!.seq);
  const created = of(sim, 'PodsCreated');
  assert.equal(created.length, 1);
  assert.ok(created[0]!.seq > status[failure]!.seq);
  assert.deepEqual(created[0]!.details!.batches, [1, 2, 1]);
  assert.ok(!status.at(-1)!.summary.includes('ReplicaFailure'), 'the condition is gone after the good sync');
});

test('scale-down 6 to 2: 1.12 keeps the oldest ready pods, 1.31 also honours pod-deletion-cost', () => {
  const objects = () => [
    nodeObject('n1'),
    nodeObject('n2'),
    rsObject('web', { replicas: 6, status: { replicas: 6, readyReplicas: 5, availableReplicas: 5, fullyLabeledReplicas: 6, observedGeneration: 1 } }),
    podObject('web-notready', 'web', { node: 'n1', ready: false }),
    podObject('web-young', 'web', { node: 'n1', readyAgo: 60, createdAgo: 120 }),
    podObject('web-old-1', 'web', { node: 'n1', readyAgo: 86400, createdAgo: 90000 }),
    podObject('web-old-2', 'web', { node: 'n2', readyAgo: 86400, createdAgo: 90000 }),
    podObject('web-old-cheap', 'web', { node: 'n2', readyAgo: 86400, createdAgo: 90000, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-5' } }),
    podObject('web-restarts', 'web', { node: 'n2', readyAgo: 86400, createdAgo: 90000, restarts: [4] }),
  ];
  const events = [{ at: '10s', kind: 'scale', replicaSet: 'default/web', replicas: 2 } as EventSpec];
  const d12 = of(run(objects(), events, '20s', '1.12'), 'PodsDeleted');
  const d31 = of(run(objects(), events, '20s', '1.31'), 'PodsDeleted');
  assert.deepEqual([...(d12[0]!.details!.pods as string[])].sort(), ['web-notready', 'web-old-1', 'web-restarts', 'web-young'].sort());
  assert.deepEqual([...(d31[0]!.details!.pods as string[])].sort(), ['web-notready', 'web-old-cheap', 'web-restarts', 'web-young'].sort());
});

test('pods evicted from a failed node are replaced on a healthy node, with causes linking eviction, creation and binding', () => {
  const sim = run(
    [
      nodeObject('a1'),
      nodeObject('b1'),
      rsObject('web', { replicas: 2, status: { replicas: 2, readyReplicas: 2, availableReplicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 } }),
      podObject('web-1', 'web', { node: 'a1' }),
      podObject('web-2', 'web', { node: 'b1' }),
    ],
    [{ at: '10s', kind: 'kubelet', action: 'stop', target: { nodes: ['a1'] } } as EventSpec],
    '3m',
  );
  const evicted = sim.trace.find((d) => d.action === 'PodEvicted' && d.object === 'Pod/default/web-1');
  assert.ok(evicted, 'the pod on a1 is evicted');
  const created = of(sim, 'PodsCreated');
  assert.equal(created.length, 1);
  assert.ok(created[0]!.causes.includes(evicted!.seq), 'PodsCreated cites the eviction');
  const bound = of(sim, 'PodBound');
  assert.equal(bound.length, 1);
  assert.equal(bound[0]!.details!.node, 'b1');
  assert.deepEqual(bound[0]!.causes, [created[0]!.seq]);
  const why = sim.explain(bound[0]!.object as string);
  const chain = why.happened.find((h) => h.decision.action === 'PodBound')!.chain.map((d) => d.action);
  assert.ok(chain.includes('PodsCreated') && chain.includes('PodEvicted') && chain.includes('KubeletStopped'), chain.join(' -> '));
});
