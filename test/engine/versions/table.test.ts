import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_MINOR,
  VERSION_CHANGES,
  behaviourOf,
  gateStateOf,
  kubeVersion,
  parseKubeVersion,
  renderVersionTableMarkdown,
  settingLifecycle,
  supportedVersions,
} from '../../../src/engine/versions/table';
import { seconds } from '../../../src/engine/model/time';
import type { VersionBehaviour } from '../../../src/engine/versions/types';

const b = (minor: number): VersionBehaviour => behaviourOf(kubeVersion(minor));

test('kubernetes versions are parsed as users write them, and only 1.12 to 1.37 are accepted', () => {
  const cases: [string, number | undefined][] = [
    ['1.12', 12],
    ['v1.31.2', 31],
    ['1.35.0-alpha.1', 35],
    [' 1.27 ', 27],
    ['1.12.1', 12],
    ['v1.34.0+k3s1', 34],
    ['1.36', 36],
    ['v1.37.1', 37],
    ['1.37.0-rc.1', 37],
    ['1.11', undefined],
    ['1.38', undefined],
    ['v1.38.0-alpha.2', undefined],
    ['2.0', undefined],
    ['1', undefined],
    ['latest', undefined],
    ['', undefined],
    ['1.x', undefined],
    ['1.012', undefined],
    ['v1.3', undefined],
  ];
  for (const [text, minor] of cases) assert.equal(parseKubeVersion(text)?.minor, minor, text);
  assert.deepEqual(parseKubeVersion('v1.31.2'), { major: 1, minor: 31, text: 'v1.31.2' });
});

test('every version from 1.12 to 1.37 has a complete behaviour', () => {
  const versions = supportedVersions();
  assert.deepEqual(
    versions.map((v) => v.minor),
    Array.from({ length: 26 }, (_, i) => 12 + i),
  );
  for (const v of versions) {
    const beh = behaviourOf(v) as unknown as Record<string, unknown>;
    for (const [k, val] of Object.entries(beh)) assert.notEqual(val, undefined, `1.${v.minor} ${k}`);
    assert.equal(beh.conditionsSetUnknown && (beh.conditionsSetUnknown as string[])[0], 'Ready', `1.${v.minor} Ready first`);
  }
});

type Row = [name: string, minor: number, want: Partial<Record<keyof VersionBehaviour, unknown>>];

