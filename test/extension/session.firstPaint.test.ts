import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { heldPodCounts } from '../helpers/updateMessage';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import type { HostMessage, UpdateMessage } from '../../src/protocol/webview';

// The open's first update is made before the pods' items (they are made in idle time after it has gone): its pod
// counts, and everything after it, are what a session that made them first sends.
const dir = resolve(__dirname, '../../examples');

function open(file: string, itemsFirst: boolean) {
  const sent: HostMessage[] = [];
  const o = openScenario(join(dir, file), '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  if (itemsFirst) void session.clusterView;
  session.sendAll();
  return { session, sent };
}

const counts = heldPodCounts;

const firstUpdate = (sent: HostMessage[]) => sent.find((m) => m.type === 'update') as UpdateMessage;

test("every example: the open's first update, made before the pods' items, and every update after it are a session's that made them first", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  assert.ok(files.length >= 10);
  for (const file of files) {
    const a = open(file, false);
    const b = open(file, true);
    const pending = (s: Session) => (s as unknown as { kept: { records: { podsPending?: unknown } } }).kept.records.podsPending !== undefined;
    assert.equal(pending(a.session), a.session.sim.cluster!.pods.size > 0, `${file}: the first update went without the pods' items`);
    assert.equal(pending(b.session), false);
    const fa = firstUpdate(a.sent);
    const fb = firstUpdate(b.sent);
    assert.deepEqual(counts([fa]), counts([fb]), `${file}: the first update's pod counts`);
    assert.deepEqual(fa.nodes, fb.nodes, `${file}: the first update's nodes`);
    // the pods' items, asked for before the timer made them, are all there
    assert.equal(a.session.clusterView.pods.size, a.session.sim.cluster!.pods.size, `${file}: every pod has its item`);
    for (const s of [a.session, b.session]) assert.equal(s.runUntil('6m30s').ok, true);
    assert.deepEqual(counts(a.sent), counts(b.sent), `${file}: the pod counts the webview holds at 6m30s`);
    assert.deepEqual(
      [...a.session.clusterView.pods.values()].sort((x, y) => (x.ref < y.ref ? -1 : 1)),
      [...b.session.clusterView.pods.values()].sort((x, y) => (x.ref < y.ref ? -1 : 1)),
      `${file}: the pods' items at 6m30s`,
    );
  }
});

test('a step before the pods’ items were made counts the pods as they are after the step', () => {
  const a = open('one-node-stops.yaml', false);
  const b = open('one-node-stops.yaml', true);
  for (const s of [a.session, b.session]) assert.equal(s.runUntil('2m15s').ok, true);
  assert.deepEqual(counts(a.sent), counts(b.sent));
  const onA1 = counts(a.sent).find((c) => c.ref === 'Node/node-a1');
  assert.ok(onA1 && onA1.pods < 6, `node-a1 lost its evicted pods: ${JSON.stringify(onA1)}`);
});

test("the pods' items the open's update went without are made in idle time after the webview painted, and nothing is sent", () => {
  const a = open('rs-zone-outage.yaml', false);
  const pending = () => (a.session as unknown as { kept: { records: { podsPending?: unknown } } }).kept.records.podsPending !== undefined;
  assert.equal(pending(), true);
  const before = a.sent.length;
  assert.equal(a.session.handle({ type: 'painted' }, { play() {}, pause() {} }).ok, true);
  while (a.session.idleSlice(() => true));
  assert.equal(pending(), false);
  assert.equal(a.sent.length, before, 'no message: the counts sent were already right');
  assert.equal(a.session.clusterView.pods.size, a.session.sim.cluster!.pods.size);
  // a second painted (another full update) finds nothing to do
  assert.equal(a.session.handle({ type: 'painted' }, { play() {}, pause() {} }).ok, true);
});
