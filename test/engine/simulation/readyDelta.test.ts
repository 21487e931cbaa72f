/**
 * A checkpoint keeps a pod that MarkPodsNotReady changed by its Ready condition alone (status and
 * lastTransitionTime, as updatePod is told) as those two fields over its previous kept copy
 * (checkpoint.ts `PodReady`), without copying the pod. Every case steps back over such checkpoints
 * and must end as a fresh run, state and trace, with every checking mode on (checks.pods compares
 * each PodReady with the pod it stands for); and a change the host was not told of is caught. The
 * same for a ReplicaSet whose status alone the controller wrote (`ReplicaSetStatusWrite`).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import { PodReady, ReplicaSetStatusWrite } from '../../../src/engine/simulation/checkpoint';
import type { Checkpoint } from '../../../src/engine/simulation/checkpointStore';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { EVERY_CHECK } from '../../helpers/everyCheck';
import { lostNodeObjects } from '../../helpers/lostNode';
import { scenarioOf, type EventSpec } from '../../helpers/scenario';

const objects = lostNodeObjects;
// node a's kubelet stops at 12 s: its pods are marked not ready in the pass that finds it Unknown (about 55 s)
const STOP: EventSpec = { at: '12s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec;

/** `to`: passes to go to, in order (each a goToPass, or `step` user steps, which leave their checkpoints pending) */
interface Case {
  name: string;
  version?: string;
  events?: EventSpec[];
  checkpointEvery: number;
  to: (unknownPass: number) => (number | { step: number })[];
}

const cases: Case[] = [
  { name: 'one pass back from just after the Unknown pass, and on over it again', checkpointEvery: 1, to: (u) => [u + 1, u, u + 20] },
  { name: 'ten passes back from just after the Unknown pass', checkpointEvery: 1, to: (u) => [u + 1, u - 9, u + 20] },
  { name: 'a hundred passes back, over the Unknown pass, from far after it', checkpointEvery: 4, to: (u) => [u + 100, u, u - 1, u + 110] },
  {
    name: 'user steps over the Unknown pass (its checkpoint left pending), back one, and on',
    checkpointEvery: 1,
    to: (u) => [u - 2, { step: 4 }, u, { step: 3 }, u + 12],
  },
  {
    name: 'a controller-manager restart after the Unknown pass, then back over both',
    checkpointEvery: 3,
    events: [STOP, { at: '90s', kind: 'restartControllerManager' } as EventSpec],
    to: (u) => [u + 30, u + 3, u - 1, u + 40],
  },
  {
    name: 'a pod changed by its Ready alone, then otherwise (its kubelet reports it), before the next checkpoint',
    checkpointEvery: 10,
    events: [STOP, { at: '62s', kind: 'pod', pod: 'default/web-1', phase: 'Failed', ready: false } as EventSpec],
    to: (u) => [u + 25, u + 1, u, u - 1, u + 30],
  },
  {
    name: 'a pod deleted after a change of its Ready alone, before the next checkpoint',
    checkpointEvery: 10,
    events: [STOP, { at: '62s', kind: 'delete', ref: 'Pod/default/web-3' } as EventSpec],
    to: (u) => [u + 25, u + 1, u, u - 1, u + 30],
  },
  {
    name: 'a pod changed otherwise before the checkpoint a step back goes to, and marked not ready after it',
    checkpointEvery: 2,
    events: [STOP, { at: '30s', kind: 'pod', pod: 'default/web-1', phase: 'Succeeded' } as EventSpec],
    to: (u) => [u + 10, u - 2, u + 12],
  },
  {
    name: 'a ReplicaSet scaled after its status was written, and stepped back over to before the scale',
    checkpointEvery: 4,
    events: [STOP, { at: '90s', kind: 'scale', replicaSet: 'default/web', replicas: 3 } as EventSpec],
    to: (u) => [u + 25, u + 1, u, u - 1, u + 30],
  },
  {
    name: "1.12's path: every pass writes the pods' Ready again (MarkAllPodsNotReady), over kept Ready changes",
    version: '1.12',
    checkpointEvery: 2,
    events: [STOP, { at: '70s', kind: 'pod', pod: 'default/web-1', phase: 'Succeeded' } as EventSpec],
    to: (u) => [u + 30, u + 5, u, u + 1, u - 3, u + 40, u + 8, u + 20],
  },
];

const scenarioFor = (c: Case) => scenarioOf({ objects: objects(), version: c.version ?? '1.35', events: c.events ?? [STOP] });
const make = (c: Case, scenario = scenarioFor(c)): SimulationImpl => createSimulation(scenario, { checkpointEvery: c.checkpointEvery, checks: EVERY_CHECK });

