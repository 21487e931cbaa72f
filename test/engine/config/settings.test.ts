import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GATE_DOCS,
  SETTINGS,
  allFeatureGateNames,
  defaultOf,
  featureGatesForVersion,
  gateHoverMarkdown,
  lookupSetting,
  renderSettingsTableMarkdown,
  settingHoverMarkdown,
  settingsForVersion,
} from '../../../src/engine/config/settings';
import { kubeVersion } from '../../../src/engine/versions/table';
import { MAX_SUGGEST_LENGTH, closest, distance } from '../../../src/engine/config/suggest';
import type { ControllerConfig, KubeletConfig } from '../../../src/engine/config/types';

test('a setting is found by scenario key, flag (with or without dashes or value) and configuration path', () => {
  const cases: [string, string | undefined][] = [
    ['nodeMonitorGracePeriod', 'nodeMonitorGracePeriod'],
    ['--node-monitor-grace-period', 'nodeMonitorGracePeriod'],
    ['--node-monitor-grace-period=20s', 'nodeMonitorGracePeriod'],
    ['node-monitor-grace-period', 'nodeMonitorGracePeriod'],
    ['nodeLifecycleController.nodeMonitorGracePeriod', 'nodeMonitorGracePeriod'],
    ['kubeCloudShared.nodeMonitorPeriod', 'nodeMonitorPeriod'],
    ['replicaSetController.concurrentRSSyncs', 'concurrentReplicaSetSyncs'],
    ['generic.leaderElection.leaseDuration', 'leaderElectLeaseDuration'],
    ['--node-status-update-frequency', 'nodeStatusUpdateFrequency'],
    ['burstReplicas', 'burstReplicas'],
    ['--no-such-flag', undefined],
    ['nodeMonitorGracePriod', undefined],
  ];
  for (const [q, want] of cases) assert.equal(lookupSetting(q)?.key, want, q);
});

test('every setting row feeds a ControllerConfig or KubeletConfig field, has a doc and a source', () => {
  const controllerFields: (keyof ControllerConfig)[] = [
    'nodeMonitorPeriod',
    'nodeMonitorGracePeriod',
    'nodeStartupGracePeriod',
    'podEvictionTimeout',
    'nodeEvictionRate',
    'secondaryNodeEvictionRate',
    'largeClusterSizeThreshold',
    'unhealthyZoneThreshold',
    'enableTaintManager',
    'featureGates',
    'controllers',
    'burstReplicas',
    'concurrentReplicaSetSyncs',
    'leaderElectLeaseDuration',
  ];
  const kubeletFields: (keyof KubeletConfig)[] = ['nodeStatusUpdateFrequency', 'nodeStatusReportFrequency', 'leaseRenewInterval', 'podStartupDelay'];
  assert.deepEqual(
    SETTINGS.filter((s) => s.section === 'controllerManager')
      .map((s) => s.key)
      .sort(),
    [...controllerFields].sort(),
  );
  assert.deepEqual(
    SETTINGS.filter((s) => s.section === 'kubelet')
      .map((s) => s.key)
      .sort(),
    [...kubeletFields].sort(),
  );
  for (const s of SETTINGS) {
    assert.ok(s.doc.length > 10 && s.source.length > 3, s.key);
    assert.ok(/^[a-z][A-Za-z]+$/.test(s.key), `${s.key} is camelCase`);
    if (s.flag) assert.match(s.flag, /^--[a-z][a-z-]+$/, s.key);
  }
});

test('the settings of a version: the pod-eviction flags until 1.26, nodeStatusReportFrequency from 1.13', () => {
  const keys = (minor: number) => settingsForVersion(kubeVersion(minor)).map((s) => s.key);
  assert.ok(keys(12).includes('podEvictionTimeout') && keys(12).includes('enableTaintManager'));
  assert.ok(!keys(12).includes('nodeStatusReportFrequency'));
  assert.ok(keys(13).includes('nodeStatusReportFrequency'));
  assert.ok(keys(26).includes('podEvictionTimeout') && keys(26).includes('enableTaintManager'));
  assert.ok(!keys(27).includes('podEvictionTimeout') && !keys(27).includes('enableTaintManager'));
  assert.equal(settingsForVersion(35).length, SETTINGS.length - 2);
});

test('defaults per version come from the version table', () => {
  const row = lookupSetting('nodeMonitorGracePeriod')!;
  assert.equal(defaultOf(row, 31), '40s');
  assert.equal(defaultOf(row, 32), '50s');
  const report = lookupSetting('nodeStatusReportFrequency')!;
  assert.equal(defaultOf(report, 16), '1m');
  assert.equal(defaultOf(report, 17), '5m');
});

test('the gates of a version are listed with stage and default', () => {
  assert.deepEqual(
    featureGatesForVersion(12).map((g) => `${g.name}:${g.stage}:${g.default}`),
    ['NodeLease:alpha:false', 'TaintBasedEvictions:alpha:false', 'TaintNodesByCondition:beta:true'],
  );
  assert.deepEqual(
    featureGatesForVersion(35).map((g) => g.name),
    [
      'DeploymentReplicaSetTerminatingReplicas',
      'LogarithmicScaleDown',
      'PodDeletionCost',
      'SeparateTaintEvictionController',
      'TaintTolerationComparisonOperators',
    ],
  );
});

