/**
 * The pods' items the open's first update went without are made in idle time after the next pass is ready
 * (Session.idleSlice), and no command waits for them: a step, a step back, a jump or a selection made while
 * they wait sends what a session that made them first sends, and every view (the pod counts the webview
 * holds, a node's pods, the selection, every pod's item) is a fresh computation's at that position, whatever
 * part of them was made when the command came.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeZoneOutage } from '../helpers/generatedOutage';
import { heldPodCounts } from '../helpers/updateMessage';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import type { HostMessage, PodItem, UpdateMessage } from '../../src/protocol/webview';

const dir = mkdtempSync(join(tmpdir(), 'cs-open-items-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// 240 nodes of 7 pods: 1,680 pods, so that the pods' items are made in two pieces (RecordsView's PODS_PER_PIECE)
const GENERATED = writeZoneOutage(dir, 7, { nodes: 240 });
const example = (name: string) => resolve(__dirname, '../../examples', name);

type Action = 'step' | 'back' | 'painted' | { idle: number } | { select: string } | { goTo: number } | { runUntil: string } | { open: string };

interface Case {
  name: string;
  file: string;
  actions: Action[];
}

const cases: Case[] = [
  { name: 'a step clicked at once after the paint', file: GENERATED, actions: ['painted', 'step', 'step'] },
  {
    name: 'a step after part of the idle work (the ahead simulation being made)',
    file: GENERATED,
    actions: ['painted', { idle: 3 }, 'step', { idle: 2 }, 'step'],
  },
  { name: 'a step onto the prepared pass, the items still waiting', file: GENERATED, actions: [{ idle: 40 }, 'step', 'step', 'back'] },
  {
    name: 'a node selected while the items wait, then stepped',
    file: GENERATED,
    actions: [{ select: 'Node/ip-10-0-0-100.ec2.internal' }, 'step', { idle: 4 }, 'step', 'back', 'back'],
  },
  {
    name: 'a pod selected while the items wait',
    file: example('rs-zone-outage.yaml'),
    actions: [{ select: 'Pod/default/web-7d9f-8xflb' }, { runUntil: '2m' }, 'back'],
  },
  { name: 'a jump into the outage with items half made', file: GENERATED, actions: [{ idle: 30 }, { goTo: 22 }, { idle: 1 }, 'step', { goTo: 3 }] },
  { name: 'the 1.12 path: evictions counting down while the items wait', file: example('outage-1.12.yaml'), actions: [{ runUntil: '3m' }, 'step', 'back'] },
  {
    name: 'another scenario opened while the items wait',
    file: GENERATED,
    actions: ['step', { open: example('rs-zone-outage.yaml') }, 'step', { idle: 1 }, 'step'],
  },
];

function open(file: string, runAhead = true) {
  const sent: HostMessage[] = [];
  const o = openScenario(file, '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m), runAhead });
  session.sendAll();
  return { session, sent };
}

const held = heldPodCounts;

/** `slices` idle slices of three pieces each (as IdlePrepare's, which end when more() says so) */
function idle(s: Session, slices: number): boolean {
  let left = true;
  for (let n = 0; n < slices && left; n++) {
    let pieces = 3;
    left = s.idleSlice(() => pieces-- > 0);
  }
  return left;
}

const byRef = (pods: Iterable<PodItem>) => [...pods].sort((a, b) => (a.ref < b.ref ? -1 : 1));
const waiting = (s: Session) => s['kept'].podsWaiting;

/** A session made afresh at `s`'s position, its items made first, with the same selection. */
function fresh(file: string, s: Session) {
  const f = open(file, false);
  if (s.sim.pass !== null) f.session.sim.goToPass(s.sim.pass);
  void f.session.clusterView;
  f.sent.length = 0;
  f.session.selected = s.selected;
  f.session.sendAll();
  return f;
}

test('the views are a fresh computation after every command, whatever part of the open’s pods’ items was made', () => {
  for (const c of cases) {
    let file = c.file;
    let a = open(file);
    for (const [i, action] of c.actions.entries()) {
      const where = `${c.name}, after ${JSON.stringify(action)} (#${i})`;
      if (action === 'step') assert.equal(a.session.step().ok, true, where);
      else if (action === 'back') assert.equal(a.session.stepBack().ok, true, where);
      else if (action === 'painted') a.session.handle({ type: 'painted' }, { play() {}, pause() {} });
      else if ('idle' in action) idle(a.session, action.idle);
      else if ('select' in action) a.session.selectObject(action.select);
      else if ('goTo' in action) assert.equal(a.session.goToPass(action.goTo).ok, true, where);
      else if ('runUntil' in action) assert.equal(a.session.runUntil(action.runUntil).ok, true, where);
      else {
        file = action.open;
        a = open(file);
      }
      const f = fresh(file, a.session);
      assert.deepEqual(held(a.sent), held(f.sent), `${where}: the pod counts the webview holds`);
      const selection = (sent: HostMessage[]) => {
        const last = [...sent].reverse().find((m) => m.type === 'selection' || (m.type === 'update' && 'selection' in m));
        const sel = last && (last.type === 'selection' ? last : (last as UpdateMessage & { selection?: { nodePods?: unknown } }).selection);
        return sel && 'nodePods' in sel ? sel.nodePods : undefined;
      };
      if (a.session.selected) assert.deepEqual(selection(a.sent), selection(f.sent), `${where}: the selection's node pods`);
      for (const node of [...a.session.nodeItems.keys()].filter((_, n) => n % 37 === 0)) {
        const name = node.slice(5);
        assert.deepEqual(a.session.podsOn(name), f.session.podsOn(name), `${where}: ${node}'s pods`);
      }
    }
    const f = fresh(file, a.session);
    assert.deepEqual(byRef(a.session.clusterView.pods.values()), byRef(f.session.clusterView.pods.values()), `${c.name}: every pod's item at the end`);
  }
});

