import { test } from 'node:test';
import assert from 'node:assert/strict';
import { behaviourOf, kubeVersion, parseKubeVersion, supportedVersions, VERSION_CHANGES, gateStateOf } from '../../../src/engine/versions/table';
import { seconds } from '../../../src/engine/model/time';

test('kubernetes versions are parsed as users write them, and only 1.12 to 1.35 are accepted', () => {
  const cases: [string, number | undefined][] = [
    ['1.12', 12], ['v1.31.2', 31], ['1.35.0-alpha.1', 35], [' 1.27 ', 27], ['1.11', undefined], ['1.36', undefined],
    ['2.0', undefined], ['1', undefined], ['latest', undefined], ['', undefined], ['1.x', undefined],
  ];
  for (const [text, minor] of cases) assert.equal(parseKubeVersion(text)?.minor, minor, text);
  assert.equal(parseKubeVersion('v1.31.2')?.text, 'v1.31.2');
});

test('every version from 1.12 to 1.35 has a complete behaviour', () => {
  const versions = supportedVersions();
  assert.equal(versions.length, 24);
  for (const v of versions) {
    const b = behaviourOf(v);
    assert.equal(b.version.minor, v.minor);
    for (const [k, val] of Object.entries(b)) assert.notEqual(val, undefined, `1.${v.minor} ${k}`);
  }
});

type Row = [string, number, Partial<Record<string, unknown>>];
test('behaviour changes at the version boundaries the table names', () => {
  const rows: Row[] = [
    ['1.12 heartbeats through NodeStatus only and evicts pods without taints', 12,
      { nodeLeaseGateDefault: false, taintBasedEvictionsDefault: false, taintNodesByConditionDefault: true, hasPodEvictionPath: true,
        hasEnableTaintManagerFlag: true, excludeMasterByName: true, fixesDeprecatedTaintKeys: true, separateTaintEvictionController: false,
        defaultNodeMonitorGracePeriod: seconds(40), podDeletionCostDefault: false, logarithmicScaleDownDefault: false }],
    ['1.13 turns Lease heartbeats and taint-based eviction on', 13,
      { nodeLeaseGateDefault: true, taintBasedEvictionsDefault: true, fixesDeprecatedTaintKeys: false, hasPodEvictionPath: true }],
    ['1.26 still has the pod-eviction path and --enable-taint-manager', 26,
      { hasPodEvictionPath: true, hasEnableTaintManagerFlag: true, taintBasedEvictionsDefault: true, unreachableTaintQueuedSamePass: false }],
    ['1.27 removes the pod-eviction path and its flags', 27,
      { hasPodEvictionPath: false, hasEnableTaintManagerFlag: false, separateTaintEvictionController: false }],
    ['1.28 runs the taint manager inside the node lifecycle controller', 28, { separateTaintEvictionController: false }],
    ['1.29 runs the taint-eviction-controller separately', 29, { separateTaintEvictionController: true }],
    ['1.31 keeps a 40s grace period default', 31, { defaultNodeMonitorGracePeriod: seconds(40), logarithmicScaleDownDefault: true, podDeletionCostDefault: true }],
    ['1.32 defaults the grace period to 50s', 32, { defaultNodeMonitorGracePeriod: seconds(50) }],
    ['1.33 queues the unreachable taint one pass late', 33, { unreachableTaintQueuedSamePass: false }],
    ['1.34 queues the unreachable taint in the same pass', 34, { unreachableTaintQueuedSamePass: true, defaultNodeMonitorGracePeriod: seconds(50) }],
    ['1.35 keeps every newer behaviour', 35,
      { unreachableTaintQueuedSamePass: true, separateTaintEvictionController: true, hasPodEvictionPath: false, nodeLeaseGateDefault: true,
        taintBasedEvictionsDefault: true, taintNodesByConditionDefault: true, excludeMasterByName: false, honoursExcludeDisruptionLabel: true }],
  ];
  for (const [name, minor, want] of rows) {
    const b = behaviourOf(kubeVersion(minor)) as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) assert.deepEqual(b[k], v, `${name}: ${k}`);
  }
});

test('1.12 sets OutOfDisk to Unknown; later versions do not', () => {
  assert.ok(behaviourOf(kubeVersion(12)).conditionsSetUnknown.includes('OutOfDisk'));
  assert.equal(behaviourOf(kubeVersion(12)).conditionsSetUnknown[0], 'Ready');
  assert.ok(!behaviourOf(kubeVersion(13)).conditionsSetUnknown.includes('OutOfDisk'));
});

test('removed gates are gone from the versions after their removal', () => {
  assert.ok(gateStateOf(19).has('TaintBasedEvictions'));
  assert.ok(!gateStateOf(20).has('TaintBasedEvictions'));
  assert.ok(gateStateOf(12).has('NodeLease'));
  assert.ok(!gateStateOf(12).has('SeparateTaintEvictionController'));
  assert.equal(gateStateOf(29).get('SeparateTaintEvictionController')?.default, true);
  assert.equal(gateStateOf(18).get('TaintBasedEvictions')?.locked, true);
});

test('every row of the version table cites an upstream source and is in version order', () => {
  let prev = 0;
  for (const c of VERSION_CHANGES) {
    assert.ok(c.source.includes('kubernetes/kubernetes') || /KEP|CHANGELOG/.test(c.source), c.change);
    assert.ok(c.minor >= prev, `${c.change} is out of order`);
    prev = c.minor;
  }
});
