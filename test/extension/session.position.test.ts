/**
 * What the panel is told is a function of (scenario, position, selection):
 * the session over the real engine and the bundled examples, checked after
 * steps, jumps and steps back against a session that went straight there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import type { HostMessage, SelectionMessage, UpdateMessage } from '../../src/protocol/webview';

const example = (name: string) => resolve(__dirname, '../../examples', name);

function open(file = 'one-node-stops.yaml') {
  const sent: HostMessage[] = [];
  const o = openScenario(example(file), '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  const update = () => sent.filter((m): m is UpdateMessage => m.type === 'update').at(-1) as UpdateMessage;
  // the selection goes with each update, or on its own when only it changed
  const selection = (): SelectionMessage => {
    for (let i = sent.length - 1; i >= 0; i--) {
      const m = sent[i];
      if (m.type === 'selection') return m;
      if (m.type === 'update' && m.selection) return { type: 'selection', ...m.selection };
    }
    return { type: 'selection' };
  };
  return { session, sent, update, selection };
}

/** A session that went straight to the pass and selected the object there: what the panel must show. */
function fresh(file: string, pass: number, object?: string) {
  const f = open(file);
  f.session.goToPass(pass);
  if (object) f.session.selectObject(object);
  return f;
}

const real = <T extends { action: string }>(ds: readonly T[]): T[] => ds.filter((d) => d.action !== 'MonitorPass');

test('next decision from the first pass stops on the world event, and the pass it stops at shows it', () => {
  const { session, update, selection } = open();
  session.step();
  const r = session.nextDecision();
  assert.equal(r.ok, true);
  const u = update();
  const shown = [...u.decisions, ...(u.afterPass ?? [])];
  assert.deepEqual(
    real(shown).map((d) => `${d.action} ${d.object}`),
    ['KubeletStopped Node/node-a1'],
  );
  assert.equal(u.time, '2026-01-01T00:00:30.000Z');
  // the found decision is the why, and its object's machine is the machine
  assert.equal(selection().decision?.decision.action, 'KubeletStopped');
  assert.equal(selection().machine?.id, 'node/node-a1');
});

test('the world event at 0:30 is a decision of the pass at 0:30, in the timeline’s count and in what that pass shows', () => {
  const { session, update } = open();
  session.runUntil('1m');
  const stop = session.sim.trace.find((d) => d.action === 'KubeletStopped');
  assert.ok(stop);
  const pass = session.passes.shownIn(stop);
  session.goToPass(pass);
  assert.equal(update().time, stop.time, 'the pass is at the event’s instant');
  assert.ok(update().decisions.some((d) => d.seq === stop.seq));
  session.goToPass(pass - 1);
  assert.ok(!update().decisions.some((d) => d.seq === stop.seq), 'the pass before does not show it');
});

test('every pass the timeline counts shows that many decisions when gone to', () => {
  const { session, sent } = open('rs-zone-outage.yaml');
  session.runUntil('7m');
  const marks = new Map<number, number>();
  for (const m of sent) if (m.type === 'update') for (const k of m.passMarks) marks.set(k.pass, k.decisions);
  assert.ok(marks.size > 5);
  for (const [pass, count] of marks) {
    const f = fresh('rs-zone-outage.yaml', pass);
    assert.equal(real(f.update().decisions).length, count, `pass ${pass}`);
  }
});

test('going back to a pass keeps the whole run in the Decisions tree', () => {
  const { session } = open();
  session.runUntil('3m');
  const before = [...session.runByPass(false).keys()];
  session.goToPass(5);
  assert.deepEqual([...session.runByPass(false).keys()], before);
  assert.ok(Math.max(...before) > 5);
});

test('a selected decision further on in the run is gone to when selected (the tree keeps the whole run)', () => {
  const { session, update, selection } = open();
  session.runUntil('3m');
  const evicted = session.sim.trace.find((d) => d.action === 'PodEvicted' && d.object === 'Pod/default/toleration-sixty');
  assert.ok(evicted);
  session.goToPass(5);
  assert.equal(session.selectDecision(evicted.seq).ok, true);
  assert.equal(update().time, evicted.time);
  assert.equal(selection().decision?.decision.seq, evicted.seq);
});

test('a selected pod’s why is recomputed at every step: after its eviction it says so, and no longer foresees it', () => {
  const { session, selection } = open();
  session.runUntil('1m10s');
  session.selectObject('Pod/default/toleration-sixty');
  assert.ok(
    selection().explanation?.whyNot.some((w) => w.wouldFireAt === '2026-01-01T00:02:10.000Z'),
    JSON.stringify(selection().explanation?.whyNot),
  );
  session.runUntil('2m10s');
  const e = selection().explanation;
  assert.equal(selection().object, 'Pod/default/toleration-sixty', 'an evicted pod stays selected');
  assert.ok(
    e?.happened.some((h) => h.decision.action === 'PodEvicted'),
    'what happened includes the eviction',
  );
  assert.ok(!e?.whyNot.some((w) => w.wouldFireAt === '2026-01-01T00:02:10.000Z'), JSON.stringify(e?.whyNot));
  assert.deepEqual(selection(), fresh('one-node-stops.yaml', session.sim.pass as number, 'Pod/default/toleration-sixty').selection());
});

