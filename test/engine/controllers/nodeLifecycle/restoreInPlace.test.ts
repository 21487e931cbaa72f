/**
 * A restore writes the node lifecycle controller's saved health and tracks into the entries of the
 * controller that ran until then when they are of the same nodes in the same order (checkpoint.ts
 * `healthInto`, `tracksInto`), and makes them anew otherwise. Each case steps back onto a
 * checkpoint and compares them with a controller restored from the same checkpoint with none to
 * write into (always anew), and asks whether the live entries were kept.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import { NodeLifecycleController } from '../../../../src/engine/controllers/nodeLifecycle/controller';
import type { Checkpoint } from '../../../../src/engine/simulation/checkpointStore';
import { lease, node, scenarioOf, type EventSpec } from '../../../helpers/scenario';

type State = { health: Map<string, object>; tracks: Map<string, object>; options: object };
const stateOf = (c: unknown) => (c as { s: State }).s;

/** `kept`: no node added or deleted between the checkpoint and the step back */
const cases: { name: string; events: EventSpec[]; from: number; to: number; kept: boolean }[] = [
  { name: 'heartbeats and renewals only', events: [], from: 9, to: 3, kept: true },
  {
    name: 'a kubelet stopped before the checkpoint: the node goes Unknown after it (Lease and Ready saved, zone counted)',
    events: [{ at: '6s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec],
    from: 30,
    to: 6,
    kept: true,
  },
  {
    name: "a node's zone label changed after the checkpoint (its zone labels forgotten)",
    events: [{ at: '21s', kind: 'patch', ref: 'Node/c', merge: { metadata: { labels: { 'topology.kubernetes.io/zone': 'z2' } } } } as EventSpec],
    from: 9,
    to: 3,
    kept: true,
  },
  { name: 'a node deleted after the checkpoint: made anew', events: [{ at: '21s', kind: 'delete', ref: 'Node/b' } as EventSpec], from: 9, to: 3, kept: false },
];

describe('the node health and tracks a restore writes in place', () => {
  for (const c of cases)
    it(c.name, () => {
      const objects = ['a', 'b', 'c'].flatMap((n) => [node(n, { zone: 'z1' }), lease(n, '2s')]);
      const sim = createSimulation(scenarioOf({ objects, version: '1.35', events: c.events }), { checkpointEvery: 3 });
      sim.goToPass(c.from);
      const live = stateOf(sim.controllers.find((x) => x.name === 'node-lifecycle'));
      const health = [...live.health.values()];
      const tracks = [...live.tracks.values()];
      sim.goToPass(c.to);
      const list = (sim as unknown as { store: { list: Checkpoint[] } }).store.list;
      const cp = list[list.length - 1];
      assert.equal(cp.pass, c.to, 'the step back lands on a checkpoint');
      const now = stateOf(sim.controllers.find((x) => x.name === 'node-lifecycle'));
      const anew = new NodeLifecycleController(now.options);
      anew.restore(cp.controllers.find((x) => x.name === 'node-lifecycle')!.saved, sim.host);
      const text = (s: State) => JSON.stringify([[...s.health], [...s.tracks]]);
      assert.equal(text(now), text(stateOf(anew)));
      assert.equal(
        [...now.health.values()].every((h, i) => h === health[i]),
        c.kept,
      );
      assert.equal(
        [...now.tracks.values()].every((t, i) => t === tracks[i]),
        c.kept,
      );
      if (c.kept) assert.equal(live.health.size + live.tracks.size, 0, 'the dropped controller keeps none of them');
    });
});