test('behaviour changes exactly at the version boundaries the upstream sources give', () => {
  const rows: Row[] = [
    [
      '1.12 heartbeats through NodeStatus only and evicts pods itself',
      12,
      {
        nodeLeaseGateDefault: false,
        nodeLifecycleReadsLease: false,
        taintBasedEvictionsDefault: false,
        taintNodesByConditionDefault: true,
        hasPodEvictionPath: true,
        hasEnableTaintManagerFlag: true,
        excludeMasterByName: true,
        honoursExcludeDisruptionLabel: false,
        fixesDeprecatedTaintKeys: true,
        separateTaintEvictionController: false,
        unreachableTaintQueuedSamePass: false,
        defaultNodeMonitorGracePeriod: seconds(40),
        podDeletionCostDefault: false,
        logarithmicScaleDownDefault: false,
        conditionsSetUnknown: ['Ready', 'OutOfDisk', 'MemoryPressure', 'DiskPressure'],
        nodeLabelsSourceOfTruth: 'none',
      },
    ],
    [
      '1.13 turns taint-based eviction on and reads Leases, but NodeLease stays off',
      13,
      {
        taintBasedEvictionsDefault: true,
        nodeLeaseGateDefault: false,
        nodeLifecycleReadsLease: true,
        fixesDeprecatedTaintKeys: true,
        hasPodEvictionPath: true,
        conditionsSetUnknown: ['Ready', 'OutOfDisk', 'MemoryPressure', 'DiskPressure', 'PIDPressure'],
      },
    ],
    ['1.14 turns Lease heartbeats on and no longer fixes the deprecated taint keys', 14, { nodeLeaseGateDefault: true, fixesDeprecatedTaintKeys: false }],
    ['1.14 reconciles the OS/arch labels from the beta ones (#74442)', 14, { nodeLabelsSourceOfTruth: 'beta' }],
    ['1.18 still takes the beta OS/arch labels as the source of truth', 18, { nodeLabelsSourceOfTruth: 'beta' }],
    ['1.19 takes the stable OS/arch labels as the source of truth (#91046)', 19, { nodeLabelsSourceOfTruth: 'stable' }],
    ['1.15 no longer sets OutOfDisk to Unknown', 15, { conditionsSetUnknown: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] }],
    [
      '1.16 keeps the master-by-name exclusion (behind LegacyNodeRoleBehavior) and does not yet honour the label',
      16,
      { excludeMasterByName: true, honoursExcludeDisruptionLabel: false },
    ],
    ['1.19 honours the exclude-disruption label', 19, { honoursExcludeDisruptionLabel: true, excludeMasterByName: true }],
    [
      '1.21 stops excluding nodes by name; PodDeletionCost and LogarithmicScaleDown are alpha and off',
      21,
      { excludeMasterByName: false, honoursExcludeDisruptionLabel: true, podDeletionCostDefault: false, logarithmicScaleDownDefault: false },
    ],
    ['1.22 turns PodDeletionCost and LogarithmicScaleDown on', 22, { podDeletionCostDefault: true, logarithmicScaleDownDefault: true }],
    [
      '1.26 still has the pod-eviction path and --enable-taint-manager',
      26,
      { hasPodEvictionPath: true, hasEnableTaintManagerFlag: true, taintBasedEvictionsDefault: true, unreachableTaintQueuedSamePass: false },
    ],
    [
      '1.27 removes the pod-eviction path and its flags',
      27,
      { hasPodEvictionPath: false, hasEnableTaintManagerFlag: false, separateTaintEvictionController: false, unreachableTaintQueuedSamePass: false },
    ],
    ['1.28 runs the taint manager inside the node lifecycle controller', 28, { separateTaintEvictionController: false }],
    ['1.29 runs the taint-eviction-controller separately', 29, { separateTaintEvictionController: true }],
    [
      '1.31 keeps the 40s grace period default',
      31,
      { defaultNodeMonitorGracePeriod: seconds(40), logarithmicScaleDownDefault: true, podDeletionCostDefault: true },
    ],
    ['1.32 defaults the grace period to 50s', 32, { defaultNodeMonitorGracePeriod: seconds(50) }],
    ['1.33 still queues the unreachable taint one pass late', 33, { unreachableTaintQueuedSamePass: false }],
    ['1.34 queues the unreachable taint in the same pass', 34, { unreachableTaintQueuedSamePass: true, defaultNodeMonitorGracePeriod: seconds(50) }],
    [
      '1.35 keeps every newer behaviour',
      35,
      {
        unreachableTaintQueuedSamePass: true,
        separateTaintEvictionController: true,
        hasPodEvictionPath: false,
        nodeLeaseGateDefault: true,
        taintBasedEvictionsDefault: true,
        taintNodesByConditionDefault: true,
        excludeMasterByName: false,
        honoursExcludeDisruptionLabel: true,
        nodeLifecycleReadsLease: true,
        defaultNodeMonitorGracePeriod: seconds(50),
        conditionsSetUnknown: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'],
        nodeLabelsSourceOfTruth: 'stable',
      },
    ],
  ];
  for (const [name, minor, want] of rows) {
    const got = b(minor) as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k], v, `${name}: ${k}`);
  }
});

test('1.36 and 1.37 have the behaviour of 1.35: their rows change nothing the controllers are built from', () => {
  const without = (minor: number): Record<string, unknown> => ({ ...b(minor), version: undefined });
  for (const minor of [36, 37]) assert.deepEqual(without(minor), without(35), `1.${minor}`);
  assert.equal(MAX_MINOR, 37, 'the newest stable release (CHANGELOG-1.37.md; 1.38 is at alpha)');
});

