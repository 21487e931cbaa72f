/**
 * A restore writes a kept node's heartbeat times, and a kept Lease's renewTime, back into the live
 * record (checkpoint.ts `writeNodeInto`, `writeLeaseInto`) when that is all that changed since the
 * checkpoint, as a kubelet writes them, so the controllers and kubelets keep the record they hold.
 * The record written must be what a copy would be (nodeFrom, leaseFrom), key order included;
 * anything else that changed, or another shape, is a copy as before.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  cloneLease,
  cloneNode,
  leaseFrom,
  LeaseRenewal,
  nodeFrom,
  NodeHeartbeats,
  writeLeaseInto,
  writeNodeInto,
} from '../../../src/engine/simulation/checkpoint';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import type { LeaseRecord, NodeRecord } from '../../../src/engine/model/types';
import { node, scenarioOf, type EventSpec } from '../../helpers/scenario';

const baseNode = (): NodeRecord => ({
  kind: 'Node',
  meta: { name: 'a', uid: 'u1', labels: { zone: 'z1' }, annotations: {}, ownerReferences: [], creationTimestamp: 1 },
  conditions: [
    { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: 10, lastTransitionTime: 1 },
    { type: 'Ready', status: 'True', lastHeartbeatTime: 10, lastTransitionTime: 1 },
  ],
  taints: [],
  unschedulable: false,
  raw: { kind: 'Node' },
});

/** `kept`: the checkpoint's entry, from a copy of the live node (what is not edited is shared with it) */
const nodeCases: { name: string; kept: (live: NodeRecord) => NodeRecord | NodeHeartbeats; written: boolean }[] = [
  {
    name: 'a full copy whose heartbeat times differ: written',
    kept: (l) => ({ ...l, conditions: l.conditions.map((c) => ({ ...c, lastHeartbeatTime: 4 })) }),
    written: true,
  },
  {
    name: 'heartbeat times against an equal record (NodeHeartbeats): written',
    kept: (l) => new NodeHeartbeats(cloneNode(l), [3, 5]),
    written: true,
  },
  {
    name: 'heartbeat times against a record with another Ready status: copied',
    kept: (l) => new NodeHeartbeats({ ...cloneNode(l), conditions: [l.conditions[0], { ...l.conditions[1], status: 'Unknown' }] }, [3, 5]),
    written: false,
  },
  {
    name: 'a Ready condition with another lastTransitionTime: copied',
    kept: (l) => ({ ...l, conditions: [l.conditions[0], { ...l.conditions[1], lastTransitionTime: 2, lastHeartbeatTime: 4 }] }),
    written: false,
  },
  { name: 'a taint more: copied', kept: (l) => ({ ...l, taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] }), written: false },
  { name: 'unschedulable: copied', kept: (l) => ({ ...l, unschedulable: true }), written: false },
  { name: 'another raw: copied', kept: (l) => ({ ...l, raw: { kind: 'Node' } }), written: false },
  { name: 'a condition fewer: copied', kept: (l) => ({ ...l, conditions: [{ ...l.conditions[1], lastHeartbeatTime: 4 }] }), written: false },
];

describe('writeNodeInto', () => {
  for (const c of nodeCases)
    it(c.name, () => {
      const live = cloneNode(baseNode());
      const kept = c.kept(cloneNode(live));
      const keptText = JSON.stringify(kept);
      const liveText = JSON.stringify(live);
      const conditions = live.conditions;
      assert.equal(writeNodeInto(live, kept), c.written);
      assert.equal(JSON.stringify(kept), keptText, 'the kept record is not edited');
      if (!c.written) return assert.equal(JSON.stringify(live), liveText, 'nothing written');
      assert.equal(JSON.stringify(live), JSON.stringify(nodeFrom(kept)), 'what a copy would be, key order included');
      assert.equal(live.conditions, conditions, 'the live conditions, written in place');
    });
});

const baseLease = (): LeaseRecord => ({
  kind: 'Lease',
  meta: { name: 'a', namespace: 'kube-node-lease', uid: 'l1', labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: 1 },
  holderIdentity: 'a',
  leaseDurationSeconds: 40,
  renewTime: 10,
  raw: { kind: 'Lease' },
});

