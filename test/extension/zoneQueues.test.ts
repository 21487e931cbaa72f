/**
 * An open zone queue's names cross once (extension/zoneQueues.ts): an update whose names are those the panel holds
 * marks them `queuedSame`, and the panel's zones, built from the messages alone as the page builds them
 * (protocol withHeldQueues), equal a fresh computation after every click of every row.
 */
import { writeZoneOutage } from '../helpers/generatedOutage';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import { withHeldQueues, type HostMessage, type ZoneRow } from '../../src/protocol/webview';

const dir = mkdtempSync(join(tmpdir(), 'cs-zonequeues-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = writeZoneOutage(dir);
const controls = { play() {}, pause() {} };

type Move = (s: Session, zone: string) => void;
const step: Move = (s) => void s.step();
const back: Move = (s) => void s.stepBack();
const open: Move = (s, zone) => void s.handle({ type: 'zoneQueue', zone, open: true }, controls);
const close: Move = (s, zone) => void s.handle({ type: 'zoneQueue', zone, open: false }, controls);
const restart: Move = (s) => s.sendAll();
const jump =
  (by: number): Move =>
  (s) =>
    void s.goToPass((s.shown.pass ?? 0) + by);

/** [row, the moves after the queue is opened (each checked), how many updates must carry the names as held] */
const rows: [string, Move[], number][] = [
  ['steps and steps back while the queue stands', [step, step, back, back, step], 1],
  ['a jump back and on again', [jump(-3), jump(3), step], 1],
  ['the panel restarted (a full update) and a step after it', [restart, step, step], 1],
  ['closed, stepped, opened again, stepped', [close, step, open, step, back], 0],
];

for (const [name, moves, sameAtLeast] of rows) {
  test(`an open queue's names: ${name}`, () => {
    const sent: HostMessage[] = [];
    const o = openScenario(file, '');
    const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
    session.sendAll();
    let zone: string | undefined;
    for (let i = 0; i < 80 && !zone; i++) {
      session.step();
      zone = session.sim.zones().find((z) => z.queued.length > 1)?.zone;
    }
    assert.ok(zone, 'a zone queued nodes');
    // the page's zones, from the messages in order
    let page: ZoneRow[] = [];
    let read = 0;
    let same = 0;
    const apply = () => {
      for (const m of sent.slice(read)) {
        if (m.type === 'update') {
          same += m.zones.filter((z) => z.queuedSame).length;
          page = withHeldQueues(m.zones, page);
        } else if (m.type === 'zones') page = m.zones;
      }
      read = sent.length;
    };
    apply();
    open(session, zone);
    apply();
    for (const [i, move] of moves.entries()) {
      move(session, zone);
      apply();
      assert.deepEqual(page, session.zoneRows(), `after move ${i + 1} (pass ${session.shown.pass})`);
    }
    assert.ok(same >= sameAtLeast, `the names held crossed as queuedSame (${same} times)`);
  });
}
