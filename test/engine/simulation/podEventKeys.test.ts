/**
 * The host tells every controller of a pod change with the pod's `namespace/name` key (the one
 * string it made or was given, so that no controller makes and hashes its own), and
 * MarkPodsNotReady lists the pods it marked with that same key. Each case drives one kind of pod
 * change through the real simulation and checks every announcement every controller received.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import type { KObject } from '../../../src/engine/model/types';
import { node, pod, replicaSet, scenarioOf, type EventSpec } from '../../helpers/scenario';

const owner: KObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true, blockOwnerDeletion: true };
const web = (name: string, nodeName: string | undefined) => pod('default', name, nodeName, { labels: { app: 'web' }, owner });

interface Case {
  name: string;
  events: EventSpec[];
  /** announcements (type, pod key) that must be among those seen */
  expect: [string, string][];
}

const cases: Case[] = [
  {
    name: "a node's kubelet stops: MarkPodsNotReady updates its pods",
    events: [{ at: '10s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec],
    expect: [
      ['updated', 'default/web-1'],
      ['updated', 'default/web-2'],
    ],
  },
  {
    name: 'a pod is deleted and its ReplicaSet creates a replacement, which the binder binds',
    events: [{ at: '10s', kind: 'delete', ref: 'Pod/default/web-1' } as EventSpec],
    expect: [['deleted', 'default/web-1']],
  },
  {
    name: 'a pod is applied',
    events: [{ at: '10s', kind: 'apply', object: pod('other', 'solo', 'b') } as EventSpec],
    expect: [['added', 'other/solo']],
  },
];

for (const c of cases) {
  test(`pod announcements carry the pod's key: ${c.name}`, () => {
    const seen: { controller: string; type: string; key: string | undefined; expected: string }[] = [];
    const factory: ControllerFactory = (name, ctx) => {
      const ctl = defaultControllerFactory(name, ctx);
      if (ctl?.onPodEvent) {
        const on = ctl.onPodEvent.bind(ctl);
        ctl.onPodEvent = (host, type, p, before, key) => {
          seen.push({ controller: name, type, key, expected: `${p.meta.namespace}/${p.meta.name}` });
          on(host, type, p, before, key);
        };
      }
      // a batch of Ready-only updates (updatePodsReady) is an update per pod, with the batch's keys
      if (ctl?.onPodsReadyChanged) {
        const on = ctl.onPodsReadyChanged.bind(ctl);
        ctl.onPodsReadyChanged = (host, batch) => {
          for (let i = 0; i < batch.count; i++)
            seen.push({ controller: name, type: 'updated', key: batch.keys[i], expected: `${batch.pods[i].meta.namespace}/${batch.pods[i].meta.name}` });
          on(host, batch);
        };
      }
      return ctl;
    };
    const objects = [node('a'), node('b'), replicaSet('default', 'web', 3, { app: 'web' }), web('web-1', 'a'), web('web-2', 'a'), web('web-3', 'b')];
    const sim = createSimulation(scenarioOf({ objects, version: '1.31', events: c.events }), { controllerFactory: factory });
    sim.runUntil(sim.startTime + 120_000_000);
    assert.ok(seen.length > 0, 'no pod announcement was seen');
    for (const s of seen) assert.equal(s.key, s.expected, `${s.controller} was told of a ${s.type} pod with key ${s.key}`);
    const announced = new Set(seen.map((s) => `${s.type} ${s.key}`));
    for (const [type, key] of c.expect) assert.ok(announced.has(`${type} ${key}`), `no ${type} announcement of ${key} (seen: ${[...announced].join(', ')})`);
    // every controller with a pod handler was told of each change
    const byController = new Map<string, number>();
    for (const s of seen) byController.set(s.controller, (byController.get(s.controller) ?? 0) + 1);
    assert.equal(new Set(byController.values()).size, 1, `controllers were told of different numbers of changes: ${[...byController]}`);
    const marked = sim.trace.filter((d) => d.action === 'PodsMarkedNotReady');
    for (const d of marked) assert.deepEqual((d.details as { pods: string[] }).pods, ['default/web-1', 'default/web-2']);
    if (c.name.includes('MarkPodsNotReady')) assert.equal(marked.length, 1);
  });
}

test("a ReplicaSet's status write is announced with its key, the one every controller is told", () => {
  const seen: { controller: string; key: string | undefined; expected: string }[] = [];
  const factory: ControllerFactory = (name, ctx) => {
    const ctl = defaultControllerFactory(name, ctx);
    if (ctl?.onReplicaSetEvent) {
      const on = ctl.onReplicaSetEvent.bind(ctl);
      ctl.onReplicaSetEvent = (host, type, rs, key) => {
        seen.push({ controller: name, key, expected: `${rs.meta.namespace}/${rs.meta.name}` });
        on(host, type, rs, key);
      };
    }
    return ctl;
  };
  const objects = [node('a'), node('b'), replicaSet('default', 'web', 3, { app: 'web' }), web('web-1', 'a'), web('web-2', 'a'), web('web-3', 'b')];
  const events = [{ at: '10s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec];
  const sim = createSimulation(scenarioOf({ objects, version: '1.31', events }), { controllerFactory: factory });
  sim.runUntil(sim.startTime + 120_000_000);
  // the kubelet's stop makes MarkPodsNotReady lower readyReplicas: the controller writes the status
  assert.ok(
    sim.trace.some((d) => d.action === 'ReplicaSetStatusUpdated'),
    'no status was written',
  );
  assert.ok(seen.length > 0, 'no ReplicaSet announcement was seen');
  for (const s of seen) assert.equal(s.key, s.expected, `${s.controller} was told of a ReplicaSet with key ${s.key}`);
});
