/**
 * MarkPodsNotReady tells the host of a node's pods at once (`updatePodsReady`), and the host tells
 * each controller that takes a batch (`onPodsReadyChanged`; the ReplicaSet controller handles a plain
 * Ready-only update as upstream's updatePod does) and the others pod by pod. The batch must decide
 * nothing else than the pods told one by one: each case runs one scenario three ways (the batch; the
 * controllers without their batch methods, told pod by pod by the host; a host without
 * updatePodsReady, so updatePod per pod) and compares the traces, and checks the batches the
 * ReplicaSet controller was told against the pods marked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import { SimHost } from '../../../src/engine/simulation/simHost';
import { createReplicaSetController } from '../../../src/engine/controllers/replicaSet';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import type { KObject } from '../../../src/engine/model/types';
import type { PodBefore } from '../../../src/engine/controllers/controller';
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
/** a member that stays on its unreachable node (no eviction), so that a later outage marks it again */
const staying = (rs: string, name: string, nodeName: string) =>
  pod('default', name, nodeName, {
    labels: { app: rs },
    owner: owner(rs),
    tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }],
  });

interface Case {
  name: string;
  version: string;
  objects: KObject[];
  events: EventSpec[];
  /** the batches the ReplicaSet controller was told, in order */
  batches: string[][];
}

const kubelet = (action: 'stop' | 'start', at: string, nodes: string[]): EventSpec => ({ at, kind: 'kubelet', action, target: { nodes } }) as EventSpec;
const deleting = (o: KObject): KObject => ({ ...o, metadata: { ...(o.metadata as KObject), deletionTimestamp: '2025-12-31T23:59:00Z', finalizers: ['x/y'] } });
const slow = (o: KObject): KObject => ({ ...o, spec: { ...(o.spec as KObject), minReadySeconds: 30 } });
const other = (rs: string): KObject => ({ ...owner(rs), name: `${rs}-renamed` });

const cases: Case[] = [
  {
    name: "one node's pods of two ReplicaSets, one with minReadySeconds; the kubelet back and gone again (its pods, not ready still, are not marked again)",
    version: '1.31',
    objects: [
      node('a'),
      node('b'),
      replicaSet('default', 'web', 2, { app: 'web' }),
      slow(replicaSet('default', 'api', 2, { app: 'api' })),
      staying('web', 'web-1', 'a'),
      staying('api', 'api-1', 'a'),
      member('web', 'web-2', 'b'),
      member('api', 'api-2', 'b'),
    ],
    events: [kubelet('stop', '10s', ['a']), kubelet('start', '2m', ['a']), kubelet('stop', '4m', ['a'])],
    batches: [['default/api-1', 'default/web-1']],
  },
  {
    name: 'two nodes, an orphan, a pod being deleted and one naming another ReplicaSet by its uid (1.35)',
    version: '1.35',
    objects: [
      node('a'),
      node('b'),
      node('c'),
      replicaSet('default', 'web', 4, { app: 'web' }),
      member('web', 'web-1', 'a'),
      member('web', 'web-2', 'b'),
      member('web', 'web-3', 'c'),
      deleting(member('web', 'web-4', 'a')),
      pod('default', 'solo', 'b'),
      pod('default', 'stray', 'b', { labels: { app: 'web' }, owner: other('web') }),
    ],
    events: [kubelet('stop', '10s', ['a', 'b'])],
    batches: [
      ['default/web-1', 'default/web-4'],
      ['default/solo', 'default/stray', 'default/web-2'],
    ],
  },
  {
    name: 'a failed pod update leaves its pod out of the batch and is retried (1.35)',
    version: '1.35',
    objects: [
      node('a'),
      node('b'),
      replicaSet('default', 'web', 3, { app: 'web' }),
      staying('web', 'web-1', 'a'),
      staying('web', 'web-2', 'a'),
      member('web', 'web-3', 'b'),
    ],
    events: [{ at: '5s', kind: 'fail', verb: 'update', resource: 'pods', count: 1 } as EventSpec, kubelet('stop', '10s', ['a'])],
    batches: [['default/web-2'], ['default/web-1']],
  },
  {
    name: 'the kubelet back and gone again on 1.12 (MarkAllPodsNotReady): pods already not ready are marked again, their `before` the first mark',
    version: '1.12',
    objects: [node('a'), node('b'), replicaSet('default', 'web', 2, { app: 'web' }), member('web', 'web-1', 'a'), member('web', 'web-2', 'b')],
    events: [kubelet('stop', '10s', ['a']), kubelet('start', '2m', ['a']), kubelet('stop', '3m', ['a'])],
    batches: [['default/web-1'], ['default/web-1']],
  },
  {
    name: 'a replacement the binder started (announced Ready) on a node that goes Unknown later: its `before` shows it ready',
    version: '1.31',
    objects: [node('a'), node('b'), node('c'), replicaSet('default', 'web', 2, { app: 'web' }), member('web', 'web-1', 'a'), member('web', 'web-2', 'c')],
    events: [kubelet('stop', '10s', ['a']), kubelet('stop', '2m', ['b'])],
    batches: [['default/web-1'], ['default/web-tr8q5']],
  },
];

