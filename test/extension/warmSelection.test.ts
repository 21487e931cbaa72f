/**
 * The panel's idle work computes a selection's why for one object of each kind (a node, a pod, a zone, a
 * ReplicaSet) before the user's first selection, so that its code is compiled when the click comes
 * (warmSelection.ts). It must show nothing and change nothing: no message sent, no selection, and the
 * session's next update and selection the same as a session's that did no idle work. A kind no decision
 * names yet is warmed with the cluster's first object and again once a decision names one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import type { HostMessage } from '../../src/protocol/webview';
import { failingRefs, panelIdleWork, panelOwedWork } from '../../src/extension/warmSelection';
import { IdlePrepare } from '../../src/extension/idlePrepare';
import { fakeTimers } from '../helpers/idleTimers';

function open(example: string) {
  const o = openScenario(resolve(__dirname, '../../examples', example), '');
  const sent: HostMessage[] = [];
  const session = new Session({
    make: o.make,
    options: o.options,
    settings: { collapseNoise: true, playSpeed: 2 },
    post: (m) => sent.push(m),
    runAhead: false,
  });
  return { session, sent };
}

/** The objects the session's simulations were asked to explain while `run` ran. */
function explained(session: Session, run: () => void): string[] {
  const asked: string[] = [];
  const sim = session.sim;
  const own = sim.explain.bind(sim);
  sim.explain = (ref) => (asked.push(ref), own(ref));
  try {
    run();
  } finally {
    delete (sim as { explain?: unknown }).explain;
  }
  return asked;
}

/** Every idle slice until the work is done (each slice told to stop after one piece). */
function idleUntilDone(work: (more: () => boolean) => boolean): number {
  let slices = 0;
  while (work(() => false) && ++slices < 1_000);
  return slices;
}

const kinds = (refs: readonly string[]) => refs.map((r) => r.slice(0, r.indexOf('/'))).sort();

const cases: { name: string; example: string; pass: number; kinds: string[] }[] = [
  {
    name: 'an outage with ReplicaSets, in the outage: a node, a pod, a zone and a ReplicaSet, and a pod on a failing node and its ReplicaSet',
    example: 'rs-zone-outage.yaml',
    pass: 20,
    kinds: ['Node', 'Pod', 'Pod', 'ReplicaSet', 'ReplicaSet', 'Zone'],
  },
  { name: 'a one-node outage, before its taint', example: 'one-node-stops.yaml', pass: 3, kinds: ['Node', 'Pod', 'ReplicaSet', 'Zone'] },
  { name: 'ReplicaSets scaled down, at their first pass', example: 'rs-scale-down-1.31.yaml', pass: 1, kinds: ['Node', 'Pod', 'ReplicaSet', 'Zone'] },
];

for (const c of cases) {
  test(`idle work warms the selection's why: ${c.name}, and shows nothing`, () => {
    const warmed = open(c.example);
    const plain = open(c.example);
    for (const { session } of [warmed, plain]) {
      session.sendAll();
      session.goToPass(c.pass);
    }
    warmed.sent.length = 0;
    const work = panelIdleWork(() => warmed.session);
    const asked = explained(warmed.session, () => idleUntilDone(work));
    assert.deepEqual(kinds(asked), c.kinds, `explained ${asked.join(', ')}`);
    assert.deepEqual(warmed.sent, [], 'nothing sent');
    assert.equal(warmed.session.selected, undefined, 'nothing selected');
    // what the panel is shown next is what a session that did no idle work shows
    for (const { session } of [warmed, plain]) session.goToPass(c.pass + 1);
    assert.deepEqual(warmed.session.updateMessage(false), plain.session.updateMessage(false));
    for (const { session } of [warmed, plain]) session.selectObject(asked[0]);
    assert.deepEqual(warmed.sent.at(-1), plain.sent.at(-1));
  });
}

test('a kind no decision names at open is warmed again once one does, then never again', () => {
  const { session } = open('rs-zone-outage.yaml');
  session.sendAll();
  const work = panelIdleWork(() => session);
  const atOpen = explained(session, () => idleUntilDone(work));
  // the zones are found by the first monitor pass: none to warm at open
  assert.deepEqual(kinds(atOpen), ['Node', 'Pod', 'ReplicaSet'], `at open: ${atOpen.join(', ')}`);
  session.goToPass(20);
  const later = explained(session, () => idleUntilDone(work));
  // the kinds warmed with an object a decision names at open are not warmed again
  const namedAtOpen = new Set(session.sim.trace.filter((d) => d.pass === null || d.pass === undefined).map((d) => d.object.slice(0, d.object.indexOf('/'))));
  assert.ok(kinds(later).includes('Zone'), `the zone warmed once there is one: ${later.join(', ')}`);
  for (const k of kinds(later)) assert.ok(!namedAtOpen.has(k), `${k} warmed twice`);
  session.goToPass(25);
  assert.deepEqual(
    explained(session, () => idleUntilDone(work)),
    [],
    'every kind warmed with a decided object: nothing more',
  );
});

