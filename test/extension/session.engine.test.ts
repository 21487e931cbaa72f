import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import type { HostMessage, NodePodCount, SelectionMessage, UpdateMessage } from '../../src/protocol/webview';
import { createSimulation } from '../../src/engine/simulation/simulation';
import { STEP_BACK_CHECKPOINTS } from '../../src/engine/simulation/checkpointPlacement';
import { node, pod, scenarioOf, type EventSpec } from '../helpers/scenario';

// The session over the real engine and the bundled example (examples/one-node-stops.yaml).
function open() {
  const sent: HostMessage[] = [];
  const o = openScenario(resolve(__dirname, '../../examples/one-node-stops.yaml'), '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  const last = () => sent.filter((m): m is UpdateMessage => m.type === 'update').at(-1) as UpdateMessage;
  return { session, sent, last };
}

test('the example runs to the NoExecute taint and the webview hears of the node, its taint and the pods’ eviction deadlines', () => {
  const { session, sent } = open();
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
  if (!sixty) return;
  const counts = new Map<string, NodePodCount>();
  for (const m of sent) if (m.type === 'update') applyCounts(counts, m);
  assert.ok((counts.get('Node/node-a1')?.evicting ?? 0) > 0, 'the node row was told its pods count down');
  session.selectObject('Node/node-a1');
  const shown = sent.filter((m): m is SelectionMessage => m.type === 'selection').at(-1)?.nodePods;
  assert.equal(shown?.node, 'node-a1');
  assert.equal(
    shown?.pods.find((p) => p.ref === 'Pod/default/toleration-sixty')?.evictionAt,
    sixty.evictionAt,
    'and the pod was sent with its countdown when its node was selected',
  );
});

function applyCounts(counts: Map<string, NodePodCount>, m: UpdateMessage): void {
  if (m.full) counts.clear();
  for (const ref of m.podCounts.remove) counts.delete(ref);
  for (const c of m.podCounts.upsert) counts.set(c.ref, c);
}

/** Every node's pod count as a fresh view computes it. */
function freshCounts(session: Session): Map<string, NodePodCount> {
  const out = new Map<string, NodePodCount>();
  for (const p of session.clusterView.pods.values()) {
    if (!p.node) continue;
    const c = out.get(`Node/${p.node}`) ?? { ref: `Node/${p.node}`, pods: 0, evicting: 0 };
    out.set(c.ref, { ...c, pods: c.pods + 1, evicting: c.evicting + (p.evictionAt ? 1 : 0) });
  }
  return out;
}

for (const [file, selected] of [
  ['one-node-stops.yaml', 'Node/node-a1'],
  ['outage-1.12.yaml', 'Node/node-b1'],
  ['rs-zone-outage.yaml', 'Pod/default/web-7d9f-w5zkb'],
] as const) {
  test(`${file}: the first update sends counts, not pods; at every step, back and forth, the counts kept from the deltas and the selected node's pods are what a fresh view shows`, () => {
    const sent: HostMessage[] = [];
    const o = openScenario(resolve(__dirname, '../../examples', file), '');
    const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
    session.sendAll();
    const first = sent.find((m): m is UpdateMessage => m.type === 'update') as UpdateMessage;
    assert.equal('pods' in first, false, 'no pod crosses with the first update');
    session.selectObject(selected);
    const counts = new Map<string, NodePodCount>();
    let checked = 0;
    const check = (where: string) => {
      for (const m of sent.splice(0)) if (m.type === 'update') applyCounts(counts, m);
      assert.deepEqual(counts, freshCounts(session), `${where}: pod counts`);
      const sel = session.selectionMessage();
      if (!sel.object) return;
      const node = sel.object.startsWith('Node/') ? sel.object.slice(5) : session.clusterView.pods.get(sel.object)?.node;
      const expected =
        node === undefined
          ? undefined
          : [...session.clusterView.pods.values()]
              .filter((p) => p.node === node)
              .map((p) => JSON.stringify(p))
              .sort();
      assert.deepEqual(sel.nodePods?.pods.map((p) => JSON.stringify(p)).sort(), expected, `${where}: the shown node's pods`);
      checked++;
    };
    check('open');
    for (let i = 0; i < 90; i++) {
      session.step();
      check(`pass ${session.sim.pass}`);
    }
    for (const pass of [40, 12, 60]) {
      session.goToPass(pass);
      check(`back at ${pass}`);
    }
    assert.ok(checked > 0);
  });
}

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
  assert.equal(
    session.clusterView.pods.get('Pod/default/web-7d9f-gszhb')?.evictionAt,
    '2026-01-01T00:05:35.000Z',
    "the second node waits for the zone queue's next token",
  );
});

