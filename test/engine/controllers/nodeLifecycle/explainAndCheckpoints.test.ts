/**
 * "Why not" answers, the machine and zone views, checkpoints (save/restore)
 * and determinism.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, lease, pod, at, iso, drive, names } from './helpers';
import { createNodeLifecycleController } from '../../../../src/engine/controllers/nodeLifecycle';
import type { WhyNotWorld } from '../../../../src/engine/trace/whyNot';

/** The kubelets as the simulation would report them: these post, the others are stopped. */
const posting = (alive: string[]): WhyNotWorld => ({ kubelet: (n) => ({ running: alive.includes(n) }) });

test('why a node is not tainted yet: the grace period, with the pass at which it would fire', () => {
  // Unknown at the first pass after 40 s; the taint follows one pass later before 1.34, in that pass from 1.34
  for (const [minor, deadline, unknownAt, fires] of [
    [31, 40, 45, 50],
    [35, 50, 55, 55],
  ] as const) {
    const r = rig({ minor, nodes: [node('a', { zone: 'z' }), node('b', { zone: 'z' }), node('c', { zone: 'z' })] });
    drive(r, 20, { alive: () => ['b', 'c'], lease: false });
    const [unknown, taint] = r.c.whyNot(r.host, 'Node/a', posting(['b', 'c']));
    assert.equal(unknown.outcome, 'NodeStatusUnknown');
    assert.equal(unknown.blocking!.guard, 'probeExpired');
    assert.match(unknown.check.rule, /nodeMonitorGracePeriod/);
    assert.equal(unknown.check.values!.deadline, iso(deadline));
    assert.equal(unknown.wouldFireAt, iso(unknownAt));
    assert.equal(taint.outcome, 'NodeTaintedNoExecute');
    assert.equal(taint.blocking!.guard, '!readyIsTrue');
    assert.equal(taint.via!.wouldFireAt, unknown.wouldFireAt, 'the taint chains to the status going Unknown');
    assert.equal(taint.wouldFireAt, iso(fires), `1.${minor}`);
    drive(r, 60, { alive: () => ['b', 'c'], lease: false });
    const tainted = r.decisions('TaintAdded', 'Node/a').find((d) => d.summary.includes('NoExecute'))!;
    assert.equal(tainted.time, iso(fires), `1.${minor}: the prediction holds`);
  }
});

test('why a node is not tainted: rate limiter at 0 in PartialDisruption of a small zone', () => {
  const all = names('a-', 6);
  const r = rig({ minor: 35, nodes: [...all.map((n) => node(n, { zone: 'a' })), node('b-1', { zone: 'b' })], leases: [...all, 'b-1'].map((n) => lease(n, 0)) });
  drive(r, 80, { alive: () => ['a-5', 'a-6', 'b-1'], lease: true });
  const w = r.c.whyNot(r.host, 'Node/a-1', posting(['a-5', 'a-6', 'b-1']));
  assert.equal(w.length, 1, 'Ready is Unknown already: only the taint is ahead');
  assert.equal(w[0].blocking!.guard, 'zoneLimiterQPS');
  assert.match(w[0].check.rule, /rate limiter is at 0: PartialDisruption in a small zone/);
  assert.equal(w[0].never, true);
  assert.equal(w[0].wouldFireAt, undefined);
  const z = r.c.whyNot(r.host, 'Zone/a');
  assert.match(z[0].check.rule, /rate limiter is at 0/);
  assert.equal(z[0].check.values!.zoneSize, 6);
});

test('why a queued node waits: its token, and when it comes', () => {
  const all = names('n', 10);
  const r = rig({ minor: 35, nodes: all.map((n) => node(n, { zone: 'z' })), leases: all.map((n) => lease(n, 0)) });
  drive(r, 56, { alive: () => all.slice(2), lease: true });
  const w = r.c.whyNot(r.host, 'Node/n2', posting(all.slice(2)));
  assert.match(w[0].check.rule, /waiting in the zone queue/);
  assert.equal(w[0].wouldFireAt, iso(65));
});

test('why nothing happens when all zones are fully disrupted', () => {
  const r = rig({ minor: 31, nodes: [node('a', { zone: 'x' }), node('b', { zone: 'y' })] });
  drive(r, 60, { alive: () => [], lease: false });
  assert.match(r.c.whyNot(r.host, 'Node/a')[0].check.rule, /all zones are in FullDisruption/);
  assert.match(r.c.whyNot(r.host, 'Zone/x')[0].check.rule, /all zones are in FullDisruption/);
});

test('why a 1.12 pod is not evicted yet: podEvictionTimeout from the last observed heartbeat', () => {
  const r = rig({ minor: 12, nodes: names('n', 4).map((n) => node(n, { zone: 'z' })), pods: [pod('default', 'p', 'n1')] });
  drive(r, 100, { alive: () => ['n2', 'n3', 'n4'] });
  const w = r.c.whyNot(r.host, 'Pod/default/p', posting(['n2', 'n3', 'n4']));
  assert.equal(w[0].outcome, 'PodDeletedByPodEviction');
  assert.match(w[0].check.rule, /podEvictionTimeout/);
  assert.equal(w[0].check.values!.deadline, iso(300));
  assert.equal(w[0].wouldFireAt, iso(305));
});

