/**
 * tryUpdateNodeHealth's pure part, case by case as upstream's comments name
 * them: the health entry it makes from the saved one, the node's heartbeat and
 * its Lease, and the conditions it sets to Unknown. The saved entry is never
 * edited (checkpoints share it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conditionsSetUnknown, nextHealth, type HealthInput } from '../../../../src/engine/controllers/nodeLifecycle/tryUpdateNodeHealth';
import { type HealthView, NodeHealthData } from '../../../../src/engine/controllers/nodeLifecycle/nodeHealthData';
import { seconds } from '../../../../src/engine/model/time';
import { at, lease, node } from './helpers';

const input = (o: Partial<HealthInput>): HealthInput => ({
  now: at(100),
  node: node('a', { hb: 90, tt: 50 }),
  saved: undefined,
  lease: undefined,
  readsLeases: true,
  legacy: false,
  nodeMonitorGracePeriod: seconds(40),
  nodeStartupGracePeriod: seconds(60),
  ...o,
});
const saved = (o: Partial<HealthView> = {}): NodeHealthData => {
  const v: HealthView = {
    probe: at(80),
    readyTransition: at(10),
    savedReady: { type: 'Ready', status: 'True', lastHeartbeatTime: at(80), lastTransitionTime: at(50) },
    lease: { renewTime: at(80) },
    ...o,
  };
  return new NodeHealthData(v.probe, v.readyTransition, v.savedReady, v.lease !== null, v.lease?.renewTime);
};

test('nextHealth: the entry for each case tryUpdateNodeHealth names', () => {
  const cases: { name: string; in: HealthInput; probe: number; transition: number; follows: boolean; grace: number; lease?: number | null }[] = [
    { name: 'Missing timestamp for Node: now', in: input({}), probe: at(100), transition: at(100), follows: true, grace: seconds(40), lease: null },
    {
      name: 'newly observed Node (no saved Ready): now',
      in: input({ saved: saved({ savedReady: null }) }),
      probe: at(100),
      transition: at(100),
      follows: true,
      grace: seconds(40),
      lease: null,
    },
    {
      name: 'a new heartbeat, same transition: probe now, transition kept',
      in: input({ saved: saved() }),
      probe: at(100),
      transition: at(10),
      follows: true,
      grace: seconds(40),
      lease: null,
    },
    {
      name: 'a new heartbeat and a new transition: both now',
      in: input({ node: node('a', { hb: 90, tt: 85 }), saved: saved() }),
      probe: at(100),
      transition: at(100),
      follows: true,
      grace: seconds(40),
      lease: null,
    },
    {
      name: 'the same heartbeat: the entry as saved',
      in: input({ node: node('a', { hb: 80, tt: 50 }), saved: saved() }),
      probe: at(80),
      transition: at(10),
      follows: false,
      grace: seconds(40),
      lease: at(80),
    },
    {
      name: 'the same heartbeat, the Lease renewed: probe now',
      in: input({ node: node('a', { hb: 80, tt: 50 }), saved: saved(), lease: lease('a', 95) }),
      probe: at(100),
      transition: at(10),
      follows: false,
      grace: seconds(40),
      lease: at(95),
    },
    {
      name: 'a renewed Lease is not read without Leases (1.12)',
      in: input({ node: node('a', { hb: 80, tt: 50 }), saved: saved(), lease: lease('a', 95), readsLeases: false }),
      probe: at(80),
      transition: at(10),
      follows: false,
      grace: seconds(40),
      lease: at(80),
    },
    {
      name: 'no Ready condition: startup grace, the entry kept',
      in: input({ node: node('a', { ready: null }), saved: saved() }),
      probe: at(80),
      transition: at(10),
      follows: true,
      grace: seconds(60),
      lease: at(80),
    },
    {
      name: 'no Ready condition, 1.12: from creationTimestamp',
      in: input({ node: node('a', { ready: null, created: -500 }), saved: saved(), legacy: true }),
      probe: at(-500),
      transition: at(-500),
      follows: true,
      grace: seconds(60),
      lease: null,
    },
  ];
  for (const c of cases) {
    const before = c.in.saved?.view();
    const r = nextHealth(c.in);
    assert.equal(r.h.probe, c.probe, `${c.name}: probe`);
    assert.equal(r.h.readyTransition, c.transition, `${c.name}: readyTransition`);
    assert.equal(r.followsWork, c.follows, `${c.name}: follows the node's status`);
    assert.equal(r.grace, c.grace, `${c.name}: grace`);
    if (c.lease !== undefined) assert.deepEqual(r.h.view().lease, c.lease === null ? null : { renewTime: c.lease }, `${c.name}: lease`);
    assert.deepEqual(c.in.saved?.view(), before, `${c.name}: the saved entry is not edited`);
    assert.notEqual(r.h, c.in.saved, `${c.name}: a new entry`);
  }
});

test('conditionsSetUnknown: each type Unknown, a missing one added as never posted, the node left as it was', () => {
  const n = node('a', { ready: 'True', conditions: [{ type: 'MemoryPressure', status: 'False' }] });
  const was = structuredClone(n.conditions);
  const { work, changed } = conditionsSetUnknown(n, ['Ready', 'MemoryPressure', 'DiskPressure'], at(100));
  assert.deepEqual(changed, ['Ready=Unknown (was True)', 'MemoryPressure=Unknown (was False)', 'DiskPressure=Unknown (never posted)']);
  assert.deepEqual(
    work.map((c) => [c.type, c.status, c.reason, c.lastTransitionTime]),
    [
      ['Ready', 'Unknown', 'NodeStatusUnknown', at(100)],
      ['MemoryPressure', 'Unknown', 'NodeStatusUnknown', at(100)],
      ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated', at(100)],
    ],
  );
  assert.deepEqual(n.conditions, was);
});
