/**
 * handleDisruption over whole timelines (upstream
 * TestMonitorNodeHealthEvictPodsWithDisruption, in spirit): zone states,
 * the rate each state gets, "all zones fully disrupted" and leaving it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, lease, iso, drive, names, at } from './helpers';

const tainted = (r: ReturnType<typeof rig>) =>
  r
    .decisions('TaintAdded')
    .filter((d) => d.summary.includes('NoExecute'))
    .map((d) => [d.object, d.time]);

/** The rate SwapLimiter set (its check comes before the guards of the zone machine's transition). */
const swappedTo = (d: { because: { rule: string; values?: Record<string, unknown> }[] }) => d.because.find((c) => c.rule.startsWith('SwapLimiter'))!.values!.to;

function zones(minor: number, layout: Record<string, number>, dead: string[], config = {}) {
  const nodes = Object.entries(layout).flatMap(([z, n]) => names(`${z}-`, n).map((name) => node(name, { zone: z })));
  const all = nodes.map((n) => n.meta.name);
  const r = rig({ minor, nodes, leases: all.map((n) => lease(n, 0)), config });
  drive(r, 120, { alive: () => all.filter((n) => !dead.includes(n)), lease: true });
  return r;
}

test('4 of 6 nodes failing in a small zone: PartialDisruption and the rate drops to 0, so nothing is tainted', () => {
  const r = zones(35, { a: 6, b: 3 }, ['a-1', 'a-2', 'a-3', 'a-4']);
  const changes = r.decisions('ZoneStateChanged', 'Zone/a').map((d) => [d.time, d.machine!.from, d.machine!.to]);
  assert.deepEqual(changes, [
    [iso(0), 'Initial', 'Normal'],
    [iso(55), 'Normal', 'PartialDisruption'],
  ]);
  const rate = r.decisions('EvictionRateChanged', 'Zone/a');
  assert.deepEqual(
    rate.map((d) => [d.time, d.because[1].values!.to]),
    [[iso(55), 0]],
  );
  assert.match(rate[0].because[0].rule, /small zone/);
  // the limiter is set from the zone machine's transition: the one ZoneStateChanged recorded, with ComputeZoneState's guards
  const partial = r.decisions('ZoneStateChanged', 'Zone/a')[1];
  assert.deepEqual(rate[0].machine, partial.machine);
  assert.deepEqual(
    rate[0].because.filter((c) => c.rule.startsWith('machine guard ')).map((c) => [c.rule.split(':')[0], c.values]),
    [
      ['machine guard noReadyNodes', { noReadyNodes: false, ready: 2, notReady: 4 }],
      ['machine guard unhealthyRatioAtLeastThreshold', { unhealthyRatioAtLeastThreshold: true, ready: 2, notReady: 4, unhealthyZoneThreshold: 0.55 }],
    ],
  );
  // 1.35 queues the nodes in the pass that sets Unknown, but handleDisruption swaps the limiter to 0 at the
  // end of that same pass, before the 100 ms tainting pass runs
  assert.deepEqual(tainted(r), []);
  const z = r.c.zones(r.host).find((x) => x.zone === 'Zone/a')!;
  assert.deepEqual([z.state, z.nodes, z.notReady, z.evictionRate, z.queued], ['PartialDisruption', 6, 4, 0, ['a-1', 'a-2', 'a-3', 'a-4']]);
  assert.equal('queuedCount' in z, false, 'the state export is as before: the names, no count');
  // a panel asks for the names of the zones whose queue it shows, and the count of every zone
  const rows: [string, ((zone: string) => boolean) | undefined, string[], number | undefined][] = [
    ['no zone asked: counts only', () => false, [], 4],
    ['zone a asked: its names', (zone) => zone === 'Zone/a', ['a-1', 'a-2', 'a-3', 'a-4'], 4],
    ['another zone asked: a shows its count only', (zone) => zone === 'Zone/b', [], 4],
  ];
  for (const [name, namesOf, queued, queuedCount] of rows) {
    const shown = r.c.zones(r.host, namesOf).find((x) => x.zone === 'Zone/a')!;
    assert.deepEqual([shown.queued, shown.queuedCount], [queued, queuedCount], name);
  }
});

test('4 of 6 failing in 1.31: Unknown is observed one pass later, the zone is already partially disrupted', () => {
  const r = zones(31, { a: 6, b: 3 }, ['a-1', 'a-2', 'a-3', 'a-4']);
  assert.deepEqual(tainted(r), []);
  assert.deepEqual(r.times('NodeQueuedForTainting'), [iso(50), iso(50), iso(50), iso(50)]);
});

test('a large zone in PartialDisruption taints at secondaryNodeEvictionRate', () => {
  // 60 nodes > largeClusterSizeThreshold 50; 40 fail: PartialDisruption, rate 0.01 (one node per 100 s)
  const dead = names('a-', 40);
  const r = zones(35, { a: 60, b: 3 }, dead, { secondaryNodeEvictionRate: 0.01 });
  const rate = r.decisions('EvictionRateChanged', 'Zone/a');
  assert.deepEqual(
    rate.map((d) => d.because[1].values!.to),
    [0.01],
  );
  assert.match(rate[0].because[0].rule, /large zone/);
  // the fresh 0.01 bucket starts full (the old one still had its token): one node at once, the next 100.1 s later
  assert.deepEqual(tainted(r), [['Node/a-1', iso(55)]]);
  drive(r, 200, { alive: () => (r.host.cluster.nodes.size ? [...r.host.cluster.nodes.keys()].filter((n) => !dead.includes(n)) : []), lease: true });
  assert.deepEqual(tainted(r), [
    ['Node/a-1', iso(55)],
    ['Node/a-10', iso(155.1)],
  ]);
});