test('after scrubbing back to 0:30 a node’s why lists nothing decided later, as a session that went straight there', () => {
  const { session, selection } = open();
  session.runUntil('1m10s');
  session.selectObject('Node/node-a1');
  assert.ok(selection().explanation?.happened.some((h) => h.decision.time > '2026-01-01T00:00:30.000Z'));
  session.goToPass(6);
  const e = selection().explanation;
  assert.ok(e);
  assert.deepEqual(
    e.happened.filter((h) => h.decision.time > '2026-01-01T00:00:30.000Z'),
    [],
  );
  assert.deepEqual(selection(), fresh('one-node-stops.yaml', 6, 'Node/node-a1').selection());
});

test('a selected decision is unselected when stepping back before it; its object stays selected', () => {
  const { session, selection } = open();
  session.runUntil('next TaintAdded on node-a1');
  assert.equal(selection().decision?.decision.action, 'TaintAdded');
  session.goToPass(6);
  assert.equal(selection().decision, undefined);
  assert.equal(selection().seq, undefined);
  assert.equal(selection().object, 'Node/node-a1');
  session.runUntil('2m');
  assert.equal(selection().decision, undefined, 'nor is it selected again when the run gets back to it');
});

test('a selected pod that did not exist yet at the pass gone back to is unselected', () => {
  const { session, selection } = open('rs-zone-outage.yaml');
  session.runUntil('6m10s');
  session.selectObject('Pod/default/web-7d9f-pxwsk');
  assert.equal(selection().object, 'Pod/default/web-7d9f-pxwsk');
  session.goToPass(10);
  assert.deepEqual(selection(), { type: 'selection' });
});

test('a replacement pod’s why shows its lineage: the ReplicaSet, the PodsCreated that made it and the eviction it answers', () => {
  const { session, selection } = open('rs-zone-outage.yaml');
  session.runUntil('6m20s');
  session.selectObject('Pod/default/web-7d9f-pxwsk');
  const l = selection().lineage;
  assert.ok(l, 'a lineage');
  assert.equal(l.replicaSet, 'ReplicaSet/default/web-7d9f');
  assert.equal(l.created?.action, 'PodsCreated');
  assert.deepEqual(
    l.answers.map((a) => `${a.action} ${a.object}`),
    ['PodEvicted Pod/default/web-7d9f-w5zkb'],
  );
});

test('a pod from the snapshot names its ReplicaSet and no creation', () => {
  const { session, selection } = open();
  session.step();
  session.selectObject('Pod/default/web-7d9f-6wlhb');
  assert.deepEqual(selection().lineage, { replicaSet: 'ReplicaSet/default/web-7d9f', answers: [] });
});

test('the selected node’s machine lists the decisions that took each transition, up to the current position', () => {
  const { session, selection } = open();
  session.runUntil('1m10s');
  session.selectObject('Node/node-a1');
  // transitions sit in the sub-states they are taken from: one per source
  const tr = (event: string, source: string, target: string) =>
    selection().machine?.graph.transitions.find((t) => t.event === event && t.source === source && t.target === target);
  assert.deepEqual(
    tr('STATUS_UNKNOWN_SET', 'ready.True', 'ready.Unknown')?.taken.map((d) => d.action),
    ['NodeStatusUnknown'],
  );
  assert.equal(selection().machine?.lastTransition?.event, 'TAINT_PASS');
  session.goToPass(6);
  assert.deepEqual(tr('STATUS_UNKNOWN_SET', 'ready.True', 'ready.Unknown')?.taken, [], 'none yet at 0:30');
});

test('a pod’s machine is its taint-eviction worker’s, and a zone’s its own', () => {
  const { session, selection } = open();
  session.runUntil('1m10s');
  session.selectObject('Pod/default/toleration-sixty');
  assert.equal(selection().machine?.id, 'taint-eviction/default/toleration-sixty');
  assert.equal(selection().machine?.state, 'scheduled');
  session.selectObject('Zone/us-east-1/us-east-1a');
  assert.equal(selection().machine?.id, 'zone/us-east-1/us-east-1a');
});

test('the Decisions tree counts per pass are the timeline’s marks', () => {
  const { session, sent } = open('rs-zone-outage.yaml');
  session.runUntil('7m');
  const marks = new Map<number, number>();
  for (const m of sent) if (m.type === 'update') for (const k of m.passMarks) marks.set(k.pass, k.decisions);
  const tree = new Map([...session.runByPass(false)].map(([p, ds]) => [p, ds.length]));
  assert.deepEqual(
    [...tree].sort((a, b) => a[0] - b[0]),
    [...marks].sort((a, b) => a[0] - b[0]),
  );
});
