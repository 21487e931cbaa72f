import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../src/extension/session';
import type { HostMessage, UpdateMessage } from '../../src/protocol/webview';
import { FakeSimulation, fakePasses, PLAIN_NAMES } from './fakeSimulation';

function open(set?: Record<string, string>) {
  const sent: HostMessage[] = [];
  const sims: FakeSimulation[] = [];
  const session = new Session({
    make: (o) => {
      const s = new FakeSimulation(PLAIN_NAMES, o);
      sims.push(s);
      return s;
    },
    options: set ? { set } : {},
    settings: { collapseNoise: true, playSpeed: 4 },
    post: (m) => sent.push(m),
  });
  const updates = () => sent.filter((m): m is UpdateMessage => m.type === 'update');
  return { session, sent, sims, updates, last: () => updates().at(-1) as UpdateMessage };
}

test('the webview being ready gets the scenario, its settings and assumptions, then a full update', () => {
  const { session, sent } = open();
  session.handle({ type: 'ready' }, { play() {}, pause() {} });
  assert.equal(sent[0].type, 'init');
  const init = sent[0] as Extract<HostMessage, { type: 'init' }>;
  assert.equal(init.scenario.kubernetesVersion, '1.31');
  assert.equal(init.scenario.settings.nodeMonitorGracePeriod, '40s');
  assert.equal(init.scenario.settings.controllers, 'nodelifecycle,replicaset');
  assert.match(init.assumptions[0].text, /reconstructed/);
  assert.ok(init.whatIfKeys.some((k) => k.key === 'nodeEvictionRate' && k.value === '0.1'));
  assert.equal(init.problems[0].where, 'x.yaml:3:1');
  const update = sent[1] as UpdateMessage;
  assert.equal(update.full, true);
  assert.deepEqual([...(update.nodes.keys ?? [])].sort(), ['Node/node-a1', 'Node/node-b1']);
  assert.deepEqual(update.nodes.items.map((n) => n.ref).sort(), ['Node/node-a1', 'Node/node-b1'], 'the first rows, all of them here');
});

test('a step sends only what changed: nothing about nodes while every node is unchanged', () => {
  const { session, last } = open();
  session.sendAll();
  session.step();
  session.step();
  assert.deepEqual(last().nodes, { items: [] });
  assert.deepEqual(last().podCounts, { upsert: [], remove: [] });
  assert.equal(last().pass, 1);
});

test('the step that sets a node Unknown sends that node and its pods, and the decisions of that pass', () => {
  const { session, last } = open();
  session.sendAll();
  session.goToPass(fakePasses.UNKNOWN_PASS - 1);
  session.step();
  assert.deepEqual(
    last().nodes.items.map((n) => [n.ref, n.ready]),
    [['Node/node-a1', 'Unknown']],
  );
  assert.ok(last().decisions.some((d) => d.action === 'NodeStatusUnknown'));
  assert.ok(last().decisions.every((d) => d.pass === fakePasses.UNKNOWN_PASS));
});

test('the timeline marks the passes that hold decisions other than the monitor pass itself', () => {
  const { session, last, updates } = open();
  session.sendAll();
  session.goToPass(fakePasses.TAINT_PASS);
  session.step();
  const marked = updates().flatMap((u) => u.passMarks.map((m) => m.pass));
  assert.deepEqual(marked, [0, fakePasses.STOP_PASS, fakePasses.UNKNOWN_PASS, fakePasses.TAINT_PASS]);
  assert.deepEqual(last().passMarks, [], 'a step that adds no decision resends no marks');
  assert.equal(last().lastPass, fakePasses.TAINT_PASS + 1);
});

test('stepping back goes to the previous pass through goToPass, not by re-running', () => {
  const { session, sims, last } = open();
  session.goToPass(20);
  session.stepBack();
  assert.equal(last().pass, 19);
  // the jump: a plain run to 13, the last passes as a user's steps (passes.ts jumpTo); the step back
  assert.deepEqual(sims[0].goToPassCalls, [13, 20, 19]);
  assert.equal(sims[0].stepCalls, 0);
});

test('stepping back from the first pass starts the scenario again: the same simulation back to its start, the views by delta', () => {
  const { session, sims, last } = open();
  session.step();
  assert.deepEqual(session.stepBack(), { ok: true });
  assert.equal(sims.length, 1);
  assert.equal(sims[0].resetCalls, 1);
  assert.equal(last().pass, null);
  assert.equal(last().full, false);
});

test('next decision skips monitor-pass noise and focuses the decision found', () => {
  const { session, last } = open();
  session.step();
  const r = session.nextDecision();
  assert.equal(r.ok, true);
  assert.equal(last().pass, fakePasses.STOP_PASS);
  const focus = session.decision(last().focusSeq as number);
  assert.equal(focus?.action, 'KubeletStopped');
});

test('previous decision goes back to the latest earlier pass holding a decision', () => {
  const { session, last } = open();
  session.goToPass(fakePasses.TAINT_PASS + 5);
  session.sendAll();
  session.previousDecision();
  assert.equal(last().pass, fakePasses.TAINT_PASS);
  assert.equal(session.decision(last().focusSeq as number)?.action, 'PodEvictionScheduled');
});

