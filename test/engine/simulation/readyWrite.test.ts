/**
 * A Ready write (`updatePod` with `ready`: MarkPodsNotReady's) tells the host that the caller changed
 * nothing of the pod but its Ready condition, so the host takes the pod's node from the record instead
 * of its index (a cold look-up per pod at 5,000 nodes). Each case drives one write through the real
 * host: the controllers must be told the node the pod was announced on, the index must keep it there,
 * and the checking mode (`checks.pods`) must catch a caller that moved the pod and still called it a
 * Ready write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import type { PodBefore } from '../../../src/engine/controllers/controller';
import type { KObject } from '../../../src/engine/model/types';
import { node, pod, replicaSet, scenarioOf } from '../../helpers/scenario';

const owner: KObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true, blockOwnerDeletion: true };
const web = (name: string, nodeName: string) => pod('default', name, nodeName, { labels: { app: 'web' }, owner });

interface Case {
  name: string;
  checks: boolean;
  /** the node the caller writes into the record before the Ready write (a breach of the contract) */
  moveTo?: string;
  /** the error the write must throw, else what the controllers are told and where the index keeps the pod */
  throws?: RegExp;
  before?: string;
  indexedOn?: string;
}

const cases: Case[] = [
  { name: 'a Ready write, checks on', checks: true, before: 'a', indexedOn: 'a' },
  { name: 'a Ready write, checks off', checks: false, before: 'a', indexedOn: 'a' },
  {
    name: 'a pod moved and called a Ready write, checks on',
    checks: true,
    moveTo: 'b',
    throws: /Pod default\/web-1 was given as a Ready write but its node changed \(a -> b\)/,
  },
];

for (const c of cases) {
  test(`updatePod with a Ready write: ${c.name}`, () => {
    const told: (PodBefore | undefined)[] = [];
    const factory: ControllerFactory = (name, ctx) => {
      const ctl = defaultControllerFactory(name, ctx);
      if (name === 'replicaset' && ctl?.onPodEvent) {
        const on = ctl.onPodEvent.bind(ctl);
        ctl.onPodEvent = (host, type, p, before, key) => {
          if (key === 'default/web-1') told.push(before);
          on(host, type, p, before, key);
        };
      }
      return ctl;
    };
    const objects = [node('a'), node('b'), replicaSet('default', 'web', 2, { app: 'web' }), web('web-1', 'a'), web('web-2', 'b')];
    const sim = createSimulation(scenarioOf({ objects, version: '1.31', events: [] }), { controllerFactory: factory, checks: { pods: c.checks } });
    sim.step();
    const host = sim.host;
    const p = host.cluster.pods.get('default/web-1')!;
    const ready = p.conditions.find((x) => x.type === 'Ready')!;
    assert.equal(ready.status, 'True', 'the fixture pod starts ready');
    if (c.moveTo !== undefined) p.nodeName = c.moveTo;
    const was = ready.status,
      wasTime = ready.lastTransitionTime;
    ready.status = 'False';
    const write = () => host.updatePod(p, 'default/web-1', ready, was, wasTime);
    if (c.throws) {
      assert.throws(write, c.throws);
      return;
    }
    write();
    assert.equal(told.length, 1, 'the ReplicaSet controller was told of the write once');
    assert.equal(told[0]?.nodeName, c.before, 'the before carries the node the pod was announced on');
    assert.ok(host.cluster.podsByNode.get(c.indexedOn!)?.has('default/web-1'), `the index keeps the pod on ${c.indexedOn}`);
  });
}