test('why nothing happens when the controller is disabled', () => {
  const r = rig({ minor: 31, nodes: [node('a')] });
  r.host.config.controllers = new Set(['replicaset']);
  assert.match(r.c.whyNot(r.host, 'Node/a')[0].check.rule, /disabled by --controllers/);
});

test("the machine view carries each machine's definition, state and last transition", () => {
  const r = rig({ minor: 31, nodes: [node('a', { zone: 'z' }), node('b', { zone: 'z' }), node('c', { zone: 'z' })] });
  drive(r, 60, { alive: () => ['b', 'c'], lease: false });
  const views = r.c.machines();
  assert.deepEqual(
    views.map((v) => v.id),
    ['monitor', 'zone/z', 'node/a', 'node/b', 'node/c'],
  );
  const a = views.find((v) => v.id === 'node/a')!;
  assert.equal(a.state, 'ready.Unknown,eviction.tainted');
  assert.equal(a.lastTransition!.event, 'TAINT_PASS');
  assert.equal(typeof a.lastTransition!.seq, 'number');
  assert.equal((a.definition as { id: string }).id, 'nodeHealth');
  assert.equal(views.find((v) => v.id === 'zone/z')!.state, 'Normal');
});

function scenario(minor: number) {
  const all = names('n', 8);
  const nodes = all.map((n, i) => node(n, { zone: i < 4 ? 'a' : 'b' }));
  return { minor, nodes, leases: all.map((n) => lease(n, 0)), pods: all.map((n) => pod('default', `p-${n}`, n)) };
}

test('the same input gives the same decisions', () => {
  const run = () => {
    const r = rig(scenario(31));
    drive(r, 300, { alive: () => ['n2', 'n3', 'n4', 'n6'], lease: true });
    return JSON.stringify(r.host.decisions);
  };
  assert.equal(run(), run());
});

test('a checkpoint restored into a new instance continues exactly as the original', () => {
  for (const minor of [12, 31, 35]) {
    const alive = () => ['n2', 'n3', 'n4', 'n6'];
    const a = rig({ ...scenario(minor), gates: minor === 12 ? { TaintBasedEvictions: true } : {} });
    drive(a, 57, { alive, lease: minor > 12 });
    const saved = structuredClone(a.c.save());
    const worldSnapshot = structuredClone({
      nodes: [...a.host.cluster.nodes],
      pods: [...a.host.cluster.pods],
      leases: [...a.host.cluster.leases],
      byNode: [...a.host.cluster.podsByNode],
    });
    const seqAt = a.host.decisions.length;
    drive(a, 400, { alive, lease: minor > 12 });
    const expected = a.host.decisions.slice(seqAt).map((d) => ({ ...d, seq: 0, causes: [] }));

    const b = rig({ ...scenario(minor), gates: minor === 12 ? { TaintBasedEvictions: true } : {} });
    b.host.cluster.nodes = new Map(worldSnapshot.nodes);
    b.host.cluster.pods = new Map(worldSnapshot.pods);
    b.host.cluster.leases = new Map(worldSnapshot.leases);
    b.host.cluster.podsByNode = new Map(worldSnapshot.byNode);
    b.host.now = at(57);
    b.host.pass = a.host.decisions.slice(0, seqAt).filter((d) => d.action === 'MonitorPass').length - 1;
    // the restored machines must agree with what the controller does next (strict)
    const c = createNodeLifecycleController({ strictMachines: true });
    c.restore(saved, b.host);
    const start = b.host.decisions.length;
    // drive b with the same kubelets, through drivers bound to the restored controller
    drive(Object.assign(b, { c, runUntil: runner(b.host, c), renewLease: renewer(b.host, c), post: poster(b.host, c) }), 400, { alive, lease: minor > 12 });
    const got = b.host.decisions.slice(start).map((d) => ({ ...d, seq: 0, causes: [] }));
    assert.deepEqual(got, expected, `1.${minor}`);
  }
});

// drivers bound to another controller instance (the restored one)
import type { FakeHost } from '../../../helpers/fakeHost';
import type { NodeLifecycleController } from '../../../../src/engine/controllers/nodeLifecycle';
import type { Micros } from '../../../../src/engine/model/time';
function runner(host: FakeHost, c: NodeLifecycleController) {
  return (t: Micros) => {
    for (;;) {
      const w = c.nextWake();
      if (w === undefined || w > t) break;
      host.now = w;
      if (c.isMonitorPassDue(w)) host.pass = host.pass === null ? 0 : host.pass + 1;
      c.wake(host);
    }
    host.now = Math.max(host.now, t);
  };
}
function renewer(host: FakeHost, c: NodeLifecycleController) {
  return (name: string) => {
    const l = host.cluster.leases.get(name)!;
    l.renewTime = host.now;
    c.onLeaseEvent!(host, 'updated', l);
  };
}
function poster(host: FakeHost, c: NodeLifecycleController) {
  return (name: string) => {
    const n = host.cluster.nodes.get(name)!;
    const ready = n.conditions.find((x) => x.type === 'Ready')!;
    if (ready.status === 'Unknown') {
      ready.status = 'True';
      ready.lastTransitionTime = host.now;
    }
    ready.lastHeartbeatTime = host.now;
    c.onNodeEvent!(host, 'updated', n);
  };
}
