/**
 * processTaintBaseEviction's branch is its machine's answer: the guards choose markNodeAsReachable,
 * the instant swap or markNodeForTainting from the inputs the event carries, as upstream's
 * if / else if / else does, and say so with their values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseTaintBasedEviction, processTaintBaseEvictionMachine } from '../../../../src/engine/controllers/nodeLifecycle/processTaintBaseEviction';
import type { ConditionStatus } from '../../../../src/engine/model/types';
import { rig, node, drive, names } from './helpers';

test('the machine chooses the branch upstream takes, with the guards it evaluated', () => {
  const cases: { ready: ConditionStatus; opposite: boolean; branch: string; guards: Record<string, unknown>[] }[] = [
    { ready: 'True', opposite: false, branch: 'markNodeAsReachable', guards: [{ readyIsTrue: true, ready: 'True' }] },
    { ready: 'True', opposite: true, branch: 'markNodeAsReachable', guards: [{ readyIsTrue: true, ready: 'True' }] },
    {
      ready: 'False',
      opposite: true,
      branch: 'swapTaint',
      guards: [
        { readyIsTrue: false, ready: 'False' },
        { oppositeTaintPresent: true, ready: 'False', oppositeTaint: true },
      ],
    },
    {
      ready: 'Unknown',
      opposite: true,
      branch: 'swapTaint',
      guards: [
        { readyIsTrue: false, ready: 'Unknown' },
        { oppositeTaintPresent: true, ready: 'Unknown', oppositeTaint: true },
      ],
    },
    {
      ready: 'False',
      opposite: false,
      branch: 'markNodeForTainting',
      guards: [
        { readyIsTrue: false, ready: 'False' },
        { oppositeTaintPresent: false, ready: 'False', oppositeTaint: false },
      ],
    },
    {
      ready: 'Unknown',
      opposite: false,
      branch: 'markNodeForTainting',
      guards: [
        { readyIsTrue: false, ready: 'Unknown' },
        { oppositeTaintPresent: false, ready: 'Unknown', oppositeTaint: false },
      ],
    },
  ];
  for (const round of [1, 2]) {
    for (const c of cases) {
      const got = chooseTaintBasedEviction(c.ready, c.opposite);
      const name = `Ready ${c.ready}, opposite taint ${c.opposite} (round ${round}: memoised)`;
      assert.equal(got.branch, c.branch, name);
      assert.deepEqual(
        got.because.map((g) => g.values),
        c.guards,
        name,
      );
    }
  }
  assert.deepEqual(Object.keys(processTaintBaseEvictionMachine.implementations.guards).sort(), ['oppositeTaintPresent', 'readyIsTrue']);
});

test('a node whose Ready goes False while it carries the unreachable taint is swapped, the choice leading its because', () => {
  const all = names('n', 4);
  const r = rig({ minor: 31, nodes: all.map((n) => node(n, { zone: 'z1' })) });
  drive(r, 20, { alive: () => all });
  const n1 = r.host.cluster.nodes.get('n1')!;
  n1.taints = [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }];
  r.post('n1', 'False');
  drive(r, 40, { alive: () => all });
  const added = r.decisions('TaintAdded', 'Node/n1').filter((d) => d.summary.includes('swapped'));
  assert.equal(added.length, 1);
  assert.equal(added[0].machine?.event, 'TAINT_SWAPPED');
  const guards = added[0].because.filter((c) => c.rule.startsWith('machine guard '));
  assert.deepEqual(
    guards.map((g) => g.values),
    [
      { readyIsTrue: false, ready: 'False' },
      { oppositeTaintPresent: true, ready: 'False', oppositeTaint: true },
    ],
  );
  assert.match(added[0].because[0].rule, /^Ready condition is False/, 'the decision own check stays first');
});
