/**
 * A restore takes over the node lifecycle controller's node machines and health entries from the
 * controller that ran until then (nodeMachines.ts restore, checkpoint.ts restoreHealth): the same
 * instances and entries, put in the checkpoint's states and times, while the node set is the
 * checkpoint's; made anew otherwise. On generated zone outages, jumps back 1, 10 and 100 passes and
 * forward again must give a fresh run's state, trace and machines, and keep the live instances and
 * entries (main made every one anew). The instances and entries taken over must then be the restored
 * controller's alone, and the checkpoint's saved columns must stay as saved.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import type { Checkpoint } from '../../../../src/engine/simulation/checkpointStore';
import type { NodeLifecycleState, Health } from '../../../../src/engine/controllers/nodeLifecycle/state';
import type { SavedNodeLifecycle } from '../../../../src/engine/controllers/nodeLifecycle/checkpoint';
import { writeZoneOutage, type ZoneOutageShape } from '../../../helpers/generatedOutage';
import { freshAt } from '../../../helpers/freshAt';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * The generated outages (the second zone's kubelets stop at 60 s, pass 12; evictions from pass 72);
 * in `added`, a node joins at 400 s (pass 80): the node set differs from the checkpoint's that a
 * jump of 100 passes restores, and the health entries are made anew.
 */
const outages: { name: string; podsPerNode: number; shape: ZoneOutageShape; added: boolean }[] = [
  { name: '60 nodes in 2 zones, back at 30 min', podsPerNode: 3, shape: { nodes: 60, zones: 2, seed: 'restore-nlc' }, added: false },
  {
    name: '90 nodes in 3 zones, back at 8 min, a node added',
    podsPerNode: 3,
    shape: { nodes: 90, zones: 3, seed: 'restore-nlc-3', recoverAt: '8m' },
    added: true,
  },
];
const END = 130;
const jumps = [100, 10, 1];

const stateOf = (sim: SimulationImpl) => (sim.controllers.find((c) => c.name === 'node-lifecycle') as unknown as { s: NodeLifecycleState }).s;

function view(sim: SimulationImpl): { state: string; machines: string } {
  return { state: JSON.stringify(sim.state()), machines: JSON.stringify(sim.machines()) };
}

describe('the node machines and health entries a restore takes over', () => {
  for (const o of outages) {
    const dir = mkdtempSync(join(tmpdir(), 'restore-nlc-'));
    dirs.push(dir);
    const path = writeZoneOutage(dir, o.podsPerNode, o.shape);
    if (o.added) {
      const items = (JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as { items: { kind: string; metadata: Record<string, unknown> }[] }).items;
      const node = items.find((x) => x.kind === 'Node')!;
      const added = { ...node, metadata: { ...node.metadata, name: 'added-at-400s', uid: 'uid-added-at-400s' } };
      appendFileSync(path, `  - at: 400s\n    apply: ${JSON.stringify(added)}\n`);
    }
    const make = () => createSimulation(loadScenario(path, nodeFs()), { checkpointEvery: 10 });

    it(`${o.name}: jumps back 1, 10 and 100 passes and forward give a fresh run's state, trace and machines`, () => {
      const expectFresh = freshAt(make(), [...jumps.map((j) => END - j), END], view);
      const sim = make();
      sim.goToPass(END);
      const expect = (n: number, where: string) => expectFresh(sim, n, where);
      for (const back of jumps) {
        const s = stateOf(sim);
        const names = [...s.health.keys()];
        const actors = new Map(names.map((n) => [n, s.nodes.get(n)]));
        const health = new Map(s.health);
        sim.goToPass(END - back);
        expect(END - back, `after ${back} back`);
        const r = stateOf(sim);
        const sameActors = names.filter((n) => r.nodes.get(n) !== undefined && r.nodes.get(n) === actors.get(n)).length;
        const sameHealth = names.filter((n) => r.health.get(n) !== undefined && r.health.get(n) === health.get(n)).length;
        if (o.added && back === 100) {
          // the node set differs: entries made anew, the instances of the nodes there then still taken over by name
          assert.ok(!r.health.has('added-at-400s') && names.includes('added-at-400s'), 'the node added is gone after the jump');
          assert.equal(sameHealth, 0, `${back} back: health entries made anew`);
          assert.equal(sameActors, names.length - 1, `${back} back: every node machine there then taken over`);
        } else {
          assert.equal(sameActors, names.length, `${back} back: every node machine taken over`);
          assert.equal(sameHealth, names.length, `${back} back: every health entry taken over`);
        }
        sim.goToPass(END);
        expect(END, `forward again after ${back} back`);
      }
    });

    it(`${o.name}: what is taken over is the restored controller's alone, and the checkpoint's columns stay as saved`, () => {
      const sim = make();
      sim.goToPass(END);
      const list = () => (sim as unknown as { store: { list: Checkpoint[] } }).store.list;
      const previous = stateOf(sim);
      sim.goToPass(END - 10);
      const cp = list()[list().length - 1];
      assert.equal(cp.pass, END - 10, 'the jump lands on a checkpoint');
      const saved = cp.controllers.find((c) => c.name === 'node-lifecycle')!.saved as SavedNodeLifecycle;
      const times = [...saved.health.times];
      const states = saved.nodeActors.keys.map((k, i) => [k, JSON.stringify(saved.nodeActors.values[i])]);
      const restored = stateOf(sim);
      const machines = JSON.stringify(sim.machines());
      assert.notEqual(previous.health, restored.health);
      // the controller dropped must not reach what was taken over: its own maps hold nothing
      assert.equal(previous.health.size, 0, 'the dropped controller still holds the health entries');
      const name = [...restored.health.keys()][0];
      assert.equal(previous.nodes.get(name), undefined, 'the dropped controller still holds the node machines');
      // running on edits the entries in place and moves the machines; the checkpoint keeps what it saved
      sim.goToPass(END);
      assert.deepEqual([...saved.health.times], times, "the checkpoint's health times changed after the restore");
      assert.deepEqual(
        saved.nodeActors.keys.map((k, i) => [k, JSON.stringify(saved.nodeActors.values[i])]),
        states,
        "the checkpoint's machine states changed after the restore",
      );
      sim.goToPass(END - 10);
      assert.equal(JSON.stringify(sim.machines()), machines, 'the same checkpoint restored twice');
      const h: Health | undefined = stateOf(sim).health.get(name);
      assert.ok(h, 'a health entry restored');
    });
  }
});
