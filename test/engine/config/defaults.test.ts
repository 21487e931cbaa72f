import { test } from 'node:test';
import assert from 'node:assert/strict';
import { behaviourOf, kubeVersion } from '../../../src/engine/versions/table';
import { defaultControllerConfig, defaultKubeletConfig } from '../../../src/engine/config/defaults';
import { minutes, seconds } from '../../../src/engine/model/time';

const cfg = (minor: number) => defaultControllerConfig(behaviourOf(kubeVersion(minor)));
const kub = (minor: number) => defaultKubeletConfig(behaviourOf(kubeVersion(minor)));

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
  for (const [minor, want] of [[12, 40], [31, 40], [32, 50], [35, 50]]) assert.equal(cfg(minor).nodeMonitorGracePeriod, seconds(want), `1.${minor}`);
});

test('the taint-eviction-controller runs by default from 1.29', () => {
  assert.ok(!cfg(28).controllers.has('taint-eviction-controller'));
  assert.ok(cfg(29).controllers.has('taint-eviction-controller'));
  assert.equal(cfg(29).featureGates.SeparateTaintEvictionController, true);
  assert.equal(cfg(28).featureGates.SeparateTaintEvictionController, undefined);
});

test('feature gates follow the version: 1.13 turns NodeLease and TaintBasedEvictions on, 1.20 no longer has TaintBasedEvictions', () => {
  assert.equal(cfg(13).featureGates.NodeLease, true);
  assert.equal(cfg(13).featureGates.TaintBasedEvictions, true);
  assert.equal(cfg(20).featureGates.TaintBasedEvictions, undefined);
  assert.equal(cfg(21).featureGates.PodDeletionCost, false);
  assert.equal(cfg(22).featureGates.PodDeletionCost, true);
  assert.equal(cfg(22).featureGates.LogarithmicScaleDown, true);
});

test('kubelets post status every 10s; from 1.13 unchanged status only every report interval', () => {
  assert.equal(kub(12).nodeStatusUpdateFrequency, seconds(10));
  assert.equal(kub(12).nodeStatusReportFrequency, seconds(10));
  assert.equal(kub(13).nodeStatusReportFrequency, minutes(1));
  assert.equal(kub(14).nodeStatusReportFrequency, minutes(5));
  assert.equal(kub(35).nodeStatusReportFrequency, minutes(5));
  assert.equal(kub(35).leaseRenewInterval, seconds(10));
  assert.equal(kub(35).podStartupDelay, 0);
});
