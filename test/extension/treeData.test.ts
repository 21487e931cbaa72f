/**
 * The tree views read at the open (treeData.ts) while the start's simulation is made in idle slices (swapAtOpen.ts):
 * they answer from what is shown, make no simulation, and answer as a session of one simulation does. So do the
 * session's other readers on the open's path (the commands' status, the zones, the start time).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeZoneOutage } from '../helpers/generatedOutage';
import { openScenario } from '../../src/extension/openScenario';
import { Session, type MakeSimulation } from '../../src/extension/session';
import { AHEAD_AT_OPEN_SLICE_MS, nextPassInSlices } from '../../src/extension/aheadAtOpen';
import { panelIdleWork } from '../../src/extension/warmSelection';
import { decisionsIn, isCurrentPass, nodesIn, passesOf, zoneOf, zonesOf } from '../../src/extension/treeData';
import type { Simulation } from '../../src/engine/simulation/api';

const dir = mkdtempSync(join(tmpdir(), 'cs-tree-data-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const GENERATED = writeZoneOutage(dir, 7, { nodes: 60 });
const example = (name: string) => resolve(__dirname, '../../examples', name);
const FILES = [example('rs-zone-outage.yaml'), example('outage-1.12.yaml'), GENERATED];

function opened(file: string, runAhead: boolean) {
  const o = openScenario(file, '');
  const made = { atOnce: 0, inSlices: 0 };
  const make: MakeSimulation = Object.assign((x: Parameters<MakeSimulation>[0]) => (made.atOnce++, o.make(x)), {
    inSlices: (x: Parameters<MakeSimulation>[0], like?: Simulation) => (made.inSlices++, o.make.inSlices!(x, like)),
  });
  const session = new Session({ make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: () => {}, runAhead });
  session.sendAll();
  const queue: (() => void)[] = [];
  let t = 0;
  nextPassInSlices(session, () => true, { next: (run) => queue.push(run), now: () => (t += AHEAD_AT_OPEN_SLICE_MS) });
  const idle = panelIdleWork(() => session);
  const advance = (): boolean => {
    const turn = queue.shift();
    if (turn) return (turn(), true);
    let pieces = 3;
    return idle(() => pieces-- > 0);
  };
  return { session, made, advance };
}

/** Everything the trees (and the commands' status) show of a session, as text. */
function trees(s: Session): string {
  const zones = zonesOf(s);
  const passes = [true, false].map((noise) => passesOf(s, noise));
  return JSON.stringify({
    zones: zones.map((z) => ({ z, row: zoneOf(s, z), nodes: nodesIn(s, z) })),
    passes,
    decisions: [true, false].map((noise, i) => passes[i].map((p) => ({ p, current: isCurrentPass(s, p.pass), ds: decisionsIn(s, p.pass, noise) }))),
    startTime: s.startTime,
    scenario: s.scenario.name,
    status: { pass: s.shown.pass, now: s.shown.now, trace: s.shown.trace.length },
    zonesAsked: [undefined, () => false, () => true, (z: string) => z.endsWith('a')].map((f) => s.zones(f)),
  });
}

test('the trees read while the start is made make no simulation and show what a session of one simulation shows', () => {
  for (const file of FILES) {
    const a = opened(file, true);
    // the open's first turn: its simulation went to the run-ahead, the start is shown while its own is made
    a.advance();
    assert.equal(a.session.shownPending, true, `${file}: the start pending`);
    const one = opened(file, false);
    const want = trees(one.session);
    for (let moment = 0; a.session.shownPending; moment++) {
      const before = { ...a.made };
      assert.equal(trees(a.session), want, `${file}, moment ${moment}: the trees while the start is made`);
      assert.deepEqual(a.made, before, `${file}, moment ${moment}: no simulation made by reading the trees`);
      assert.equal(a.session.shownPending, true, `${file}, moment ${moment}: the start still made in idle slices`);
      assert.ok(a.advance(), `${file}: idle work left while the start is made`);
    }
    assert.equal(trees(a.session), want, `${file}: the trees once the start is made`);
    // a step on: the trees follow the position (the current pass, the run so far)
    for (const s of [a.session, one.session]) assert.equal(s.step().ok, true);
    assert.equal(trees(a.session), trees(one.session), `${file}: the trees on pass 0`);
  }
});