const runUntilCases: { name: string; text: string; pass?: number; ok: boolean; focus?: string; message?: string }[] = [
  { name: 'an offset runs to that time from the start', text: '1m', pass: 12, ok: true, message: 'Ran until +1m00s (2026-01-01T00:01:00.000Z).' },
  { name: 'an RFC3339 time runs to that instant', text: '2026-01-01T00:00:30Z', pass: 6, ok: true, message: 'Ran until +30s (2026-01-01T00:00:30.000Z).' },
  {
    name: 'a decision filter with an object name stops at that decision',
    text: 'next TaintAdded on node-a1',
    pass: fakePasses.TAINT_PASS,
    ok: true,
    focus: 'TaintAdded',
  },
  {
    name: 'a decision filter with a full reference works too',
    text: 'PodEvicted Pod/default/web-1',
    pass: fakePasses.EVICT_PASS,
    ok: true,
    focus: 'PodEvicted',
  },
  { name: 'a filter no decision matches reports it and does not pretend', text: 'next TaintAdded on node-b1', ok: false },
  { name: 'an unknown action is refused before anything runs', text: 'next Exploded', pass: undefined, ok: false },
];
for (const c of runUntilCases) {
  test(`run until: ${c.name}`, () => {
    const { session, last, sims } = open();
    const r = session.runUntil(c.text);
    assert.equal(r.ok, c.ok, JSON.stringify(r));
    if (c.pass !== undefined) assert.equal(last().pass, c.pass);
    if (c.focus) assert.equal(session.decision(last().focusSeq as number)?.action, c.focus);
    if (c.message) assert.equal(r.ok && r.message, c.message, 'said as an offset, the clock time beside it');
    if (c.text === 'next Exploded') assert.equal(sims[0].stepCalls, 0);
  });
}

test('selecting a decision sends it with its chain of causes back to the world event, and its object’s machine', () => {
  const { session, sent } = open();
  session.goToPass(fakePasses.TAINT_PASS);
  const taint = session.sim.trace.find((d) => d.action === 'TaintAdded');
  assert.ok(taint);
  session.selectDecision(taint.seq);
  const m = sent.at(-1) as Extract<HostMessage, { type: 'selection' }>;
  assert.equal(m.type, 'selection');
  assert.equal(m.seq, taint.seq);
  assert.deepEqual(
    m.decision?.chain.map((d) => d.action),
    ['KubeletStopped', 'NodeStatusUnknown', 'NodeQueuedForTainting'],
  );
  assert.equal(m.machine?.id, 'node/node-a1');
});

test('selecting a node sends its explanation and its machine drawn from the definition', () => {
  const { session, sent } = open();
  session.goToPass(fakePasses.TAINT_PASS);
  session.selectObject('Node/node-a1');
  const types = sent.map((m) => m.type);
  assert.deepEqual(types.slice(-2), ['select', 'selection']);
  const m = sent.at(-1) as Extract<HostMessage, { type: 'selection' }>;
  assert.equal(m.explanation?.object, 'Node/node-a1');
  assert.equal(m.machine?.state, 'unknown.tainted');
  assert.deepEqual(
    m.machine?.graph.root.children.map((c) => c.path),
    ['ready', 'unknown'],
  );
  const taint = m.machine?.graph.transitions.find((t) => t.event === 'TAINT_PASS');
  assert.deepEqual(
    taint?.taken.map((d) => d.action),
    ['TaintAdded'],
    'the decision that took the transition is listed with it',
  );
});

test('a what-if re-runs the scenario with the setting changed and compares the traces', () => {
  const { session, sims, sent } = open();
  session.goToPass(fakePasses.TAINT_PASS + 2);
  const r = session.whatIf('nodeMonitorGracePeriod', '20s');
  assert.equal(r.ok, true);
  assert.deepEqual(sims[1].options.set, { nodeMonitorGracePeriod: '20s' });
  const m = sent.at(-1) as Extract<HostMessage, { type: 'whatIf' }>;
  assert.equal(m.comparison.until, '2026-01-01T00:01:05.000Z');
  assert.deepEqual(
    m.comparison.moved.map((x) => x.action),
    ['NodeStatusUnknown'],
  );
  assert.match(m.comparison.firstDifference ?? '', /NodeStatusUnknown/);
});

test('tree views hear about every change of position', () => {
  const { session } = open();
  let n = 0;
  const sub = session.onDidChange(() => n++);
  session.step();
  session.stepBack();
  sub.dispose();
  session.step();
  assert.equal(n, 2);
});

test('a step with a node selected asks the engine for its machines once, and the selection shows the machine at the new position', () => {
  const { session, sims, sent, last } = open();
  session.sendAll();
  session.goToPass(fakePasses.UNKNOWN_PASS - 1);
  session.selectObject('Node/node-a1');
  const sim = sims[0];
  const machines = sim.machines.bind(sim);
  let asked = 0;
  sim.machines = () => (asked++, machines());
  const before = (sent.filter((m) => m.type === 'selection').at(-1) as Extract<HostMessage, { type: 'selection' }>).machine?.state;
  session.step();
  assert.equal(asked, 1, 'the update and its selection share one list (19,000 machines at 5,000 nodes)');
  const after = (last().selection as { machine?: { state: string } }).machine?.state;
  assert.notEqual(after, before, `the node's machine moved on (${before} -> ${after})`);
  assert.equal(after, machines().find((m) => m.id === 'node/node-a1')?.state, 'what a fresh ask says');
  session.stepBack();
  assert.equal((last().selection as { machine?: { state: string } }).machine?.state, before, 'and back again');
});

test('a step at the horizon is answered with a message: the panel, which waits for an answer to each step, is not left waiting', () => {
  const { session, updates } = open();
  const last = session.sim.lastPass;
  assert.equal(session.goToPass(last).ok, true);
  const before = updates().length;
  const r = session.step();
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.message, new RegExp(`No pass ${last + 1}: the simulation stops at pass ${last}, its horizon`));
  assert.equal(session.sim.pass, last);
  assert.equal(updates().length, before);
});
