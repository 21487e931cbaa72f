import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/engine';
import { Session } from '../../src/extension/session';
import type { HostMessage, UpdateMessage } from '../../src/protocol/webview';

// The session over the real engine and the bundled example (examples/one-node-stops.yaml).
function open() {
  const sent: HostMessage[] = [];
  const o = openScenario(resolve(__dirname, '../../examples/one-node-stops.yaml'), '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  const last = () => sent.filter((m): m is UpdateMessage => m.type === 'update').at(-1) as UpdateMessage;
  return { session, sent, last };
}

test('the example runs to the NoExecute taint and the webview hears of the node, its taint and the pods’ eviction deadlines', () => {
  const { session, last } = open();
  session.sendAll();
  const r = session.runUntil('next TaintAdded on node-a1');
  assert.equal(r.ok, true);
  const r2 = session.runUntil('next PodEvictionScheduled');
  assert.equal(r2.ok, true, JSON.stringify(r2));
  const node = session.clusterView.nodes.get('Node/node-a1');
  assert.ok(node?.taints.includes('node.kubernetes.io/unreachable:NoExecute'), JSON.stringify(node));
  assert.equal(node?.ready, 'Unknown');
  const scheduled = session.sim.trace.filter((d) => d.action === 'PodEvictionScheduled');
  assert.ok(scheduled.length > 0);
  for (const d of scheduled) {
    const pod = session.clusterView.pods.get(d.object);
    if (pod) assert.equal(pod.evictionAt, d.details?.deadline, `${d.object}: the countdown is the controller's deadline`);
  }
  const sixty = session.clusterView.pods.get('Pod/default/toleration-sixty');
  assert.ok(sixty?.evictionAt, 'the pod that tolerates the taint for 60s has a deadline');
  assert.ok(last().pods.upsert.some((p) => p.ref === 'Pod/default/toleration-sixty'), 'and it was sent');
});

test('stepping back over the real engine sends the earlier state', () => {
  const { session, last } = open();
  session.runUntil('2m');
  const at = session.sim.pass as number;
  session.stepBack();
  assert.equal(last().pass, at - 1);
  assert.equal(session.sim.pass, at - 1);
});

test('every machine of the real engine has a definition the webview can draw', () => {
  const { session } = open();
  session.step();
  const m = session.machineFor('Node/node-a1');
  assert.ok(m, 'node-a1 has a machine');
  assert.ok(m.definition && typeof m.definition === 'object');
  assert.doesNotThrow(() => JSON.stringify(m.definition));
});

test('under 1.12 the pods of a node that stopped heartbeating count down to the controller’s own eviction, DaemonSet pods excepted', () => {
  const o = openScenario(resolve(__dirname, '../../examples/outage-1.12.yaml'), '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: () => {} });
  session.runUntil('1m10s');
  const web = session.clusterView.pods.get('Pod/default/web-7d9f-6wlhb');
  assert.equal(web?.evictionAt, '2026-01-01T00:05:25.000Z', 'podEvictionTimeout (5m) after the last status (20s), at the next pass');
  assert.equal(session.clusterView.pods.get('Pod/kube-system/kube-proxy-a1')?.evictionAt, undefined, 'DaemonSet pods are never deleted by the controller');
  assert.equal(session.clusterView.pods.get('Pod/default/web-7d9f-qnfjb')?.evictionAt, undefined, 'a pod on a Ready node has no countdown');
  session.runUntil('5m30s');
  assert.equal(session.clusterView.pods.get('Pod/default/web-7d9f-gszhb')?.evictionAt, '2026-01-01T00:05:35.000Z', 'the second node waits for the zone queue\'s next token');
});