test('one zone fully disrupted while another is healthy keeps the normal rate (HealthyQPSFunc)', () => {
  const r = zones(35, { a: 3, b: 3 }, ['a-1', 'a-2', 'a-3']);
  assert.deepEqual(
    r.decisions('ZoneStateChanged', 'Zone/a').map((d) => d.machine!.to),
    ['Normal', 'FullDisruption'],
  );
  assert.equal(r.decisions('EvictionRateChanged', 'Zone/a').length, 0, 'the limiter keeps its QPS');
  assert.deepEqual(tainted(r), [
    ['Node/a-1', iso(55)],
    ['Node/a-2', iso(65)],
    ['Node/a-3', iso(75)],
  ]);
});

test('every zone fully disrupted: taints removed, evictions stopped; leaving it resets every probe timestamp', () => {
  const all = ['a-1', 'a-2', 'b-1'];
  const r = rig({
    minor: 35,
    nodes: [node('a-1', { zone: 'a' }), node('a-2', { zone: 'a' }), node('b-1', { zone: 'b' })],
    leases: all.map((n) => lease(n, 0)),
  });
  // b-1 dies first and is tainted; then zone a dies too
  drive(r, 30, { alive: () => ['a-1', 'a-2'], lease: true });
  drive(r, 100, { alive: () => [], lease: true });
  assert.deepEqual(tainted(r), [['Node/b-1', iso(55)]]);
  const enter = r.decisions('ZoneStateChanged').filter((d) => d.machine!.event === 'ALL_ZONES_FULLY_DISRUPTED');
  assert.deepEqual(
    enter.map((d) => [d.object, d.time]),
    [['Zone/a', iso(85)]],
  );
  assert.deepEqual(
    r
      .decisions('TaintRemoved', 'Node/b-1')
      .filter((d) => d.summary.includes('NoExecute'))
      .map((d) => d.time),
    [iso(85)],
  );
  assert.match(r.decisions('TaintRemoved', 'Node/b-1').filter((d) => d.summary.includes('NoExecute'))[0].because[0].rule, /all zones are fully disrupted/);
  assert.deepEqual(
    r.decisions('EvictionRateChanged').map((d) => [d.object, swappedTo(d), d.machine!.id, d.machine!.event, d.machine!.to]),
    [
      ['Zone/a', 0, 'zone/a', 'ALL_ZONES_FULLY_DISRUPTED', 'FullDisruption'],
      ['Zone/b', 0, 'zone/b', 'ALL_ZONES_FULLY_DISRUPTED', 'FullDisruption'],
    ],
  );
  assert.equal(r.c.inMasterDisruption(), true);
  // a-1 comes back at 101 s
  r.host.now = at(101);
  r.renewLease('a-1');
  r.post('a-1', 'True');
  r.runUntil(at(105));
  assert.equal(r.c.inMasterDisruption(), false);
  assert.equal(r.c.healthOf('b-1')!.probe, at(105), 'probe timestamps reset when leaving');
  assert.deepEqual(
    r
      .decisions('ZoneStateChanged')
      .filter((d) => d.time === iso(105))
      .map((d) => [d.object, d.machine!.to]),
    [['Zone/a', 'Normal']],
  );
  const rates = r
    .decisions('EvictionRateChanged')
    .filter((d) => d.time === iso(105))
    .map((d) => [d.object, swappedTo(d), d.machine!.from, d.machine!.to]);
  // zone b stays FullDisruption (its one node is still down): its limiter comes from that transition too (HealthyQPSFunc)
  assert.deepEqual(rates, [
    ['Zone/a', 0.1, 'FullDisruption', 'Normal'],
    ['Zone/b', 0.1, 'FullDisruption', 'FullDisruption'],
  ]);
});

test('nodes excluded from disruption checks do not count in their zone', () => {
  const ex = { 'node.kubernetes.io/exclude-disruption': '' };
  const nodes = [node('a-1', { zone: 'a', labels: ex }), node('a-2', { zone: 'a' }), node('a-3', { zone: 'a' }), node('b-1', { zone: 'b' })];
  const r = rig({ minor: 31, nodes, leases: nodes.map((n) => lease(n.meta.name, 0)) });
  drive(r, 60, { alive: () => ['a-2', 'a-3', 'b-1'], lease: true });
  const z = r.c.zones(r.host).find((x) => x.zone === 'Zone/a')!;
  assert.deepEqual([z.nodes, z.notReady, z.state], [2, 0, 'Normal']);
});

test('1.12 leaves nodes named like masters out of the zone; 1.31 counts them', () => {
  for (const [minor, counted] of [
    [12, 1],
    [31, 2],
  ] as const) {
    const r = rig({ minor, nodes: [node('kubernetes-master', { zone: 'a' }), node('w', { zone: 'a' })] });
    r.runUntil(at(0));
    assert.equal(r.c.zones(r.host)[0].nodes, counted, `1.${minor}`);
  }
});
