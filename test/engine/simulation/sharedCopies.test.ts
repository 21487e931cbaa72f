/**
 * The copies the simulation keeps (what the host last announced for each pod,
 * checkpoints' pods, nodes, Leases and ReplicaSets, live pods made from the
 * snapshot's) share the parts that did not change with
 * earlier copies or the snapshot's records. That is only right while nobody
 * edits a kept copy in place and while a shared part equals, key order
 * included, what it stands for: these tests fail when a controller starts
 * editing a `before`, or when a comparison lets a real change through.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import type { SimulationChecks } from '../../../src/engine/simulation/checks';
import { EVERY_CHECK } from '../../helpers/everyCheck';
import { frozenConditions, heartbeatsSince, leaseFrom, LeaseRenewal, nodeFrom, NodeHeartbeats, sameFields } from '../../../src/engine/simulation/checkpoint';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import type { PodBefore } from '../../../src/engine/controllers/controller';
import type { ConditionStatus, KObject, LeaseRecord, NodeRecord, PodCondition, PodRecord } from '../../../src/engine/model/types';
import { nodeCondition, podCondition } from '../../../src/engine/model/records';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { generateClusterStream, listChunks, renderObject } from '../../../src/engine/generate/index';
import { nodeFs } from '../../../src/platform/nodeFs';
import type { EventSpec } from '../../helpers/scenario';
import { node, pod, replicaSet, scenarioOf } from '../../helpers/scenario';

const dir = mkdtempSync(join(tmpdir(), 'cs-shared-copies-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A generated cluster whose second zone's kubelets stop at 60 s and start again at 30 min. */
function outageFile(version: string): string {
  const stream = generateClusterStream({
    nodes: 30,
    podsPerNode: 6,
    zones: 3,
    detail: 'lean',
    kubernetesVersion: version,
    seed: 'shared-copies',
    timeline: { zoneOutage: { zone: 1, at: '60s', recoverAt: '30m' } },
  });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  writeFileSync(join(dir, `outage-${version}.json`), text);
  const scenario = { ...stream.scenario!, snapshot: `outage-${version}.json` };
  const path = join(dir, `outage-${version}.yaml`);
  writeFileSync(path, renderObject(scenario as never, 'yaml'));
  return path;
}
// 1.35: Leases renewed every 10 s, node status posted every 5 min; 1.12: no Leases, node status (heartbeats) posted every 10 s
const outages = { '1.35': outageFile('v1.35.0'), '1.12': outageFile('v1.12.10') };
const HOUR = 3600e6;

/**
 * Runs the outage to 40 min, steps back to pass `backTo`, runs on to 45 min (over the recovery)
 * and checks the trace is a fresh run's.
 */
function stepBackAndRunOn(checkpointEvery: number, backTo: number, checks: SimulationChecks): void {
  const sim = make({ checkpointEvery, checks });
  sim.runUntil(sim.startTime + 40 * 60e6);
  sim.goToPass(backTo);
  sim.runUntil(sim.startTime + 45 * 60e6);
  const fresh = make({ checkpointEvery, checks });
  fresh.runUntil(fresh.startTime + 45 * 60e6);
  assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
}

function make(
  options: { checkpointEvery?: number; controllerFactory?: ControllerFactory; checks?: SimulationChecks } = {},
  version: keyof typeof outages = '1.35',
): SimulationImpl {
  return createSimulation(loadScenario(outages[version], nodeFs()), options);
}

/** What a `before` says, in a fixed order (the pod's fields or a before's). */
function announced(b: PodBefore): string {
  return JSON.stringify([b.nodeName ?? null, b.tolerations, b.phase, b.conditions, b.labels, b.deletionTimestamp ?? null]);
}
function podState(p: PodRecord): string {
  return announced({
    nodeName: p.nodeName,
    tolerations: p.tolerations,
    phase: p.phase,
    conditions: p.conditions,
    labels: p.meta.labels,
    deletionTimestamp: p.meta.deletionTimestamp,
  });
}