test('the settings table renders for the README with per-version defaults and lifetimes', () => {
  const md = renderSettingsTableMarkdown();
  assert.match(
    md,
    /\| `nodeMonitorGracePeriod` \| `--node-monitor-grace-period` \| `nodeLifecycleController.nodeMonitorGracePeriod` \| duration \| 40s \(1\.12–1\.31\), 50s \(1\.32\+\) \| 1\.12\+ \|/,
  );
  assert.match(md, /\| `podEvictionTimeout` .* \| 5m \| 1\.12–1\.26 \(deprecated 1\.26\) \|/);
  assert.match(md, /\| `nodeStatusReportFrequency` .* \| 1m \(1\.13–1\.16\), 5m \(1\.17\+\) \| 1\.13\+ \|/);
  assert.match(md, /\| `TaintBasedEvictions` \| kube-controller-manager \| alpha off from 1\.12; beta on from 1\.13; GA on \(locked\) from 1\.18 \| 1\.21 \|/);
  assert.match(md, /\| `taint-eviction-controller` \| — \| 1\.29\+ \|/);
  for (const s of SETTINGS) assert.ok(md.includes(`| \`${s.key}\` |`), s.key);
});

test('"did you mean" picks the closest name, and nothing when nothing is close', () => {
  const names = ['nodeMonitorGracePeriod', 'nodeMonitorPeriod', 'nodeStartupGracePeriod', 'podEvictionTimeout'];
  const cases: [string, string | undefined][] = [
    ['nodeMonitorGracePriod', 'nodeMonitorGracePeriod'],
    ['NodeMonitorPeriod', 'nodeMonitorPeriod'],
    ['podEvictionTimout', 'podEvictionTimeout'],
    ['zzz', undefined],
    ['completelyDifferentThing', undefined],
  ];
  for (const [input, want] of cases) assert.equal(closest(input, names), want, input);
});

test('"did you mean" has a length cap and a distance cut-off, and still finds the same names', () => {
  const long = 'n'.repeat(MAX_SUGGEST_LENGTH);
  const cases: [input: string, names: string[], want: string | undefined][] = [
    [`${long.slice(1)}x`, [long], long],
    [`${long}x`, [`${long}y`], undefined],
    ['node-a1', ['node-a10', 'node-b1', 'a-very-much-longer-node-name-that-cannot-be-meant'], 'node-b1'],
    ['x'.repeat(3_000_000), ['xxxx'], undefined],
  ];
  for (const [input, names, want] of cases) assert.equal(closest(input, names), want, input.slice(0, 20));
});

test('the cut-off distance agrees with the full distance up to the cut-off', () => {
  const words = ['kitten', 'sitting', 'node-a1', 'nodea1', 'ndoe-a1', 'node-b12', '', 'a', 'ab', 'ba'];
  for (const a of words)
    for (const b of words) {
      const full = distance(a, b);
      for (const cap of [0, 1, 2, 3]) assert.equal(distance(a, b, cap), full <= cap ? full : cap + 1, `${a}/${b}/${cap}`);
    }
});

test('hover text for a setting says its default in the version, or that the version lacks it', () => {
  const cases: [name: string, minor: number, contains: RegExp[]][] = [
    ['nodeMonitorGracePeriod', 31, [/\*\*nodeMonitorGracePeriod\*\*/, /Default in 1\.31: `40s`; must be > 0/, /--node-monitor-grace-period/]],
    ['--node-monitor-grace-period', 32, [/Default in 1\.32: `50s`/]],
    ['--pod-eviction-timeout', 26, [/Default in 1\.26: `5m`/, /Deprecated since 1\.26, removed in 1\.27/]],
    ['--pod-eviction-timeout', 27, [/Removed in 1\.27: Kubernetes 1\.27 does not have it/]],
    ['nodeStatusReportFrequency', 12, [/Added in 1\.13: Kubernetes 1\.12 does not have it/]],
    ['unhealthyZoneThreshold', 35, [/must be in \(0, 1\]/]],
  ];
  for (const [name, minor, res] of cases) {
    const md = settingHoverMarkdown(name, minor)!;
    for (const re of res) assert.match(md, re, `${name} in 1.${minor}`);
  }
  assert.equal(settingHoverMarkdown('nope', 31), undefined);
});

test('hover text for a gate gives its stage in the version and its history', () => {
  assert.match(gateHoverMarkdown('TaintBasedEvictions', 12)!, /In 1\.12: alpha, default false\./);
  assert.match(gateHoverMarkdown('TaintBasedEvictions', 18)!, /In 1\.18: GA, default true, locked to true\./);
  assert.match(gateHoverMarkdown('TaintBasedEvictions', 25)!, /Removed in 1\.21: Kubernetes 1\.25 does not have it\./);
  assert.match(gateHoverMarkdown('SeparateTaintEvictionController', 28)!, /Added in 1\.29/);
  assert.match(gateHoverMarkdown('NodeLease', 35)!, /History: alpha off from 1\.12; beta on from 1\.14; GA on \(locked\) from 1\.17; removed in 1\.24/);
  assert.equal(gateHoverMarkdown('NoSuchGate', 31), undefined);
});

test('every gate of the version table has a one-line description', () => {
  for (const name of allFeatureGateNames()) assert.ok(GATE_DOCS[name]?.length > 20, name);
});