const shape = (sim: SimulationImpl): string =>
  JSON.stringify([[...sim.cluster.pods.keys()], [...sim.cluster.podsByNode].map(([n, s]) => [n, [...s]]), sim.state()]);

const checkpoints = (sim: SimulationImpl): Checkpoint[] => (sim as unknown as { store: { list: Checkpoint[] } }).store.list;

describe('checkpoints that keep a pod as its Ready change', () => {
  for (const c of cases)
    it(c.name, () => {
      const first = make(c);
      first.goToPass(200);
      const unknownPass = first.trace.find((d) => d.action === 'PodsMarkedNotReady')?.pass;
      assert.ok(unknownPass !== undefined && unknownPass !== null && unknownPass > 10, 'the pods are marked not ready');
      const sim = make(c);
      let kept = 0,
        statuses = 0;
      for (const to of c.to(unknownPass)) {
        if (typeof to === 'number') sim.goToPass(to);
        else for (let i = 0; i < to.step; i++) sim.step(true);
        for (const cp of checkpoints(sim)) {
          for (const v of cp.pods.delta.values()) if (v instanceof PodReady) kept++;
          for (const v of cp.replicaSets.delta.values()) if (v instanceof ReplicaSetStatusWrite) statuses++;
        }
        const fresh = make(c);
        fresh.goToPass(sim.pass!);
        assert.equal(shape(sim), shape(fresh), `at pass ${sim.pass}`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at pass ${sim.pass}`);
      }
      assert.ok(kept > 0, 'some checkpoint kept a pod as its Ready change');
      assert.ok(statuses > 0, 'some checkpoint kept a ReplicaSet as its status');
    });

  it('a pass handed off (the run-ahead) that changed a pod otherwise, then Ready writes of it: kept over the record handed', () => {
    // web-2 (node b) is patched between two passes (the pass handed off), then node b's kubelet stops: its pods are marked not ready
    const c: Case = {
      name: 'handed',
      checkpointEvery: 2,
      events: [
        STOP,
        { at: '72s', kind: 'patch', ref: 'Pod/default/web-2', merge: { metadata: { labels: { app: 'web', patched: 'yes' } } } } as EventSpec,
        { at: '76s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec,
      ],
      to: () => [],
    };
    const probe = make(c);
    probe.goToPass(60);
    const q = probe.trace.find((d) => d.object === 'Pod/default/web-2' && d.controller === 'world')!.pass! + 1;
    // the hand-off is between two simulations of the same scenario (snapshot)
    const scenario = scenarioFor(c);
    const from = make(c, scenario);
    from.goToPass(q - 2);
    from.step(true);
    from.step(true);
    from.settle();
    const to = make(c, scenario);
    to.goToPass(q - 2);
    to.step(true);
    while (to.handOffSlice(from, q, () => true) === true);
    assert.equal(to.pass, q, 'the pass was handed off');
    for (let i = 0; i < 14; i++) to.step(true);
    to.settle();
    assert.ok(
      checkpoints(to).some((cp) => cp.pass! > q && cp.pods.delta.get('default/web-2') instanceof PodReady),
      'web-2 kept as its Ready change after the hand-off',
    );
    const fresh = make(c);
    fresh.goToPass(to.pass!);
    assert.equal(shape(to), shape(fresh));
    assert.equal(traceToJsonLines(to.trace), traceToJsonLines(fresh.trace));
  });

  it('checks.pods throws when a pod changed beyond its Ready condition without the host being told', () => {
    const c: Case = { name: 'edited', checkpointEvery: 1, to: () => [] };
    const sim = make(c);
    while (!sim.trace.some((d) => d.action === 'PodsMarkedNotReady')) sim.step(true);
    assert.ok(sim.hasPendingCheckpoint, "the Unknown pass's checkpoint is pending");
    // a marked pod's other field, edited in place and not announced
    sim.cluster.pods.get('default/web-1')!.restartCount = 7;
    assert.throws(() => sim.settle(), /changed beyond its Ready status and time/);
  });

  it('checks.replicaSetStatus throws when a ReplicaSet changed beyond its status without being announced', () => {
    const sim = make({ name: 'edited', checkpointEvery: 1, to: () => [] });
    sim.goToPass(2);
    const rs = sim.cluster.replicaSets.get('default/web')!;
    // edited in place, then a status write alone is announced
    rs.minReadySeconds = 99;
    rs.status = { ...rs.status };
    sim.host.updateReplicaSetStatus(rs);
    assert.throws(() => sim.goToPass(3), /changed beyond its status without being announced/);
  });
});
