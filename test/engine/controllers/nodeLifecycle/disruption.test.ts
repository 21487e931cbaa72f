/**
 * handleDisruption's decision functions, as upstream's TestComputeZoneState
 * (in spirit) and the rate functions ReducedQPSFunc / HealthyQPSFunc.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeZoneState, reducedQPS, healthyQPS, isMasterNodeName, disruptionExclusion } from '../../../../src/engine/controllers/nodeLifecycle';
import { behaviourOf, kubeVersion } from '../../../../src/engine/versions/table';
import type { ConditionStatus } from '../../../../src/engine/model/types';
import { node } from './helpers';

const many = (n: number, s: ConditionStatus | null): (ConditionStatus | null)[] => Array.from({ length: n }, () => s);

test('ComputeZoneState', () => {
  const cases: { name: string; statuses: (ConditionStatus | null)[]; threshold?: number; want: string; notReady: number }[] = [
    { name: 'every node Ready is Normal', statuses: many(3, 'True'), want: 'Normal', notReady: 0 },
    { name: 'no node Ready is FullDisruption', statuses: [...many(2, 'Unknown'), 'False'], want: 'FullDisruption', notReady: 3 },
    { name: 'a single not-ready node alone is FullDisruption', statuses: ['Unknown'], want: 'FullDisruption', notReady: 1 },
    { name: 'a node without a Ready condition counts as not ready', statuses: [null, 'True'], want: 'Normal', notReady: 1 },
    { name: 'two not ready out of three is Normal: more than 2 are needed', statuses: [...many(2, 'Unknown'), 'True'], want: 'Normal', notReady: 2 },
    {
      name: 'three not ready out of four is PartialDisruption (0.75 >= 0.55)',
      statuses: [...many(3, 'Unknown'), 'True'],
      want: 'PartialDisruption',
      notReady: 3,
    },
    { name: 'four of six is PartialDisruption (0.667)', statuses: [...many(4, 'False'), ...many(2, 'True')], want: 'PartialDisruption', notReady: 4 },
    { name: 'three of six is Normal (0.5 < 0.55)', statuses: [...many(3, 'False'), ...many(3, 'True')], want: 'Normal', notReady: 3 },
    {
      name: 'exactly the threshold is PartialDisruption (float32 compare)',
      statuses: [...many(11, 'Unknown'), ...many(9, 'True')],
      want: 'PartialDisruption',
      notReady: 11,
    },
    { name: 'just under the threshold is Normal', statuses: [...many(10, 'Unknown'), ...many(9, 'True')], threshold: 0.55, want: 'Normal', notReady: 10 },
    { name: 'an empty zone is Normal', statuses: [], want: 'Normal', notReady: 0 },
  ];
  for (const c of cases) {
    const r = computeZoneState(c.statuses, c.threshold ?? 0.55);
    assert.equal(r.state, c.want, c.name);
    assert.equal(r.notReady, c.notReady, c.name);
  }
});

test('ReducedQPSFunc compares the zone size with largeClusterSizeThreshold; HealthyQPSFunc is the normal rate', () => {
  assert.equal(reducedQPS(50, 50, 0.01), 0, 'a zone of exactly the threshold is small: evictions stop');
  assert.equal(reducedQPS(51, 50, 0.01), 0.01, 'a larger zone gets the secondary rate');
  assert.equal(healthyQPS(0.1), 0.1);
});

test('system.IsMasterNode (1.12) matches names ending in master or master-XYZ', () => {
  const cases: [string, boolean][] = [
    ['kubernetes-master', true],
    ['master', true],
    ['my-master-abc', true],
    ['node-master-1', false],
    ['master-1', false],
    ['mastermind', false],
    ['e2e-master-xyz', true],
    ['worker-1', false],
  ];
  for (const [name, want] of cases) assert.equal(isMasterNodeName(name), want, name);
});

test('which nodes are left out of disruption checks depends on the version', () => {
  const master = node('kubernetes-master');
  const labelled = node('n1', { labels: { 'node.kubernetes.io/exclude-disruption': '' } });
  const v12 = behaviourOf(kubeVersion(12));
  const v31 = behaviourOf(kubeVersion(31));
  const legacyOff = { excludeMasterByName: false, honoursExcludeDisruptionLabel: true };
  assert.equal(disruptionExclusion(master, legacyOff), undefined, 'LegacyNodeRoleBehavior off: names do not matter');
  assert.match(disruptionExclusion(master, v12) ?? '', /master/);
  assert.equal(disruptionExclusion(labelled, v12), undefined, '1.12 ignores the label');
  assert.equal(disruptionExclusion(master, v31), undefined, '1.31 does not look at names');
  assert.match(disruptionExclusion(labelled, v31) ?? '', /exclude-disruption/);
});
