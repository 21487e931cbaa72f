/**
 * Stepping back restores only what changed since a checkpoint, and puts back
 * the pod map's key order and the changed nodes' pod sets: after going back,
 * every map must iterate exactly as in a fresh run to the same pass, while the
 * real controllers evict pods and the ReplicaSet replaces them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, HEAVY_PASS_MIN_PODS } from '../../../src/engine/simulation/simulation';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import type { SimulationImpl } from '../../../src/engine/simulation/simulation';
import type { EventSpec } from '../../helpers/scenario';
import { node, pod, replicaSet, scenarioOf } from '../../helpers/scenario';

const labels = { app: 'web' };
const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };

function make(): SimulationImpl {
  const objects = [
    node('a'),
    node('b'),
    node('c'),
    replicaSet('default', 'web', 4, labels),
    pod('default', 'web-1', 'a', { labels, owner }),
    pod('default', 'web-2', 'a', { labels, owner }),
    pod('default', 'web-3', 'b', { labels, owner }),
    pod('default', 'web-4', 'c', { labels, owner }),
    pod('default', 'solo', 'b'),
  ];
  const events: EventSpec[] = [
    // pods that do not tolerate it are evicted at once, and replaced on the first node that fits
    { at: '12s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoExecute' } } as EventSpec,
    { at: '31s', kind: 'taint', target: { nodes: ['b'] }, taint: { key: 'y', effect: 'NoExecute' } } as EventSpec,
    { at: '47s', kind: 'untaint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoExecute' } } as EventSpec,
  ];
  return createSimulation(scenarioOf({ objects, version: '1.31', events }), { checkpointEvery: 2 });
}

/** Every map's keys in iteration order, each node's pods in theirs, and the records as exported. */
function shape(sim: SimulationImpl): string {
  const c = sim.cluster;
  return JSON.stringify({
    pods: [...c.pods.keys()],
    nodes: [...c.nodes.keys()],
    leases: [...c.leases.keys()],
    replicaSets: [...c.replicaSets.keys()],
    podsByNode: [...c.podsByNode].map(([n, s]) => [n, [...s]]),
    state: sim.state(),
  });
}

describe('stepping back', () => {
  it('gives maps that iterate as in a fresh run, with pods evicted and replaced in between', () => {
    const sim = make();
    sim.goToPass(16);
    const evicted = sim.trace.filter((d) => d.action === 'PodEvicted').length;
    assert.ok(evicted >= 3, `expected evictions, got ${evicted}`);
    assert.ok(sim.trace.some((d) => d.action === 'PodsCreated'));
    for (const back of [9, 3, 0, 5]) {
      sim.goToPass(back);
      const fresh = make();
      fresh.goToPass(back);
      assert.equal(shape(sim), shape(fresh), `at pass ${back}`);
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at pass ${back}`);
    }
    // and forwards again, identically
    sim.goToPass(16);
    const fresh = make();
    fresh.goToPass(16);
    assert.equal(shape(sim), shape(fresh));
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
  });

  it('reset() gives the state at the start again', () => {
    const sim = make();
    sim.goToPass(12);
    sim.reset();
    assert.equal(shape(sim), shape(make()));
  });
});

describe('a checkpoint after a heavy pass', () => {
  // node a's kubelet stops: the pass that finds it Unknown (13, so that the pass before is no replay's fine checkpoint) marks all its pods not ready
  const run = (pods: number) => {
    const objects = [node('a'), node('b'), ...Array.from({ length: pods }, (_, i) => pod('default', `p-${i}`, 'a'))];
    const events = [{ at: '22s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec];
    const sim = createSimulation(scenarioOf({ objects, version: '1.31', events }), { checkpointEvery: 1000 });
    sim.goToPass(30);
    const marked = sim.trace.find((d) => d.action === 'PodsMarkedNotReady')!.pass!;
    return { sim, marked };
  };
  // at: the checkpoint's pass counted from the pass that marks the pods (0) or the one before it (-1)
  const cases = [
    { name: 'follows the pass that changed at least HEAVY_PASS_MIN_PODS pods', pods: HEAVY_PASS_MIN_PODS, at: 0, kept: true },
    { name: 'does not follow a pass that changed fewer', pods: HEAVY_PASS_MIN_PODS - 1, at: 0, kept: false },
    { name: 'precedes it when the grace of a node with that many pods runs out by the next pass', pods: HEAVY_PASS_MIN_PODS, at: -1, kept: true },
    { name: 'does not precede it when the node has fewer pods', pods: HEAVY_PASS_MIN_PODS - 1, at: -1, kept: false },
  ];
  for (const c of cases)
    it(c.name, () => {
      const { sim, marked } = run(c.pods);
      assert.equal(sim.checkpointPasses.includes(marked + c.at), c.kept, `checkpoints at ${sim.checkpointPasses.join(', ')}; pods marked at pass ${marked}`);
    });
  it('a step back to that pass gives the state and trace of a fresh run', () => {
    const { sim, marked } = run(HEAVY_PASS_MIN_PODS);
    sim.goToPass(marked!);
    const fresh = run(HEAVY_PASS_MIN_PODS).sim;
    fresh.goToPass(marked!);
    assert.equal(shape(sim), shape(fresh));
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
  });
  it('a jump back to the pass before it restores the checkpoint of that pass, replays nothing, and gives the state and trace of a fresh run at every pass on', () => {
    const { sim, marked } = run(HEAVY_PASS_MIN_PODS);
    sim.goToPass(marked - 1);
    assert.equal(sim.checkpointPasses.at(-1), marked - 1, `checkpoints at ${sim.checkpointPasses.join(', ')}`);
    const fresh = run(HEAVY_PASS_MIN_PODS).sim;
    fresh.reset();
    for (let p = marked - 1; p <= marked + 3; p++) {
      if (p > marked - 1) sim.goToPass(p);
      fresh.goToPass(p);
      assert.equal(shape(sim), shape(fresh), `at pass ${p}`);
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at pass ${p}`);
    }
  });
});

