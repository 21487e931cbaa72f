/**
 * A scale-down's why-not, table-driven like Kubernetes' TestGetPodsToDelete: rows of pods (node,
 * phase, readiness, ready and creation times, restarts, deletion cost) and a scale, per version;
 * each row says which pods the syncs delete. The why-not is asked before the scale (the timeline's
 * `scale:` read ahead) and right after it (the surplus there, the sync not run yet); then the
 * controller runs and must delete exactly the pods named, at the time named, and keep the others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime, seconds } from '../../../../src/engine/model/time';
import type { WhyNot, WhyNotWorld } from '../../../../src/engine/trace/whyNot';
import { World, nodeObject, podObject, rsObject, type PodOpts } from './harness';

interface Row {
  name: string;
  minor: number;
  featureGates?: Record<string, boolean>;
  burstReplicas?: number;
  /** a controller of the ReplicaSet (a Deployment): 1.17+ ranks doubled-up pods first then */
  owned?: boolean;
  pods: [string, PodOpts][];
  replicas: number;
  /** the pods deleted, in the order the syncs delete them */
  deleted: string[];
  /** a kept pod and the rule that kept it */
  kept?: [string, string];
  /** a pod not bound or not started yet: its rank can change before the scale, so no time is named ahead */
  unsettled?: boolean;
}

const nodes = ['n1', 'n2', 'n3', 'n4'].map((n) => nodeObject(n));
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-deploy-web', controller: true };

