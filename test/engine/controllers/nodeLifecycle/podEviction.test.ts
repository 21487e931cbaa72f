/**
 * The pod eviction path of 1.12 (TaintBasedEvictions off): upstream
 * TestMonitorNodeHealthEvictPods (in spirit) — pods are deleted through the
 * zone's rate-limited queue once podEvictionTimeout has passed since the
 * node went NotReady (readyTransitionTimestamp) or stopped heartbeating
 * (probeTimestamp); DaemonSet pods are kept; a recovered node's queued
 * eviction is cancelled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, pod, at, iso, drive, names } from './helpers';

const podsOf = (r: ReturnType<typeof rig>, n: string) => [...(r.host.cluster.podsByNode.get(n) ?? [])].sort();

function cluster112(o: { failing: string; pods?: ReturnType<typeof pod>[]; config?: Record<string, unknown> } = { failing: 'n1' }) {
  const all = names('n', 4);
  return rig({
    minor: 12,
    nodes: all.map((n) => node(n, { zone: 'z1' })),
    pods: o.pods ?? [pod('default', 'web-1', 'n1'), pod('default', 'web-2', 'n1'), pod('default', 'web-3', 'n2')],
    config: o.config as never,
  });
}

test("an unresponsive node's pods are deleted podEvictionTimeout after its last heartbeat was observed", () => {
  const r = cluster112({ failing: 'n1' });
  drive(r, 400, { alive: () => ['n2', 'n3', 'n4'] });
  // probeTimestamp = 0 s (fresh memory, first pass); Unknown at 45 s; evicted on the first pass after 0 + 5 m
  assert.deepEqual(r.times('NodeStatusUnknown', 'Node/n1'), [iso(45)]);
  assert.deepEqual(r.times('NodeQueuedForEviction', 'Node/n1'), [iso(305)]);
  const evicted = r.decisions('PodEvicted');
  assert.deepEqual(
    evicted.map((d) => [d.object, d.time]),
    [
      ['Pod/default/web-1', iso(305)],
      ['Pod/default/web-2', iso(305)],
    ],
  );
  assert.equal(evicted[0].controller, 'node-lifecycle');
  assert.deepEqual(evicted[0].causes, [r.decisions('NodeQueuedForEviction', 'Node/n1')[0].seq]);
  assert.equal(evicted[0].machine!.to, 'ready.Unknown,eviction.evicted');
  assert.deepEqual(podsOf(r, 'n1'), []);
  assert.deepEqual(podsOf(r, 'n2'), ['default/web-3']);
  const q = r.decisions('NodeQueuedForEviction')[0];
  assert.equal(q.because[1].values!.podEvictionTimeout, '5m0s');
});

test('a NotReady node is evicted podEvictionTimeout after the transition was observed, not after its last heartbeat', () => {
  const all = names('n', 4);
  const r = rig({ minor: 12, nodes: all.map((n) => node(n, { zone: 'z1' })), pods: [pod('default', 'a', 'n1')], config: { podEvictionTimeout: 60_000_000 } });
  drive(r, 20, { alive: () => all });
  r.runUntil(at(30) - 1);
  r.host.now = at(30);
  r.post('n1', 'False');
  drive(r, 200, { alive: () => all });
  // transition observed at the 30 s pass: readyTransitionTimestamp = 30 s; 30 s + 1 m < 95 s
  assert.deepEqual(r.times('NodeQueuedForEviction', 'Node/n1'), [iso(95)]);
  assert.deepEqual(r.times('PodEvicted'), [iso(95)]);
});

test('DaemonSet pods and pods already being deleted are not evicted', () => {
  const r = cluster112({
    failing: 'n1',
    pods: [pod('kube-system', 'ds-abc', 'n1', { labels: { app: 'agent' } }), pod('default', 'going', 'n1', { deleting: true }), pod('default', 'plain', 'n1')],
  });
  r.host.cluster.daemonSets.set('kube-system/agent', {
    kind: 'DaemonSet',
    meta: { name: 'agent', namespace: 'kube-system', uid: 'ds', labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: 0 },
    raw: { spec: { selector: { matchLabels: { app: 'agent' } } } },
  });
  drive(r, 400, { alive: () => ['n2', 'n3', 'n4'] });
  assert.deepEqual(
    r.decisions('PodEvicted').map((d) => d.object),
    ['Pod/default/plain'],
  );
  assert.deepEqual(podsOf(r, 'n1'), ['default/going', 'kube-system/ds-abc']);
});

test('a failed pod deletion is retried on the next 100 ms pass', () => {
  const all = names('n', 4);
  const r = rig({
    minor: 12,
    nodes: all.map((n) => node(n, { zone: 'z1' })),
    pods: [pod('default', 'a', 'n1'), pod('default', 'b', 'n1')],
    faults: { 'delete pods': 1 },
  });
  drive(r, 400, { alive: () => ['n2', 'n3', 'n4'] });
  assert.equal(r.decisions('ApiCallFailed').length, 1);
  // the queue's token bucket (0.1/s) holds the retry back for 10 s
  assert.deepEqual(
    r.decisions('PodEvicted').map((d) => [d.object, d.time]),
    [
      ['Pod/default/a', iso(315)],
      ['Pod/default/b', iso(315)],
    ],
  );
});

test('a node that recovers before its turn has its eviction cancelled', () => {
  // three nodes fail together; a zone of 10 stays Normal only while fewer than 3... use rate 0.01 so they wait
  const all = names('n', 10);
  const r = rig({
    minor: 12,
    nodes: all.map((n) => node(n, { zone: 'z1' })),
    pods: [pod('default', 'a', 'n1'), pod('default', 'b', 'n2')],
    config: { nodeEvictionRate: 0.01 },
  });
  drive(r, 320, { alive: () => all.filter((n) => n !== 'n1' && n !== 'n2') });
  assert.deepEqual(r.times('NodeQueuedForEviction'), [iso(305), iso(305)]);
  assert.deepEqual(
    r.decisions('PodEvicted').map((d) => d.object),
    ['Pod/default/a'],
  );
  r.host.now = at(321);
  r.post('n2', 'True');
  drive(r, 400, { alive: () => all.filter((n) => n !== 'n1') });
  const cancelled = r.decisions('EvictionCancelled');
  assert.deepEqual(
    cancelled.map((d) => [d.object, d.time]),
    [['Node/n2', iso(325)]],
  );
  assert.equal(cancelled[0].machine!.to, 'ready.True,eviction.idle');
  assert.deepEqual(podsOf(r, 'n2'), ['default/b']);
});

test('from 1.13 the gate TaintBasedEvictions is on: nothing is deleted by the node lifecycle controller', () => {
  const all = names('n', 4);
  const r = rig({ minor: 13, nodes: all.map((n) => node(n, { zone: 'z1' })), pods: [pod('default', 'a', 'n1')] });
  drive(r, 400, { alive: () => ['n2', 'n3', 'n4'] });
  assert.equal(r.decisions('PodEvicted').length, 0);
  assert.equal(r.decisions('NodeQueuedForTainting', 'Node/n1').length, 1);
});

test('1.26 with --enable-taint-manager=false still uses the pod eviction path', () => {
  const all = names('n', 4);
  const r = rig({ minor: 26, nodes: all.map((n) => node(n, { zone: 'z1' })), pods: [pod('default', 'a', 'n1')], config: { enableTaintManager: false } });
  drive(r, 400, { alive: () => ['n2', 'n3', 'n4'], lease: false });
  assert.deepEqual(
    r.decisions('PodEvicted').map((d) => d.object),
    ['Pod/default/a'],
  );
});

test('from 1.18 a pod that lands on an already evicted node is deleted at once; 1.12 leaves it', () => {
  for (const [minor, deleted] of [
    [12, false],
    [20, true],
  ] as const) {
    const all = names('n', 4);
    const r = rig({ minor, nodes: all.map((n) => node(n, { zone: 'z1' })), pods: [pod('default', 'a', 'n1')], config: { enableTaintManager: false } });
    drive(r, 320, { alive: () => ['n2', 'n3', 'n4'], lease: false });
    assert.deepEqual(
      r.decisions('PodEvicted').map((d) => d.object),
      ['Pod/default/a'],
      `1.${minor}`,
    );
    const late = pod('default', 'late', 'n1');
    r.host.now = at(321);
    r.host.cluster.pods.set('default/late', late);
    r.host.cluster.podsByNode.get('n1')!.add('default/late');
    r.c.onPodEvent!(r.host, 'added', late);
    drive(r, 340, { alive: () => ['n2', 'n3', 'n4'], lease: false });
    const got = r.decisions('PodEvicted', 'Pod/default/late');
    assert.deepEqual(
      got.map((d) => d.time),
      deleted ? [iso(321)] : [],
      `1.${minor}`,
    );
    if (deleted) assert.match(got[0].because[0].rule, /already evicted/);
  }
});

test('1.20: a node deleted and added again before the next pass is unmarked in nodeEvictionMap: later pods wait', () => {
  const all = names('n', 4);
  const r = rig({ minor: 20, nodes: all.map((n) => node(n, { zone: 'z1' })), pods: [pod('default', 'a', 'n1')], config: { enableTaintManager: false } });
  drive(r, 320, { alive: () => ['n2', 'n3', 'n4'], lease: false });
  assert.deepEqual(
    r.decisions('PodEvicted').map((d) => d.object),
    ['Pod/default/a'],
  );
  assert.equal(r.c.nodeStateOf('n1'), 'ready.Unknown,eviction.evicted');
  r.host.now = at(321);
  const n1 = r.host.cluster.nodes.get('n1')!;
  r.host.cluster.nodes.delete('n1');
  r.c.onNodeEvent!(r.host, 'deleted', n1);
  r.host.cluster.nodes.set('n1', n1);
  r.c.onNodeEvent!(r.host, 'added', n1);
  assert.equal(r.c.nodeStateOf('n1'), 'ready.Unknown,eviction.queuedForEviction', "registerNode: unmarked, and still in the queue's set");
  const late = pod('default', 'late', 'n1');
  r.host.cluster.pods.set('default/late', late);
  r.host.cluster.podsByNode.get('n1')!.add('default/late');
  r.c.onPodEvent!(r.host, 'added', late);
  drive(r, 400, { alive: () => ['n2', 'n3', 'n4'], lease: false });
  assert.deepEqual(r.decisions('PodEvicted', 'Pod/default/late'), [], 'not evicted: upstream leaves it (toBeEvicted, already in the set)');
});

test("a pod eviction that fails part way leaves the node's machine, and the transition the panel shows, where the state is (ask, write, commit)", () => {
  const cases: { name: string; failing: string[]; firstPass: { evicted: string[]; eviction: string } }[] = [
    { name: 'no fault: every pod deleted, the node evicted', failing: [], firstPass: { evicted: ['a', 'b'], eviction: 'evicted' } },
    { name: 'the first delete fails: nothing deleted, still queued', failing: ['a'], firstPass: { evicted: [], eviction: 'queuedForEviction' } },
    { name: 'the second delete fails: one pod deleted, still queued', failing: ['b'], firstPass: { evicted: ['a'], eviction: 'queuedForEviction' } },
  ];
  for (const c of cases) {
    const all = names('n', 4);
    const r = rig({ minor: 12, nodes: all.map((n) => node(n, { zone: 'z1' })), pods: [pod('default', 'a', 'n1'), pod('default', 'b', 'n1')] });
    // an injected API fault for the first delete of each pod in `failing`
    const failOnce = new Set(c.failing.map((p) => `Pod/default/${p}`));
    const apiCall = r.host.apiCall.bind(r.host);
    r.host.apiCall = (controller, verb, resource, object) => {
      if (verb === 'delete' && failOnce.delete(object)) {
        r.host.decide({ controller, action: 'ApiCallFailed', object, summary: 'injected', because: [], source: 'test' });
        return false;
      }
      return apiCall(controller, verb, resource, object);
    };
    const view = () => r.c.machines().find((m) => m.id === 'node/n1')!;
    drive(r, 310, { alive: () => ['n2', 'n3', 'n4'] });
    const first = view();
    assert.deepEqual(
      r.decisions('PodEvicted').map((d) => d.object),
      c.firstPass.evicted.map((p) => `Pod/default/${p}`),
      `${c.name}: deleted in the first pass`,
    );
    assert.equal(first.state, `ready.Unknown,eviction.${c.firstPass.eviction}`, `${c.name}: the machine after the first pass`);
    assert.equal(first.lastTransition?.to, first.state, `${c.name}: the last transition shown leads to the state`);
    // the retry (the zone's token bucket holds it back 10 s) deletes the rest and commits EVICTION_PASS
    drive(r, 400, { alive: () => ['n2', 'n3', 'n4'] });
    const done = view();
    const evicted = r.decisions('PodEvicted');
    assert.deepEqual(evicted.map((d) => d.object).sort(), ['Pod/default/a', 'Pod/default/b'], c.name);
    assert.equal(done.state, 'ready.Unknown,eviction.evicted', c.name);
    assert.deepEqual(
      done.lastTransition,
      { ...evicted[evicted.length - 1].machine, seq: evicted[evicted.length - 1].seq },
      `${c.name}: the view's last transition is the one the last deletion recorded, committed with it`,
    );
  }
});
