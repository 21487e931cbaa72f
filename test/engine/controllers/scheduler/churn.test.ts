/**
 * Fuzz case 2671 (issue 17, seed 1000): rs-zone-outage.yaml at v1.31, a scale to 3,000 at 70 s that
 * leaves about 1,900 pods with no room. The binder tried every waiting pod again at every node
 * change (12,126 decisions, 9,668 of them PodUnschedulable); kube-scheduler's queue moves them
 * only on a change that may make them fit (preCheckForNode: node-b3 back at 1:18 with room), so
 * adding a NoExecute taint (1:20, 6:10) tries none of them. 6:00 is the controller manager's
 * restart, which restarts the binder too (a simplification: it is not kube-scheduler).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCase } from '../../../fuzz/cases';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../../src/engine/snapshot/source';
import { createSimulation } from '../../../../src/engine/simulation/simulation';

test('fuzz case 2671: pods that do not fit are tried again only when a change may make them fit', () => {
  const c = makeCase(1000, 2671);
  const sim = createSimulation(loadScenario(c.entry, new MemoryFs(c.files)), { checkInvariants: true });
  sim.runUntil(sim.startTime + c.horizonSeconds * 1e6);
  const attempts = new Map<string, number>();
  for (const d of sim.trace) if (d.action === 'PodUnschedulable') attempts.set(d.time.slice(11, 19), (attempts.get(d.time.slice(11, 19)) ?? 0) + 1);
  assert.deepEqual([...attempts.keys()], ['00:01:10', '00:01:18', '00:06:00']);
  assert.ok(sim.trace.length < 8_500, `${sim.trace.length} decisions`);
});
