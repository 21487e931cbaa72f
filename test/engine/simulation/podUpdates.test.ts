/**
 * MarkPodsNotReady's writes to one node's pods reach the host together (`updatePodsReady`) when no API
 * call can fail, and the host tells each controller of all of them: the ReplicaSet controller in one
 * call (`onPodUpdates`), the others one `onPodEvent` each. A batch must do what the updates one by one
 * do: each case runs one scenario with the ReplicaSet controller taking batches and with it taking
 * every update alone (its `onPodUpdates` taken away), its tallies verified, and compares the traces,
 * the ReplicaSets' statuses and the controller's machines; and checks which batches it was given.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import { createReplicaSetController } from '../../../src/engine/controllers/replicaSet';
import type { KObject } from '../../../src/engine/model/types';
import { node, pod, replicaSet, scenarioOf, type EventSpec } from '../../helpers/scenario';

const owner = (rs: string): KObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: rs,
  uid: `uid-rs-default-${rs}`,
  controller: true,
  blockOwnerDeletion: true,
});
const member = (rs: string, name: string, nodeName: string) => pod('default', name, nodeName, { labels: { app: rs }, owner: owner(rs) });
const stop = (nodes: string[]): EventSpec => ({ at: '10s', kind: 'kubelet', action: 'stop', target: { nodes } }) as EventSpec;

interface Case {
  name: string;
  version: string;
  objects: KObject[];
  events: EventSpec[];
  /** the batches the ReplicaSet controller is given, in order (their keys) */
  batches: string[][];
}

const cases: Case[] = [
  {
    name: "one node's pods of two ReplicaSets come as one batch",
    version: '1.31',
    objects: [
      node('a'),
      node('b'),
      replicaSet('default', 'web', 2, { app: 'web' }),
      replicaSet('default', 'api', 2, { app: 'api' }),
      member('web', 'web-1', 'a'),
      member('api', 'api-1', 'a'),
      member('web', 'web-2', 'b'),
      member('api', 'api-2', 'b'),
    ],
    events: [stop(['a'])],
    batches: [['default/api-1', 'default/web-1']],
  },
  {
    name: 'two nodes come as two batches, an orphan among the pods',
    version: '1.35',
    objects: [
      node('a'),
      node('b'),
      node('c'),
      replicaSet('default', 'web', 3, { app: 'web' }),
      member('web', 'web-1', 'a'),
      member('web', 'web-2', 'b'),
      member('web', 'web-3', 'c'),
      pod('default', 'solo', 'b'),
    ],
    events: [stop(['a', 'b'])],
    batches: [['default/web-1'], ['default/solo', 'default/web-2']],
  },
  {
    name: 'pods of one ReplicaSet on two nodes, marked in one pass: two batches, one owner',
    version: '1.35',
    objects: [
      node('a'),
      node('b'),
      node('c'),
      replicaSet('default', 'web', 4, { app: 'web' }),
      member('web', 'web-1', 'a'),
      member('web', 'web-2', 'a'),
      member('web', 'web-3', 'b'),
      member('web', 'web-4', 'c'),
    ],
    events: [stop(['a', 'b'])],
    batches: [['default/web-1', 'default/web-2'], ['default/web-3']],
  },
  {
    name: 'an API call may fail: the updates come one by one',
    version: '1.35',
    objects: [node('a'), node('b'), replicaSet('default', 'web', 2, { app: 'web' }), member('web', 'web-1', 'a'), member('web', 'web-2', 'b')],
    events: [{ at: '5s', kind: 'fail', verb: 'update', resource: 'pods', count: 1 } as EventSpec, stop(['a'])],
    batches: [],
  },
];

for (const c of cases) {
  test(`MarkPodsNotReady's updates by node: ${c.name}`, () => {
    const batches: string[][] = [];
    const run = (batched: boolean) => {
      const factory: ControllerFactory = (name, ctx) => {
        if (name !== 'replicaset') return defaultControllerFactory(name, ctx);
        const ctl = createReplicaSetController({ verifyTallies: true });
        if (!batched) delete (ctl as { onPodUpdates?: unknown }).onPodUpdates;
        else {
          const onBatch = ctl.onPodUpdates!.bind(ctl);
          ctl.onPodUpdates = (host, pods, befores, keys, count) => {
            batches.push(keys.slice(0, count));
            onBatch(host, pods, befores, keys, count);
          };
        }
        return ctl;
      };
      const sim = createSimulation(scenarioOf({ objects: c.objects, version: c.version, events: c.events }), { controllerFactory: factory });
      sim.runUntil(sim.startTime + 600_000_000);
      return {
        trace: sim.trace.map((d) => `${d.seq} ${d.time} ${d.action} ${d.object} ${d.summary}`),
        statuses: [...sim.cluster.replicaSets.values()].map((rs) => JSON.stringify(rs.status)),
        machines: JSON.stringify(sim.machines().filter((m) => m.id.startsWith('replicaset/'))),
      };
    };
    const batched = run(true);
    const alone = run(false);
    assert.deepEqual(batches, c.batches, 'the batches given');
    assert.deepEqual(batched.trace, alone.trace, 'the trace with batches is the trace without');
    assert.deepEqual(batched.statuses, alone.statuses, "the ReplicaSets' statuses");
    assert.equal(batched.machines, alone.machines, "the ReplicaSet controller's machines");
  });
}