test('under 1.12 the pods that count down are exactly the pods the controller deletes: DaemonSet pods by selector, not by owner', () => {
  const agent = { matchLabels: { app: 'agent' } };
  const ds = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default', uid: 'uid-ds-agent' },
    spec: { selector: agent, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    status: {},
  };
  const dsOwner = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'uid-ds-agent', controller: true };
  const terminating = pod('default', 'terminating', 'a', { labels: { app: 'web' } });
  (terminating.metadata as Record<string, unknown>).deletionTimestamp = '2025-12-31T23:59:00Z';
  const objects = [
    node('a', { zone: 'z' }),
    node('b', { zone: 'z' }),
    ds,
    pod('default', 'web', 'a', { labels: { app: 'web' } }),
    // owned by the DaemonSet, but its selector does not match the pod's labels: GetPodDaemonSets finds none, it is deleted
    pod('default', 'owned-not-selected', 'a', { labels: { app: 'other' }, owner: dsOwner }),
    // no owner, but the DaemonSet's selector matches: GetPodDaemonSets finds it, it is kept
    pod('default', 'selected-not-owned', 'a', { labels: { app: 'agent' } }),
    // already being deleted: DeletePods passes over it
    terminating,
    pod('default', 'on-b', 'b', { labels: { app: 'web' } }),
  ];
  const scenario = scenarioOf({ objects, version: '1.12', events: [{ at: '20s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec] });
  const session = new Session({ make: () => createSimulation(scenario), settings: { collapseNoise: true, playSpeed: 2 }, post: () => {} });
  session.runUntil('2m');
  const counting = [...session.clusterView.pods.values()]
    .filter((p) => p.evictionAt)
    .map((p) => p.ref)
    .sort();
  assert.deepEqual(counting, ['Pod/default/owned-not-selected', 'Pod/default/web']);
  const at = session.clusterView.pods.get('Pod/default/web')!.evictionAt!;
  session.runUntil('10m');
  const evicted = session.sim.trace.filter((d) => d.action === 'PodEvicted');
  assert.deepEqual(evicted.map((d) => d.object).sort(), counting, 'the controller deleted the pods that counted down');
  assert.ok(
    evicted.every((d) => d.time === at),
    `at the countdown's time ${at}`,
  );
});

// Run Until a decision, Next decision and a jump forward keep checkpoints after the passes before the one they stop on
// (RunEndRing), as Run Until a time does: the step backs after them restore instead of replaying from the last regular one.
for (const [what, run] of [
  ['Run Until a decision', (s: Session) => s.runUntil('next PodEvicted')],
  ['Next decision', (s: Session) => (s.runUntil('next TaintAdded'), s.nextDecision())],
  ['a jump forward (Go to Pass)', (s: Session) => (s.goToPass(3), s.goToPass(17))],
] as const) {
  test(`${what} keeps a checkpoint after each of the five passes before the one it stops on`, () => {
    const { session } = open();
    session.sendAll();
    assert.equal(run(session).ok, true);
    const at = session.sim.pass!;
    const kept = (session.sim as unknown as { checkpointPasses: (number | null)[] }).checkpointPasses.filter((p): p is number => p !== null && p > 0 && p < at);
    assert.deepEqual(kept.slice(-5), [at - 5, at - 4, at - 3, at - 2, at - 1], `pass ${at}: ${kept.join(', ')}`);
  });
}

// ...and a long jump forward keeps no more than that beyond a plain run's on its way: stepped as a user's steps all the
// way, it kept a checkpoint every ten passes (to pass 300 at 5,000 nodes: 40 checkpoints for 7, ~400 MiB more)
test('a jump forward (Go to Pass 64) keeps checkpoints beyond a plain run only after the passes just before its target', () => {
  const o = openScenario(resolve(__dirname, '../../examples/one-node-stops.yaml'), '');
  const options = { ...o.options, checkpointEvery: 30 };
  const session = new Session({ make: o.make, options, settings: { collapseNoise: true, playSpeed: 2 }, post: () => {} });
  assert.equal(session.goToPass(64).ok, true);
  const plain = createSimulation(o.scenario, options);
  plain.goToPass(64);
  const passes = (s: unknown) => (s as { checkpointPasses: (number | null)[] }).checkpointPasses;
  const more = passes(session.sim).filter((p) => !passes(plain).includes(p));
  const where = `kept: ${passes(session.sim).join(', ')}; a plain run's: ${passes(plain).join(', ')}`;
  assert.deepEqual(
    more.filter((p) => p === null || p < 64 - STEP_BACK_CHECKPOINTS - 2),
    [],
    where,
  );
  for (let p = 64 - STEP_BACK_CHECKPOINTS; p < 64; p++) assert.ok(passes(session.sim).includes(p), `pass ${p}: ${where}`);
});

test('a session prepares its simulation at once, on open and on Reset: the first placement does not build the node index in a click', () => {
  const { session } = open();
  const controllers = () => (session.sim as unknown as { controllers: { name: string }[] }).controllers;
  const index = () => (controllers().find((c) => c.name === 'scheduler') as unknown as { index: object | null }).index;
  assert.notEqual(index(), null, 'the node index exists before the first step');
  session.step();
  session.step();
  assert.equal(session.reset().ok, true);
  assert.notEqual(index(), null, 'and after Reset');
  // deciding as a simulation never prepared: the run to the replacement's binding is the same
  session.runUntil('10m');
  const fresh = createSimulation(session.sim.scenario, {});
  fresh.runUntil(session.sim.now);
  assert.deepEqual(
    session.sim.trace.map((d) => `${d.seq} ${d.action} ${d.object}`),
    fresh.trace.map((d) => `${d.seq} ${d.action} ${d.object}`),
  );
});
