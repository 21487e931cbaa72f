/**
 * A restore writes the checkpoint's kubelet states into the live ones when they are of the same
 * nodes in the same order (kubelet/checkpoint.ts `writeStates`), and makes them anew otherwise
 * (`statesFrom`). Each case steps back onto a checkpoint and compares the states with those a
 * Kubelets object with no states of its own makes from the same checkpoint (always anew).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import type { Kubelets } from '../../../src/engine/kubelet/kubelets';
import type { Checkpoint } from '../../../src/engine/simulation/checkpointStore';
import { node, scenarioOf, type EventSpec } from '../../helpers/scenario';

type Internals = { states: Map<string, Record<string, unknown>>; cluster: unknown; settings: unknown; hooks: unknown };

/** `inPlace`: no node added or deleted between the checkpoint and the step back */
const cases: { name: string; events: EventSpec[]; from: number; to: number; inPlace: boolean }[] = [
  { name: 'nothing happens: heartbeats and renewals only', events: [], from: 9, to: 3, inPlace: true },
  {
    name: 'a kubelet stopped after the checkpoint',
    events: [{ at: '21s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec],
    from: 9,
    to: 3,
    inPlace: true,
  },
  {
    name: 'stopped before the checkpoint, started again after, a condition posted',
    events: [
      { at: '4s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec,
      { at: '12s', kind: 'condition', target: { nodes: ['c'] }, condition: { type: 'Ready', status: 'False', reason: 'KubeletNotReady' } } as EventSpec,
      { at: '21s', kind: 'kubelet', action: 'start', target: { nodes: ['a'] } } as EventSpec,
    ],
    from: 9,
    to: 3,
    inPlace: true,
  },
  {
    name: "a Ready condition patched over the kubelet's just before the step back (a repost pending then)",
    events: [{ at: '44s', kind: 'patch', ref: 'Node/c', merge: { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'Test' }] } } } as EventSpec],
    from: 9,
    to: 6,
    inPlace: true,
  },
  {
    name: 'a node deleted after the checkpoint: made anew',
    events: [{ at: '21s', kind: 'delete', ref: 'Node/b' } as EventSpec],
    from: 9,
    to: 3,
    inPlace: false,
  },
];

describe('the kubelet states a restore writes in place', () => {
  for (const c of cases)
    it(c.name, () => {
      const sim = createSimulation(scenarioOf({ objects: [node('a'), node('b'), node('c')], version: '1.35', events: c.events }), { checkpointEvery: 3 });
      sim.goToPass(c.from);
      const kubelets = (sim as unknown as { kubelets: Kubelets }).kubelets;
      const k = kubelets as unknown as Internals;
      const live = [...k.states.values()];
      if (c.name.includes('repost pending'))
        assert.ok(
          live.some((st) => st.repostAt !== undefined),
          'a repost pending before the step back',
        );
      sim.goToPass(c.to);
      const list = (sim as unknown as { store: { list: Checkpoint[] } }).store.list;
      const cp = list[list.length - 1];
      assert.equal(cp.pass, c.to, 'the step back lands on a checkpoint');
      const Made = kubelets.constructor as new (cluster: unknown, settings: unknown, hooks: unknown) => Kubelets;
      const anew = new Made(k.cluster, k.settings, k.hooks);
      anew.restore(cp.kubelets);
      const states = (x: Kubelets) => JSON.stringify([...(x as unknown as Internals).states]);
      assert.equal(states(kubelets), states(anew));
      for (const st of k.states.values()) assert.equal(st.leaseRecord, undefined, 'no Lease record cached');
      assert.equal(
        [...k.states.values()].every((st, i) => st === live[i]),
        c.inPlace,
      );
    });
});
