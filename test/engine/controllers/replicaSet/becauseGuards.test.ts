/**
 * ReplicaSet and binder decisions list the guards they went through after their own checks: the
 * ReplicaSet machine's guards with the event and context values they read (the transition a
 * PodsCreated / PodsDeleted records, the SATISFIED_EXPECTATIONS self transition an ExpectationsPending records), and the
 * binder's findNodesThatFitPod in the very words of its why-not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime } from '../../../../src/engine/model/time';
import type { Check, Decision } from '../../../../src/engine/trace/decision';
import { World, nodeObject, podObject, rsObject, T0 } from './harness';
import type { KObject } from '../../../../src/engine/model/types';

const guardsOf = (d: Decision): Check[] => d.because.filter((c) => /^(machine )?guard /.test(c.rule));
const alloc = (o: KObject, allocatable: KObject): KObject => ({ ...o, status: { ...(o.status as KObject), allocatable } });

test('ReplicaSet decisions end with the machine guards of their transition, with the values read', () => {
  const cases: { name: string; world: () => World; action: string; want: Record<string, unknown>[] }[] = [
    {
      name: 'a scale-up: ExpectCreations(3) leaves creations to observe',
      world: () => new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })] }),
      action: 'PodsCreated',
      want: [{ expectsSomething: true, add: 3, delKeys: 0 }],
    },
    {
      name: 'a scale-down: ExpectDeletions of the two pods deleted',
      world: () =>
        new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 1 })], pods: [0, 1, 2].map((i) => podObject(`p${i}`, 'web', { node: 'n1' })) }),
      action: 'PodsDeleted',
      want: [{ expectsSomething: true, add: 0, delKeys: 2 }],
    },
  ];
  for (const c of cases) {
    const w = c.world();
    w.settle();
    const d = w.host.actions(c.action)[0];
    assert.ok(d, c.name);
    assert.deepEqual(
      guardsOf(d).map((g) => g.values),
      c.want,
      c.name,
    );
    assert.doesNotMatch(d.because[0]!.rule, /guard/, `${c.name}: the decision's own check stays first`);
  }
});

test("ExpectationsPending records the machine's SatisfiedExpectations answer: fulfilled and expired both false, with the values compared", () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })] });
  w.host.defer = true; // the informer lags: the creations are not seen
  w.settle();
  w.rs.onReplicaSetEvent(w.host, 'updated', w.replicaSet('default/web'));
  w.settle();
  const pending = w.host.actions('ExpectationsPending')[0];
  assert.ok(pending);
  assert.deepEqual(
    guardsOf(pending).map((g) => g.values),
    [
      { expectationsFulfilled: false, add: 3, del: 0 },
      { expectationsExpired: false, now: formatTime(T0), expectedAt: formatTime(T0) },
    ],
  );
  // the machine's answer: SatisfiedExpectations is false, the expectations stay pending
  const m = pending.machine!;
  assert.deepEqual([m.id, m.event, m.to], ['replicaset/default/web', 'SATISFIED_EXPECTATIONS', m.from]);
  assert.match(m.to, /^expectations\.pending,/);
});

test('binder decisions end with podPending and findNodesThatFitPod, as its why-not words them', () => {
  const nodes = [alloc(nodeObject('a'), { cpu: '1', memory: '1Gi', pods: '1' })];
  const w = new World({ minor: 31, binder: true, nodes, pods: [podObject('x', undefined, { node: 'a' }), podObject('p', undefined)] });
  w.settle();
  const unschedulable = w.host.actions('PodUnschedulable')[0];
  assert.ok(unschedulable);
  // the why-not of the pending pod, asked at the same point, names the same blocking guard in the same words
  const why = w.binder!.whyNot(w.host, 'Pod/default/p')[0]!;
  const blocking = why.path!.find((c) => !c.holds)!;
  assert.equal(blocking.guard, 'findNodesThatFitPod');
  const fit = guardsOf(unschedulable).find((g) => g.rule.startsWith('guard findNodesThatFitPod:'))!;
  assert.equal(fit.rule, `guard findNodesThatFitPod: ${blocking.rule}: not so, ${blocking.unmet} (${blocking.upstream})`);
  assert.deepEqual(fit.values, { findNodesThatFitPod: false, ...blocking.values });
  assert.deepEqual(guardsOf(unschedulable)[0]!.values, { podPending: true });
  w.advance(30);
  w.evict('default/x');
  w.settle();
  const bound = w.host.actions('PodBound')[0];
  assert.ok(bound, JSON.stringify(w.host.actions('PodUnschedulable').map((d) => d.object)));
  assert.deepEqual(
    guardsOf(bound).map((g) => g.values),
    [{ podPending: true }, { findNodesThatFitPod: true, node: 'a', score: bound.details!.score, feasible: 1 }],
  );
});
