import { test } from 'node:test';
import assert from 'node:assert/strict';
import { behaviourOf, kubeVersion } from '../../../src/engine/versions/table';
import { defaultControllerConfig, defaultKubeletConfig } from '../../../src/engine/config/defaults';
import { minutes, seconds } from '../../../src/engine/model/time';

const cfg = (minor: number) => defaultControllerConfig(behaviourOf(kubeVersion(minor)));
const kub = (minor: number, leases?: boolean) => defaultKubeletConfig(behaviourOf(kubeVersion(minor)), leases);

test('1.12 defaults are those of kube-controller-manager v1.12.1', () => {
  const c = cfg(12);
  assert.equal(c.nodeMonitorPeriod, seconds(5));
  assert.equal(c.nodeMonitorGracePeriod, seconds(40));
  assert.equal(c.nodeStartupGracePeriod, minutes(1));
  assert.equal(c.podEvictionTimeout, minutes(5));
  assert.equal(c.nodeEvictionRate, 0.1);
  assert.equal(c.secondaryNodeEvictionRate, 0.01);
  assert.equal(c.largeClusterSizeThreshold, 50);
  assert.equal(c.unhealthyZoneThreshold, 0.55);
  assert.equal(c.enableTaintManager, true);
  assert.equal(c.burstReplicas, 500);
  assert.equal(c.concurrentReplicaSetSyncs, 5);
  assert.equal(c.leaderElectLeaseDuration, seconds(15));
  assert.deepEqual(c.featureGates, { NodeLease: false, TaintBasedEvictions: false, TaintNodesByCondition: true });
  assert.deepEqual([...c.controllers].sort(), ['nodelifecycle', 'replicaset']);
});

test('the node monitor grace period default is 40s through 1.31 and 50s from 1.32', () => {
  for (let minor = 12; minor <= 35; minor++) assert.equal(cfg(minor).nodeMonitorGracePeriod, seconds(minor >= 32 ? 50 : 40), `1.${minor}`);
});

test('the taint-eviction-controller runs by default from 1.29', () => {
  assert.deepEqual([...cfg(28).controllers].sort(), ['nodelifecycle', 'replicaset']);
  assert.deepEqual([...cfg(29).controllers].sort(), ['nodelifecycle', 'replicaset', 'taint-eviction-controller']);
  assert.equal(cfg(29).featureGates.SeparateTaintEvictionController, true);
  assert.equal(cfg(28).featureGates.SeparateTaintEvictionController, undefined);
});

test('default feature gates follow the version', () => {
  const cases: [number, Record<string, boolean>][] = [
    [13, { NodeLease: false, TaintBasedEvictions: true, TaintNodesByCondition: true }],
    [14, { NodeLease: true, TaintBasedEvictions: true, TaintNodesByCondition: true }],
    [16, { LegacyNodeRoleBehavior: true, NodeDisruptionExclusion: false, NodeLease: true, TaintBasedEvictions: true, TaintNodesByCondition: true }],
    [21, { LegacyNodeRoleBehavior: false, LogarithmicScaleDown: false, NodeDisruptionExclusion: true, NodeLease: true, PodDeletionCost: false }],
    [24, { LogarithmicScaleDown: true, PodDeletionCost: true }],
    [26, { LogarithmicScaleDown: true, PodDeletionCost: true, PodDisruptionConditions: true }],
    [
      33,
      {
        DeploymentReplicaSetTerminatingReplicas: false,
        LogarithmicScaleDown: true,
        PodDeletionCost: true,
        PodDisruptionConditions: true,
        SeparateTaintEvictionController: true,
      },
    ],
    [
      35,
      {
        DeploymentReplicaSetTerminatingReplicas: true,
        LogarithmicScaleDown: true,
        PodDeletionCost: true,
        SeparateTaintEvictionController: true,
        TaintTolerationComparisonOperators: false,
      },
    ],
  ];
  for (const [minor, want] of cases) assert.deepEqual(cfg(minor).featureGates, want, `1.${minor}`);
});

test('kubelets post status every 10s; with Leases an unchanged status only every report interval', () => {
  const cases: [minor: number, leases: boolean | undefined, report: number][] = [
    [12, undefined, seconds(10)], // no Leases: every post is a heartbeat
    [13, undefined, seconds(10)], // NodeLease alpha, off
    [13, true, minutes(1)], // NodeLease turned on in 1.13: the 1m default
    [14, undefined, minutes(1)],
    [16, undefined, minutes(1)],
    [17, undefined, minutes(5)],
    [35, undefined, minutes(5)],
  ];
  for (const [minor, leases, report] of cases) {
    const k = kub(minor, leases);
    assert.equal(k.nodeStatusUpdateFrequency, seconds(10), `1.${minor}`);
    assert.equal(k.nodeStatusReportFrequency, report, `1.${minor} leases=${leases}`);
    assert.equal(k.leaseRenewInterval, seconds(10));
    assert.equal(k.podStartupDelay, 0);
  }
});
