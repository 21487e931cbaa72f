/**
 * World events (spec 1.2, 1.3): each kind changes the world as written,
 * becomes a world decision that remembers the fact it causes, and is
 * announced to the running controllers.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { mergePatch, resolveNodeTarget } from '../../../src/engine/simulation/world';
import { formatTime, seconds } from '../../../src/engine/model/time';
import type { KObject } from '../../../src/engine/model/types';
import { fakeFactory } from '../../helpers/fakeControllers';
import { node, pod, replicaSet, scenarioOf, T0_MICROS, type EventSpec } from '../../helpers/scenario';

const s = (n: number) => T0_MICROS + seconds(n);

function run(
  events: EventSpec[],
  objects: KObject[] = [
    node('a', { zone: 'z1' }),
    node('b', { zone: 'z2', labels: { role: 'db' } }),
    node('c', { zone: 'z1', labels: { role: 'web' } }),
    pod('default', 'p1', 'a'),
    replicaSet('default', 'web', 2, { app: 'web' }),
  ],
) {
  const log: string[] = [];
  const sim = createSimulation(scenarioOf({ objects, version: '1.31', events }), { controllerFactory: fakeFactory({ replicaset: {} }, log) });
  sim.runUntil(s(60));
  return { sim, log };
}

describe('node targets', () => {
  const nodes = new Map([
    ['b', { meta: { name: 'b', labels: { 'topology.kubernetes.io/zone': 'z1', role: 'db' } } }],
    ['a', { meta: { name: 'a', labels: { 'failure-domain.beta.kubernetes.io/zone': 'z1' } } }],
    ['c', { meta: { name: 'c', labels: { 'topology.kubernetes.io/zone': 'z2', role: 'web' } } }],
  ]) as never;
  const cases: { name: string; target: Parameters<typeof resolveNodeTarget>[1]; found: string[]; missing?: string[] }[] = [
    {
      name: 'nodes: names the nodes, in the order written, and reports the missing ones',
      target: { nodes: ['c', 'x', 'a'] },
      found: ['c', 'a'],
      missing: ['x'],
    },
    { name: 'zone: matches the GA zone label, else the beta one, in name order', target: { zone: 'z1' }, found: ['a', 'b'] },
    { name: 'selector: matchLabels', target: { selector: { matchLabels: { role: 'web' } } }, found: ['c'] },
    {
      name: 'selector: matchExpressions NotIn includes nodes without the label',
      target: { selector: { matchExpressions: [{ key: 'role', operator: 'NotIn', values: ['db'] }] } },
      found: ['a', 'c'],
    },
    { name: 'zone and selector together must both match', target: { zone: 'z1', selector: { matchLabels: { role: 'db' } } }, found: ['b'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = resolveNodeTarget(nodes, c.target);
      assert.deepEqual(
        r.found.map((n) => n.meta.name),
        c.found,
      );
      assert.deepEqual(r.missing, c.missing ?? []);
    });
  }
});

describe('JSON merge patch (RFC 7386)', () => {
  const cases: { name: string; target: unknown; patch: unknown; result: unknown }[] = [
    { name: 'merges objects recursively', target: { a: { b: 1, c: 2 } }, patch: { a: { c: 3 } }, result: { a: { b: 1, c: 3 } } },
    { name: 'null removes a member', target: { a: 1, b: 2 }, patch: { a: null }, result: { b: 2 } },
    { name: 'arrays are replaced, not merged', target: { a: [1, 2] }, patch: { a: [3] }, result: { a: [3] } },
    { name: 'a non-object patch replaces the target', target: { a: 1 }, patch: 'x', result: 'x' },
    { name: 'an object patch on a scalar starts from an empty object', target: 3, patch: { a: { b: null, c: 1 } }, result: { a: { c: 1 } } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(mergePatch(c.target, c.patch), c.result));
});

describe('world events', () => {
  it('kubelet: stop with zone: stops every node of the zone, one decision per node remembering the heartbeat fact', () => {
    const { sim } = run([{ at: '5s', kind: 'kubelet', action: 'stop', target: { zone: 'z1' } } as EventSpec]);
    const stopped = sim.trace.filter((d) => d.action === 'KubeletStopped');
    assert.deepEqual(
      stopped.map((d) => d.object),
      ['Node/a', 'Node/c'],
    );
    assert.equal(sim.host.recall('Node/c', 'heartbeat'), stopped[1].seq);
    assert.equal(sim.kubelets.isRunning('b'), true);
  });

  it('taint: adds the taint with timeAdded = now for NoExecute, remembers taint:KEY:EFFECT and tells the controllers', () => {
    const { sim, log } = run([{ at: '7s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } } as EventSpec]);
    const t = sim.cluster.nodes.get('a')!.taints[0];
    assert.deepEqual([t.key, t.effect, formatTime(t.timeAdded!)], ['example.com/maint', 'NoExecute', '2026-01-01T00:00:07.000Z']);
    assert.equal(sim.host.recall('Node/a', 'taint:example.com/maint:NoExecute'), 1);
    assert.ok(log.includes('replicaset node updated a'));
  });

  it('untaint: removes the taint with that key (and effect, when given)', () => {
    const objects = [
      node('a', {
        taints: [
          { key: 'k', effect: 'NoSchedule' },
          { key: 'k', effect: 'NoExecute' },
          { key: 'o', effect: 'NoSchedule' },
        ],
      }),
    ];
    const { sim } = run(
      [
        { at: '1s', kind: 'untaint', target: { nodes: ['a'] }, taint: { key: 'k', effect: 'NoExecute' } } as EventSpec,
        { at: '2s', kind: 'untaint', target: { nodes: ['a'] }, taint: { key: 'o' } } as EventSpec,
      ],
      objects,
    );
    assert.deepEqual(
      sim.cluster.nodes.get('a')!.taints.map((t) => `${t.key}:${t.effect}`),
      ['k:NoSchedule'],
    );
  });

  it('apply: creates a pod with the DefaultTolerationSeconds tolerations, indexed by node, and announced as added', () => {
    const { sim, log } = run([{ at: '3s', kind: 'apply', object: pod('default', 'new', 'b') } as EventSpec]);
    const p = sim.cluster.pods.get('default/new')!;
    assert.deepEqual(
      p.tolerations.map((t) => `${t.key}:${t.effect}:${t.tolerationSeconds}`),
      ['node.kubernetes.io/not-ready:NoExecute:300', 'node.kubernetes.io/unreachable:NoExecute:300'],
    );
    assert.ok(sim.cluster.podsByNode.get('b')!.has('default/new'));
    assert.ok(log.includes('replicaset pod added default/new'));
    assert.equal(sim.trace.at(0)!.action, 'ObjectApplied');
    assert.equal(sim.host.recall('Pod/default/new', 'created'), 1);
  });

  it('apply: a pod from the snapshot replaced by apply keeps its tolerations as written (no defaults) and moves in the index', () => {
    const moved = pod('default', 'p1', 'b');
    const { sim, log } = run([{ at: '3s', kind: 'apply', object: moved } as EventSpec]);
    assert.equal(sim.cluster.pods.get('default/p1')!.tolerations.length, 0);
    assert.ok(!sim.cluster.podsByNode.get('a')?.has('default/p1'));
    assert.ok(sim.cluster.podsByNode.get('b')!.has('default/p1'));
    assert.ok(log.includes('replicaset pod updated default/p1'));
  });

  it('apply: a Node applied mid-run follows the kubelet rule (fresh heartbeat: running)', () => {
    const fresh = node('d');
    (fresh.status as { conditions: { lastHeartbeatTime: string }[] }).conditions.forEach((c) => {
      c.lastHeartbeatTime = '2026-01-01T00:00:08Z';
    });
    const { sim, log } = run([{ at: '10s', kind: 'apply', object: fresh } as EventSpec]);
    assert.equal(sim.kubelets.isRunning('d'), true);
    assert.ok(log.includes('replicaset node added d'));
  });

  it('patch: applies a JSON merge patch to the object as it is now', () => {
    const { sim } = run([
      {
        at: '3s',
        kind: 'patch',
        ref: 'Node/a',
        merge: { spec: { unschedulable: true }, metadata: { labels: { 'kubernetes.io/hostname': null, extra: 'yes' } } },
      } as EventSpec,
    ]);
    const a = sim.cluster.nodes.get('a')!;
    assert.equal(a.unschedulable, true);
    assert.equal(a.meta.labels.extra, 'yes');
    assert.equal(a.meta.labels['kubernetes.io/hostname'], undefined);
    assert.equal(a.meta.labels['topology.kubernetes.io/zone'], 'z1');
    assert.match(sim.trace.at(0)!.summary, /^Patched Node\/a/);
  });

  it('delete: a pod is gone at once, out of the index, remembered as deleted and announced', () => {
    const { sim, log } = run([{ at: '3s', kind: 'delete', ref: 'Pod/default/p1' } as EventSpec]);
    assert.equal(sim.cluster.pods.has('default/p1'), false);
    assert.equal(sim.cluster.podsByNode.get('a')?.has('default/p1') ?? false, false);
    assert.equal(sim.trace.at(0)!.action, 'ObjectDeleted');
    assert.equal(sim.host.recall('Pod/default/p1', 'deleted'), 1);
    assert.ok(log.includes('replicaset pod deleted default/p1'));
  });

  it('delete: a Node is removed with its kubelet', () => {
    const { sim, log } = run([{ at: '3s', kind: 'delete', ref: 'Node/a' } as EventSpec]);
    assert.equal(sim.cluster.nodes.has('a'), false);
    assert.equal(sim.kubelets.get('a'), undefined);
    assert.ok(log.includes('replicaset node deleted a'));
  });

  it('pod: sets phase and the Ready condition as the kubelet would', () => {
    const { sim, log } = run([{ at: '3s', kind: 'pod', pod: 'default/p1', phase: 'Failed', ready: false } as EventSpec]);
    const p = sim.cluster.pods.get('default/p1')!;
    assert.equal(p.phase, 'Failed');
    assert.equal(p.conditions.find((c) => c.type === 'Ready')!.status, 'False');
    assert.equal(formatTime(p.conditions.find((c) => c.type === 'Ready')!.lastTransitionTime), '2026-01-01T00:00:03.000Z');
    assert.ok(log.includes('replicaset pod updated default/p1'));
  });

  it('scale: sets spec.replicas, bumps the generation and announces the ReplicaSet', () => {
    const { sim, log } = run([{ at: '3s', kind: 'scale', replicaSet: 'default/web', replicas: 5 } as EventSpec]);
    const rs = sim.cluster.replicaSets.get('default/web')!;
    assert.equal(rs.replicas, 5);
    assert.equal(rs.meta.generation, 2);
    assert.ok(log.includes('replicaset rs updated web'));
    assert.equal(sim.host.recall('ReplicaSet/default/web', 'scaled'), 1);
  });

  it('an event naming an object that does not exist changes nothing and is reported', () => {
    const { sim } = run([{ at: '3s', kind: 'delete', ref: 'Pod/default/nope' } as EventSpec]);
    assert.equal(sim.trace.length, 0);
    assert.ok(sim.problems.some((p) => p.code === 'event-target-missing' && p.message.includes('Pod/default/nope')));
  });
});

describe('bad events never crash the simulation', () => {
  const bad: [string, EventSpec][] = [
    ['an apply of an object without kind', { at: '1s', kind: 'apply', object: { metadata: { name: 'x' } } } as EventSpec],
    ['an apply of a Pod without metadata', { at: '1s', kind: 'apply', object: { apiVersion: 'v1', kind: 'Pod' } } as EventSpec],
    ['a patch of a malformed reference', { at: '1s', kind: 'patch', ref: 'nonsense', merge: { a: 1 } } as EventSpec],
    ['a scale of a ReplicaSet that does not exist', { at: '1s', kind: 'scale', replicaSet: 'default/none', replicas: 3 } as EventSpec],
    ['a pod event with a phase that does not exist', { at: '1s', kind: 'pod', pod: 'default/p1', phase: 'Sleeping' } as EventSpec],
    [
      'a condition with a status that does not exist',
      { at: '1s', kind: 'condition', target: { nodes: ['a'] }, condition: { type: 'Ready', status: 'Maybe' } } as EventSpec,
    ],
    [
      'a kubelet event whose selector matches nothing',
      { at: '1s', kind: 'kubelet', action: 'stop', target: { selector: { matchLabels: { none: 'x' } } } } as EventSpec,
    ],
    ['an untaint of a taint the node does not have', { at: '1s', kind: 'untaint', target: { nodes: ['a'] }, taint: { key: 'absent' } } as EventSpec],
    ['a delete of a node that does not exist', { at: '1s', kind: 'delete', ref: 'Node/zzz' } as EventSpec],
  ];
  for (const [name, ev] of bad) {
    it(`${name}: reported as a problem, and the run goes on`, () => {
      const before = scenarioOf({ objects: [node('a'), pod('default', 'p1', 'a')], version: '1.31' }).problems.length;
      const { sim } = run(
        [ev, { at: '2s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'after', effect: 'NoSchedule' } } as EventSpec],
        [node('a'), pod('default', 'p1', 'a')],
      );
      assert.ok(sim.problems.length > before, JSON.stringify(sim.problems));
      assert.ok(sim.cluster.nodes.get('a')!.taints.some((t) => t.key === 'after'));
    });
  }
});
