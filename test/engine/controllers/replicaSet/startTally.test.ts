/**
 * The ReplicaSet controller's start counts the pods of every ReplicaSet whose sync is due (every one) while it
 * indexes them (core.ts dueTally), and the first sync takes those running counts instead of making them
 * (upstream's first sync claims and counts: claimPods, calculateStatus). Each case runs the first syncs twice: as
 * started, and with the start's counts dropped (so the syncs count the pods themselves, as before); the
 * decisions, the statuses and the pods must be the same, and with tally verification on (harness.ts) every sync
 * that answers from the counts also reads every pod and throws when they differ.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { World, ownerRef, podObject, rsObject, type WorldOptions } from './harness';
import type { KObject } from '../../../../src/engine/model/types';

interface Case {
  name: string;
  world: Omit<WorldOptions, 'minor'> & { minor?: number };
  /** between the start and the first sync */
  then?: (w: World) => void;
  /** the start counted default/web's pods */
  counted: boolean;
  /** default/web's status once the syncs of the instant are done (created pods are pending): replicas, fullyLabeled, ready, available, terminating */
  status: [number, number, number, number, number | undefined];
}

const web = (o: Parameters<typeof rsObject>[1] = {}) => rsObject('web', { replicas: 2, ...o });
const pods = (n: number, o: Parameters<typeof podObject>[2] = {}) => Array.from({ length: n }, (_, i) => podObject(`web-${i}`, 'web', { node: 'n1', ...o }));

const cases: Case[] = [
  { name: 'every pod claimed, labelled and ready', world: { replicaSets: [web()], pods: pods(2) }, counted: true, status: [2, 2, 2, 2, undefined] },
  {
    name: 'a pod not ready and one without a template label',
    world: {
      replicaSets: [web({ replicas: 3, templateLabels: { app: 'web', tier: 'front' } })],
      pods: [
        podObject('web-0', 'web', { node: 'n1', labels: { app: 'web', tier: 'front' } }),
        podObject('web-1', 'web', { node: 'n1', labels: { app: 'web', tier: 'front' }, ready: false }),
        podObject('web-2', 'web', { node: 'n1', labels: { app: 'web' } }),
      ],
    },
    counted: true,
    status: [3, 2, 2, 2, undefined],
  },
  {
    name: 'a pod being deleted: not claimed, counted as terminating (1.35), and replaced',
    world: { minor: 35, replicaSets: [web()], pods: [...pods(1), podObject('web-9', 'web', { node: 'n1', deleting: true })] },
    counted: true,
    status: [2, 2, 1, 1, 1],
  },
  {
    name: 'a pod of another ReplicaSet that this one selects too is not claimed',
    world: {
      replicaSets: [web(), rsObject('db', { replicas: 1, labels: { tier: 'db' } })],
      pods: [...pods(1), podObject('db-0', 'db', { node: 'n1', labels: { app: 'web', tier: 'db' }, owner: ownerRef('db') })],
    },
    counted: true,
    status: [2, 2, 1, 1, undefined],
  },
  {
    name: 'an orphan pod matching two selectors is adopted by the first to sync, and not counted by the other',
    world: {
      replicaSets: [web(), rsObject('front', { replicas: 1, labels: { tier: 'front' } })],
      pods: [...pods(1), podObject('orphan', undefined, { node: 'n1', labels: { app: 'web', tier: 'front' } })],
    },
    counted: true,
    status: [2, 2, 1, 1, undefined],
  },
  {
    name: 'a pod of web no longer matching its selector is released',
    world: { replicaSets: [web()], pods: [...pods(1), podObject('web-x', 'web', { node: 'n1', labels: { app: 'other' } })] },
    counted: true,
    status: [2, 2, 1, 1, undefined],
  },
  {
    name: 'a pod that turns not ready between the start and the first sync',
    world: { replicaSets: [web()], pods: pods(2) },
    then: (w) => {
      const p = w.host.cluster.pods.get('default/web-1')!;
      p.conditions = p.conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'False' } : c));
      w.host.updatePod(p);
    },
    counted: true,
    status: [2, 2, 1, 1, undefined],
  },
  {
    name: 'a pod deleted between the start and the first sync is replaced',
    world: { replicaSets: [web()], pods: pods(2) },
    then: (w) => w.host.deletePod(w.host.cluster.pods.get('default/web-0')!),
    counted: true,
    status: [2, 2, 1, 1, undefined],
  },
  {
    name: 'web scaled between the start and the first sync: its check changes, and its pods are counted again',
    world: { replicaSets: [web()], pods: pods(2) },
    then: (w) => w.scale('default/web', 3),
    counted: true,
    status: [3, 3, 2, 2, undefined],
  },
  {
    name: 'minReadySeconds: the pods ready for less are not available (counted from the pods, not the counts)',
    world: { replicaSets: [web({ minReadySeconds: 600 })], pods: [...pods(1), podObject('web-1', 'web', { node: 'n1', readyAgo: 300 })] },
    counted: true,
    status: [2, 2, 2, 1, undefined],
  },
  {
    name: 'a ReplicaSet whose selector does not match its template is not managed: nothing counted',
    world: { replicaSets: [web({ templateLabels: { app: 'other' } })], pods: pods(2) },
    counted: false,
    status: [0, 0, 0, 0, undefined],
  },
];

const node: KObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', uid: 'uid-n1', labels: { 'kubernetes.io/hostname': 'n1' } },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
};

function firstSyncs(c: Case, dropCounts: boolean): { counted: boolean; decisions: string[]; statuses: string; pods: string[] } {
  const w = new World({ minor: 31, nodes: [node], ...c.world });
  const uid = 'uid-rs-web';
  const counted = w.rs.byOwner.get(uid)?.tally !== undefined;
  if (dropCounts) for (const owner of [...w.rs.byOwner.keys()]) w.rs.dropTally(owner);
  c.then?.(w);
  w.settle();
  const decisions = w.host.decisions.map((d) => `${d.controller} ${d.action} ${d.object}: ${d.summary}`);
  const statuses = JSON.stringify([...w.host.cluster.replicaSets].map(([k, rs]) => [k, rs.status]));
  return { counted, decisions, statuses, pods: [...w.host.cluster.pods.keys()].sort() };
}

describe("the start's running counts taken by the first sync", () => {
  for (const c of cases)
    it(c.name, () => {
      const started = firstSyncs(c, false);
      const counting = firstSyncs(c, true);
      assert.equal(started.counted, c.counted, c.counted ? "the start counted web's pods" : 'nothing counted at the start');
      assert.deepEqual(started.decisions, counting.decisions, 'the decisions of syncs that count the pods themselves');
      assert.equal(started.statuses, counting.statuses);
      assert.deepEqual(started.pods, counting.pods);
      const s = JSON.parse(started.statuses) as [string, Record<string, number | undefined>][];
      const st = s.find(([k]) => k === 'default/web')![1];
      assert.deepEqual([st.replicas, st.fullyLabeledReplicas, st.readyReplicas, st.availableReplicas, st.terminatingReplicas], c.status);
    });
});