const leaseCases: { name: string; kept: (live: LeaseRecord) => LeaseRecord | LeaseRenewal; written: boolean }[] = [
  { name: 'a full copy with another renewTime: written', kept: (l) => ({ ...l, renewTime: 4 }), written: true },
  { name: 'a renewal against an equal record (LeaseRenewal): written', kept: (l) => new LeaseRenewal(cloneLease(l), 3), written: true },
  { name: 'a renewal of none yet (undefined): written', kept: (l) => new LeaseRenewal(cloneLease(l), undefined), written: true },
  { name: 'another holder: copied', kept: (l) => ({ ...l, holderIdentity: 'b', renewTime: 4 }), written: false },
  { name: 'a renewal against a record with another duration: copied', kept: (l) => new LeaseRenewal({ ...l, leaseDurationSeconds: 10 }, 3), written: false },
  {
    name: 'the same fields in another order: copied',
    kept: (l) => ({ kind: l.kind, meta: l.meta, leaseDurationSeconds: 40, holderIdentity: 'a', renewTime: 4, raw: l.raw }),
    written: false,
  },
];

describe('writeLeaseInto', () => {
  for (const c of leaseCases)
    it(c.name, () => {
      const live = cloneLease(baseLease());
      const kept = c.kept(cloneLease(live));
      const keptText = JSON.stringify(kept);
      const liveText = JSON.stringify(live);
      assert.equal(writeLeaseInto(live, kept), c.written);
      assert.equal(JSON.stringify(kept), keptText, 'the kept record is not edited');
      if (!c.written) return assert.equal(JSON.stringify(live), liveText, 'nothing written');
      assert.equal(JSON.stringify(live), JSON.stringify(leaseFrom(kept)), 'what a copy would be, key order included');
    });
});

describe('a step back over heartbeats and renewals', () => {
  const events = [{ at: '45s', kind: 'kubelet', action: 'stop', target: { nodes: ['c'] } } as EventSpec];
  const make = (checkpointEvery: number) =>
    createSimulation(scenarioOf({ objects: [node('a'), node('b'), node('c')], version: '1.35', events }), {
      checkpointEvery,
      checks: { heartbeats: true, nodeIndexRebuild: true },
    });
  /** stops: goToPass targets in turn (after the kubelets made their Leases: a step back to before then makes them again); kept: the nodes whose live records (and Leases) the last step back keeps */
  const cases: { name: string; every: number; stops: number[]; kept: string[] }[] = [
    { name: 'back within the healthy stretch: every node kept', every: 3, stops: [9, 4], kept: ['a', 'b', 'c'] },
    { name: 'back over node c going Unknown: a and b kept, c copied', every: 3, stops: [30, 4], kept: ['a', 'b'] },
    { name: 'back twice, over dropped checkpoints, then forward and back', every: 2, stops: [30, 16, 24, 5], kept: ['a', 'b'] },
    { name: 'a checkpoint every pass, thinned', every: 1, stops: [70, 12], kept: ['a', 'b'] },
  ];
  for (const c of cases)
    it(c.name, () => {
      const sim = make(c.every);
      let live = new Map<string, [NodeRecord, LeaseRecord | undefined]>();
      for (const to of c.stops) {
        live = new Map([...sim.cluster.nodes].map(([name, n]) => [name, [n, sim.cluster.leases.get(name)]]));
        sim.goToPass(to);
        const fresh = make(c.every);
        fresh.goToPass(to);
        assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()), `at ${to}: as a fresh run to it`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at ${to}: the same trace`);
      }
      for (const name of ['a', 'b', 'c']) {
        const [n, l] = live.get(name)!;
        const kept = c.kept.includes(name);
        assert.equal(sim.cluster.nodes.get(name) === n, kept, `Node/${name} ${kept ? 'kept' : 'copied'}`);
        if (kept && l !== undefined) assert.equal(sim.cluster.leases.get(name), l, `Lease/${name} kept`);
      }
      sim.goToPass(c.stops[0] + 10);
      const again = make(c.every);
      again.goToPass(c.stops[0] + 10);
      assert.equal(JSON.stringify(sim.state()), JSON.stringify(again.state()), 'forward again, as a fresh run');
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(again.trace));
    });
});
