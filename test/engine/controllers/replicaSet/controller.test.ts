/**
 * The ReplicaSet controller through its public entry points (informer events,
 * wake on the virtual clock), after pkg/controller/replicaset/replica_set_test.go
 * (our own cases): slow start, expectations and their expiry, claiming, status,
 * scale-down choice by version, causes, backoff, bad input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MICROS_PER_MS, minutes, seconds, formatTime } from '../../../../src/engine/model/time';
import { toPodRecord, toReplicaSetRecord } from '../../../../src/engine/model/convert';
import { createReplicaSetController } from '../../../../src/engine/controllers/replicaSet';
import { World, nodeObject, ownerRef, podObject, rsObject, T0 } from './harness';

const created = (w: World) => w.host.actions('PodsCreated');
const deleted = (w: World) => w.host.actions('PodsDeleted');

test('slow start creates pods in batches of 1, 2, 4, … up to the difference', () => {
  const cases: { name: string; from: number; to: number; batches: number[][] }[] = [
    { name: 'scaling 0 to 10 creates batches 1, 2, 4, 3', from: 0, to: 10, batches: [[1, 2, 4, 3]] },
    { name: 'scaling 3 to 10 creates the 7 missing pods in batches 1, 2, 4', from: 3, to: 10, batches: [[1, 2, 4]] },
    { name: 'scaling 3 to 4 creates one pod', from: 3, to: 4, batches: [[1]] },
    { name: 'scaling 0 to 1 creates one pod', from: 0, to: 1, batches: [[1]] },
  ];
  for (const c of cases) {
    const pods = Array.from({ length: c.from }, (_, i) => podObject(`web-old${i}`, 'web', { node: 'n1' }));
    const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: c.to })], pods });
    w.settle();
    assert.deepEqual(
      created(w).map((d) => d.details!.batches),
      c.batches,
      c.name,
    );
    assert.equal(w.pods().length, c.to, c.name);
  }
});

test('burstReplicas caps the pods created in one sync; the rest follow in the next sync', () => {
  const w = new World({ minor: 31, burstReplicas: 5, replicaSets: [rsObject('web', { replicas: 12 })] });
  w.settle();
  const d = created(w);
  assert.deepEqual(
    d.map((x) => (x.details!.pods as string[]).length),
    [5, 5, 2],
  );
  assert.deepEqual(d[0]!.details!.batches, [1, 2, 2]);
  assert.ok(d[0]!.because.some((b) => b.rule.includes('burstReplicas')));
  assert.equal(w.pods().length, 12);
});

test('a failed creation stops the slow start after its batch and the rest are not expected', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 10 })] });
  // calls 1, 2-3 succeed; call 5 (in the batch of 4) fails
  w.host.failCalls('create pods', 5, 1);
  w.settle();
  const first = created(w)[0]!;
  assert.deepEqual(first.details!.batches, [1, 2, 4]);
  assert.equal((first.details!.pods as string[]).length, 6, 'the other 3 pods of the failed batch are created');
  assert.equal(first.details!.failed, 1);
  assert.equal(first.details!.skipped, 4, '3 never attempted + 1 failed are not expected');
  assert.equal(w.host.actions('ApiCallFailed').length, 1);
  const rs = w.replicaSet('default/web');
  // the 6 pods created are observed and requeue the ReplicaSet at once (addPod): the rest follow in the same instant
  const second = created(w)[1]!;
  assert.equal(second.time, formatTime(T0));
  assert.deepEqual(second.details!.batches, [1, 2, 1]);
  assert.equal(w.pods().length, 10);
  const statuses = w.host.actions('ReplicaSetStatusUpdated');
  assert.ok(
    statuses.some((d) => d.because.some((b) => b.rule.includes('ReplicaFailure'))),
    'the failure was written to the status',
  );
  assert.equal(
    rs.status.conditions.find((c) => c.type === 'ReplicaFailure'),
    undefined,
    'the condition is removed after a good sync',
  );
});

test('after a failed batch only the pods created are still expected', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 10 })] });
  w.host.failCalls('create pods', 5, 1);
  w.host.defer = true;
  w.settle();
  w.rs.onReplicaSetEvent(w.host, 'updated', w.replicaSet('default/web'));
  w.runUntil(T0 + 5 * MICROS_PER_MS);
  const pending = w.host.actions('ExpectationsPending');
  assert.equal(pending.length, 1);
  assert.equal(pending[0]!.because[0]!.values!.outstandingAdds, 6, '10 expected, 4 lowered (3 skipped, 1 failed)');
  // the failure was written at T0; the next sync (no manageReplicas error) removes the condition again, as upstream
  assert.ok(w.host.actions('ReplicaSetStatusUpdated').some((d) => d.time === formatTime(T0) && d.summary.includes('FailedCreate')));
  assert.match(w.rs.machines()[0]!.state, /expectations\.pending/);
  w.host.flush();
  w.runUntil(T0 + seconds(1));
  assert.equal(w.pods().length, 10);
});

test('consecutive failed syncs are retried with the workqueue backoff (5 ms doubling), the status write requeueing once at once', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 2 })] });
  w.host.failCalls('create pods', 1, 3);
  w.runUntil(T0 + seconds(1));
  // T0: fails, writes ReplicaFailure; the status update comes back (updateRS) and the key is
  // processed again at once: fails (no status change), AddRateLimited 10 ms; the first
  // AddRateLimited (5 ms) is the earlier wait and wins: T0+5ms fails, AddRateLimited 20 ms.
  const failures = w.host.actions('ApiCallFailed').map((d) => d.time);
  assert.deepEqual(failures, [T0, T0, T0 + 5_000].map(formatTime));
  const ok = created(w);
  assert.equal(ok.length, 1);
  assert.equal(ok[0]!.time, formatTime(T0 + 25_000));
  assert.equal(w.pods().length, 2);
});

test('without a status change to bring it back, a failed sync waits 5 ms, then 10 ms', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 1 })],
    pods: [podObject('orphan', undefined, { node: 'n1', labels: { app: 'web' } })],
  });
  w.host.failCalls('patch pods', 1, 2);
  w.runUntil(T0 + seconds(1));
  assert.deepEqual(
    w.host.actions('ApiCallFailed').map((d) => d.time),
    [T0, T0 + 5_000].map(formatTime),
  );
  assert.equal(w.host.actions('PodsAdopted')[0]!.time, formatTime(T0 + 15_000));
});

test('expectations hold manageReplicas back until the informer has seen the creations', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })] });
  w.host.defer = true; // the informer lags
  w.settle();
  assert.equal(created(w).length, 1);
  // another event for the ReplicaSet arrives before the pods are seen
  w.rs.onReplicaSetEvent(w.host, 'updated', w.replicaSet('default/web'));
  w.settle();
  const pending = w.host.actions('ExpectationsPending');
  assert.equal(pending.length, 1);
  assert.equal(pending[0]!.because[0]!.values!.outstandingAdds, 3);
  assert.equal(created(w).length, 1, 'no second PodsCreated while expectations are pending');
  assert.match(w.rs.machines()[0]!.state, /expectations\.pending/);
  const why = w.rs.whyNot(w.host, 'ReplicaSet/default/web');
  assert.equal(why[0]!.wouldFireAt, formatTime(T0 + minutes(5) + 1));
  w.host.flush();
  assert.match(w.rs.machines()[0]!.state, /expectations\.satisfied/);
  w.settle();
  assert.equal(created(w).length, 1);
  assert.equal(w.pods().length, 3);
});

test('expectations expire after 5 minutes, strictly, and the sync then goes ahead', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })], pods: [0, 1, 2].map((i) => podObject(`p${i}`, 'web', { node: 'n1' })) });
  w.settle();
  // scale down; the deletion's watch event is lost, so the deletion is never observed
  w.host.dropPodEvents = true;
  w.scale('default/web', 2);
  w.settle();
  w.host.dropPodEvents = false;
  assert.equal(deleted(w).length, 1);
  // a minute later the user scales back up: the controller waits for the deletion it expects
  w.runUntil(T0 + minutes(1));
  w.scale('default/web', 3);
  w.settle();
  const pending = w.host.actions('ExpectationsPending');
  assert.equal(pending.length, 1);
  assert.equal(pending[0]!.because[0]!.values!.outstandingDeletes, 1);
  w.runUntil(T0 + minutes(5));
  assert.equal(created(w).length, 0, 'not yet at exactly 5m0s');
  w.runUntil(T0 + minutes(5) + 1);
  const d = created(w);
  assert.equal(d.length, 1);
  assert.equal(d[0]!.time, formatTime(T0 + minutes(5) + 1));
  assert.ok(d[0]!.because[0]!.rule.includes('5m0s'), 'the expiry is the first reason');
  assert.equal((d[0]!.details!.pods as string[]).length, 1);
  assert.equal(w.pods().length, 3);
});

test('a deletion is observed when the pod gets a deletionTimestamp, and that pod no longer counts', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 2 })],
    pods: [podObject('web-a', 'web', { node: 'n1' }), podObject('web-b', 'web', { node: 'n1' })],
  });
  w.settle();
  assert.equal(created(w).length, 0);
  const p = w.host.cluster.pods.get('default/web-a')!;
  p.meta.deletionTimestamp = T0;
  w.host.updatePod(p);
  w.settle();
  assert.equal(created(w).length, 1, 'a terminating pod is replaced');
  assert.equal(w.replicaSet('default/web').status.replicas, 2);
});

test('claiming: orphans that match are adopted, owned pods that stop matching are released, others are ignored', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 3 }), rsObject('api', { replicas: 1, labels: { tier: 'api' } })],
    pods: [
      podObject('orphan', undefined, { node: 'n1', labels: { app: 'web' } }),
      podObject('mine', 'web', { node: 'n1' }),
      podObject('relabelled', 'web', { node: 'n1', labels: { app: 'other' } }),
      // matches both selectors, controlled by api: web leaves it alone
      podObject('theirs', 'api', { node: 'n1', labels: { app: 'web', tier: 'api' } }),
      podObject('orphan-deleting', undefined, { node: 'n1', labels: { app: 'web' }, deleting: true }),
      podObject('orphan-failed', undefined, { node: 'n1', labels: { app: 'web' }, phase: 'Failed' }),
      podObject('orphan-other-ns', undefined, { node: 'n1', labels: { app: 'web' } }, 'other'),
    ],
  });
  w.settle();
  const adopted = w.host.actions('PodsAdopted').filter((d) => d.object === 'ReplicaSet/default/web');
  assert.deepEqual(
    adopted.map((d) => d.details!.pods),
    [['orphan']],
  );
  assert.equal(w.host.cluster.pods.get('default/orphan')!.meta.ownerReferences[0]!.uid, 'uid-rs-web');
  assert.deepEqual(
    w.host.actions('PodsReleased').map((d) => d.details!.pods),
    [['relabelled']],
  );
  assert.equal(w.host.cluster.pods.get('default/relabelled')!.meta.ownerReferences.length, 0);
  assert.equal(w.host.cluster.pods.get('default/orphan-deleting')!.meta.ownerReferences.length, 0);
  assert.equal(w.host.cluster.pods.get('default/orphan-failed')!.meta.ownerReferences.length, 0);
  assert.equal(w.host.cluster.pods.get('other/orphan-other-ns')!.meta.ownerReferences.length, 0);
  assert.equal(w.host.cluster.pods.get('default/theirs')!.meta.ownerReferences[0]!.name, 'api');
  // web had orphan + mine = 2 of 3: one pod created; api keeps its own pod
  const webCreated = created(w).filter((d) => d.object === 'ReplicaSet/default/web');
  assert.deepEqual(
    webCreated.map((d) => (d.details!.pods as string[]).length),
    [1],
  );
  assert.equal(created(w).filter((d) => d.object === 'ReplicaSet/default/api').length, 0);
  assert.equal(w.replicaSet('default/web').status.replicas, 3);
});

test('a failed adoption patch fails the sync, which is retried with backoff', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 1 })],
    pods: [podObject('orphan', undefined, { node: 'n1', labels: { app: 'web' } })],
  });
  w.host.failCalls('patch pods', 1, 1);
  w.settle();
  assert.equal(created(w).length, 0, 'manageReplicas does not run after a claim error');
  assert.match(w.rs.machines()[0]!.state, /queue\.backoff/);
  w.runUntil(T0 + 5 * MICROS_PER_MS);
  assert.equal(w.host.actions('PodsAdopted').length, 1);
  assert.equal(created(w).length, 0);
});

test('status counts replicas, fully labelled, ready and available pods (minReadySeconds)', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 4, selector: { matchLabels: { app: 'web' } }, templateLabels: { app: 'web', tier: 'fe' }, minReadySeconds: 30 })],
    pods: [
      podObject('a', 'web', { node: 'n1', labels: { app: 'web', tier: 'fe' }, readyAgo: 3600 }),
      podObject('b', 'web', { node: 'n1', labels: { app: 'web' }, readyAgo: 3600 }),
      podObject('c', 'web', { node: 'n1', labels: { app: 'web', tier: 'fe' }, readyAgo: 10 }),
      podObject('d', 'web', { node: 'n1', labels: { app: 'web', tier: 'fe' }, ready: false }),
    ],
  });
  w.settle();
  const s = w.replicaSet('default/web').status;
  assert.deepEqual([s.replicas, s.fullyLabeledReplicas, s.readyReplicas, s.availableReplicas], [4, 3, 3, 2]);
  assert.equal(w.host.actions('ReplicaSetStatusUpdated').length, 1);
  assert.deepEqual(w.host.statusWrites, ['default/web']);
});

test('terminatingReplicas counts the pods being deleted where DeploymentReplicaSetTerminatingReplicas is on (1.35), and is absent before', () => {
  const status = (minor: number, gates?: Record<string, boolean>) => {
    const w = new World({
      minor,
      featureGates: gates,
      replicaSets: [rsObject('web', { replicas: 2 })],
      pods: [podObject('a', 'web', { node: 'n1' }), podObject('b', 'web', { node: 'n1' }), podObject('c', 'web', { node: 'n1', deleting: true })],
    });
    w.settle();
    return w.replicaSet('default/web').status;
  };
  assert.equal(status(35).terminatingReplicas, 1);
  assert.equal(status(35).replicas, 2);
  assert.equal(status(34).terminatingReplicas, undefined);
  assert.equal(status(33, { DeploymentReplicaSetTerminatingReplicas: true }).terminatingReplicas, 1);
  assert.equal(status(12).terminatingReplicas, undefined);
});

test('a pod that turns ready is counted available just after minReadySeconds', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 1, minReadySeconds: 10 })],
    pods: [podObject('a', 'web', { node: 'n1', ready: false })],
  });
  w.settle();
  const p = w.host.cluster.pods.get('default/a')!;
  p.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: T0 }];
  w.host.updatePod(p);
  w.runUntil(T0 + seconds(10));
  assert.equal(w.replicaSet('default/web').status.readyReplicas, 1);
  assert.equal(w.replicaSet('default/web').status.availableReplicas, 0, 'not at exactly minReadySeconds (IsPodAvailable is strict)');
  assert.ok(w.rs.whyNot(w.host, 'ReplicaSet/default/web').some((x) => x.what === 'availableReplicas counted'));
  w.runUntil(T0 + seconds(10) + 1);
  assert.equal(w.replicaSet('default/web').status.availableReplicas, 1);
  const last = w.host.actions('ReplicaSetStatusUpdated').at(-1)!;
  assert.equal(last.time, formatTime(T0 + seconds(10) + 1));
});

test('observedGeneration follows metadata.generation after a scale', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 1 })], pods: [podObject('a', 'web', { node: 'n1' })] });
  w.settle();
  w.scale('default/web', 2);
  w.settle();
  assert.equal(w.replicaSet('default/web').status.observedGeneration, 2);
});

test('replacements cite the decisions that removed the pods, and scaling cites the scale event', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 2 })],
    pods: [podObject('a', 'web', { node: 'n1' }), podObject('b', 'web', { node: 'n1' })],
  });
  w.settle();
  const evicted = w.evict('default/a');
  w.settle();
  const repl = created(w)[0]!;
  assert.deepEqual(repl.causes, [evicted]);
  assert.ok(repl.because.some((b) => b.rule.includes('went away')));
  const scaled = w.scale('default/web', 3);
  w.settle();
  assert.deepEqual(created(w)[1]!.causes, [scaled]);
  // each created pod remembers its PodsCreated
  const name = (created(w)[1]!.details!.pods as string[])[0]!;
  assert.equal(w.host.recall(`Pod/default/${name}`, 'created'), created(w)[1]!.seq);
});

test('created pods carry the template, a controller ownerReference, a generated name, now, and the default tolerations', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 1 })], now: T0 + seconds(7) });
  w.settle();
  const pod = w.pods()[0]!;
  assert.match(pod.meta.name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(pod.meta.labels, { app: 'web' });
  assert.deepEqual(pod.meta.ownerReferences, [
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-web', controller: true, blockOwnerDeletion: true },
  ]);
  assert.equal(pod.meta.creationTimestamp, T0 + seconds(7));
  assert.equal(pod.phase, 'Pending');
  assert.equal(pod.nodeName, undefined);
  assert.deepEqual(
    pod.tolerations.map((t) => `${t.key}:${t.effect}:${t.tolerationSeconds}`),
    ['node.kubernetes.io/not-ready:NoExecute:300', 'node.kubernetes.io/unreachable:NoExecute:300'],
  );
  // the same input gives the same names
  const w2 = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 1 })], now: T0 + seconds(7) });
  w2.settle();
  assert.deepEqual(w2.podNames(), w.podNames());
});

test('scale-down 6 to 2 with pods in mixed phases: 1.12 and 1.31 choose differently', () => {
  const pods = () => [
    podObject('web-pending', 'web', { phase: 'Pending', ready: false }),
    podObject('web-notready', 'web', { node: 'n1', ready: false }),
    podObject('web-fresh', 'web', { node: 'n1', readyAgo: 60, createdAgo: 120, uid: 'uid-9' }),
    podObject('web-cheap', 'web', { node: 'n2', readyAgo: 7200, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-10' } }),
    podObject('web-steady1', 'web', { node: 'n2', readyAgo: 86400, createdAgo: 90000, uid: 'uid-2' }),
    podObject('web-steady2', 'web', { node: 'n3', readyAgo: 86400, createdAgo: 90000, uid: 'uid-3' }),
  ];
  const run = (minor: number) => {
    const w = new World({ minor, replicaSets: [rsObject('web', { replicas: 6 })], pods: pods() });
    w.settle();
    w.scale('default/web', 2);
    w.settle();
    return w;
  };
  const w12 = run(12);
  assert.deepEqual([...(deleted(w12)[0]!.details!.pods as string[])].sort(), ['web-cheap', 'web-fresh', 'web-notready', 'web-pending']);
  const w31 = run(31);
  // 1.31: the cheap pod goes (pod-deletion-cost) before the freshly ready one
  assert.deepEqual([...(deleted(w31)[0]!.details!.pods as string[])].sort(), ['web-cheap', 'web-fresh', 'web-notready', 'web-pending']);
  const d31 = deleted(w31)[0]!;
  assert.ok(d31.because.some((b) => b.rule.startsWith('web-cheap before') && b.values!.ranking === 'deletionCost'));
  assert.ok(d31.source.includes('ActivePodsWithRanks'));
  assert.ok(deleted(w12)[0]!.source.includes('controller.ActivePods'));
  // 1.12 ranks web-cheap by ready time against the first kept pod, not by cost
  const d12 = deleted(w12)[0]!;
  assert.equal(d12.because.find((b) => b.rule.startsWith('web-cheap before'))!.values!.ranking, 'readyTime');
  // a kept pod says which rule kept it
  const why = w31.rs.whyNot(w31.host, 'Pod/default/web-steady1');
  assert.equal(why.length, 1);
  assert.ok(why[0]!.check.rule.startsWith('kept:'));
  assert.equal(w31.pods().length, 2);
});

test('pod-deletion-cost counts from 1.22 by default, not in 1.21 unless the gate is on', () => {
  const pods = () => [
    podObject('young', 'web', { node: 'n1', readyAgo: 10, createdAgo: 20 }),
    podObject('cheap', 'web', { node: 'n1', readyAgo: 86400, createdAgo: 90000, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' } }),
  ];
  const victim = (minor: number, gates?: Record<string, boolean>) => {
    const w = new World({ minor, featureGates: gates, replicaSets: [rsObject('web', { replicas: 2 })], pods: pods() });
    w.settle();
    w.scale('default/web', 1);
    w.settle();
    return (deleted(w)[0]!.details!.pods as string[])[0];
  };
  assert.equal(victim(21), 'young');
  assert.equal(victim(21, { PodDeletionCost: true }), 'cheap');
  assert.equal(victim(22), 'cheap');
  assert.equal(victim(35), 'cheap');
  assert.equal(victim(22, { PodDeletionCost: false }), 'young');
});

test('doubled-up pods of the same Deployment go first from 1.17, not in 1.16', () => {
  const dep = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-dep', controller: true };
  const victim = (minor: number) => {
    const w = new World({
      minor,
      replicaSets: [
        rsObject('web-new', { replicas: 2, labels: { app: 'web', v: 'new' }, owner: dep }),
        rsObject('web-old', { replicas: 2, labels: { app: 'web', v: 'old' }, owner: dep }),
      ],
      pods: [
        podObject('old-alone', 'web-old', { node: 'n1', labels: { app: 'web', v: 'old' }, readyAgo: 60 }),
        podObject('old-doubled', 'web-old', { node: 'n2', labels: { app: 'web', v: 'old' }, readyAgo: 86400 }),
        podObject('new-1', 'web-new', { node: 'n2', labels: { app: 'web', v: 'new' } }),
        podObject('new-2', 'web-new', { node: 'n3', labels: { app: 'web', v: 'new' } }),
      ],
    });
    w.settle();
    w.scale('default/web-old', 1);
    w.settle();
    return (deleted(w)[0]!.details!.pods as string[])[0];
  };
  assert.equal(victim(16), 'old-alone');
  assert.equal(victim(17), 'old-doubled');
  assert.equal(victim(31), 'old-doubled');
});

test('deletions are expected before the calls and a failed deletion is not waited for', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 3 })],
    pods: [0, 1, 2].map((i) => podObject(`p${i}`, 'web', { node: 'n1', createdAgo: 100 * (i + 1) })),
  });
  w.settle();
  w.host.failCalls('delete pods', 2, 1);
  w.scale('default/web', 1);
  w.settle();
  const d = deleted(w)[0]!;
  assert.deepEqual(d.details!.pods, ['p0'], 'the newest pod is deleted; the second deletion failed');
  assert.equal(d.machine!.event, 'EXPECT');
  assert.equal(d.machine!.to, 'expectations.pending,queue.syncing');
  const failedStatus = w.host.actions('ReplicaSetStatusUpdated').find((x) => x.because.some((b) => b.rule.includes('ReplicaFailure')));
  assert.equal(failedStatus?.because.find((b) => b.rule.includes('ReplicaFailure'))!.values!.reason, 'FailedDelete');
  // the observed deletion requeues the ReplicaSet at once; the next sync deletes the next pod
  assert.deepEqual(deleted(w)[1]!.details!.pods, ['p1']);
  assert.equal(w.pods().length, 1);
  assert.equal(w.replicaSet('default/web').status.conditions.length, 0);
});

test('bad input is reported as problems and never crashes the controller', () => {
  const w = new World({
    minor: 31,
    replicaSets: [
      rsObject('no-selector', { selector: null }),
      rsObject('bad-selector', { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } }),
      rsObject('empty-selector', { selector: {} }),
      rsObject('mismatch', { selector: { matchLabels: { app: 'x' } }, templateLabels: { app: 'y' } }),
      rsObject('negative', { replicas: -2 }),
      rsObject('missing-replicas', { replicas: null }),
      rsObject('matches-nothing', { replicas: 1, labels: { app: 'nobody-has-this' } }),
    ],
    pods: [
      podObject('two-owners', undefined, {
        node: 'n1',
        labels: { app: 'x' },
        owners: [ownerRef('matches-nothing'), { ...ownerRef('mismatch'), uid: 'uid-rs-mismatch' }],
      }),
      podObject('dangling', undefined, { node: 'n1', labels: { app: 'gone' }, owners: [ownerRef('gone')] }),
    ],
  });
  const codes = w.rs
    .problems()
    .map((p) => p.code)
    .sort();
  w.settle();
  for (const c of [
    'replicaset-no-selector',
    'replicaset-invalid-selector',
    'replicaset-empty-selector',
    'replicaset-selector-mismatch',
    'replicaset-negative-replicas',
    'replicaset-default-replicas',
    'pod-multiple-controllers',
    'pod-dangling-owner',
  ]) {
    assert.ok(codes.includes(c), `${c} in ${codes}`);
  }
  const createdFor = created(w)
    .map((d) => d.object)
    .sort();
  assert.deepEqual(createdFor, ['ReplicaSet/default/matches-nothing', 'ReplicaSet/default/missing-replicas']);
  assert.equal(
    (created(w).find((d) => d.object === 'ReplicaSet/default/missing-replicas')!.details!.pods as string[]).length,
    1,
    'missing replicas default to 1',
  );
  // the pod owned by two controllers counts for the first one only (its labels do not match it, so it is released)
  assert.deepEqual(
    w.host.actions('PodsReleased').map((d) => d.object),
    ['ReplicaSet/default/matches-nothing'],
  );
  assert.equal(w.host.cluster.pods.get('default/dangling')!.meta.ownerReferences.length, 1, 'a dangling owner is left alone');
  const why = w.rs.whyNot(w.host, 'ReplicaSet/default/no-selector');
  assert.ok(why.some((x) => x.check.rule.includes('no spec.selector')));
  assert.ok(w.rs.whyNot(w.host, 'Pod/default/dangling').some((x) => x.check.values!.code === 'pod-dangling-owner'));
});

test('a scale to a negative number is refused and deletes nothing', () => {
  const w = new World({
    minor: 31,
    replicaSets: [rsObject('web', { replicas: 2 })],
    pods: [podObject('a', 'web', { node: 'n1' }), podObject('b', 'web', { node: 'n1' })],
  });
  w.settle();
  w.scale('default/web', -1);
  w.settle();
  assert.equal(deleted(w).length, 0);
  assert.ok(w.rs.problems().some((p) => p.code === 'replicaset-negative-replicas'));
  w.scale('default/web', 1);
  w.settle();
  assert.equal(deleted(w).length, 1);
  assert.ok(!w.rs.problems().some((p) => p.code === 'replicaset-negative-replicas'));
});

test('a pod that fails is replaced, citing the decision that changed its phase', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 1 })], pods: [podObject('a', 'web', { node: 'n1' })] });
  w.settle();
  const p = w.host.cluster.pods.get('default/a')!;
  const seq = w.host.decide({ controller: 'world', action: 'ObjectApplied', object: 'Pod/default/a', summary: 'phase Failed', because: [], source: 'test' });
  w.host.remember('Pod/default/a', 'phase', seq);
  p.phase = 'Failed';
  w.host.updatePod(p);
  w.settle();
  assert.deepEqual(created(w)[0]!.causes, [seq]);
  assert.equal(w.replicaSet('default/web').status.replicas, 1);
});

test('a deleted ReplicaSet forgets its expectations and is never synced again', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 2 })] });
  w.host.defer = true;
  w.settle();
  const rs = w.replicaSet('default/web');
  w.host.cluster.replicaSets.delete('default/web');
  w.rs.onReplicaSetEvent(w.host, 'deleted', rs);
  w.host.flush();
  w.runUntil(T0 + minutes(10));
  assert.equal(w.rs.machines().length, 0);
  assert.equal(w.rs.nextWake(), undefined);
  assert.equal(created(w).length, 1);
});

test('after a restart the new controller does not reuse the names of pods created earlier in the run', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 2 })] });
  w.settle();
  const first = w.podNames();
  for (const p of w.pods()) w.host.deletePod(p);
  const again = createReplicaSetController({ verifyTallies: true });
  w.host.controllers.splice(w.host.controllers.indexOf(w.rs), 1, again);
  w.rs = again;
  again.start(w.host, 'fresh');
  w.settle();
  assert.equal(w.pods().length, 2);
  for (const n of w.podNames()) assert.ok(!first.includes(n), `${n} was used before`);
});

test('a checkpoint restores the machines: the same events give the same decisions', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })] });
  w.host.defer = true;
  w.settle();
  const saved = JSON.parse(JSON.stringify(w.rs.save()));
  const fresh = createReplicaSetController({ verifyTallies: true });
  fresh.restore(saved, w.host);
  assert.deepEqual(
    fresh.machines().map((m) => m.state),
    w.rs.machines().map((m) => m.state),
  );
  assert.equal(fresh.nextWake(), w.rs.nextWake());
  // both wait for the same expectations
  assert.deepEqual(fresh.whyNot(w.host, 'ReplicaSet/default/web'), w.rs.whyNot(w.host, 'ReplicaSet/default/web'));
});

test('checkpoints share the copy of a machine that did not move, and a machine that moved is copied afresh', () => {
  const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })] });
  w.host.defer = true;
  w.settle();
  type SavedShape = { entries: { snapshot: { value: Record<string, string>; context: { add: number; dueAt: number | null } } }[] };
  const first = w.rs.save() as SavedShape;
  const second = w.rs.save() as SavedShape;
  assert.equal(second.entries[0]!.snapshot, first.entries[0]!.snapshot, 'no transition in between: the same plain copy');
  const before = JSON.stringify(first);
  // the pods are observed: the expectations are fulfilled and the machine moves
  w.host.defer = false;
  w.host.flush();
  w.settle();
  const third = w.rs.save() as SavedShape;
  assert.notEqual(third.entries[0]!.snapshot, first.entries[0]!.snapshot, 'after a transition: a new copy');
  assert.equal(third.entries[0]!.snapshot.value.expectations, 'satisfied');
  assert.equal(JSON.stringify(first), before, 'the earlier checkpoint is unchanged');
  // restoring the shared copy and running on does not change it either
  const fresh = createReplicaSetController({ verifyTallies: true });
  fresh.restore(first, w.host);
  assert.equal(JSON.stringify(first), before);
});

test('the machine view names each ReplicaSet and carries the xstate definition', () => {
  const w = new World({ minor: 12, replicaSets: [rsObject('web', { replicas: 1 })] });
  w.settle();
  const m = w.rs.machines();
  assert.equal(m[0]!.id, 'replicaset/default/web');
  assert.equal(m[0]!.state, 'expectations.satisfied,queue.idle');
  assert.equal((m[0]!.definition as { id: string }).id, 'replicaset');
  assert.equal(m[0]!.lastTransition?.event, 'EXPECT');
});

test('pods and ReplicaSets applied mid-run are picked up through the informer events', () => {
  const w = new World({ minor: 31, nodes: [nodeObject('n1')] });
  w.settle();
  const rs = toReplicaSetRecord(rsObject('late', { replicas: 1 }))!;
  w.host.cluster.replicaSets.set('default/late', rs);
  w.host.announceReplicaSet('added', rs);
  w.settle();
  assert.equal(created(w).length, 1);
  // an orphan applied later is adopted only if the ReplicaSet wants it: here it has one already, so it is adopted and one is deleted
  w.host.createPod(toPodRecord(podObject('stray', undefined, { node: 'n1', labels: { app: 'late' }, createdAgo: 1 }))!);
  w.settle();
  assert.equal(w.host.actions('PodsAdopted').length, 1);
  assert.equal(deleted(w).length, 1);
  assert.equal(w.pods().length, 1);
});

test('with verification on, a workqueue event the machine refuses throws; without, it is ignored', () => {
  for (const verifyTallies of [true, false]) {
    const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 0 })] });
    w.settle();
    const rs = verifyTallies ? w.rs : createReplicaSetController({ verifyTallies });
    if (!verifyTallies) rs.start(w.host);
    w.settle();
    const entry = rs.entries.get('default/web')!;
    if (!verifyTallies) rs.wake(w.host);
    assert.match(entry.actor.state(), /queue\.idle/);
    // an idle key is not in the queue: DEQUEUE is refused
    if (verifyTallies) assert.throws(() => rs.update(entry, { type: 'DEQUEUE' }), /refused DEQUEUE in expectations\.satisfied,queue\.idle/);
    else assert.doesNotThrow(() => rs.update(entry, { type: 'DEQUEUE' }));
    // DeleteExpectations may find no record: never a refusal to report
    assert.doesNotThrow(() => rs.update(entry, { type: 'DELETE_EXPECTATIONS' }));
  }
});