const rows: Row[] = [
  {
    name: '1.12 ActivePods: unassigned, Pending, not ready, ready for less time, more restarts, newer go first',
    minor: 12,
    pods: [
      ['old', { node: 'n1', readyAgo: 3600, createdAgo: 7200 }],
      ['unassigned', { phase: 'Pending', ready: false }],
      ['pending', { node: 'n2', phase: 'Pending', ready: false }],
      ['notready', { node: 'n3', ready: false }],
      ['newready', { node: 'n1', readyAgo: 60 }],
      ['restarts', { node: 'n2', restarts: [5] }],
      ['newer', { node: 'n3', createdAgo: 4000 }],
    ],
    replicas: 1,
    deleted: ['unassigned', 'pending', 'notready', 'newready', 'restarts', 'newer'],
    unsettled: true,
  },
  {
    name: '1.12: of equal pods the newer goes, the oldest is kept',
    minor: 12,
    pods: [
      ['a', { node: 'n1', createdAgo: 9000 }],
      ['b', { node: 'n2', createdAgo: 8000 }],
      ['c', { node: 'n3', createdAgo: 7000 }],
    ],
    replicas: 1,
    deleted: ['c', 'b'],
    kept: ['a', 'creationTime'],
  },
  {
    name: '1.31 PodDeletionCost: the lower cost goes first, before ready time',
    minor: 31,
    pods: [
      ['cheap', { node: 'n1', readyAgo: 36000, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-5' } }],
      ['young', { node: 'n2', readyAgo: 60 }],
      ['dear', { node: 'n3', readyAgo: 60, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } }],
    ],
    replicas: 2,
    deleted: ['cheap'],
    kept: ['young', 'deletionCost'],
  },
  {
    name: '1.31 with a Deployment: doubled-up pods first; burstReplicas 1 ranks again after each deletion',
    minor: 31,
    owned: true,
    burstReplicas: 1,
    pods: [
      ['a', { node: 'n1', readyAgo: 600, uid: 'uid-1' }],
      ['b', { node: 'n1', readyAgo: 36000, uid: 'uid-2' }],
      ['c', { node: 'n2', readyAgo: 120, uid: 'uid-3' }],
      ['d', { node: 'n3', readyAgo: 36000, uid: 'uid-4' }],
    ],
    replicas: 2,
    // a (doubled up, ready for less time than b), then c: b is no longer doubled up, and c was ready for less time
    deleted: ['a', 'c'],
  },
  {
    name: '1.31 LogarithmicScaleDown off: ready times compared as they are',
    minor: 31,
    featureGates: { LogarithmicScaleDown: false },
    pods: [
      ['x', { node: 'n1', readyAgo: 3000 }],
      ['y', { node: 'n2', readyAgo: 3100 }],
    ],
    replicas: 1,
    deleted: ['x'],
    kept: ['y', 'readyTime'],
  },
];

const world = (scale?: { at: number; replicas: number }): WhyNotWorld => ({ kubelet: () => ({ running: true }), memo: new Map(), scalesTo: () => scale });
const ofPod = (ws: WhyNot[]) => ws.find((w) => w.outcome === 'PodDeletedByScaleDown');

for (const row of rows) {
  test(`scale-down why-not: ${row.name}`, () => {
    const w = new World({
      minor: row.minor,
      ...(row.featureGates ? { featureGates: row.featureGates } : {}),
      ...(row.burstReplicas ? { burstReplicas: row.burstReplicas } : {}),
      nodes,
      replicaSets: [rsObject('web', { replicas: row.pods.length, ...(row.owned ? { owner: deployment } : {}) })],
      pods: row.pods.map(([name, o]) => podObject(name, 'web', o)),
    });
    w.settle();
    const at = w.host.now + seconds(30);
    const scale = { at, replicas: row.replicas };
    // before the scale, read ahead from the timeline
    const ahead = new Map(row.pods.map(([name]) => [name, ofPod(w.rs.whyNot(w.host, `Pod/default/${name}`, world(scale)))]));
    const rsAhead = w.rs.whyNot(w.host, 'ReplicaSet/default/web', world(scale)).find((x) => x.outcome === 'ReplicaSetPodsDeleted');
    assert.equal(rsAhead?.conditional?.at, row.unsettled ? undefined : formatTime(at), 'the ReplicaSet names the scale');
    assert.deepEqual(rsAhead?.check.values?.deleting, row.deleted);
    for (const [name, said] of ahead) {
      if (row.unsettled) {
        assert.equal(said?.blocking?.guard, 'rankingSettled', `${name}: no time while the ranking can change`);
        assert.equal(said?.conditional ?? said?.never, undefined);
      } else if (row.deleted.includes(name)) {
        assert.equal(said?.conditional?.at, formatTime(at), `${name}: deleted at the scale`);
        assert.equal(said?.conditional?.if, `the timeline scales ReplicaSet/default/web to ${row.replicas} at ${formatTime(at)}`);
      } else {
        assert.equal(said?.never, true, `${name}: kept`);
        assert.match(said?.neverIf ?? '', /: it is kept$/);
      }
    }
    if (row.kept) assert.equal(ahead.get(row.kept[0])?.check.values?.ranking, row.kept[1]);
    w.runUntil(at);
    w.scale('default/web', row.replicas);
    // the surplus is there now, the sync not run yet: certain
    const now = new Map(row.pods.map(([name]) => [name, ofPod(w.rs.whyNot(w.host, `Pod/default/${name}`, world()))]));
    for (const name of row.deleted) assert.equal(now.get(name)?.wouldFireAt, formatTime(at), `${name}: deleted by the next sync`);
    w.settle();
    const gone = w.host.actions('PodsDeleted').flatMap((d) => (d.details as { pods: string[] }).pods);
    assert.deepEqual(gone, row.deleted, 'the run deletes the pods named, in that order');
    assert.deepEqual(
      w.podNames().sort(),
      row.pods
        .map(([n]) => n)
        .filter((n) => !row.deleted.includes(n))
        .sort(),
    );
  });
}

test('scale-down why-not: a pod whose node fails before the scale gets no time (the ranking can change)', () => {
  const w = new World({
    minor: 31,
    nodes: [nodeObject('n1', { ready: 'Unknown' }), nodeObject('n2')],
    replicaSets: [rsObject('web', { replicas: 2 })],
    pods: [podObject('a', 'web', { node: 'n1' }), podObject('b', 'web', { node: 'n2', readyAgo: 60 })],
  });
  w.settle();
  const scale = { at: w.host.now + seconds(30), replicas: 1 };
  for (const name of ['a', 'b']) {
    const said = ofPod(w.rs.whyNot(w.host, `Pod/default/${name}`, world(scale)));
    assert.ok(said, `${name}: answered`);
    assert.equal(said.conditional, undefined);
    assert.equal(said.never, undefined);
    assert.equal(said.blocking?.guard, 'rankingSettled');
    assert.match(said.check.rule, /the node of Pod\/default\/a \(n1\) is failing: Ready=Unknown/);
  }
});

test('scale-down why-not: a ReplicaSet making up a shortfall before the scale (a pod created, not bound yet) names no time', () => {
  const w = new World({
    minor: 31,
    nodes,
    replicaSets: [rsObject('web', { replicas: 3 })],
    pods: [podObject('a', 'web', { node: 'n1' }), podObject('b', 'web', { node: 'n2' })],
  });
  w.settle();
  const scale = { at: w.host.now + seconds(30), replicas: 1 };
  const said = ofPod(w.rs.whyNot(w.host, 'Pod/default/a', world(scale)));
  assert.ok(said, 'answered');
  assert.equal(said.conditional ?? said.never, undefined);
  assert.match(said.check.rule, /the ranking may change before the scale: Pod\/default\/web-\w+ is not bound yet/);
});

test('scale-down why-not: a list of more than 20 pods deleted says how many it leaves out', () => {
  const names = Array.from({ length: 34 }, (_, i) => `p${String(i).padStart(2, '0')}`);
  const w = new World({
    minor: 31,
    nodes,
    replicaSets: [rsObject('web', { replicas: 34 })],
    pods: names.map((n, i) => podObject(n, 'web', { node: `n${(i % 4) + 1}`, readyAgo: 600 + i })),
  });
  w.settle();
  const scale = { at: w.host.now + seconds(30), replicas: 4 };
  const rs = w.rs.whyNot(w.host, 'ReplicaSet/default/web', world(scale)).find((x) => x.outcome === 'ReplicaSetPodsDeleted');
  const deleting = rs?.check.values?.deleting as string[];
  assert.equal(deleting.length, 21);
  assert.equal(deleting[20], 'and 10 more', 'the ReplicaSet: 20 of the 30 named, the rest counted');
  assert.equal(rs?.check.values?.deletions, 30);
  const all = rs?.lists?.deleting as string[];
  assert.equal(all.length, 30, 'the ReplicaSet: all 30 in lists');
  const kept = names.find((n) => !deleting.includes(n) && ofPod(w.rs.whyNot(w.host, `Pod/default/${n}`, world(scale)))?.never);
  assert.ok(kept, 'a pod kept');
  const said = ofPod(w.rs.whyNot(w.host, `Pod/default/${kept}`, world(scale)));
  assert.equal((said?.check.values?.deleting as string[]).at(-1), 'and 10 more', 'the kept pod: the same');
  assert.deepEqual(said?.lists?.deleting, all, 'the kept pod: all 30 in lists');
  w.runUntil(scale.at);
  w.scale('default/web', 4);
  w.settle();
  const gone = w.host.actions('PodsDeleted').flatMap((d) => (d.details as { pods: string[] }).pods);
  assert.equal(gone.length, 30, 'the run deletes the 30 counted');
  assert.deepEqual(gone.slice(0, 20), deleting.slice(0, 20), 'the 20 named first, in that order');
  assert.deepEqual(gone, all, 'every one in lists, in that order');
});
