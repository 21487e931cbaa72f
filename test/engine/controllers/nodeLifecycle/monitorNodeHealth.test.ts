/**
 * The monitor pass: classifyNodes, tryUpdateNodeHealth / tryUpdateNodeStatus
 * (upstream TestMonitorNodeHealthUpdateStatus and
 * TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease, in spirit), the
 * controller's memory at start (spec 1.4), and API failures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, lease, pod, at, iso, drive, names } from './helpers';

test('classifyNodes registers new nodes and removes deleted ones, once each', () => {
  const r = rig({ minor: 31, nodes: [node('b', { zone: 'z' }), node('a', { zone: 'z' })] });
  r.runUntil(at(5));
  assert.deepEqual(
    r.decisions('NodeRegistered').map((d) => [d.object, d.time]),
    [
      ['Node/a', iso(0)],
      ['Node/b', iso(0)],
    ],
  );
  r.host.cluster.nodes.delete('b');
  r.host.now = at(7);
  r.c.onNodeEvent!(r.host, 'deleted', node('b'));
  r.host.cluster.nodes.set('c', node('c', { zone: 'z2', hb: 7 }));
  r.c.onNodeEvent!(r.host, 'added', r.host.cluster.nodes.get('c')!);
  r.runUntil(at(15));
  assert.deepEqual(
    r.decisions('NodeRemoved').map((d) => [d.object, d.time]),
    [['Node/b', iso(10)]],
  );
  assert.deepEqual(
    r.decisions('NodeRegistered').map((d) => d.object),
    ['Node/a', 'Node/b', 'Node/c'],
  );
  // each through the node health machine's registration, its guard classifyNodes' check
  for (const d of r.decisions('NodeRegistered')) {
    assert.deepEqual(d.machine, {
      id: `node/${d.object.slice(5)}`,
      from: 'ready.NotObserved,eviction.idle',
      to: 'ready.NotObserved,eviction.idle',
      event: 'NODE_ADDED',
    });
    assert.deepEqual(
      d.because.filter((c) => c.rule.startsWith('machine guard ')).map((c) => c.values),
      [{ notInKnownNodeSet: true, inKnownNodeSet: false }],
    );
  }
  assert.deepEqual(
    r.c.zones(r.host).map((z) => z.zone),
    ['Zone/z', 'Zone/z2'],
  );
});

test('tryUpdateNodeHealth: Ready and the pressure conditions become Unknown once probe + grace has passed', () => {
  const cases = [
    { name: '1.12 (40 s)', minor: 12, unknownAt: 45, types: ['Ready', 'OutOfDisk', 'MemoryPressure', 'DiskPressure'] },
    { name: '1.31 (40 s)', minor: 31, unknownAt: 45, types: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] },
    { name: '1.35 (50 s)', minor: 35, unknownAt: 55, types: ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] },
  ];
  for (const c of cases) {
    const r = rig({
      minor: c.minor,
      nodes: [
        node('a', {
          conditions: [
            { type: 'MemoryPressure', status: 'False' },
            { type: 'DiskPressure', status: 'False' },
            { type: 'NetworkUnavailable', status: 'False' },
          ],
        }),
        node('b'),
      ],
    });
    drive(r, 100, { alive: () => ['b'], lease: false });
    assert.deepEqual(r.times('NodeStatusUnknown', 'Node/a'), [iso(c.unknownAt)], c.name);
    const a = r.host.cluster.nodes.get('a')!;
    const unknown = a.conditions
      .filter((x) => x.status === 'Unknown')
      .map((x) => x.type)
      .sort();
    assert.deepEqual(unknown, [...c.types].sort(), c.name);
    const ready = a.conditions.find((x) => x.type === 'Ready')!;
    assert.equal(ready.reason, 'NodeStatusUnknown');
    assert.equal(ready.message, 'Kubelet stopped posting node status.');
    assert.equal(ready.lastHeartbeatTime, at(0), 'the last heartbeat is kept');
    assert.equal(ready.lastTransitionTime, at(c.unknownAt));
    const never = a.conditions.find((x) => x.type === (c.minor === 12 ? 'OutOfDisk' : 'PIDPressure'))!;
    assert.equal(never.reason, 'NodeStatusNeverUpdated', `${c.name}: a condition the kubelet never posted is added`);
    assert.equal(never.lastHeartbeatTime, a.meta.creationTimestamp);
    assert.equal(a.conditions.find((x) => x.type === 'NetworkUnavailable')!.status, 'False', 'NetworkUnavailable is left alone');
    assert.ok(r.host.calls.includes('updateNodeStatus a'));
    const d = r.decisions('NodeStatusUnknown', 'Node/a')[0];
    assert.deepEqual(d.machine, { id: 'node/a', from: 'ready.True,eviction.idle', to: 'ready.Unknown,eviction.idle', event: 'STATUS_UNKNOWN_SET' });
  }
});

test('a node that never posted Ready gets Ready=Unknown (NodeStatusNeverUpdated) after nodeStartupGracePeriod from its creation', () => {
  const r = rig({ minor: 31, nodes: [node('new', { ready: null, created: 10 }), node('old')] });
  drive(r, 120, { alive: () => ['old'], lease: false });
  // created at 10 s, startup grace 1 m: first pass after 70 s
  assert.deepEqual(r.times('NodeStatusUnknown', 'Node/new'), [iso(75)]);
  const ready = r.host.cluster.nodes.get('new')!.conditions.find((c) => c.type === 'Ready')!;
  assert.equal(ready.reason, 'NodeStatusNeverUpdated');
  assert.equal(ready.message, 'Kubelet never posted node status.');
  assert.equal(ready.lastHeartbeatTime, at(10));
  assert.match(r.decisions('NodeStatusUnknown', 'Node/new')[0].because[0].rule, /nodeStartupGracePeriod/);
});

test('a heartbeat resets the grace period; only a changed lastTransitionTime moves readyTransitionTimestamp', () => {
  const r = rig({ minor: 31, nodes: [node('a'), node('b')] });
  drive(r, 30, { alive: () => ['a', 'b'] });
  assert.equal(r.c.healthOf('a')!.probe, at(30));
  assert.equal(r.c.healthOf('a')!.readyTransition, at(0));
  r.runUntil(at(32));
  r.host.now = at(32);
  r.post('a', 'False');
  r.runUntil(at(35));
  assert.equal(r.c.healthOf('a')!.readyTransition, at(35));
});

test('with NodeLease the Lease renewTime is a heartbeat (1.13+), but not in 1.12', () => {
  for (const [minor, unknown] of [
    [12, [iso(45)]],
    [31, []],
  ] as const) {
    const r = rig({ minor, nodes: [node('a'), node('b')], leases: [lease('a', 0), lease('b', 0)] });
    // both kubelets only renew their Leases; statuses stay as posted at 0 s
    drive(r, 200, { alive: () => ['a', 'b'], lease: true });
    assert.deepEqual(r.times('NodeStatusUnknown', 'Node/a'), unknown, `1.${minor}`);
  }
});

test('a kubelet that stops renewing its Lease (status unchanged) is Unknown grace after the last renewal', () => {
  const r = rig({ minor: 31, nodes: [node('a'), node('b')], leases: [lease('a', 0), lease('b', 0)] });
  drive(r, 30, { alive: () => ['a', 'b'], lease: true });
  drive(r, 120, { alive: () => ['b'], lease: true });
  // last renewal observed at the 30 s pass: Unknown on the first pass after 70 s
  assert.deepEqual(r.times('NodeStatusUnknown', 'Node/a'), [iso(75)]);
  assert.equal(r.decisions('NodeStatusUnknown', 'Node/a')[0].because[0].values!.leaseRenewTime, iso(30));
});

test('controllerMemory reconstructed takes probe and transition times from the snapshot; fresh takes now', () => {
  // a's last heartbeat was 30 s before the start: reconstructed it goes Unknown at 15 s, fresh at 45 s
  for (const [memory, at1] of [
    ['reconstructed', 15],
    ['fresh', 45],
  ] as const) {
    const r = rig({ minor: 31, memory, nodes: [node('a', { hb: -30 }), node('b')] });
    drive(r, 60, { alive: () => ['b'], lease: false });
    assert.deepEqual(r.times('NodeStatusUnknown', 'Node/a'), [iso(at1)], memory);
    const assumption = r.decisions('AssumptionMade');
    assert.equal(assumption.length, 1);
    assert.equal(assumption[0].controller, 'world');
    assert.equal(assumption[0].seq, 1, 'the first decision of the trace');
  }
});

test('reconstructed memory takes the later of the Ready heartbeat and the Lease renewTime', () => {
  const r = rig({ minor: 31, memory: 'reconstructed', nodes: [node('a', { hb: -300 }), node('b')], leases: [lease('a', -20), lease('b', 0)] });
  r.runUntil(at(0));
  assert.equal(r.c.healthOf('a')!.probe, at(-20));
  const reg = r.decisions('NodeRegistered', 'Node/a')[0];
  assert.equal(reg.because[0].values!.from, 'Lease renewTime');
  assert.equal(reg.machine?.event, 'READY_OBSERVED', 'registered, then its Ready observed as the snapshot has it: the decision shows the observation');
  // a node without a Ready condition: the registration itself
  const bare = rig({ minor: 31, memory: 'reconstructed', nodes: [node('c', { ready: null })] });
  bare.runUntil(at(0));
  assert.equal(bare.decisions('NodeRegistered', 'Node/c')[0].machine?.event, 'NODE_ADDED');
});

test('reconstructed memory keeps the NoExecute taints a running controller would have added; fresh memory removes them first', () => {
  const taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' as const, timeAdded: at(-100) };
  for (const [memory, removed] of [
    ['reconstructed', 0],
    ['fresh', 1],
  ] as const) {
    const all = names('n', 4);
    const r = rig({
      minor: 31,
      memory,
      nodes: [node('n1', { zone: 'z', ready: 'Unknown', hb: -300, taints: [taint] }), ...all.slice(1).map((n) => node(n, { zone: 'z' }))],
    });
    drive(r, 20, { alive: () => all.slice(1), lease: false });
    assert.equal(r.decisions('TaintRemoved', 'Node/n1').filter((d) => d.summary.includes('NoExecute')).length, removed, memory);
    const t = r.host.cluster.nodes.get('n1')!.taints.find((x) => x.effect === 'NoExecute');
    assert.ok(t, `${memory}: tainted again`);
    assert.equal(t!.timeAdded === at(-100), memory === 'reconstructed', memory);
  }
});

test('a failed status update is retried within the pass, six attempts in all, then the node is skipped until the next pass', () => {
  // monitorNodeHealth: wait.PollImmediate(20 ms, 100 ms) around tryUpdateNodeHealth; after the
  // last failure "Skipping - no pods will be evicted" (left out of the pass, tried again next pass)
  const cases = [
    {
      name: '1.12: two failures, then the third attempt succeeds in the same pass',
      minor: 12,
      count: 2,
      due: 45,
      failedAt: [45, 45],
      unknownAt: 45,
      attempt: 3,
    },
    {
      name: '1.31: two failures, then the third attempt succeeds in the same pass',
      minor: 31,
      count: 2,
      due: 45,
      failedAt: [45, 45],
      unknownAt: 45,
      attempt: 3,
    },
    {
      name: '1.35: two failures, then the third attempt succeeds in the same pass',
      minor: 35,
      count: 2,
      due: 55,
      failedAt: [55, 55],
      unknownAt: 55,
      attempt: 3,
    },
    {
      name: '1.31: five failures, the sixth and last attempt succeeds',
      minor: 31,
      count: 5,
      due: 45,
      failedAt: [45, 45, 45, 45, 45],
      unknownAt: 45,
      attempt: 6,
    },
    {
      name: '1.12: six failures exhaust the pass; the next pass succeeds at once',
      minor: 12,
      count: 6,
      due: 45,
      failedAt: [45, 45, 45, 45, 45, 45],
      unknownAt: 50,
      attempt: 1,
    },
    {
      name: '1.35: six failures exhaust the pass; the next pass succeeds at once',
      minor: 35,
      count: 6,
      due: 55,
      failedAt: [55, 55, 55, 55, 55, 55],
      unknownAt: 60,
      attempt: 1,
    },
    {
      name: '1.31: seven failures: six in the first pass, one in the next, whose second attempt succeeds',
      minor: 31,
      count: 7,
      due: 45,
      failedAt: [45, 45, 45, 45, 45, 45, 50],
      unknownAt: 50,
      attempt: 2,
    },
  ];
  for (const c of cases) {
    const r = rig({ minor: c.minor, nodes: [node('a', { zone: 'z' }), node('b', { zone: 'z' })], faults: { 'update nodes': c.count } });
    drive(r, c.unknownAt + 10, { alive: () => ['b'], lease: false });
    assert.deepEqual(r.times('ApiCallFailed', 'Node/a'), c.failedAt.map(iso), c.name);
    assert.deepEqual(r.times('NodeStatusUnknown', 'Node/a'), [iso(c.unknownAt)], c.name);
    const retried = r.decisions('NodeStatusUnknown', 'Node/a')[0].because.find((b) => b.rule.includes('failed attempts'));
    if (c.attempt === 1) assert.equal(retried, undefined, `${c.name}: a first attempt says nothing of retries`);
    else assert.deepEqual(retried?.values, { attempt: c.attempt, failedAttempts: c.attempt - 1 }, c.name);
    if (c.unknownAt > c.due) {
      // the skipped pass left the node as it was: Ready still True in the API, and nothing decided for it
      const between = r.decisions(undefined, 'Node/a').filter((d) => d.time === iso(c.due) && d.action !== 'ApiCallFailed');
      assert.deepEqual(
        between.map((d) => d.action),
        [],
        c.name,
      );
    }
  }
});

test('the monitor pass runs every nodeMonitorPeriod from the controller start, and reports itself', () => {
  const r = rig({ minor: 31, nodes: [node('a')], config: { nodeMonitorPeriod: 7_000_000 } });
  drive(r, 30, { alive: () => ['a'], lease: false });
  assert.deepEqual(r.times('MonitorPass'), [iso(0), iso(7), iso(14), iso(21), iso(28)]);
  assert.deepEqual(
    r.decisions('MonitorPass').map((d) => d.pass),
    [0, 1, 2, 3, 4],
  );
  assert.equal(r.decisions('MonitorPass')[0].machine!.event, 'PASS_START');
});

test('pods on a node are not touched by the monitor pass while the node is healthy', () => {
  const r = rig({ minor: 31, nodes: [node('a')], pods: [pod('default', 'p', 'a')] });
  drive(r, 60, { alive: () => ['a'], lease: false });
  assert.equal(r.host.calls.filter((c) => c.startsWith('updatePod')).length, 0);
});

test('after a status heartbeat the saved Lease is forgotten, so the next pass moves the probe again (upstream quirk)', () => {
  const r = rig({ minor: 31, nodes: [node('a'), node('b')], leases: [lease('a', 0), lease('b', 0)] });
  r.runUntil(at(7) - 1);
  // a posts its status at 7 s (no Lease renewal after 0 s): the 10 s pass re-creates the health entry
  r.host.now = at(7);
  r.post('a', 'True');
  r.runUntil(at(10));
  assert.equal(r.c.healthOf('a')!.probe, at(10));
  r.runUntil(at(15));
  assert.equal(r.c.healthOf('a')!.probe, at(15), 'the forgotten Lease counts as news once');
  r.runUntil(at(20));
  assert.equal(r.c.healthOf('a')!.probe, at(15));
});