test('a step clicked at once after the paint does not make the pods’ items the open left out, nor does the paint', () => {
  const a = open(GENERATED);
  a.session.handle({ type: 'painted' }, { play() {}, pause() {} });
  assert.equal(waiting(a.session), true, 'the paint leaves them to idle time');
  assert.equal(a.session.step().ok, true);
  assert.equal(waiting(a.session), true, 'the step leaves them to idle time');
  assert.ok(a.session['kept'].records.view.pods.size < a.session.sim.cluster!.pods.size);
});

test('idle time prepares the next pass before it makes the pods’ items, and then makes them', () => {
  const a = open(GENERATED);
  let readyWhileWaiting = false;
  for (let n = 0; n < 10_000; n++) {
    const left = idle(a.session, 1);
    const ahead = a.session.ahead.sim;
    if (ahead?.pass === 0 && a.session.ahead['views']?.['prepared'] && waiting(a.session)) readyWhileWaiting = true;
    if (!left) break;
  }
  assert.equal(readyWhileWaiting, true, 'the ahead simulation stood prepared on pass 0 while the shown view’s items waited');
  assert.equal(waiting(a.session), false, 'every pod’s item made once the idle work is done');
  assert.equal(a.session['kept'].records.view.pods.size, a.session.sim.cluster!.pods.size);
  const before = a.sent.length;
  assert.equal(a.session.step().ok, true);
  assert.equal(a.session.ahead.sim?.pass, null, 'the step was a swap');
  assert.equal(a.sent.length, before + 1);
});

test('the open’s pass ahead (nextPassNow): the first step is a swap, and sends what a session of one simulation sends', () => {
  for (const file of [GENERATED, example('rs-zone-outage.yaml'), example('outage-1.12.yaml')]) {
    const sent: HostMessage[] = [];
    const o = openScenario(file, '');
    const s = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
    s.nextPassNow();
    assert.equal(s.ahead.sim?.pass, 0, `${file}: the ahead simulation stands on pass 0`);
    assert.equal(s.ahead.views?.hasPrepared, true, `${file}: its update for the step is made`);
    s.sendAll();
    const one = open(file, false);
    for (const x of [s, one.session]) assert.equal(x.step().ok, true);
    assert.equal(s.ahead.sim?.pass, null, `${file}: the step was a swap`);
    assert.deepEqual(sent, one.sent, `${file}: the messages`);
    assert.deepEqual(byRef(s.clusterView.pods.values()), byRef(one.session.clusterView.pods.values()), `${file}: every pod's item`);
  }
});

test('while the items wait, an update with evictions makes none of them, and counts the pods counting down', () => {
  const a = open(example('rs-zone-outage.yaml'));
  assert.equal(a.session.runUntil('3m').ok, true);
  assert.ok(a.session['kept']['evictions'].update(a.session.sim.trace).size > 0, 'evictions counting down at 3m');
  assert.equal(waiting(a.session), true, 'the items still wait');
  const f = fresh(example('rs-zone-outage.yaml'), a.session);
  assert.ok(
    held(a.sent).some((c) => c.evicting > 0),
    'pods counting down',
  );
  assert.deepEqual(held(a.sent), held(f.sent));
});

test('the ahead simulation’s views are prepared on pass 0 before its binder’s node index is made, its pending checkpoint taken', () => {
  const a = open(GENERATED);
  const nodeIndex = () => {
    const sim = a.session.ahead.sim as unknown as { controllers: { name: string; index?: unknown }[] } | undefined;
    return sim?.controllers.find((c) => c.name === 'scheduler')?.index ?? null;
  };
  let prepared: { index: unknown; pending: boolean | undefined } | undefined;
  for (let n = 0; n < 10_000 && idle(a.session, 1); n++)
    if (!prepared && a.session.ahead.sim?.pass === 0 && a.session.ahead['views']?.['prepared'])
      prepared = { index: nodeIndex(), pending: a.session.ahead.sim.hasPendingCheckpoint };
  assert.ok(prepared, 'the ahead simulation stood prepared on pass 0');
  assert.equal(prepared.pending, false, 'its checkpoint taken (the step onto it would take it)');
  assert.equal(prepared.index, null, 'the node index not made yet (a swap does not need it)');
  assert.notEqual(nodeIndex(), null, 'made once the idle work is done');
  assert.equal(a.session.step().ok, true);
  assert.equal(a.session.sim.pass, 0);
});
