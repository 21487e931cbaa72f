/**
 * The pods changed by Ready writes alone, reported apart (PodReports: MarkPodsNotReady's batch, a step back undoing it,
 * a redo's hand-off writing it) and marked stale by the view without a look-up each (RecordsView.readyOnly): over a
 * generated outage whose Unknown pass is heavy (120 of 240 nodes, their 1,200 pods marked not ready; redo.ts takes it
 * back from the run before), the panel's moves back over it and on again leave a view that is a rebuilt one's, every
 * node's pods read, and the moves of each kind told pods apart.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeZoneOutage } from '../helpers/generatedOutage';
import { loadScenario } from '../../src/engine/snapshot/scenario';
import { nodeFs } from '../../src/platform/nodeFs';
import { createSimulation } from '../../src/engine/simulation/simulation';
import type { ReadyKeys } from '../../src/engine/simulation/podReports';
import { RecordsView } from '../../src/extension/recordsView';
import { countdownsChanged, EvictionIndex, PathDeadlines, podsToCompare } from '../../src/extension/countdowns';
import { buildClusterViewFromRecords, podsOnNode } from '../../src/extension/viewModel';

const dir = mkdtempSync(join(tmpdir(), 'cs-ready-apart-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const OUTAGE = writeZoneOutage(dir, 10, { nodes: 240, seed: 'redo' });

/** `+`: a user's step on; `-`: a step back; a number: a jump there (the Reset to 0), and on again after the Unknown pass; `apart`: some pods are told apart */
const moves: { name: string; path: (number | '+' | '-')[]; redone: boolean; apart: boolean }[] = [
  { name: 'onto the Unknown pass, stepping', path: ['+'], redone: false, apart: true },
  { name: 'back over the Unknown pass', path: ['-', '-'], redone: false, apart: true },
  { name: 'on again onto it (a redo: the pass taken from the run before)', path: ['+', '+'], redone: true, apart: true },
  { name: 'on again past it', path: ['+'], redone: false, apart: false },
  { name: 'back to the start over all of it (Reset), and on again to just after it', path: [0], redone: false, apart: true },
];

test('the pods changed by Ready writes alone, told apart: the view after each move is a rebuilt one', () => {
  const sim = createSimulation(loadScenario(OUTAGE, nodeFs()));
  const index = new EvictionIndex();
  const paths = new PathDeadlines();
  const view = new RecordsView();
  let heavy = -1;
  const update = (full: boolean, where: string): number => {
    const apart: { ready?: ReadyKeys } = {};
    const podChanges = sim.takePodChanges(apart);
    const scheduled = index.update(sim.trace);
    const byNode = paths.update(sim, podChanges);
    const evictions = byNode.size ? new Map([...scheduled, ...byNode]) : scheduled;
    const podKeys = podsToCompare(podChanges, index.changed, paths.changed);
    const rc = sim.takeRecordChanges();
    const changed = { ...(rc.nodes !== 'all' ? { nodes: rc.nodes } : {}), ...(rc.replicaSets !== 'all' ? { replicaSets: rc.replicaSets } : {}) };
    view.update(sim.cluster, evictions, full, podKeys, changed, false, {
      countdowns: countdownsChanged(index.changed, paths.changed),
      ready: podKeys && apart.ready,
    });
    const built = buildClusterViewFromRecords(sim.cluster, evictions);
    for (const n of new Set([...built.pods.values()].map((p) => p.node)))
      assert.deepEqual(view.podsOn(sim.cluster, n), podsOnNode(built, n), `${where}: ${n}'s pods when read`);
    assert.equal(view.stalePods, 0, `${where}: every pod read`);
    assert.equal(view.view.pods.size, built.pods.size, `${where}: as many pods`);
    return podKeys ? (apart.ready ?? []).reduce((n, keys) => n + keys.length, 0) : 0;
  };
  update(true, 'start');
  // the Unknown pass (a fresh run's), and the panel's steps to the pass before it
  const fresh = createSimulation(loadScenario(OUTAGE, nodeFs()));
  for (let n = 0; n < 200 && heavy < 0; n++) {
    fresh.goToPass(n);
    if (fresh.trace.some((d) => d.pass === n && d.action === 'PodsMarkedNotReady')) heavy = n;
  }
  assert.ok(heavy > 0, 'the outage has an Unknown pass');
  for (let n = 0; n < heavy; n++) {
    sim.goToPass(n, { interactive: true });
    update(false, `pass ${n}`);
  }
  for (const m of moves) {
    const redone = sim.redoneCount;
    let apart = 0;
    for (const step of m.path) {
      const pass = sim.pass as number;
      if (step === '+') sim.goToPass(pass + 1, { interactive: true });
      else if (step === '-') sim.goToPass(pass - 1);
      else {
        sim.goToPass(step);
        apart += update(false, `${m.name}: at pass ${step}`);
        sim.goToPass(heavy + 1);
      }
      apart += update(false, `${m.name}: at pass ${sim.pass}`);
    }
    assert.equal(apart > 0, m.apart, `${m.name}: pods changed by Ready writes alone told apart (${apart})`);
    if (m.redone) assert.ok(sim.redoneCount > redone, `${m.name}: taken from the run before`);
  }
});