describe('pods changed by Ready writes alone since the checkpoint (their writes undone, not the records put back)', () => {
  // node a's kubelet stops: its pods are marked not ready when it goes Unknown, and those that
  // tolerate the unreachable taint for 20 s are evicted some passes later (deleted: put back whole)
  const toleration = (seconds: number) => [
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
  ];
  const make = (checkpointEvery = 2) => {
    const objects = [
      node('a'),
      node('b'),
      ...Array.from({ length: 4 }, (_, i) => pod('default', `short-${i}`, 'a', { tolerations: toleration(20) })),
      ...Array.from({ length: 3 }, (_, i) => pod('default', `long-${i}`, 'a', { tolerations: toleration(3600) })),
    ];
    const events = [{ at: '22s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec];
    return createSimulation(scenarioOf({ objects, version: '1.31', events }), { checkpointEvery });
  };
  const probe = make();
  probe.goToPass(40);
  const marked = probe.trace.find((d) => d.action === 'PodsMarkedNotReady')!.pass!;
  const evicted = probe.trace.find((d) => d.action === 'PodEvicted')?.pass ?? NaN;
  // where the simulation goes, in order: each stop must give a fresh run's state and trace
  const cases = [
    { name: 'a jump from after the evictions to before the pods were marked', stops: [40, marked - 1] },
    { name: 'a step back to the pass that marked them, then one pass before it', stops: [40, marked, marked - 1] },
    { name: 'a step back to between the marks and the evictions, then to before the marks', stops: [40, evicted - 1, marked - 1] },
    { name: 'back to between, forward past the evictions, back to before the marks', stops: [40, evicted - 1, 40, marked - 2] },
    { name: 'back to between, forward one pass, back to the marks, then before them', stops: [40, evicted - 1, evicted, marked, marked - 1] },
    // a checkpoint every pass, thinned past MAX_CHECKPOINTS: the marks' checkpoint merged into the next
    { name: 'a jump back before the marks after the checkpoints were thinned', stops: [120, marked - 1], every: 1 },
    { name: 'a jump to between, then before the marks, after thinning', stops: [120, evicted - 1, marked - 1], every: 1 },
  ];
  it('the scenario marks the pods a few passes before it evicts some', () => {
    assert.ok(evicted > marked + 2, `marked at ${marked}, evicted at ${evicted}`);
  });
  for (const c of cases)
    it(c.name, () => {
      const sim = make(c.every);
      for (const p of c.stops) {
        sim.goToPass(p);
        const fresh = make(c.every);
        fresh.goToPass(p);
        assert.equal(shape(sim), shape(fresh), `at pass ${p} (stops ${c.stops.join(', ')})`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at pass ${p}`);
      }
    });
});