describe('what the host last announced for a pod', () => {
  it('is every later `before`, unedited, through an outage and a step back', () => {
    let checked = 0;
    // every controller checks each `before` against the pod as it was announced to that controller last
    const factory: ControllerFactory = (name, ctx) => {
      const c = defaultControllerFactory(name, ctx);
      if (!c?.onPodEvent) return c;
      const handle = c.onPodEvent.bind(c);
      const last = new Map<string, string>();
      c.onPodEvent = (host, type, pod, before) => {
        const key = `${pod.meta.namespace}/${pod.meta.name}`;
        const was = last.get(key);
        if (type !== 'added' && was !== undefined) {
          assert.ok(before, `${type} ${key} without a before`);
          assert.equal(announced(before), was, `${name}: the before of ${type} ${key} at ${host.now}`);
          checked++;
        }
        handle(host, type, pod, before);
        if (type === 'deleted') last.delete(key);
        else last.set(key, podState(pod));
      };
      // a batch of Ready-only updates (updatePodsReady): each pod's `before` checked as an update's
      if (c.onPodsReadyChanged) {
        const batched = c.onPodsReadyChanged.bind(c);
        c.onPodsReadyChanged = (host, batch) => {
          for (let i = 0; i < batch.count; i++) {
            const pod = batch.pods[i];
            const key = `${pod.meta.namespace}/${pod.meta.name}`;
            const was = last.get(key);
            if (was === undefined) continue;
            assert.equal(announced(batch.before[i]), was, `${name}: the before of the batched update ${key} at ${host.now}`);
            checked++;
          }
          batched(host, batch);
          for (let i = 0; i < batch.count; i++) last.set(batch.keys[i], podState(batch.pods[i]));
        };
      }
      return c;
    };
    const sim = make({ controllerFactory: factory, checkpointEvery: 40 });
    sim.runUntil(sim.startTime + 40 * 60e6);
    const mid = Math.floor(sim.pass! / 2);
    sim.goToPass(mid);
    sim.runUntil(sim.startTime + HOUR);
    assert.ok(sim.trace.some((d) => d.action === 'PodsMarkedNotReady'));
    assert.ok(checked > 500, `only ${checked} befores checked`);
  });
});

