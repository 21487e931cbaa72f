/**
 * Work done on informer events: doNoScheduleTaintingPass (TaintNodesByCondition)
 * and 1.12's doFixDeprecatedTaintKeyPass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, at, iso, drive } from './helpers';

const noSched = (r: ReturnType<typeof rig>, n: string) =>
  r.host.cluster.nodes
    .get(n)!
    .taints.filter((t) => t.effect === 'NoSchedule')
    .map((t) => t.key)
    .sort();

test("condition taints follow the node's conditions at the instant of the event", () => {
  const r = rig({ minor: 31, nodes: [node('a'), node('b', { unschedulable: true })] });
  r.runUntil(at(0));
  assert.deepEqual(noSched(r, 'b'), ['node.kubernetes.io/unschedulable'], 'the initial list is an Add event for every node');
  r.host.now = at(3);
  r.post('a', 'False');
  r.runUntil(at(3));
  assert.deepEqual(noSched(r, 'a'), ['node.kubernetes.io/not-ready']);
  const added = r.decisions('TaintAdded', 'Node/a');
  assert.equal(added[0].time, iso(3));
  assert.equal(added[0].source.startsWith('nodelifecycle: doNoScheduleTaintingPass'), true);
  assert.equal(r.host.cluster.nodes.get('a')!.taints[0].timeAdded, at(3));
  r.host.now = at(4);
  r.post('a', 'True');
  r.runUntil(at(4));
  assert.deepEqual(noSched(r, 'a'), []);
  assert.deepEqual(r.times('TaintRemoved', 'Node/a'), [iso(4)]);
});

test("the controller's own Unknown status brings the unreachable NoSchedule taint at the same instant", () => {
  const r = rig({ minor: 31, nodes: [node('a'), node('b')] });
  drive(r, 50, { alive: () => ['b'], lease: false });
  const t = r.decisions('TaintAdded', 'Node/a').find((d) => d.summary.includes('unreachable:NoSchedule'))!;
  assert.equal(t.time, iso(45));
  assert.deepEqual(t.causes, [r.decisions('NodeStatusUnknown', 'Node/a')[0].seq]);
});

test('without TaintNodesByCondition nothing is added', () => {
  const r = rig({ minor: 12, nodes: [node('a', { ready: 'False' })], gates: { TaintNodesByCondition: false } });
  r.runUntil(at(0));
  assert.deepEqual(noSched(r, 'a'), []);
});

test('1.12 and 1.13 replace the deprecated not-ready/unreachable taint keys; 1.14 leaves them', () => {
  for (const [minor, fixed] of [
    [12, true],
    [13, true],
    [14, false],
  ] as const) {
    const r = rig({ minor, nodes: [node('a', { taints: [{ key: 'node.alpha.kubernetes.io/notReady', effect: 'NoExecute', timeAdded: at(-50) }] })] });
    r.runUntil(at(0));
    const keys = r.host.cluster.nodes.get('a')!.taints.map((t) => t.key);
    assert.deepEqual(keys.includes('node.alpha.kubernetes.io/notReady'), !fixed, `1.${minor}`);
    const fix = r.decisions('TaintAdded', 'Node/a').filter((d) => d.source.startsWith('nodelifecycle: doFixDeprecatedTaintKeyPass'));
    assert.deepEqual(
      fix.map((d) => d.summary),
      fixed ? ['Added taint node.kubernetes.io/not-ready:NoExecute'] : [],
      `1.${minor}`,
    );
    if (fixed) assert.equal(r.decisions('TaintRemoved', 'Node/a')[0].source.startsWith('nodelifecycle: doFixDeprecatedTaintKeyPass'), true);
  }
});
