import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decidePodOnNode, reconstructCreatedAt, type ExistingWork } from '../../../../src/engine/controllers/taintEviction/decide';
import type { Taint, Toleration } from '../../../../src/engine/model/types';
import { testTaint, tolerate, T0, S } from './helpers';

test('processPodOnNode decides as upstream for every kind of pod, taint set and existing work', () => {
  const cases: {
    name: string;
    taints: Taint[];
    tolerations: Toleration[];
    existing?: ExistingWork;
    cancels?: boolean;
    kind: string;
    reason?: string;
    min?: number;
    cancelFirst?: boolean;
    keptScheduled?: boolean;
    untolerated?: string;
  }[] = [
    {
      name: 'no toleration for the taint: delete now',
      taints: [testTaint(1)],
      tolerations: [],
      kind: 'evictNow',
      reason: 'untolerated',
      untolerated: 'testTaint1',
      cancelFirst: false,
    },
    {
      name: 'the second taint is not tolerated: delete now, naming it',
      taints: [testTaint(1), testTaint(2)],
      tolerations: [tolerate(1)],
      kind: 'evictNow',
      reason: 'untolerated',
      untolerated: 'testTaint2',
    },
    {
      name: 'not tolerated while scheduled: the schedule is replaced by a delete now',
      taints: [testTaint(1)],
      tolerations: [],
      existing: 'scheduled',
      kind: 'evictNow',
      cancelFirst: true,
    },
    {
      name: 'not tolerated while a delete runs: the running delete is kept',
      taints: [testTaint(1)],
      tolerations: [],
      existing: 'deleting',
      kind: 'keep',
      reason: 'inProgress',
    },
    { name: 'tolerated for 100s: schedule at now + 100s', taints: [testTaint(1)], tolerations: [tolerate(1, 100)], kind: 'schedule', min: 100 },
    {
      name: 'two taints tolerated for 100s and 30s: schedule at now + 30s',
      taints: [testTaint(1), testTaint(2)],
      tolerations: [tolerate(1, 100), tolerate(2, 30)],
      kind: 'schedule',
      min: 30,
    },
    {
      name: 'one forever and one for 60s: schedule at now + 60s',
      taints: [testTaint(1), testTaint(2)],
      tolerations: [tolerate(1), tolerate(2, 60)],
      kind: 'schedule',
      min: 60,
    },
    { name: 'tolerated for 0s: delete now', taints: [testTaint(1)], tolerations: [tolerate(1, 0)], kind: 'evictNow', reason: 'zeroToleration' },
    { name: 'tolerated for -1s: delete now', taints: [testTaint(1)], tolerations: [tolerate(1, -1)], kind: 'evictNow', reason: 'zeroToleration' },
    {
      name: 'tolerated for 0s but already scheduled: the schedule is kept',
      taints: [testTaint(1)],
      tolerations: [tolerate(1, 0)],
      existing: 'scheduled',
      kind: 'keep',
      reason: 'alreadyScheduled',
    },
    {
      name: 'tolerated for 10s but already scheduled: the schedule is kept',
      taints: [testTaint(1)],
      tolerations: [tolerate(1, 10)],
      existing: 'scheduled',
      kind: 'keep',
      reason: 'alreadyScheduled',
      min: 10,
    },
    { name: 'tolerated forever: nothing to do', taints: [testTaint(1)], tolerations: [tolerate(1)], kind: 'leave', keptScheduled: false },
    {
      name: 'tolerated forever while scheduled, 1.19+: cancel',
      taints: [testTaint(1)],
      tolerations: [tolerate(1)],
      existing: 'scheduled',
      cancels: true,
      kind: 'cancel',
    },
    {
      name: 'tolerated forever while scheduled, before 1.19: the schedule stays',
      taints: [testTaint(1)],
      tolerations: [tolerate(1)],
      existing: 'scheduled',
      cancels: false,
      kind: 'leave',
      keptScheduled: true,
    },
    {
      name: 'no taints at all (a path the controller never takes): delete now, as upstream would',
      taints: [],
      tolerations: [tolerate(1, 100)],
      kind: 'evictNow',
      reason: 'zeroToleration',
      cancelFirst: false,
    },
    {
      name: 'no taints at all while scheduled: cancel, then delete now',
      taints: [],
      tolerations: [],
      existing: 'scheduled',
      kind: 'evictNow',
      reason: 'zeroToleration',
      cancelFirst: true,
    },
  ];
  for (const c of cases) {
    const d = decidePodOnNode({ taints: c.taints, tolerations: c.tolerations, existing: c.existing ?? 'none', cancelsWhenToleratedForever: c.cancels ?? true });
    assert.equal(d.kind, c.kind, c.name);
    if (c.reason) assert.equal((d as { reason?: string }).reason, c.reason, c.name);
    if (c.min !== undefined) assert.equal((d as { min?: number }).min, c.min * S, c.name);
    if (c.cancelFirst !== undefined) assert.equal((d as { cancelFirst?: boolean }).cancelFirst, c.cancelFirst, c.name);
    if (c.keptScheduled !== undefined) assert.equal((d as { keptScheduled?: boolean }).keptScheduled, c.keptScheduled, c.name);
    if (c.untolerated) assert.equal((d as { untolerated?: Taint }).untolerated?.key, c.untolerated, c.name);
    assert.ok(d.checks.length > 0 && d.checks.every((ch) => ch.rule.length > 0), `${c.name}: says why`);
  }
});