describe('checkpoints that keep only heartbeat times', () => {
  // every node a kubelet's heartbeat alone touched is kept without comparing the records: here it is compared too
  // (and every kubelet materialise passes over is checked to have nothing due, every pod a
  // checkpoint keeps to be the pod map's record, and the indexes a restore takes over to be the ones made anew)
  const checks: SimulationChecks = EVERY_CHECK;

  /** Every map's keys in iteration order, each node's pods, and the records as exported. */
  const shape = (sim: SimulationImpl): string =>
    JSON.stringify({
      pods: [...sim.cluster.pods.keys()],
      nodes: [...sim.cluster.nodes.keys()],
      podsByNode: [...sim.cluster.podsByNode].map(([n, s]) => [n, [...s]]),
      state: sim.state(),
    });

  for (const version of ['1.35', '1.12'] as const)
    it(`step back to the state and trace of a fresh run, across the outage and the recovery (${version})`, () => {
      // a checkpoint every pass, so that one holds the nodes just gone Unknown (their taints come at the same instant)
      const sim = make({ checkpointEvery: 1, checks }, version);
      sim.runUntil(sim.startTime + 40 * 60e6);
      // the pass that marks the nodes Unknown and the next one
      const unknownAt = sim.trace.find((d) => d.action === 'NodeStatusUnknown')!.pass!;
      // going down: every step is a restore
      for (const back of [380, 200, 90, unknownAt + 1, unknownAt, 5]) {
        sim.goToPass(back);
        const fresh = make({ checkpointEvery: 1, checks }, version);
        fresh.goToPass(back);
        assert.equal(shape(sim), shape(fresh), `at pass ${back}`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at pass ${back}`);
      }
    });

  it('step back to a checkpoint that holds a node whose condition alone changed', () => {
    // a condition no controller taints for: the node's status changes while its taints stay
    const events: EventSpec[] = [
      { at: '12s', kind: 'condition', target: { nodes: ['a'] }, condition: { type: 'KernelDeadlock', status: 'True', reason: 'Hung' } } as EventSpec,
      { at: '31s', kind: 'condition', target: { nodes: ['a'] }, condition: { type: 'KernelDeadlock', status: 'False', reason: 'Fine' } } as EventSpec,
      { at: '47s', kind: 'condition', target: { nodes: ['a', 'b'] }, condition: { type: 'Ready', status: 'False' } } as EventSpec,
    ];
    const small = (): SimulationImpl =>
      createSimulation(scenarioOf({ objects: [node('a'), node('b'), pod('default', 'p', 'a')], version: '1.31', events }), { checkpointEvery: 1, checks });
    const sim = small();
    sim.goToPass(30);
    // going down: every step is a restore
    for (const back of [20, 11, 10, 8, 7, 4, 3]) {
      sim.goToPass(back);
      const fresh = small();
      fresh.goToPass(back);
      assert.equal(shape(sim), shape(fresh), `at pass ${back}`);
    }
  });
});

describe('the heartbeat-only check', () => {
  it('throws when a node changed beyond its heartbeat times without being announced', () => {
    const sim = make({ checkpointEvery: 1, checks: { heartbeats: true } });
    sim.goToPass(3);
    // a change the host is not told of, on a node its kubelet keeps posting for
    const n = [...sim.cluster.nodes.values()][0];
    n.conditions.find((c) => c.type === 'MemoryPressure')!.reason = 'edited in place';
    assert.throws(() => sim.runUntil(sim.now + 6 * 60e6), /changed beyond its heartbeat times/);
  });
  it('a step back marks every node it put back dirty, so the next checkpoint compares it', () => {
    // forward over the recovery again, from a restore, with every fast path compared
    stepBackAndRunOn(1, 100, { heartbeats: true });
  });
});

describe("the checkpoint's pods", () => {
  it("the check throws when updatePod was given a record that is not the pod map's", () => {
    const sim = make({ checkpointEvery: 1, checks: { pods: true } });
    sim.goToPass(2);
    const p = [...sim.cluster.pods.values()][0];
    sim.host.updatePod({ ...p, phase: 'Failed' });
    assert.throws(() => sim.goToPass(3), /not the record last passed/);
  });
  it("pods evicted, replaced and stepped back over are the pod map's records", () => {
    stepBackAndRunOn(3, 50, { pods: true });
  });
});

describe('the pod index a step back puts back', () => {
  const evictedAt = (sim: SimulationImpl) => sim.trace.find((d) => d.action === 'PodEvicted')!.pass!;
  it('is the one replayed from the snapshot, when pods were evicted, replaced and bound since the checkpoint', () => {
    const sim = make({ checkpointEvery: 7, checks: { index: true } });
    sim.runUntil(sim.startTime + 40 * 60e6);
    sim.goToPass(evictedAt(sim) - 1);
    sim.runUntil(sim.startTime + 45 * 60e6);
    const fresh = make({ checkpointEvery: 7, checks: { index: true } });
    fresh.runUntil(fresh.startTime + 45 * 60e6);
    assert.deepEqual(
      [...sim.cluster.podsByNode].map(([n, keys]) => [n, [...keys]]),
      [...fresh.cluster.podsByNode].map(([n, keys]) => [n, [...keys]]),
    );
  });
  it("the check throws when a node's set changed without being listed for the next checkpoint", () => {
    // one checkpoint, at the start: every pod evicted, replaced and bound since is in the live lists
    const sim = make({ checkpointEvery: 100_000, checks: { index: true } });
    sim.runUntil(sim.startTime + 40 * 60e6);
    sim.host.indexNodes.clear();
    assert.throws(() => sim.goToPass(evictedAt(sim) - 1), /podsByNode put back differs/);
  });
});

describe("checkpoints' ReplicaSets", () => {
  // the passes gone to after pass 20, each compared with a fresh run's; the restored records share the checkpoints'
  // metadata and status (replicaSetFrom), which a scale run again after a restore must not edit in place
  const cases: { name: string; passes: number[] }[] = [
    { name: 'going down: every step is a restore', passes: [12, 9, 8, 5, 4, 2, 1] },
    { name: 'back before the scales and over them again, back and forth', passes: [1, 20, 4, 12, 1, 9, 5, 20, 2] },
  ];
  for (const { name, passes } of cases)
    it(`step back to the state of a fresh run across scale events and status updates (${name})`, () => {
      const labels = { app: 'web' };
      const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
      const events: EventSpec[] = [
        { at: '7s', kind: 'scale', replicaSet: 'default/web', replicas: 4 } as EventSpec,
        { at: '22s', kind: 'scale', replicaSet: 'default/web', replicas: 1 } as EventSpec,
        { at: '41s', kind: 'scale', replicaSet: 'default/web', replicas: 3 } as EventSpec,
      ];
      const objects = [
        node('a'),
        node('b'),
        replicaSet('default', 'web', 2, labels),
        pod('default', 'web-1', 'a', { labels, owner }),
        pod('default', 'web-2', 'b', { labels, owner }),
      ];
      const scenario = scenarioOf({ objects, version: '1.31', events });
      const small = (): SimulationImpl => createSimulation(scenario, { checkpointEvery: 1 });
      const loaded = JSON.stringify([...scenario.snapshot.cluster.replicaSets]);
      const sim = small();
      sim.goToPass(20);
      assert.ok(sim.trace.some((d) => d.action === 'ReplicaSetStatusUpdated'));
      // the records themselves (their generation is not exported), the state, and the trace
      const records = (x: SimulationImpl): string => JSON.stringify([[...x.cluster.replicaSets], x.state()]);
      for (const back of passes) {
        sim.goToPass(back);
        const fresh = small();
        fresh.goToPass(back);
        assert.equal(records(sim), records(fresh), `at pass ${back}`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `at pass ${back}`);
      }
      assert.equal(JSON.stringify([...scenario.snapshot.cluster.replicaSets]), loaded);
    });
});

describe("the snapshot's records", () => {
  /** Every record of the snapshot, as JSON. */
  const records = (sim: SimulationImpl): string => {
    const c = sim.scenario.snapshot.cluster;
    return JSON.stringify([[...c.nodes], [...c.pods], [...c.replicaSets], [...c.leases], [...c.daemonSets]]);
  };

  // live pods share all but their Ready condition with them (clonePod): nothing may edit those in place
  for (const version of ['1.35', '1.12'] as const)
    it(`are as loaded after an outage, a step back and the recovery (${version})`, () => {
      const sim = make({ checkpointEvery: 5 }, version);
      const loaded = records(sim);
      sim.runUntil(sim.startTime + 20 * 60e6);
      sim.goToPass(30);
      sim.runUntil(sim.startTime + HOUR);
      assert.ok(sim.trace.some((d) => d.action === 'PodsMarkedNotReady'));
      assert.equal(records(sim), loaded);
    });

  it('are as loaded after pod events, evictions and replacements', () => {
    const labels = { app: 'web' };
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
    const events: EventSpec[] = [
      { at: '3s', kind: 'pod', pod: 'default/web-1', ready: false } as EventSpec,
      { at: '4s', kind: 'pod', pod: 'default/web-2', phase: 'Failed', ready: false } as EventSpec,
      { at: '9s', kind: 'pod', pod: 'default/web-1', ready: true } as EventSpec,
      { at: '12s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoExecute' } } as EventSpec,
      { at: '20s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec,
    ];
    // with all the conditions a running pod has (the helper's pods have Ready only)
    const full = (p: KObject): KObject => {
      const conditions = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: '2025-12-31T23:00:00Z',
      }));
      return { ...p, status: { ...(p.status as KObject), conditions } };
    };
    const objects = [
      node('a'),
      node('b'),
      node('c'),
      replicaSet('default', 'web', 4, labels),
      full(pod('default', 'web-1', 'a', { labels, owner })),
      full(pod('default', 'web-2', 'b', { labels, owner })),
      pod('default', 'web-3', 'b', { labels, owner }),
      pod('default', 'web-4', 'c', { labels, owner }),
      pod('default', 'solo', 'b'),
    ];
    const sim = createSimulation(scenarioOf({ objects, version: '1.31', events }), { checkpointEvery: 2 });
    const loaded = records(sim);
    sim.goToPass(60);
    sim.goToPass(3);
    sim.goToPass(80);
    assert.ok(sim.trace.some((d) => d.action === 'PodEvicted'));
    assert.equal(records(sim), loaded);
  });
});

describe('sameFields, heartbeatsSince, nodeFrom, leaseFrom, frozenConditions', () => {
  const cond = (status: string, hb: number, extra: Record<string, unknown> = {}) =>
    ({ ...nodeCondition('Ready', status as ConditionStatus, hb, 5, 'KubeletReady', undefined), ...extra }) as NodeRecord['conditions'][number];
  const nodeOf = (conds: NodeRecord['conditions'], taints: NodeRecord['taints'] = []): NodeRecord => ({
    kind: 'Node',
    meta: META,
    conditions: conds,
    taints,
    unschedulable: false,
    raw: RAW,
  });
  const META = { name: 'n', uid: 'u', labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: 0 };
  const RAW = { kind: 'Node' };

  it('sameFields: the same keys in the same order with the same values', () => {
    assert.equal(sameFields({ a: 1, b: 'x' }, { a: 1, b: 'x' }), true);
    assert.equal(sameFields({ a: 1, b: 'x' }, { b: 'x', a: 1 }), false, 'key order');
    assert.equal(sameFields({ a: 1 }, { a: 1, b: undefined }), false, 'a key holding undefined');
    assert.equal(sameFields({ a: 1, b: undefined }, { a: 1 }), false, 'a key holding undefined, the other way');
    assert.equal(sameFields({ a: 1, t: 2 }, { a: 1, t: 3 }), false);
    assert.equal(sameFields({ a: 1, t: 2 }, { a: 1, t: 3 }, 't'), true);
  });

  it('heartbeatsSince: only when nothing but heartbeat times changed', () => {
    const base = nodeOf([cond('True', 1), cond('False', 1, { type: 'MemoryPressure' })]);
    assert.deepEqual(heartbeatsSince(nodeOf([cond('True', 9), cond('False', 1, { type: 'MemoryPressure' })]), base), [9, 1]);
    assert.equal(heartbeatsSince(nodeOf([cond('Unknown', 9), cond('False', 1, { type: 'MemoryPressure' })]), base), undefined, 'status');
    assert.equal(
      heartbeatsSince(nodeOf([cond('True', 9, { lastTransitionTime: 6 }), cond('False', 1, { type: 'MemoryPressure' })]), base),
      undefined,
      'transition time',
    );
    assert.equal(heartbeatsSince(nodeOf([cond('True', 9)]), base), undefined, 'a condition fewer');
    assert.equal(heartbeatsSince(nodeOf(base.conditions, [{ key: 'k', effect: 'NoExecute' }]), base), undefined, 'a taint');
    assert.equal(heartbeatsSince({ ...base, unschedulable: true }, base), undefined, 'unschedulable');
    assert.equal(heartbeatsSince({ ...base, meta: { ...META, labels: { a: 'b' } } }, base), undefined, 'a new metadata object');
    const tainted = nodeOf(base.conditions, [{ key: 'k', effect: 'NoExecute', timeAdded: 3 }]);
    assert.equal(heartbeatsSince(nodeOf(base.conditions, [{ key: 'k', effect: 'NoExecute', timeAdded: 4 }]), tainted), undefined, 'taint timeAdded');
  });

  it('nodeFrom: the node as it was, in a copy of its own', () => {
    const base = nodeOf([cond('True', 1), cond('False', 1, { type: 'MemoryPressure' })]);
    const live = nodeOf([cond('True', 9), cond('False', 2, { type: 'MemoryPressure' })]);
    const restored = nodeFrom(new NodeHeartbeats(base, heartbeatsSince(live, base)!));
    assert.equal(JSON.stringify(restored), JSON.stringify(live));
    assert.notEqual(restored.conditions[0], base.conditions[0]);
    assert.equal(base.conditions[0].lastHeartbeatTime, 1, 'the base is not edited');
  });

  it('leaseFrom: the Lease as it was, in a copy of its own', () => {
    const base = {
      kind: 'Lease',
      meta: { ...META, namespace: 'kube-node-lease' },
      holderIdentity: 'n',
      leaseDurationSeconds: 40,
      renewTime: 1,
      raw: RAW,
    } as LeaseRecord;
    const live = { ...base, renewTime: 9 };
    assert.equal(sameFields(live, base, 'renewTime'), true);
    assert.equal(sameFields({ ...live, holderIdentity: 'm' }, base, 'renewTime'), false, 'another holder');
    const restored = leaseFrom(new LeaseRenewal(base, live.renewTime));
    assert.equal(JSON.stringify(restored), JSON.stringify(live));
    assert.equal(base.renewTime, 1, 'the base is not edited');
  });

  it('frozenConditions: never shares a live Ready condition, shares an equal kept one', () => {
    const c = (status: string, t: number, type = 'Ready'): PodCondition => podCondition(type, status as ConditionStatus, t, undefined, undefined);
    const prev = [c('True', 1, 'Initialized'), c('True', 1)];
    const made = {};
    const live = [c('True', 1, 'Initialized'), c('False', 7)];
    const out = frozenConditions(live, prev, made);
    // only Ready is ever edited in place: the others are the live pod's own
    assert.equal(out[0], live[0]);
    assert.notEqual(out[1], live[1]);
    assert.deepEqual(out[1], live[1]);
    // the next pod's equal Ready shares that copy
    const again = frozenConditions([c('True', 1, 'Initialized'), c('False', 7)], prev, made);
    assert.equal(again[1], out[1]);
    // a list whose every condition is the earlier list's: that list
    assert.equal(frozenConditions([live[0], c('False', 7)], out, made), out);
    const fresh = [c('True', 1)];
    assert.notEqual(frozenConditions(fresh, undefined, {})[0], fresh[0]);
    assert.equal(frozenConditions([c('False', 8)], out.slice(1), made)[0].lastTransitionTime, 8);
    assert.equal(frozenConditions([c('False', 7, 'Ready'), c('True', 2, 'PodScheduled')], out.slice(1), made)[0], out[1], 'a Ready at the same index, equal');
  });
});
