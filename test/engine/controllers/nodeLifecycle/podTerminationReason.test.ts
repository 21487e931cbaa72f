/**
 * DeletePods' status write on the pod-eviction path (1.12–1.26 without
 * taint-based evictions): SetPodTerminationReason sets status.reason NodeLost
 * and its message on every pod of the node, DaemonSet pods and pods already
 * being deleted included, before the deletion; a failed write does not stop
 * the deletion (only a conflict would). Versions without the path never write it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, pod, drive, names, type Setup } from './helpers';
import { exportPod } from '../../../../src/engine/model/export';
import type { PodRecord } from '../../../../src/engine/model/types';

const MESSAGE = (n: string, p: string) => `Node ${n} which was running pod ${p} is unresponsive`;

function outage(minor: number, pods: PodRecord[], extra: Partial<Setup> = {}) {
  const all = names('n', 4);
  const r = rig({ minor, nodes: all.map((n) => node(n, { zone: 'z1' })), pods, ...extra });
  r.host.cluster.daemonSets.set('kube-system/agent', {
    kind: 'DaemonSet',
    meta: { name: 'agent', namespace: 'kube-system', uid: 'ds', labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: 0 },
    raw: { spec: { selector: { matchLabels: { app: 'agent' } } } },
  });
  drive(r, 400, { alive: () => ['n2', 'n3', 'n4'] });
  return r;
}

const noReady = (p: PodRecord): PodRecord => ({ ...p, conditions: [] });

test('the pod-eviction path writes the NodeLost status before each deletion, and only the versions that have the path do', () => {
  const cases = [
    { name: '1.12 (TaintBasedEvictions off by default)', minor: 12, config: {}, writes: true },
    { name: '1.26 with --enable-taint-manager=false', minor: 26, config: { enableTaintManager: false }, writes: true },
    { name: '1.12 with taint-based evictions on', minor: 12, config: {}, gates: { TaintBasedEvictions: true }, writes: false },
    { name: '1.31 (no pod-eviction path)', minor: 31, config: {}, writes: false },
    { name: '1.35 (no pod-eviction path)', minor: 35, config: {}, writes: false },
  ];
  for (const c of cases) {
    const r = outage(c.minor, [pod('default', 'web-1', 'n1')], { config: c.config as never, gates: c.gates });
    const evicted = r.decisions('PodEvicted', 'Pod/default/web-1');
    if (!c.writes) {
      assert.deepEqual(evicted, [], c.name);
      assert.equal(r.host.cluster.pods.get('default/web-1')?.statusReason, undefined, c.name);
      continue;
    }
    assert.equal(evicted.length, 1, c.name);
    const calls = r.host.calls.filter((x) => x.endsWith('default/web-1'));
    assert.deepEqual(calls.slice(-2), ['updatePod default/web-1', 'deletePod default/web-1'], `${c.name}: the status write comes first`);
    const check = evicted[0].because.find((b) => b.rule.startsWith('SetPodTerminationReason'));
    assert.deepEqual(check?.values, { reason: 'NodeLost', message: MESSAGE('n1', 'web-1') }, c.name);
    assert.deepEqual(evicted[0].details, { node: 'n1', statusReason: 'NodeLost', statusMessage: MESSAGE('n1', 'web-1') }, c.name);
  }
});

test('DaemonSet pods and pods already being deleted get the NodeLost status and stay', () => {
  const r = outage(12, [
    pod('kube-system', 'ds-abc', 'n1', { labels: { app: 'agent' } }),
    pod('default', 'going', 'n1', { deleting: true }),
    pod('default', 'plain', 'n1'),
  ]);
  assert.deepEqual(
    r.decisions('PodEvicted').map((d) => d.object),
    ['Pod/default/plain'],
  );
  const kept = r.decisions('PodStatusUpdated');
  assert.deepEqual(
    kept.map((d) => d.object),
    ['Pod/default/going', 'Pod/kube-system/ds-abc'],
  );
  assert.ok(kept.every((d) => d.time === r.decisions('PodEvicted')[0].time));
  for (const [key, name] of [
    ['kube-system/ds-abc', 'ds-abc'],
    ['default/going', 'going'],
  ]) {
    const p = r.host.cluster.pods.get(key)!;
    const status = exportPod(p).status as Record<string, unknown>;
    assert.equal(status.reason, 'NodeLost', key);
    assert.equal(status.message, MESSAGE('n1', name), key);
  }
});

test('a pod whose status says NodeLost already is deleted without a second write', () => {
  const lost: PodRecord = { ...pod('default', 'lost', 'n1'), raw: { status: { reason: 'NodeLost', message: 'earlier' } } };
  const r = outage(12, [lost]);
  assert.equal(r.decisions('PodEvicted', 'Pod/default/lost').length, 1);
  const writes = r.host.calls.filter((x) => x === 'updatePod default/lost');
  // MarkAllPodsNotReady updates it once when the node goes Unknown; DeletePods does not write again
  assert.equal(writes.length, 1);
  assert.match(
    r
      .decisions('PodEvicted', 'Pod/default/lost')[0]
      .because.map((b) => b.rule)
      .join('\n'),
    /NodeLost already/,
  );
});

test('a failed status write is an ApiCallFailed, and the pod is deleted all the same', () => {
  // no Ready condition: MarkAllPodsNotReady leaves the pod alone, so DeletePods' write is the first pod update
  const r = outage(12, [noReady(pod('default', 'web-1', 'n1'))], { faults: { 'update pods': 1 } });
  const failed = r.decisions('ApiCallFailed', 'Pod/default/web-1');
  const evicted = r.decisions('PodEvicted', 'Pod/default/web-1');
  assert.equal(failed.length, 1);
  assert.equal(evicted.length, 1);
  assert.equal(failed[0].time, evicted[0].time);
  assert.match(evicted[0].because.map((b) => b.rule).join('\n'), /status write failed; DeletePods goes on/);
  assert.deepEqual(evicted[0].details, { node: 'n1' });
});
