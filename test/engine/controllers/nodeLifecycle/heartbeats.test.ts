/**
 * Kubelets' plain posts announced as heartbeats (onNodeHeartbeats): the
 * node is evaluated at the next pass as for any update, and queued for the
 * NoSchedule pass only when its taints do not match its conditions. The randomised comparison with full updates is in
 * lazyPasses.test.ts; these are the cases it cannot reach.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, at } from './helpers';

const NOT_READY_NO_SCHEDULE = 'node.kubernetes.io/not-ready';

for (const minor of [12, 35]) {
  test(`1.${minor}: a NoSchedule patch that failed is made again at the node's next heartbeat`, () => {
    const r = rig({ minor, nodes: [node('a', { zone: 'z' }), node('b', { zone: 'z' })], faults: { 'patch nodes': 1 } });
    r.runUntil(at(3) - 1);
    r.host.now = at(3);
    // the kubelet reports NotReady: a full update; the pass's patch of the not-ready NoSchedule taint fails
    r.post('a', 'False');
    r.runUntil(at(4));
    const noSchedule = () => r.decisions('TaintAdded', 'Node/a').filter((d) => d.summary.includes(`${NOT_READY_NO_SCHEDULE}:NoSchedule`));
    assert.equal(r.decisions('ApiCallFailed').length, 1);
    assert.equal(noSchedule().length, 0);
    // upstream does not requeue the failure: the next update of the node (a plain post) brings it back
    r.runUntil(at(13) - 1);
    r.host.now = at(13);
    r.beat(['a', 'b']);
    r.runUntil(at(14));
    assert.equal(noSchedule().length, 1, 'the heartbeat queued the node again');
    assert.ok(r.host.cluster.nodes.get('a')!.taints.some((t) => t.key === NOT_READY_NO_SCHEDULE && t.effect === 'NoSchedule'));
    // and a heartbeat of a node whose taints match queues nothing
    const calls = r.host.calls.length;
    r.runUntil(at(23) - 1);
    r.host.now = at(23);
    r.beat(['a', 'b']);
    r.runUntil(at(24));
    assert.deepEqual(r.host.calls.slice(calls), []);
  });
}

test("the checking mode throws when a node's conditions changed between two heartbeats without an event", () => {
  const r = rig({ minor: 12, nodes: [node('a', { zone: 'z' })], options: { verifyTracks: true } });
  r.runUntil(at(3) - 1);
  r.host.now = at(3);
  r.beat(['a']);
  r.runUntil(at(13) - 1);
  // a change nobody announced: Ready False calls for the not-ready NoSchedule taint
  r.host.cluster.nodes.get('a')!.conditions[0].status = 'False';
  r.host.now = at(13);
  assert.throws(() => r.beat(['a']), /taints no longer match its conditions, and no event said so/);
});

test('a heartbeat is evaluated at the next pass: its probe moves, and the node stays Ready', () => {
  const r = rig({ minor: 12, nodes: [node('a', { zone: 'z' }), node('b', { zone: 'z' })] });
  // 'a' heartbeats every 10 s as a plain post, 'b' stops: only 'b' goes Unknown after the grace period
  for (let s = 10; s <= 120; s += 10) {
    r.runUntil(at(s) - 1);
    r.host.now = at(s);
    r.beat(['a']);
  }
  r.runUntil(at(121));
  assert.deepEqual(
    r.decisions('NodeStatusUnknown').map((d) => d.object),
    ['Node/b'],
  );
  assert.equal(r.c.healthOf('a')?.probe, at(120));
});
