/**
 * Short timelines that combine the controller with what the rest of the
 * simulation does around it: the node lifecycle controller's taint swap, pods
 * admitted with the DefaultTolerationSeconds tolerations, a real exported pod,
 * and a controller-manager restart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { World, node, pod, T0, S } from './helpers';
import { admitDefaultTolerationSeconds } from '../../../../src/engine/model/defaultTolerations';
import { toPodRecord } from '../../../../src/engine/model/convert';
import { formatTime } from '../../../../src/engine/model/time';
import type { Taint } from '../../../../src/engine/model/types';
import { realFixture } from '../../../helpers/realFixtures';

const notReady = (t: number): Taint => ({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: t });
const unreachable = (t: number): Taint => ({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: t });

test('a not-ready -> unreachable taint swap keeps the deadline counted from the first taint', () => {
  for (const minor of [12, 31, 35]) {
    const tolerations = admitDefaultTolerationSeconds([]).tolerations;
    const w = new World({ minor, nodes: [node('node1')], pods: [pod('web-1', 'node1', tolerations)] });
    const added = w.host.decide({
      controller: 'node-lifecycle',
      action: 'TaintAdded',
      object: 'Node/node1',
      summary: 'not-ready',
      because: [],
      source: 'test',
    });
    w.host.remember('Node/node1', 'taint:node.kubernetes.io/not-ready:NoExecute', added);
    w.setTaints('node1', [notReady(T0)]);
    w.settle();
    w.host.now = T0 + 40 * S;
    const swapped = w.host.decide({ controller: 'node-lifecycle', action: 'TaintRemoved', object: 'Node/node1', summary: 'swap', because: [], source: 'test' });
    w.host.remember('Node/node1', 'taint:node.kubernetes.io/unreachable:NoExecute', swapped);
    w.setTaints('node1', [unreachable(T0 + 40 * S)]);
    w.runUntil(T0 + 3600 * S);
    assert.equal(w.host.actions('PodEvictionScheduled').length, 1, `1.${minor}: scheduled once`);
    assert.equal(w.host.actions('PodEvictionCancelled').length, 0, `1.${minor}: the swap cancels nothing`);
    const e = w.host.actions('PodEvicted');
    assert.equal(e[0].time, formatTime(T0 + 300 * S), `1.${minor}: 300s after the not-ready taint`);
    assert.ok(e[0].causes.includes(added), `1.${minor}: cites the not-ready taint`);
  }
});

test('removing the taint cancels the eviction and cites the removal', () => {
  const w = new World({ minor: 35, nodes: [node('node1')], pods: [pod('web-1', 'node1', admitDefaultTolerationSeconds([]).tolerations)] });
  w.setTaints('node1', [unreachable(T0)]);
  w.settle();
  w.host.now = T0 + 100 * S;
  const removed = w.host.decide({
    controller: 'node-lifecycle',
    action: 'TaintRemoved',
    object: 'Node/node1',
    summary: 'reachable again',
    because: [],
    source: 'test',
  });
  w.host.remember('Node/node1', 'taint:node.kubernetes.io/unreachable:NoExecute', removed);
  w.setTaints('node1', []);
  w.runUntil(T0 + 3600 * S);
  const c = w.host.actions('PodEvictionCancelled');
  assert.equal(c.length, 1);
  assert.equal(c[0].time, formatTime(T0 + 100 * S));
  assert.ok(c[0].causes.includes(removed));
  assert.deepEqual(c[0].machine, { id: 'taint-eviction/default/web-1', from: 'scheduled', to: 'idle', event: 'CANCEL' });
  assert.ok(w.exists('default/web-1'));
});

test('a real exported DaemonSet pod that tolerates everything stays on an unreachable node', () => {
  const raw = parse(readFileSync(realFixture('mustgather-ocp-kube-system-pod-csi-nfs-node-2r5tx.yaml'), 'utf8'));
  const p = toPodRecord(raw)!;
  const w = new World({ minor: 31, nodes: [node(p.nodeName!, [unreachable(T0)])], pods: [p] });
  w.runUntil(T0 + 24 * 3600 * S);
  assert.equal(w.host.decisions.length, 0);
  assert.ok(w.exists('kube-system/csi-nfs-node-2r5tx'));
  assert.match(w.c.whyNot(w.host, 'Pod/kube-system/csi-nfs-node-2r5tx')[0].check.rule, /forever/);
});

test('after a controller-manager restart the timers start again from the restart (fresh memory)', () => {
  const tolerations = admitDefaultTolerationSeconds([]).tolerations;
  const w = new World({ minor: 31, nodes: [node('node1', [unreachable(T0)])], pods: [pod('web-1', 'node1', tolerations)], memory: 'reconstructed' });
  w.runUntil(T0 + 200 * S);
  assert.equal(w.host.actions('PodEvictionScheduled')[0].details?.deadline, formatTime(T0 + 300 * S));
  // restart: the old controller is dropped, a new one lists the world at T0+200s
  const restarted = new World({
    minor: 31,
    nodes: [node('node1', [unreachable(T0)])],
    pods: [pod('web-1', 'node1', tolerations)],
    memory: 'fresh',
    now: T0 + 200 * S,
  });
  restarted.runUntil(T0 + 3600 * S);
  assert.equal(restarted.host.actions('PodEvicted')[0].time, formatTime(T0 + 500 * S));
  // the same restart with reconstructed memory counts from the taint's timeAdded again
  const reconstructed = new World({
    minor: 31,
    nodes: [node('node1', [unreachable(T0)])],
    pods: [pod('web-1', 'node1', tolerations)],
    memory: 'reconstructed',
    now: T0 + 200 * S,
  });
  reconstructed.runUntil(T0 + 3600 * S);
  assert.equal(reconstructed.host.actions('PodEvicted')[0].time, formatTime(T0 + 300 * S));
});

test('the same input gives the same decisions, byte for byte', () => {
  const run = () => {
    const w = new World({
      minor: 35,
      nodes: [node('a'), node('b')],
      pods: ['z', 'y', 'x', 'w'].flatMap((n, i) => [
        pod(`${n}-a`, 'a', i % 2 ? admitDefaultTolerationSeconds([]).tolerations : []),
        pod(`${n}-b`, 'b', [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 * i }]),
      ]),
    });
    w.setTaints('b', [unreachable(T0)]);
    w.setTaints('a', [notReady(T0)]);
    w.runUntil(T0 + 3600 * S);
    return JSON.stringify(w.host.decisions);
  };
  const first = run();
  assert.equal(run(), first);
  assert.ok(first.length > 1000);
});

test('"why not" works on a controller the simulation never started (disabled by --controllers)', async () => {
  const { createTaintEvictionController } = await import('../../../../src/engine/controllers/taintEviction');
  const w = new World({ minor: 31, controllers: ['nodelifecycle', 'replicaset'], nodes: [node('node1', [unreachable(T0)])], pods: [pod('web-1', 'node1')] });
  const neverStarted = createTaintEvictionController();
  const why = neverStarted.whyNot(w.host, 'Pod/default/web-1');
  assert.match(why[0].check.rule, /taint-eviction-controller is not enabled/);
  assert.deepEqual(why[0].check.values, { controllers: ['nodelifecycle', 'replicaset'] });
  // and an enabled one that was never started still answers from the world
  const enabled = new World({ minor: 31, nodes: [node('node1', [unreachable(T0)])], pods: [pod('web-1', 'node1', [{ operator: 'Exists' }])] });
  assert.match(createTaintEvictionController().whyNot(enabled.host, 'Pod/default/web-1')[0].check.rule, /forever/);
});

test('a checkpoint taken between two delete attempts resumes the retries at the same instants', () => {
  const make = () => new World({ minor: 35, nodes: [node('node1', [unreachable(T0)])], pods: [pod('web-1', 'node1')], faults: { 'delete pods': 3 } });
  const w = make();
  w.settle(); // first attempt fails at T0
  assert.equal(w.host.actions('ApiCallFailed').length, 1);
  const saved = w.c.save();
  const faultsLeft = { ...w.host.faults };
  const before = w.host.decisions.length;
  w.runUntil(T0 + S);
  const straight = w.host.decisions
    .slice(before)
    .filter((d) => d.controller === 'taint-eviction')
    .map((d) => [d.action, d.time]);

  const again = make();
  again.c.restore(saved, again.host);
  again.host.faults = faultsLeft;
  again.host.decisions = [];
  assert.deepEqual(
    again.c.machines().map((m) => m.state),
    ['deleting'],
  );
  again.runUntil(T0 + S);
  assert.deepEqual(
    again.host.decisions.filter((d) => d.controller === 'taint-eviction').map((d) => [d.action, d.time]),
    straight,
  );
  assert.equal(straight[straight.length - 1][1], formatTime(T0 + 30_000), 'deleted on the fourth try, 30 ms after the first');
});