/** Whether the pod's node is failing now: Ready not True, or a NoExecute taint. */
function onFailingNode(session: Session, podRef: string): boolean {
  const cluster = session.sim.cluster!;
  const pod = cluster.pods.get(podRef.slice('Pod/'.length));
  const node = pod?.nodeName ? cluster.nodes.get(pod.nodeName) : undefined;
  return !!node && (node.conditions.find((c) => c.type === 'Ready')?.status !== 'True' || node.taints.some((t) => t.effect === 'NoExecute'));
}

// The first ReplicaSet clicked in an outage is one with pods on failing nodes: its why chains to their deletions,
// through the node's taint and its zone's walk, code the objects the decisions name did not run (bench/README "rsclick").
const failingCases: { name: string; example: string; pass: number }[] = [
  { name: 'ReplicaSets in a zone outage, the zone gone Unknown', example: 'rs-zone-outage.yaml', pass: 20 },
  { name: 'one node stopped, gone Unknown', example: 'one-node-stops.yaml', pass: 14 },
  { name: '1.12 outage (pod eviction)', example: 'outage-1.12.yaml', pass: 14 },
  { name: 'a node set NotReady by the timeline', example: 'notready-then-unknown.yaml', pass: 7 },
];

for (const c of failingCases) {
  test(`once a node fails, idle work warms a pod on it and its ReplicaSet, once: ${c.name}`, () => {
    const { session } = open(c.example);
    session.sendAll();
    const work = panelIdleWork(() => session);
    assert.deepEqual(
      explained(session, () => idleUntilDone(work)).filter((r) => r.startsWith('Pod/') && onFailingNode(session, r)),
      [],
      'no node fails at open',
    );
    session.goToPass(c.pass);
    const refs = failingRefs(session.sim);
    assert.equal(refs.length, 2, 'a pod on a failing node and its ReplicaSet');
    const [pod, rs] = refs;
    assert.ok(onFailingNode(session, pod), `${pod} is on a failing node`);
    const owner = session.sim.cluster!.pods.get(pod.slice(4))!.meta.ownerReferences.find((r) => r.controller);
    assert.equal(rs, `ReplicaSet/${pod.split('/')[1]}/${owner?.name}`);
    const asked = explained(session, () => idleUntilDone(work));
    assert.deepEqual(asked.slice(0, 2), [pod, rs], `explained ${asked.join(', ')}`);
    session.goToPass(c.pass + 3);
    assert.deepEqual(
      explained(session, () => idleUntilDone(work)).filter((r) => r === pod || r === rs || (r.startsWith('Pod/') && onFailingNode(session, r))),
      [],
      'warmed once a session',
    );
  });
}

// Quick clicks, each `paint` ms after the last message (the page's parse and paint, the host idle): the checkpoint each
// user's step leaves pending is taken in that time (the owed work: IdlePrepare's `owed`, panelOwedWork) instead of by the
// next click, on main only after 400 ms of silence; a long run under way takes none. What the panel is shown next is
// what a session that did no idle work shows.
const owedCases: { name: string; example: string; clicks: number; paint: number; busy?: boolean; pending: boolean }[] = [
  { name: 'a zone outage, three quick clicks: taken in the paint', example: 'rs-zone-outage.yaml', clicks: 3, paint: 30, pending: false },
  { name: 'a zone outage, onto its Unknown pass: taken in the paint', example: 'rs-zone-outage.yaml', clicks: 22, paint: 30, pending: false },
  { name: '1.12 outage, quick clicks: taken in the paint', example: 'outage-1.12.yaml', clicks: 15, paint: 30, pending: false },
  { name: 'a long run under way: left to the next step', example: 'rs-zone-outage.yaml', clicks: 3, paint: 30, busy: true, pending: true },
];

for (const c of owedCases) {
  test(`quick clicks: the work the next step owes is done in the page's paint: ${c.name}`, () => {
    const quick = open(c.example);
    const plain = open(c.example);
    const t = fakeTimers();
    const { session } = quick;
    const idle = new IdlePrepare(
      panelIdleWork(() => session),
      () => c.busy === true,
      t.timers,
      t.clock,
      panelOwedWork(() => session),
    );
    const post = session.post;
    (session as { post: typeof post }).post = (m) => (post(m), idle.arm());
    for (const { session: s } of [quick, plain]) s.sendAll();
    for (let i = 0; i < c.clicks; i++) {
      for (const { session: s } of [quick, plain]) assert.ok(s.step().ok);
      t.wait(c.paint);
    }
    assert.equal(session.sim.pass, c.clicks - 1);
    assert.equal(session.sim.hasPendingCheckpoint, c.pending, "a checkpoint pending after the last click's paint");
    assert.equal(plain.session.sim.hasPendingCheckpoint, true, 'without idle work the checkpoint waits for the next step');
    // the pods told changed by Ready writes alone (RecordsView.staleLists) are marked stale in the paint too
    const listed = (s: Session) => (s as unknown as { kept: { records: { staleListedPods: number } } }).kept.records.staleListedPods;
    if (c.clicks > 20) assert.ok(listed(plain.session) > 0, 'the Unknown pass reported pods changed by Ready writes alone');
    if (!c.busy) assert.equal(listed(session), 0, "Ready-only pods marked stale after the last click's paint");
    for (const { session: s } of [quick, plain]) assert.ok(s.step().ok);
    assert.deepEqual(quick.sent.at(-1), plain.sent.at(-1), 'the next update');
    idle.dispose();
  });
}
