/**
 * A pass too big to send whole (issue 14 §5): where a zone's nodes go
 * Unknown, the update carries at most LOG_ROWS decisions with the counts of
 * all, the zones' queues as counts with the names only of an opened queue,
 * and no machine but the selected one is asked of the engine.
 */
import { writeZoneOutage } from '../helpers/generatedOutage';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { isNoise, Session } from '../../src/extension/session';
import { decisionsAt } from '../../src/extension/passes';
import { LOG_ROWS, type HostMessage, type UpdateMessage } from '../../src/protocol/webview';

const dir = mkdtempSync(join(tmpdir(), 'cs-bigpass-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const file = writeZoneOutage(dir);

function open() {
  const sent: HostMessage[] = [];
  const o = openScenario(file, '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  const updates = () => sent.filter((m): m is UpdateMessage => m.type === 'update');
  return { session, sent, last: () => updates().at(-1)! };
}

/** Steps until a pass holds more than LOG_ROWS decisions. */
function toBigPass(session: Session): void {
  for (let i = 0; i < 60; i++) {
    session.step();
    const shown = session.shownDecisions();
    if (shown.inPass.length + shown.afterPass.length > LOG_ROWS) return;
  }
  assert.fail('no pass held more than LOG_ROWS decisions');
}

test('a pass with more than LOG_ROWS decisions sends the first LOG_ROWS and the counts of all; the rest come when asked', () => {
  const { session, sent, last } = open();
  session.sendAll();
  toBigPass(session);
  const u = last();
  const all = decisionsAt(session.sim.trace, session.sim.pass, session.passes);
  const real = (ds: readonly { action: string }[]) => ds.filter((d) => !isNoise(d as never)).length;
  assert.ok(u.decisions.length + (u.afterPass?.length ?? 0) <= LOG_ROWS, `${u.decisions.length} rows sent`);
  assert.deepEqual(u.cut, { inPass: real(all.inPass), afterPass: real(all.afterPass) });
  assert.deepEqual(
    u.decisions.map((d) => d.seq),
    all.inPass.slice(0, u.decisions.length).map((d) => d.seq),
    'the first ones, in order',
  );
  session.handle({ type: 'allDecisions' }, { play() {}, pause() {} });
  const answer = sent.at(-1);
  assert.equal(answer?.type, 'decisions');
  if (answer?.type !== 'decisions') return;
  assert.equal(answer.pass, session.sim.pass);
  assert.deepEqual(
    answer.decisions.map((d) => d.seq),
    all.inPass.map((d) => d.seq),
  );
  session.step();
  assert.equal(last().cut, undefined, 'a small pass is sent whole');
});

test('zones carry their queue as a count; an opened queue’s names come with every update until it is closed', () => {
  const { session, sent, last } = open();
  session.sendAll();
  let zone: string | undefined;
  for (let i = 0; i < 80 && !zone; i++) {
    session.step();
    zone = session.sim.zones().find((z) => z.queued.length > 1)?.zone;
  }
  assert.ok(zone, 'a zone queued nodes');
  const sim = session.sim;
  const zones = sim.zones.bind(sim);
  const engine = () => zones().find((z) => z.zone === zone)!;
  const row = () => last().zones.find((z) => z.zone === zone)!;
  // the zones whose names the engine built for the session: only the open queues' (names on demand)
  let built: string[] = [];
  sim.zones = (namesOf) => {
    const out = zones(namesOf);
    built.push(...out.filter((z) => z.queued.length).map((z) => z.zone));
    return out;
  };
  session.step();
  assert.deepEqual(built, [], 'no names built while no queue is open');
  assert.equal(row().queuedCount, engine().queued.length);
  assert.deepEqual(row().queued, [], 'no names until asked');
  session.handle({ type: 'zoneQueue', zone, open: true }, { play() {}, pause() {} });
  const answer = sent.at(-1);
  assert.equal(answer?.type, 'zones');
  if (answer?.type === 'zones') assert.deepEqual(answer.zones.find((z) => z.zone === zone)?.queued, engine().queued);
  built = [];
  session.step();
  assert.deepEqual(row().queued, engine().queued, 'the names at the new position');
  assert.deepEqual(new Set(built), new Set([zone]), 'the names of the open queue only');
  session.handle({ type: 'zoneQueue', zone, open: false }, { play() {}, pause() {} });
  built = [];
  session.step();
  assert.deepEqual(built, [], 'closed again: no names built');
  assert.deepEqual(row().queued, []);
  assert.equal(row().queuedCount, engine().queued.length);
});

test('a step asks the engine for machines only for a selection', () => {
  const { session } = open();
  session.sendAll();
  const sim = session.sim;
  const machines = sim.machines.bind(sim);
  let asked = 0;
  sim.machines = () => (asked++, machines());
  toBigPass(session);
  assert.equal(asked, 0, 'nothing selected: no machine built (19,000 at 5,000 nodes)');
  const zone = sim.zones()[0].zone.slice(5);
  session.selectObject('Zone/' + zone);
  asked = 0;
  session.step();
  assert.equal(asked, 0, 'the selected zone’s machine is asked of its controller alone: no list of every machine');
  assert.equal(sim.machine(`zone/${zone}`)?.id, `zone/${zone}`);
});