test('each boolean behaviour changes value only where the table says, nowhere in between', () => {
  const flips: Record<string, number[]> = {
    nodeLeaseGateDefault: [14],
    taintBasedEvictionsDefault: [13],
    hasPodEvictionPath: [27],
    hasEnableTaintManagerFlag: [27],
    separateTaintEvictionController: [29],
    unreachableTaintQueuedSamePass: [34],
    excludeMasterByName: [21],
    honoursExcludeDisruptionLabel: [19],
    fixesDeprecatedTaintKeys: [14],
    taintNodesByConditionDefault: [],
    podDeletionCostDefault: [22],
    logarithmicScaleDownDefault: [22],
    nodeLifecycleReadsLease: [13],
    retriesMarkPodsNotReady: [17],
    processesPodUpdates: [18],
    reconcilesNoExecuteTaint: [19],
    nodeLabelsSourceOfTruth: [14, 19],
  };
  for (const [field, at] of Object.entries(flips)) {
    const seen: number[] = [];
    for (let m = 13; m <= MAX_MINOR; m++) {
      const prev = (b(m - 1) as unknown as Record<string, unknown>)[field];
      const cur = (b(m) as unknown as Record<string, unknown>)[field];
      if (prev !== cur) seen.push(m);
    }
    assert.deepEqual(seen, at, field);
  }
});

test('feature gates have the stage, default and lock of their version, and vanish when removed', () => {
  const cases: [gate: string, minor: number, want: { stage: string; default: boolean; locked: boolean } | undefined][] = [
    ['NodeLease', 12, { stage: 'alpha', default: false, locked: false }],
    ['NodeLease', 13, { stage: 'alpha', default: false, locked: false }],
    ['NodeLease', 14, { stage: 'beta', default: true, locked: false }],
    ['NodeLease', 17, { stage: 'GA', default: true, locked: true }],
    ['NodeLease', 23, { stage: 'GA', default: true, locked: true }],
    ['NodeLease', 24, undefined],
    ['TaintBasedEvictions', 12, { stage: 'alpha', default: false, locked: false }],
    ['TaintBasedEvictions', 13, { stage: 'beta', default: true, locked: false }],
    ['TaintBasedEvictions', 18, { stage: 'GA', default: true, locked: true }],
    ['TaintBasedEvictions', 20, { stage: 'GA', default: true, locked: true }],
    ['TaintBasedEvictions', 21, undefined],
    ['TaintNodesByCondition', 12, { stage: 'beta', default: true, locked: false }],
    ['TaintNodesByCondition', 17, { stage: 'GA', default: true, locked: true }],
    ['TaintNodesByCondition', 19, undefined],
    ['NodeDisruptionExclusion', 15, undefined],
    ['NodeDisruptionExclusion', 16, { stage: 'alpha', default: false, locked: false }],
    ['NodeDisruptionExclusion', 22, { stage: 'GA', default: true, locked: true }],
    ['NodeDisruptionExclusion', 23, undefined],
    ['LegacyNodeRoleBehavior', 16, { stage: 'alpha', default: true, locked: false }],
    ['LegacyNodeRoleBehavior', 21, { stage: 'GA', default: false, locked: true }],
    ['LegacyNodeRoleBehavior', 23, undefined],
    ['PodDeletionCost', 20, undefined],
    ['PodDeletionCost', 21, { stage: 'alpha', default: false, locked: false }],
    ['PodDeletionCost', 35, { stage: 'beta', default: true, locked: false }],
    ['LogarithmicScaleDown', 22, { stage: 'beta', default: true, locked: false }],
    ['LogarithmicScaleDown', 31, { stage: 'GA', default: true, locked: true }],
    ['LogarithmicScaleDown', 35, { stage: 'GA', default: true, locked: true }],
    ['SeparateTaintEvictionController', 28, undefined],
    ['SeparateTaintEvictionController', 29, { stage: 'beta', default: true, locked: false }],
    ['SeparateTaintEvictionController', 33, { stage: 'beta', default: true, locked: false }],
    ['SeparateTaintEvictionController', 34, { stage: 'GA', default: true, locked: true }],
    ['PodDisruptionConditions', 24, undefined],
    ['PodDisruptionConditions', 25, { stage: 'alpha', default: false, locked: false }],
    ['PodDisruptionConditions', 26, { stage: 'beta', default: true, locked: false }],
    ['PodDisruptionConditions', 33, { stage: 'GA', default: true, locked: true }],
    ['PodDisruptionConditions', 34, undefined],
    ['DeploymentReplicaSetTerminatingReplicas', 33, { stage: 'alpha', default: false, locked: false }],
    ['DeploymentReplicaSetTerminatingReplicas', 35, { stage: 'beta', default: true, locked: false }],
    ['TaintTolerationComparisonOperators', 34, undefined],
    ['TaintTolerationComparisonOperators', 35, { stage: 'alpha', default: false, locked: false }],
    ['TaintTolerationComparisonOperators', 37, { stage: 'alpha', default: false, locked: false }],
    ['PodDeletionCost', 37, { stage: 'beta', default: true, locked: false }],
    ['LogarithmicScaleDown', 37, { stage: 'GA', default: true, locked: true }],
    ['SeparateTaintEvictionController', 37, { stage: 'GA', default: true, locked: true }],
    ['DeploymentReplicaSetTerminatingReplicas', 37, { stage: 'beta', default: true, locked: false }],
    ['PodDisruptionConditions', 37, undefined],
    ['StaleControllerConsistencyReplicaSet', 35, undefined],
    ['StaleControllerConsistencyReplicaSet', 36, { stage: 'beta', default: true, locked: false }],
    ['StaleControllerConsistencyReplicaSet', 37, { stage: 'beta', default: true, locked: false }],
  ];
  for (const [gate, minor, want] of cases) {
    const g = gateStateOf(minor).get(gate);
    assert.deepEqual(g && { stage: g.stage, default: g.default, locked: g.locked }, want, `${gate} in 1.${minor}`);
  }
});

