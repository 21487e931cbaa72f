/**
 * The condition -> taint table of doNoScheduleTaintingPass (upstream
 * TestTaintsNodeByCondition, in spirit) and SwapNodeControllerTaint's effect
 * on a taint list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONDITION_TAINTS, noScheduleTaintDiff, swapTaints, TAINT_UNSCHEDULABLE } from '../../../../src/engine/controllers/nodeLifecycle';
import { noExecuteFor, noScheduleTaintsUpToDate } from '../../../../src/engine/controllers/nodeLifecycle/taints';
import type { ConditionStatus, Taint } from '../../../../src/engine/model/types';
import { at, node } from './helpers';
import { taint } from '../../../../src/engine/model/records';

const keys = (ts: Taint[]) => ts.map((t) => `${t.key}:${t.effect}`).sort();

test('TaintsNodeByCondition: conditions and spec.unschedulable map to NoSchedule taints', () => {
  const cases: { name: string; minor?: number; n: ReturnType<typeof node>; add: string[]; remove: string[] }[] = [
    { name: 'a Ready node needs none', n: node('a'), add: [], remove: [] },
    { name: 'Ready False adds not-ready', n: node('a', { ready: 'False' }), add: ['node.kubernetes.io/not-ready:NoSchedule'], remove: [] },
    { name: 'Ready Unknown adds unreachable', n: node('a', { ready: 'Unknown' }), add: ['node.kubernetes.io/unreachable:NoSchedule'], remove: [] },
    {
      name: 'MemoryPressure and DiskPressure True add their taints',
      n: node('a', {
        conditions: [
          { type: 'MemoryPressure', status: 'True' },
          { type: 'DiskPressure', status: 'True' },
        ],
      }),
      add: ['node.kubernetes.io/disk-pressure:NoSchedule', 'node.kubernetes.io/memory-pressure:NoSchedule'],
      remove: [],
    },
    {
      name: 'NetworkUnavailable True adds network-unavailable',
      n: node('a', { conditions: [{ type: 'NetworkUnavailable', status: 'True' }] }),
      add: ['node.kubernetes.io/network-unavailable:NoSchedule'],
      remove: [],
    },
    {
      name: 'PIDPressure True adds pid-pressure',
      n: node('a', { conditions: [{ type: 'PIDPressure', status: 'True' }] }),
      add: ['node.kubernetes.io/pid-pressure:NoSchedule'],
      remove: [],
    },
    { name: 'spec.unschedulable adds unschedulable', n: node('a', { unschedulable: true }), add: ['node.kubernetes.io/unschedulable:NoSchedule'], remove: [] },
    {
      name: 'a stale condition taint is removed, a user taint is left alone',
      n: node('a', {
        taints: [
          { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
          { key: 'example.com/x', effect: 'NoSchedule' },
        ],
      }),
      add: [],
      remove: ['node.kubernetes.io/memory-pressure:NoSchedule'],
    },
    {
      name: "NoExecute taints are not this pass's business",
      n: node('a', { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] }),
      add: [],
      remove: [],
    },
    {
      name: '1.12 still maps OutOfDisk',
      minor: 12,
      n: node('a', { conditions: [{ type: 'OutOfDisk', status: 'True' }] }),
      add: ['node.kubernetes.io/out-of-disk:NoSchedule'],
      remove: [],
    },
    { name: '1.31 has no OutOfDisk taint', minor: 31, n: node('a', { conditions: [{ type: 'OutOfDisk', status: 'True' }] }), add: [], remove: [] },
  ];
  for (const c of cases) {
    const d = noScheduleTaintDiff(c.n, c.minor ?? 31);
    assert.deepEqual(keys(d.toAdd), c.add, c.name);
    assert.deepEqual(keys(d.toRemove), c.remove, c.name);
  }
});

test('SwapNodeControllerTaint adds with timeAdded = now and removes the opposite taint in one update', () => {
  const before: Taint[] = [
    { key: 'example.com/x', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: at(-10) },
  ];
  const r = swapTaints(
    before,
    [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
    [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
    at(5),
  );
  assert.deepEqual(r.taints, [
    taint('example.com/x', 'NoSchedule', undefined, undefined),
    taint('node.kubernetes.io/unreachable', 'NoExecute', undefined, at(5)),
  ]);
  assert.equal(r.added.length, 1);
  assert.equal(r.removed.length, 1);
  assert.equal(before.length, 2, 'the input is not modified');
});

test('adding a taint that is already there with another timeAdded replaces it in place', () => {
  const r = swapTaints(
    [
      { key: 'k', effect: 'NoExecute', timeAdded: at(0) },
      { key: 'z', effect: 'NoSchedule' },
    ],
    [{ key: 'k', effect: 'NoExecute' }],
    [],
    at(9),
  );
  assert.deepEqual(r.taints[0], taint('k', 'NoExecute', undefined, at(9)));
  assert.equal(r.refreshed.length, 1);
  assert.equal(r.added.length, 0);
});

test('noScheduleTaintsUpToDate says "nothing to add or remove" exactly when noScheduleTaintDiff finds nothing', () => {
  let seed = 7;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const types = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable', 'OutOfDisk'];
  const statuses = ['True', 'False', 'Unknown'] as const;
  const taintKeys = [...CONDITION_TAINTS.map((r) => r.key), TAINT_UNSCHEDULABLE, 'example.com/other'];
  const effects = ['NoSchedule', 'NoExecute', 'PreferNoSchedule'] as const;
  let upToDate = 0;
  for (let i = 0; i < 4000; i++) {
    const n = node('a');
    n.conditions = types.filter(() => rnd(3) > 0).map((type) => ({ type, status: statuses[rnd(3)], lastHeartbeatTime: at(0), lastTransitionTime: at(0) }));
    n.unschedulable = rnd(2) === 0;
    // half the time start from what the pass wants, so that "up to date" is common
    const start = rnd(2) === 0 ? noScheduleTaintDiff({ ...n, taints: [] }, 35).toAdd : [];
    n.taints = [...start, ...taintKeys.filter(() => rnd(6) === 0).map((key) => ({ key, effect: effects[rnd(3)] }))];
    for (const minor of [12, 20, 35]) {
      const d = noScheduleTaintDiff(n, minor);
      const expected = d.toAdd.length === 0 && d.toRemove.length === 0;
      assert.equal(noScheduleTaintsUpToDate(n, minor), expected, JSON.stringify({ minor, conditions: n.conditions, taints: n.taints, u: n.unschedulable }));
      if (expected) upToDate++;
    }
  }
  assert.ok(upToDate > 1000, `both answers are exercised (${upToDate} up to date)`);
});

test('one table says which NoExecute taint a Ready status calls for, and which it swaps away', () => {
  const cases: [ConditionStatus, string | undefined, string | undefined][] = [
    ['False', 'node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'],
    ['Unknown', 'node.kubernetes.io/unreachable', 'node.kubernetes.io/not-ready'],
    ['True', undefined, undefined],
  ];
  for (const [status, taint, opposite] of cases) {
    const row = noExecuteFor(status);
    assert.equal(row?.taint.key, taint, status);
    assert.equal(row?.opposite.key, opposite, status);
    if (row) assert.deepEqual([row.taint.effect, row.opposite.effect], ['NoExecute', 'NoExecute']);
  }
});
