/**
 * A stretch of Ready-only batches (informerHandlers.ts ReadyStretch): the owner of a pod marked not
 * ready is resolved and queued once per set while the controller is told nothing else at the same
 * instant; the next pod of the set takes the entry kept on its set. Anything else between two
 * batches (a wake that syncs the key, a ReplicaSet or pod event, a later instant) ends the stretch,
 * and the second batch queues its owner again. Each case marks one pod of `web` not ready in a
 * batch, does what the case says, marks a second pod of `web` in another batch at the same instant,
 * and reads whether `web` is queued by now and what its status says after a wake; with the
 * controller's verification off (what the simulation runs) and on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeObject, podObject, rsObject, World } from './harness';
import { createReplicaSetController, type ReplicaSetController } from '../../../../src/engine/controllers/replicaSet';
import type { PodBefore } from '../../../../src/engine/controllers/controller';
import type { PodRecord } from '../../../../src/engine/model/types';

interface Case {
  name: string;
  /** web's readyReplicas (and availableReplicas) as the status says before the first batch: 1 makes the sync between the batches write nothing */
  readyInStatus: number;
  /** what happens between the two batches */
  between: (w: World) => void;
  /** status writes of `web` between the batches */
  writesBetween: number;
}

const cases: Case[] = [
  { name: 'nothing between: the second pod takes the entry queued by the first', readyInStatus: 2, between: () => {}, writesBetween: 0 },
  { name: "a wake between whose sync writes web's status (its echo ends the stretch too)", readyInStatus: 2, between: (w) => w.settle(), writesBetween: 1 },
  {
    name: 'a wake between whose sync writes nothing (the status counted the first pod already)',
    readyInStatus: 1,
    between: (w) => w.settle(),
    writesBetween: 0,
  },
  { name: 'web scaled between (a ReplicaSet event), then a wake', readyInStatus: 1, between: (w) => (w.scale('default/web', 2), w.settle()), writesBetween: 1 },
];

const before = (p: PodRecord): PodBefore => ({
  nodeName: p.nodeName,
  tolerations: p.tolerations,
  phase: p.phase,
  conditions: p.conditions.map((c) => ({ ...c })),
  labels: p.meta.labels,
});

/** MarkPodsNotReady on the pod's node as the host tells it: the Ready condition written in place, then one batch */
function markNotReady(w: World, rs: ReplicaSetController, key: string): void {
  const pod = w.host.cluster.pods.get(key)!;
  const b = before(pod);
  const ready = pod.conditions.find((c) => c.type === 'Ready')!;
  ready.status = 'False';
  ready.lastTransitionTime = w.host.now;
  rs.onPodsReadyChanged(w.host, { node: pod.nodeName!, count: 1, pods: [pod], keys: [key], before: [b] });
}

for (const verify of [false, true])
  for (const c of cases) {
    test(`a stretch of Ready-only batches (verification ${verify ? 'on' : 'off'}): ${c.name}`, () => {
      const w = new World({
        minor: 31,
        nodes: [nodeObject('a'), nodeObject('b')],
        replicaSets: [
          rsObject('web', { replicas: 2, status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 } }),
          rsObject('other', { replicas: 1 }),
        ],
        pods: [podObject('web-1', 'web', { node: 'a' }), podObject('web-2', 'web', { node: 'b' }), podObject('other-1', 'other', { node: 'b' })],
      });
      // the world's controller verifies; the simulation's does not: the one under test replaces it
      const rs = verify ? w.rs : createReplicaSetController({});
      if (!verify) {
        w.host.controllers[0] = rs;
        rs.start(w.host, 'reconstructed');
      }
      w.settle();
      const web = w.replicaSet('default/web');
      web.status = { ...web.status, readyReplicas: c.readyInStatus, availableReplicas: c.readyInStatus };
      const writes = () => w.host.statusWrites.filter((k) => k === 'default/web').length;
      const queuedNow = () => rs.nextWake() !== undefined && rs.nextWake()! <= w.host.now;
      assert.equal(queuedNow(), false, 'web synced before the first batch');
      markNotReady(w, rs, 'default/web-1');
      assert.equal(queuedNow(), true, 'web queued by the first batch');
      const first = writes();
      c.between(w);
      assert.equal(writes() - first, c.writesBetween, "web's status writes between the batches");
      markNotReady(w, rs, 'default/web-2');
      assert.equal(queuedNow(), true, 'web queued after the second batch');
      w.settle();
      assert.equal(w.replicaSet('default/web').status.readyReplicas, 0, 'both pods counted not ready in the status');
    });
  }
