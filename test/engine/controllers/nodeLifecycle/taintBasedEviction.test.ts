/**
 * Taint-based evictions (upstream TestApplyNoExecuteTaints,
 * TestSwapUnreachableNotReadyTaints, TestApplyNoExecuteTaintsToNodesEnqueueTwice,
 * in spirit): when the NoExecute taints are added, in which pass, through
 * which queue, and when they are swapped and removed; for 1.12 (gate on),
 * 1.31 and 1.35.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, lease, at, iso, drive, names, type Rig } from './helpers';

const ZONE = (ns: string[], zone = 'z1') => ns.map((n) => node(n, { zone }));
const noExec = (r: Rig, n: string) =>
  r.host.cluster.nodes
    .get(n)!
    .taints.filter((t) => t.effect === 'NoExecute')
    .map((t) => t.key);

function outage(minor: number, extra: Partial<Parameters<typeof rig>[0]> = {}) {
  const all = names('n', 4);
  const lease13 = minor >= 13;
  const r = rig({
    minor,
    nodes: ZONE(all),
    leases: lease13 ? all.map((n) => lease(n, 0)) : [],
    gates: minor === 12 ? { TaintBasedEvictions: true } : {},
    ...extra,
  });
  // n1's kubelet is gone from the start; the others keep heartbeating
  drive(r, 120, { alive: () => ['n2', 'n3', 'n4'], lease: lease13 });
  return r;
}

test('the unreachable NoExecute taint is added one pass after Unknown before 1.34, in the same pass from 1.34', () => {
  const cases = [
    { minor: 12, unknownAt: 45, taintedAt: 50, grace: '40s' },
    { minor: 31, unknownAt: 45, taintedAt: 50, grace: '40s' },
    { minor: 35, unknownAt: 55, taintedAt: 55, grace: '50s' },
  ];
  for (const c of cases) {
    const r = outage(c.minor);
    assert.deepEqual(r.times('NodeStatusUnknown', 'Node/n1'), [iso(c.unknownAt)], `1.${c.minor} Unknown`);
    assert.deepEqual(r.times('NodeQueuedForTainting', 'Node/n1'), [iso(c.taintedAt)], `1.${c.minor} queued`);
    const added = r.decisions('TaintAdded', 'Node/n1').filter((d) => d.summary.includes('NoExecute'));
    assert.deepEqual(
      added.map((d) => d.time),
      [iso(c.taintedAt)],
      `1.${c.minor} tainted`,
    );
    assert.deepEqual(noExec(r, 'n1'), ['node.kubernetes.io/unreachable'], `1.${c.minor}`);
    assert.equal(r.host.cluster.nodes.get('n1')!.taints.find((t) => t.effect === 'NoExecute')!.timeAdded, at(c.taintedAt));
    const unknown = r.decisions('NodeStatusUnknown', 'Node/n1')[0];
    assert.equal(unknown.because[0].values!.nodeMonitorGracePeriod, c.grace);
    assert.deepEqual(added[0].machine, {
      id: 'node/n1',
      from: 'ready.Unknown,eviction.queuedForTainting',
      to: 'ready.Unknown,eviction.tainted',
      event: 'TAINT_PASS',
    });
    assert.deepEqual(added[0].causes, [r.decisions('NodeQueuedForTainting', 'Node/n1')[0].seq]);
    for (const n of ['n2', 'n3', 'n4']) assert.deepEqual(noExec(r, n), [], `1.${c.minor} ${n} stays untainted`);
  }
});

test('1.12 without TaintBasedEvictions adds no NoExecute taint (the pod eviction path runs instead)', () => {
  const r = outage(12, { gates: {} });
  assert.equal(r.decisions('NodeQueuedForTainting').length, 0);
  assert.deepEqual(noExec(r, 'n1'), []);
});

test('a node that goes NotReady is tainted not-ready; when it then goes Unknown the taints are swapped at once in one update', () => {
  // n1 posts Ready=False at 10 s and renews its lease until 20 s, then goes silent: Unknown once
  // 20 s + grace has passed (1.31: at 65 s; 1.35: at 75 s); 1.31 swaps when it observes Unknown, one pass later
  for (const [minor, swapAt] of [
    [31, 70],
    [35, 75],
  ] as const) {
    const all = names('n', 4);
    const r = rig({ minor, nodes: ZONE(all), leases: all.map((n) => lease(n, 0)) });
    drive(r, 5, { alive: () => all, lease: true });
    r.runUntil(at(10) - 1);
    r.host.now = at(10);
    r.renewLease('n1');
    r.post('n1', 'False');
    drive(r, 20, { alive: () => all, lease: true });
    drive(r, 120, { alive: () => ['n2', 'n3', 'n4'], lease: true });
    assert.deepEqual(r.times('NodeQueuedForTainting', 'Node/n1'), [iso(10)], `1.${minor}`);
    const added = r.decisions('TaintAdded', 'Node/n1').filter((d) => d.summary.includes('NoExecute'));
    const removed = r.decisions('TaintRemoved', 'Node/n1').filter((d) => d.summary.includes('NoExecute'));
    assert.deepEqual(
      added.map((d) => [d.time, d.summary.split(' ')[2]]),
      [
        [iso(10), 'node.kubernetes.io/not-ready:NoExecute'],
        [iso(swapAt), 'node.kubernetes.io/unreachable:NoExecute'],
      ],
      `1.${minor}`,
    );
    assert.deepEqual(
      removed.map((d) => d.time),
      [iso(swapAt)],
    );
    assert.deepEqual(added[1].machine, removed[0].machine, 'the swap is one transition');
    assert.equal(added[1].machine!.event, 'TAINT_SWAPPED');
    assert.equal(added[1].seq + 1, removed[0].seq);
    assert.deepEqual(noExec(r, 'n1'), ['node.kubernetes.io/unreachable']);
  }
});

test('a node that recovers loses its NoExecute taint at the next pass (markNodeAsReachable)', () => {
  const all = names('n', 4);
  const r = rig({ minor: 31, nodes: ZONE(all), leases: all.map((n) => lease(n, 0)) });
  drive(r, 60, { alive: () => ['n2', 'n3', 'n4'], lease: true });
  assert.deepEqual(noExec(r, 'n1'), ['node.kubernetes.io/unreachable']);
  r.host.now = at(61);
  r.renewLease('n1');
  r.post('n1', 'True');
  drive(r, 80, { alive: () => all, lease: true });
  const removed = r.decisions('TaintRemoved', 'Node/n1').filter((d) => d.summary.includes('NoExecute'));
  assert.deepEqual(
    removed.map((d) => d.time),
    [iso(65)],
  );
  assert.equal(removed[0].machine!.to, 'ready.True,eviction.idle');
  assert.equal(removed[0].source.startsWith('nodelifecycle: markNodeAsReachable'), true);
  assert.deepEqual(noExec(r, 'n1'), []);
});

test('a NoExecute taint removed by hand comes back from 1.19 on, not in 1.12', () => {
  for (const [minor, back] of [
    [12, false],
    [31, true],
  ] as const) {
    const all = names('n', 4);
    const r = rig({
      minor,
      nodes: ZONE(all),
      leases: minor >= 13 ? all.map((n) => lease(n, 0)) : [],
      gates: minor === 12 ? { TaintBasedEvictions: true } : {},
    });
    drive(r, 60, { alive: () => ['n2', 'n3', 'n4'], lease: minor >= 13 });
    assert.deepEqual(noExec(r, 'n1'), ['node.kubernetes.io/unreachable']);
    const n1 = r.host.cluster.nodes.get('n1')!;
    r.host.now = at(61);
    n1.taints = n1.taints.filter((t) => t.effect !== 'NoExecute');
    r.c.onNodeEvent!(r.host, 'updated', n1);
    drive(r, 100, { alive: () => ['n2', 'n3', 'n4'], lease: minor >= 13 });
    assert.deepEqual(noExec(r, 'n1'), back ? ['node.kubernetes.io/unreachable'] : [], `1.${minor}`);
  }
});

test('nodes queued in the same pass are tainted in name order, one per token', () => {
  // 10 nodes, 2 fail at once: Normal zone (2 < 3 not ready), rate 0.1: the second waits 10 s
  const all = names('n', 10);
  const r = rig({ minor: 35, nodes: ZONE(all), leases: all.map((n) => lease(n, 0)) });
  drive(r, 120, { alive: () => all.filter((n) => n !== 'n2' && n !== 'n1'), lease: true });
  const tainted = r
    .decisions('TaintAdded')
    .filter((d) => d.summary.includes('NoExecute'))
    .map((d) => [d.object, d.time]);
  assert.deepEqual(tainted, [
    ['Node/n1', iso(55)],
    ['Node/n2', iso(65)],
  ]);
});

test('the tainting pass runs on the 100 ms grid from the controller start, skipping empty passes', () => {
  // the second node's token arrives 10 s after the first: on the grid, not on a monitor pass
  const all = names('n', 10);
  const r = rig({ minor: 35, nodes: ZONE(all), leases: all.map((n) => lease(n, 0)), config: { nodeEvictionRate: 0.3 } });
  drive(r, 120, { alive: () => all.filter((n) => n !== 'n2' && n !== 'n1'), lease: true });
  const tainted = r
    .decisions('TaintAdded')
    .filter((d) => d.summary.includes('NoExecute'))
    .map((d) => d.time);
  // float32(0.3) = 0.30000001192: 3.33333320 s per token -> the 100 ms pass at 58.4 s
  assert.deepEqual(tainted, [iso(55), iso(58.4)]);
});
