/**
 * A restore leaves the node lifecycle controller as warm as a fresh run at that pass (checkpoint.ts,
 * slots.ts restore): the slots' settled caches and taintsMatch, and classifyNodes' flags and sorted
 * names, are those of a fresh run there (main forgot them all, and the pass after every restore
 * checked each node again), and the run on from there is a fresh run's: state, machines, problems
 * and trace at the pass restored and at each pass stepped after, with the heartbeat shortcuts
 * checked (checks.nodeTracks). On generated zone outages (taint-based evictions; 1.12's pod-eviction
 * path, whose Unknown nodes settle as 'queued'; a node added, so that a jump back crosses a change
 * of the node set), jumps back 1, 10 and 100 passes from the evictions' stretch, and forward again.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import type { NodeLifecycleState } from '../../../../src/engine/controllers/nodeLifecycle/state';
import type { Slot } from '../../../../src/engine/controllers/nodeLifecycle/slots';
import { writeZoneOutage, type ZoneOutageShape } from '../../../helpers/generatedOutage';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The second zone's kubelets stop at 60 s (pass 12); the evictions run from pass 72. */
const outages: { name: string; shape: ZoneOutageShape; version?: string; added?: boolean }[] = [
  { name: '60 nodes in 2 zones (taint-based evictions)', shape: { nodes: 60, zones: 2, seed: 'warm-restore' } },
  { name: '60 nodes in 2 zones as 1.12 (the pod-eviction path)', shape: { nodes: 60, zones: 2, seed: 'warm-restore' }, version: '1.12' },
  { name: '90 nodes in 3 zones, back at 8 min, a node added at 400 s', shape: { nodes: 90, zones: 3, seed: 'warm-restore-3', recoverAt: '8m' }, added: true },
];
const END = 130;
const jumps = [1, 10, 100];

const stateOf = (sim: SimulationImpl) => (sim.controllers.find((c) => c.name === 'node-lifecycle') as unknown as { s: NodeLifecycleState }).s;

/** The caches a restore used to forget, as text: each slot's settled and taintsMatch (those set), the flags, the sorted names. */
function caches(sim: SimulationImpl): string {
  const s = stateOf(sim);
  // read as the slots hold them (not through save(), which main did not have)
  const all = (s.slots as unknown as { slots: Map<string, Slot> }).slots;
  const slots = [...all.values()]
    .filter((x) => x.settled !== undefined || x.taintsMatch)
    .map((x) => [x.name, x.settled ?? null, x.taintsMatch] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify({ slots, membershipChanged: s.membershipChanged, zonesMayBeMissing: s.zonesMayBeMissing, sortedNames: s.sortedNames });
}

function view(sim: SimulationImpl): string {
  return JSON.stringify({ state: sim.state(), machines: sim.machines(), problems: sim.problems, traceLength: sim.trace.length });
}

describe('the node lifecycle controller after a restore is as warm as a fresh run', () => {
  for (const o of outages) {
    const dir = mkdtempSync(join(tmpdir(), 'restore-warm-'));
    dirs.push(dir);
    const path = writeZoneOutage(dir, 3, o.shape);
    if (o.added) {
      const items = (JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as { items: { kind: string; metadata: Record<string, unknown> }[] }).items;
      const node = items.find((x) => x.kind === 'Node')!;
      const added = { ...node, metadata: { ...node.metadata, name: 'added-at-400s', uid: 'uid-added-at-400s' } };
      appendFileSync(path, `  - at: 400s\n    apply: ${JSON.stringify(added)}\n`);
    }
    const make = () => createSimulation(loadScenario(path, nodeFs()), { checkpointEvery: 10, version: o.version, checks: { nodeTracks: true } });

    it(`${o.name}: jumps back 1, 10 and 100 passes keep a fresh run's caches, and the passes after are a fresh run's`, () => {
      // the fresh run's caches and views at every pass the jumps land on or step through
      const fresh = make();
      const at = new Map<number, { caches: string; view: string }>();
      for (let n = END - 100; n <= END; n++) {
        fresh.goToPass(n);
        at.set(n, { caches: caches(fresh), view: view(fresh) });
      }
      const trace = JSON.stringify(fresh.trace);
      const sim = make();
      sim.goToPass(END);
      let warm = 0;
      for (const back of jumps) {
        sim.goToPass(END - back);
        for (let n = END - back; n <= Math.min(END, END - back + 3); n++) {
          if (n > END - back) sim.step();
          assert.equal(caches(sim), at.get(n)!.caches, `the caches at pass ${n}, ${back} back`);
          assert.equal(view(sim), at.get(n)!.view, `state, machines and problems at pass ${n}, ${back} back`);
        }
        if (JSON.parse(caches(sim)).slots.length > 0) warm++;
        sim.goToPass(END);
        assert.equal(view(sim), at.get(END)!.view, `forward again after ${back} back`);
      }
      assert.equal(JSON.stringify(sim.trace), trace, 'the trace after the jumps');
      assert.ok(warm > 0, 'some settled caches to keep');
    });
  }
});