test('settings the table adds, deprecates and removes have the right lifetimes', () => {
  assert.deepEqual(settingLifecycle('podEvictionTimeout'), { since: 12, removedIn: 27, deprecatedIn: 26 });
  assert.deepEqual(settingLifecycle('enableTaintManager'), { since: 12, removedIn: 27, deprecatedIn: 25 });
  assert.deepEqual(settingLifecycle('nodeStatusReportFrequency'), { since: 13 });
  assert.deepEqual(settingLifecycle('nodeMonitorGracePeriod'), {});
});

test('every row of the version table names what it concerns, cites an upstream source and is in version order', () => {
  let prev = 0;
  for (const c of VERSION_CHANGES) {
    assert.match(c.source, /kubernetes\/kubernetes|KEP|CHANGELOG|website/, c.change);
    assert.ok(c.concerns.length > 0 && c.change.length > 0);
    assert.ok(c.minor >= prev && c.minor >= 12 && c.minor <= MAX_MINOR, `${c.change} is out of order`);
    prev = c.minor;
  }
});

test('the version table renders as Markdown, one row per change', () => {
  const md = renderVersionTableMarkdown();
  const lines = md.trim().split('\n');
  assert.equal(lines[0], '| Version | Area | What changed | Setting / gate | Upstream source |');
  assert.equal(lines.length, VERSION_CHANGES.length + 2);
  assert.ok(lines.some((l) => l.startsWith('| 1.32 | node-lifecycle | nodeMonitorGracePeriod defaults to 50s')));
  for (const l of lines) assert.equal(l.split(/(?<!\\)\|/).length, 7, l);
});
