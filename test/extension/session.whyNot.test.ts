import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import type { HostMessage, SelectionMessage } from '../../src/protocol/webview';

// The session over the real engine and the bundled examples: what the Why is sent for a selected object.
function open(example: string) {
  const sent: HostMessage[] = [];
  const o = openScenario(resolve(__dirname, '../../examples', example), '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  const selection = () => sent.filter((m): m is SelectionMessage => m.type === 'selection').at(-1) as SelectionMessage;
  return { session, selection };
}

test("the Why of the small zone's pod is sent whole: held back by the node's missing taint, via the node held back by the zone's limiter at rate 0, never unless largeClusterSizeThreshold changes", () => {
  const { session, selection } = open('zone-small-partial.yaml');
  assert.equal(session.runUntil('10m30s').ok, true);
  session.selectObject('Pod/default/web-7d9f-6wlhb');
  const w = selection().explanation?.whyNot.find((x) => x.outcome === 'PodDeletedByTaintEviction');
  assert.ok(w, JSON.stringify(selection().explanation?.whyNot.map((x) => x.outcome)));
  assert.equal(w.blocking?.guard, 'nodeHasNoExecuteTaint');
  assert.equal(w.blocking?.holds, false);
  assert.ok(w.path && w.path.length > 1, 'the path of checks up to the blocking one');
  assert.equal(w.never, true, "the pod's own answer is never, as its node's");
  assert.match(w.counterfactual?.description ?? '', /largeClusterSizeThreshold/);
  const via = w.via;
  assert.equal(via?.object, 'Node/node-a1');
  assert.equal(via?.outcome, 'NodeTaintedNoExecute');
  assert.equal(via?.blocking?.guard, 'zoneLimiterQPS');
  assert.equal(via?.blocking?.values?.rate, 0);
  assert.match(via?.blocking?.upstream ?? '', /ReducedQPSFunc/);
  assert.equal(via?.never, true);
  assert.equal(via?.counterfactual?.kind, 'set');
  assert.ok(via?.counterfactual?.kind === 'set' && 'largeClusterSizeThreshold' in via.counterfactual.set, JSON.stringify(via?.counterfactual));
});

test('the Why of a node whose kubelet still posts names a time only under the condition that it stopped now', () => {
  const { session, selection } = open('outage-1.12.yaml');
  assert.equal(session.runUntil('10m30s').ok, true);
  session.selectObject('Node/node-b1');
  const w = selection().explanation?.whyNot.find((x) => x.outcome === 'NodeStatusUnknown');
  assert.ok(w);
  assert.equal(w.wouldFireAt, undefined);
  assert.equal(w.never, undefined);
  assert.deepEqual(w.conditional, { if: 'the kubelet stopped now', at: '2026-01-01T00:11:15.000Z' });
  assert.match(w.blocking?.unmet ?? w.blocking?.rule ?? '', /kubelet is running/);
});

/**
 * After Reset (a restore of the first checkpoint) or Step Back from pass 0, the shown position is
 * the start, before the first monitor pass, due at that instant. A pod on a node whose kubelet the
 * timeline stops said "no time can be named" there (the controller had not evaluated the node yet),
 * and one step later, at the same instant, named one: it names the same time at the start.
 */
test('the Why of a pod at the start, after Reset and after Step Back from pass 0, names the time it names at pass 0', () => {
  // the timeline stops node-a1's kubelet at +30s: the pod goes at the time the forward run deletes it
  for (const [example, outcome, deletedAt] of [
    ['outage-1.31.yaml', 'PodDeletedByTaintEviction', '2026-01-01T00:06:10.000Z'],
    ['outage-1.12.yaml', 'PodDeletedByPodEviction', '2026-01-01T00:05:25.000Z'],
  ] as const) {
    const { session, selection } = open(example);
    const ref = 'Pod/default/web-7d9f-6wlhb';
    const asked = () => {
      session.selectObject(ref);
      const w = selection().explanation?.whyNot.find((x) => x.outcome === outcome);
      assert.ok(w, `${example}: a why-not of ${outcome}`);
      return { wouldFireAt: w.wouldFireAt, conditional: w.conditional };
    };
    const atStart = asked();
    assert.equal(session.step().ok, true);
    const atPass0 = asked();
    assert.equal(atPass0.conditional?.at, deletedAt, `${example}: at pass 0 the time the pod is deleted is named`);
    assert.match(atPass0.conditional?.if ?? '', /the timeline stops the kubelet at 2026-01-01T00:00:30\.000Z/);
    assert.deepEqual(atStart, atPass0, `${example}: at the start as at pass 0`);
    assert.equal(session.runUntil('2m').ok, true);
    assert.equal(session.reset().ok, true);
    assert.deepEqual(asked(), atPass0, `${example}: after Reset`);
    assert.equal(session.step().ok, true);
    assert.equal(session.stepBack().ok, true);
    assert.deepEqual(asked(), atPass0, `${example}: after Step Back from pass 0`);
  }
});