type Way = 'batch' | 'controllers one by one' | 'host one by one';

for (const c of cases) {
  test(`a node's pods marked not ready at once decide as one by one: ${c.name}`, () => {
    const told: string[][] = [];
    // every pod update the ReplicaSet controller was told, with its `before`, per way
    const updates: Record<Way, string[]> = { batch: [], 'controllers one by one': [], 'host one by one': [] };
    const shown = (key: string, b: PodBefore | undefined) =>
      `${key} ${b?.nodeName} ${b?.phase} ${b?.conditions.map((x) => `${x.type}=${x.status}@${x.lastTransitionTime}`).join(',')}`;
    const run = (way: Way) => {
      const factory: ControllerFactory = (name, ctx) => {
        // the batch's ReplicaSet controller checks its running counts against full reads, and the plain path's premises
        const ctl = way === 'batch' && name === 'replicaset' ? createReplicaSetController({ verifyTallies: true }) : defaultControllerFactory(name, ctx);
        if (!ctl) return ctl;
        if (name === 'replicaset') {
          const on = ctl.onPodEvent!.bind(ctl);
          ctl.onPodEvent = (host, type, p, before, key) => {
            if (type === 'updated') updates[way].push(shown(key!, before));
            on(host, type, p, before, key);
          };
          const batched = ctl.onPodsReadyChanged!.bind(ctl);
          ctl.onPodsReadyChanged = (host, batch) => {
            for (let i = 0; i < batch.count; i++) updates[way].push(shown(batch.keys[i], batch.before[i]));
            batched(host, batch);
          };
        }
        if (way === 'controllers one by one') delete (ctl as { onPodsReadyChanged?: unknown }).onPodsReadyChanged;
        else if (way === 'batch' && name === 'replicaset') {
          const on = ctl.onPodsReadyChanged!.bind(ctl);
          ctl.onPodsReadyChanged = (host, batch) => {
            told.push(batch.keys.slice(0, batch.count));
            on(host, batch);
          };
        }
        return ctl;
      };
      const proto = SimHost.prototype as { updatePodsReady?: unknown };
      const batched = proto.updatePodsReady;
      if (way === 'host one by one') delete proto.updatePodsReady;
      try {
        const sim = createSimulation(scenarioOf({ objects: c.objects, version: c.version, events: c.events }), { controllerFactory: factory });
        sim.runUntil(sim.startTime + 600_000_000);
        return sim.trace.map((d) => `${d.seq} ${d.time} ${d.action} ${d.object} ${d.summary} ${JSON.stringify(d.because)}`);
      } finally {
        proto.updatePodsReady = batched;
      }
    };
    const batch = run('batch');
    assert.deepEqual(told, c.batches, 'the batches the ReplicaSet controller was told');
    assert.ok(
      batch.some((d) => d.includes('ReplicaSetStatusUpdated')),
      'the marks reach the ReplicaSets (a status written)',
    );
    assert.deepEqual(batch, run('controllers one by one'), "the trace with the controllers' batch methods is the trace without them");
    assert.deepEqual(batch, run('host one by one'), 'the trace with the batch is the trace of updatePod per pod');
    assert.deepEqual(updates.batch, updates['host one by one'], "the updates and their `before`, told in a batch, are updatePod's");
  });
}
