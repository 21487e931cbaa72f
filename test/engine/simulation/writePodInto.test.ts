/**
 * A restore writes a kept pod back into its live record (checkpoint.ts `writePodInto`) when only
 * what no index reads changed (MarkPodsNotReady's Ready condition), so the controllers' indexes,
 * which hold records, need nothing for it. The record written must be what a copy would be
 * (clonePod), key order included; anything an index reads, or another shape, is a copy as before.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clonePod, writePodInto } from '../../../src/engine/simulation/checkpoint';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import type { PodRecord } from '../../../src/engine/model/types';
import { scenarioOf, type EventSpec } from '../../helpers/scenario';
import { lostNodeObjects } from '../../helpers/lostNode';

const base = (): PodRecord => ({
  kind: 'Pod',
  meta: {
    name: 'web-1',
    namespace: 'default',
    uid: 'u1',
    labels: { app: 'web' },
    annotations: {},
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs', controller: true }],
    creationTimestamp: 1,
  },
  nodeName: 'a',
  tolerations: [],
  phase: 'Running',
  conditions: [
    { type: 'PodScheduled', status: 'True', lastTransitionTime: 1 },
    { type: 'Ready', status: 'True', lastTransitionTime: 1 },
  ],
  restartCount: 0,
  raw: { kind: 'Pod' },
});

/** `kept`: the record to write, from a copy of the live one (what is not edited is shared with it) */
const cases: { name: string; kept: (live: PodRecord) => PodRecord; written: boolean }[] = [
  {
    name: 'the Ready condition differs (MarkPodsNotReady): written',
    kept: (l) => ({ ...l, meta: { ...l.meta }, conditions: [l.conditions[0], { type: 'Ready', status: 'False', lastTransitionTime: 9 }] }),
    written: true,
  },
  {
    name: 'a condition more (another length): written, with a new list',
    kept: (l) => ({ ...l, meta: { ...l.meta }, conditions: [...l.conditions, { type: 'DisruptionTarget', status: 'True', lastTransitionTime: 9 }] }),
    written: true,
  },
  {
    name: 'restartCount and a label list differ: written',
    kept: (l) => ({ ...l, restartCount: 3, meta: { ...l.meta, labels: { app: 'web', x: 'y' } } }),
    written: true,
  },
  { name: 'another node: copied', kept: (l) => ({ ...l, nodeName: 'b' }), written: false },
  { name: 'another phase: copied', kept: (l) => ({ ...l, phase: 'Failed' }), written: false },
  { name: 'another raw (spec): copied', kept: (l) => ({ ...l, raw: { kind: 'Pod' } }), written: false },
  {
    name: 'other owner references (equal, another list): copied',
    kept: (l) => ({ ...l, meta: { ...l.meta, ownerReferences: [...l.meta.ownerReferences] } }),
    written: false,
  },
  { name: 'a key more on the pod (statusReason): copied', kept: (l) => ({ ...l, statusReason: 'NodeLost' }), written: false },
  { name: 'a key more in the metadata (deletionTimestamp): copied', kept: (l) => ({ ...l, meta: { ...l.meta, deletionTimestamp: 5 } }), written: false },
  {
    name: 'a Ready condition with a key more: copied',
    kept: (l) => ({ ...l, conditions: [l.conditions[0], { type: 'Ready', status: 'False', lastTransitionTime: 9, reason: 'NodeLost' }] }),
    written: false,
  },
  {
    name: 'the conditions in another order: written, with a new list',
    kept: (l) => ({ ...l, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 1 }, l.conditions[0]] }),
    written: true,
  },
];

describe('writePodInto', () => {
  for (const c of cases)
    it(c.name, () => {
      const live = clonePod(base());
      // a kept record shares neither the live metadata nor its conditions (frozenPod copies them)
      const kept = Object.freeze(c.kept({ ...live, meta: { ...live.meta }, conditions: live.conditions.map((x) => ({ ...x })) }));
      const keptText = JSON.stringify(kept);
      const liveText = JSON.stringify(live);
      const ready = live.conditions.find((x) => x.type === 'Ready');
      assert.equal(writePodInto(live, kept), c.written);
      assert.equal(JSON.stringify(kept), keptText, 'the kept record is not edited');
      if (!c.written) return assert.equal(JSON.stringify(live), liveText, 'nothing written');
      // what a copy would be, key order included (the state's JSON follows it)
      assert.equal(JSON.stringify(live), JSON.stringify(clonePod(kept)));
      assert.notEqual(live.meta, kept.meta);
      assert.notEqual(live.conditions, kept.conditions);
      for (let i = 0; i < live.conditions.length; i++)
        if (live.conditions[i].type === 'Ready')
          assert.notEqual(live.conditions[i], kept.conditions[i], 'the live Ready is its own (MarkPodsNotReady edits it)');
        else assert.equal(live.conditions[i], kept.conditions[i], 'the others are shared, as clonePod shares them');
      if (kept.conditions.length === 2 && kept.conditions[1].type === 'Ready')
        assert.equal(live.conditions[1], ready, 'the Ready condition is written in place');
    });
});

describe('a step back over MarkPodsNotReady', () => {
  const objects = lostNodeObjects;

  const events = [{ at: '12s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec];
  const make = () =>
    createSimulation(scenarioOf({ objects: objects(), version: '1.35', events }), {
      checkpointEvery: 3,
      checks: { restoreIndexRebuild: true, nodeIndexRebuild: true },
    });
  const ready = (p: PodRecord) => p.conditions.find((c) => c.type === 'Ready')?.status;

  it('keeps the live records of the pods whose Ready alone changed, and ends as a fresh run', () => {
    const sim = make();
    sim.goToPass(16);
    const onA = ['default/web-1', 'default/web-3', 'default/other'].map((k) => sim.cluster.pods.get(k)!);
    assert.deepEqual(onA.map(ready), ['False', 'False', 'False'], "node a's pods marked not Ready");
    sim.goToPass(4);
    assert.deepEqual(onA.map(ready), ['True', 'True', 'True']);
    for (const p of onA) assert.equal(sim.cluster.pods.get(`${p.meta.namespace}/${p.meta.name}`), p, `${p.meta.name}: the live record kept`);
    const fresh = make();
    fresh.goToPass(4);
    assert.equal(JSON.stringify([[...sim.cluster.pods.keys()], sim.state()]), JSON.stringify([[...fresh.cluster.pods.keys()], fresh.state()]));
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
    sim.goToPass(30);
    fresh.goToPass(30);
    assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()));
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
  });
});
