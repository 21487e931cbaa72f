/**
 * An open zone queue's names cross once (extension/zoneQueues.ts): an update whose names are those the panel holds
 * sends only what the panel does not hold (`queuedHeld`: where the run of names it holds lies, and the names around it), and the panel's zones, built from the messages alone as the page builds them
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
import { ZoneQueues } from '../../src/extension/zoneQueues';
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
          same += m.zones.filter((z) => z.queuedHeld !== undefined).length;
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
    assert.ok(same >= sameAtLeast, `the names held crossed as queuedHeld (${same} times)`);
  });
}

/** [row, names held, names now, what crosses: the run held ([from, count]) and the names before and after it, or the names whole] */
const wires: [string, string[], string[], { held?: [number, number]; before?: string[]; queued: string[] }][] = [
  ['the same names', ['a', 'b', 'c'], ['a', 'b', 'c'], { held: [0, 3], queued: [] }],
  ['the front taken', ['a', 'b', 'c'], ['b', 'c'], { held: [1, 2], queued: [] }],
  ['names queued at the back', ['a', 'b'], ['a', 'b', 'c', 'd'], { held: [0, 2], queued: ['c', 'd'] }],
  ['both (a step)', ['a', 'b', 'c'], ['b', 'c', 'd'], { held: [1, 2], queued: ['d'] }],
  ['put back in front and the back taken (a step back)', ['b', 'c', 'd'], ['a', 'b', 'c'], { held: [0, 2], before: ['a'], queued: [] }],
  ['the back taken', ['a', 'b', 'c'], ['a', 'b'], { held: [0, 2], queued: [] }],
  ['a name taken from the middle: the run before it', ['a', 'b', 'c', 'd'], ['a', 'c', 'd'], { held: [0, 1], queued: ['c', 'd'] }],
  ['all taken, new ones queued', ['a', 'b'], ['x', 'y'], { queued: ['x', 'y'] }],
];

for (const [name, had, now, wire] of wires) {
  test(`what crosses of an open queue: ${name}`, () => {
    const queues = new ZoneQueues();
    const row = (queued: string[]): ZoneRow => ({
      zone: 'Zone/z',
      state: 'FullDisruption',
      nodes: 5,
      notReady: 5,
      evictionRate: 0,
      queuedCount: queued.length,
      queued,
    });
    queues.whole([row(had)]);
    const [sent] = queues.posted([row(now)], false);
    const crossed = { ...(sent.queuedHeld ? { held: sent.queuedHeld } : {}), ...(sent.queuedBefore ? { before: sent.queuedBefore } : {}), queued: sent.queued };
    assert.deepEqual(crossed, wire);
    assert.deepEqual(withHeldQueues([sent], [row(had)]), [row(now)], 'the panel holds the names now');
  });
}