test('reconstructed memory recreates the work item a controller running all along would hold', () => {
  const start = T0;
  const cases: { name: string; taints: Taint[]; tolerations: Toleration[]; podCreated?: number; createdAt?: number; min?: number; assumed?: boolean }[] = [
    { name: 'one taint: created at its timeAdded', taints: [testTaint(1, T0 - 100 * S)], tolerations: [tolerate(1, 300)], createdAt: -100, min: 300 },
    {
      name: 'a pod that came later: created when it came',
      taints: [testTaint(1, T0 - 100 * S)],
      tolerations: [tolerate(1, 300)],
      podCreated: -40,
      createdAt: -40,
      min: 300,
    },
    {
      name: 'the forever-tolerated taint first: created with the limited one',
      taints: [testTaint(1, T0 - 500 * S), testTaint(2, T0 - 50 * S)],
      tolerations: [tolerate(1), tolerate(2, 60)],
      createdAt: -50,
      min: 60,
    },
    {
      name: 'a later, shorter toleration does not move the deadline',
      taints: [testTaint(1, T0 - 500 * S), testTaint(2, T0 - 50 * S)],
      tolerations: [tolerate(1, 600), tolerate(2, 10)],
      createdAt: -500,
      min: 600,
    },
    {
      name: 'a pod that came after both taints sees the shorter one',
      taints: [testTaint(1, T0 - 500 * S), testTaint(2, T0 - 50 * S)],
      tolerations: [tolerate(1, 600), tolerate(2, 10)],
      podCreated: -20,
      createdAt: -20,
      min: 10,
    },
    { name: 'no timeAdded: assumed seen at the start', taints: [testTaint(1)], tolerations: [tolerate(1, 300)], createdAt: 0, min: 300, assumed: true },
    { name: 'only forever tolerations: no work item', taints: [testTaint(1, T0 - 100 * S)], tolerations: [tolerate(1)] },
  ];
  for (const c of cases) {
    const r = reconstructCreatedAt(c.taints, c.tolerations, c.podCreated !== undefined ? T0 + c.podCreated * S : T0 - 10_000 * S, start);
    if (c.createdAt === undefined) {
      assert.equal(r, undefined, c.name);
      continue;
    }
    assert.ok(r, c.name);
    assert.equal(r.createdAt, T0 + c.createdAt * S, c.name);
    assert.equal(r.min, c.min! * S, c.name);
    assert.equal(
      r.checks.some((ch) => ch.rule.startsWith('assumed:')),
      c.assumed ?? false,
      c.name,
    );
  }
});

test('NodeUpdated compares only the NoExecute taints, in order, with their values and timeAdded', async () => {
  const { sameNoExecuteTaints, sameTaints } = await import('../../../../src/engine/controllers/taintEviction');
  const ns: Taint = { key: 'dedicated', effect: 'NoSchedule' };
  const cases: { name: string; a: Taint[]; b: Taint[]; same: boolean }[] = [
    { name: 'both empty', a: [], b: [], same: true },
    { name: 'a NoSchedule taint added', a: [testTaint(1)], b: [ns, testTaint(1)], same: true },
    { name: 'a NoExecute taint added', a: [testTaint(1)], b: [testTaint(1), testTaint(2)], same: false },
    { name: 'a NoExecute taint removed', a: [testTaint(1), testTaint(2)], b: [testTaint(2)], same: false },
    { name: 'the order changed', a: [testTaint(1), testTaint(2)], b: [testTaint(2), testTaint(1)], same: false },
    { name: 'the value changed', a: [testTaint(1)], b: [{ ...testTaint(1), value: 'other' }], same: false },
    { name: 'timeAdded changed', a: [testTaint(1, T0)], b: [testTaint(1, T0 + S)], same: false },
    { name: 'timeAdded set where there was none', a: [testTaint(1)], b: [testTaint(1, T0)], same: false },
  ];
  for (const c of cases) {
    assert.equal(sameNoExecuteTaints(c.a, c.b), c.same, c.name);
    const ne = (ts: Taint[]) => ts.filter((t) => t.effect === 'NoExecute');
    assert.equal(sameTaints(ne(c.a), ne(c.b)), c.same, `${c.name} (reference)`);
  }
});
