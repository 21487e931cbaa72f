/**
 * The taint eviction controller, after upstream's taint_manager_test.go /
 * taint_eviction_test.go (TestCreatePod, TestDeletePod, TestUpdatePod,
 * TestCreateNode, TestDeleteNode, TestUpdateNode,
 * TestUpdateNodeWithMultipleTaints, TestUpdateNodeWithMultiplePods,
 * TestEventualConsistency), in our own words and on the virtual clock, for
 * 1.12, 1.31 and 1.35, plus what the simulation adds: the trace (because,
 * causes, machine), retries of failed deletes, versions that disable the
 * controller, reconstructed memory, "why not" and checkpoints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World, node, pod, testTaint, tolerate, T0, S, VERSIONS } from './helpers';
import { formatTime } from '../../../../src/engine/model/time';
import { rootCauses } from '../../../../src/engine/trace/causes';
import { defaultControllerFactory } from '../../../../src/engine/simulation/wiring';

for (const minor of VERSIONS) {
  const v = `1.${minor}`;

  // ---- TestCreatePod -------------------------------------------------------
  test(`${v}: a pod created on a node is deleted, scheduled or left alone as its tolerations say`, () => {
    const cases: { name: string; p: ReturnType<typeof pod>; taints: ReturnType<typeof testTaint>[]; deletedAt?: number; scheduled?: number }[] = [
      { name: 'a pod not scheduled on a node is ignored', p: pod('pod1', ''), taints: [testTaint(1)] },
      { name: 'a pod on an untainted node is left alone', p: pod('pod1', 'node1'), taints: [] },
      { name: 'a pod without tolerations on a tainted node is deleted at once', p: pod('pod1', 'node1'), taints: [testTaint(1)], deletedAt: 0 },
      {
        name: 'a pod tolerating the taint for 100s is deleted after 100s',
        p: pod('pod1', 'node1', [tolerate(1, 100)]),
        taints: [testTaint(1)],
        scheduled: 100,
        deletedAt: 100,
      },
      { name: 'a pod tolerating the taint forever stays', p: pod('pod1', 'node1', [tolerate(1)]), taints: [testTaint(1)] },
      { name: 'a pod tolerating another taint forever is deleted at once', p: pod('pod1', 'node1', [tolerate(2)]), taints: [testTaint(1)], deletedAt: 0 },
      { name: 'tolerationSeconds 0 deletes at once', p: pod('pod1', 'node1', [tolerate(1, 0)]), taints: [testTaint(1)], deletedAt: 0 },
      { name: 'negative tolerationSeconds delete at once', p: pod('pod1', 'node1', [tolerate(1, -10)]), taints: [testTaint(1)], deletedAt: 0 },
    ];
    for (const c of cases) {
      const w = new World({ minor, nodes: [node('node1', c.taints)] });
      w.settle();
      w.addPod(c.p);
      w.settle();
      if (c.scheduled !== undefined) {
        const s = w.host.actions('PodEvictionScheduled');
        assert.equal(s.length, 1, c.name);
        assert.equal(s[0].details?.deadline, formatTime(T0 + c.scheduled * S), c.name);
        w.runUntil(T0 + c.scheduled * S - 1);
        assert.ok(w.exists('default/pod1'), `${c.name}: not deleted a microsecond early`);
      } else {
        assert.equal(w.host.actions('PodEvictionScheduled').length, 0, `${c.name}: nothing scheduled`);
      }
      w.runUntil(T0 + 3600 * S);
      if (c.deletedAt !== undefined) {
        const e = w.host.actions('PodEvicted');
        assert.equal(e.length, 1, c.name);
        assert.equal(e[0].time, formatTime(T0 + c.deletedAt * S), c.name);
        assert.equal(e[0].controller, 'taint-eviction');
        assert.ok(!w.exists('default/pod1'), c.name);
      } else {
        assert.equal(w.host.actions('PodEvicted').length, 0, c.name);
        assert.ok(w.exists('default/pod1'), c.name);
      }
    }
  });

  // ---- TestDeletePod -------------------------------------------------------
  test(`${v}: deleting a pod cancels its scheduled eviction`, () => {
    const w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1', [tolerate(1, 100)])] });
    w.settle();
    const scheduled = w.host.actions('PodEvictionScheduled')[0];
    w.host.remember('Pod/default/pod1', 'deleted', 999);
    w.host.now = T0 + 10 * S;
    w.deletePod('default/pod1');
    w.runUntil(T0 + 1000 * S);
    const cancelled = w.host.actions('PodEvictionCancelled');
    assert.equal(cancelled.length, 1);
    assert.deepEqual(cancelled[0].causes, [scheduled.seq, 999]);
    assert.equal(cancelled[0].because[0].rule, 'the pod was deleted');
    assert.equal(w.host.actions('PodEvicted').length, 0);
    assert.equal(w.c.nextWake(), undefined, 'no timer left');
  });

  // ---- TestUpdatePod -------------------------------------------------------
  test(`${v}: pod updates (binding, tolerations) are handled as processPodOnNode decides`, () => {
    // scheduling onto a tainted node
    let w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', '')] });
    w.settle();
    w.updatePod('default/pod1', { nodeName: 'node1' });
    w.settle();
    assert.deepEqual(w.evicted(), ['default/pod1'], 'bound onto a tainted node: deleted');

    // scheduling onto a tainted node with an infinite toleration
    w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', '', [tolerate(1)])] });
    w.settle();
    w.updatePod('default/pod1', { nodeName: 'node1' });
    w.runUntil(T0 + 3600 * S);
    assert.deepEqual(w.evicted(), [], 'tolerated forever: stays');
    assert.equal(w.host.decisions.length, 0, 'and nothing noisy is recorded');

    // removing the toleration replaces the scheduled deletion by an immediate one
    w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1', [tolerate(1, 100)])] });
    w.settle();
    const scheduled = w.host.actions('PodEvictionScheduled')[0];
    w.host.now = T0 + 5 * S;
    w.updatePod('default/pod1', { tolerations: [] });
    w.settle();
    const e = w.host.actions('PodEvicted');
    assert.equal(e.length, 1);
    assert.equal(e[0].time, formatTime(T0 + 5 * S));
    assert.ok(e[0].causes.includes(scheduled.seq), 'cites the replaced schedule');
    assert.deepEqual(e[0].machine, { id: 'taint-eviction/default/pod1', from: 'scheduled', to: 'deleting', event: 'EVICT_NOW' });
    assert.equal(w.host.actions('PodEvictionCancelled').length, 0, 'the replacement is one decision, not a cancel and an eviction');

    // lengthening (or shortening) the toleration does not move the deadline: the existing work item is kept
    for (const [first, then, at] of [
      [1, 100, 1],
      [100, 1, 100],
    ] as const) {
      w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1', [tolerate(1, first)])] });
      w.settle();
      w.updatePod('default/pod1', { tolerations: [tolerate(1, then)] });
      w.runUntil(T0 + 3600 * S);
      assert.equal(w.host.actions('PodEvicted')[0].time, formatTime(T0 + at * S), `${first}s then ${then}s: deleted at ${at}s`);
      assert.equal(w.host.actions('PodEvictionScheduled').length, 1);
    }
  });

  // ---- TestCreateNode / TestDeleteNode ---------------------------------------
  test(`${v}: a node that appears tainted evicts the pods already assigned to it`, () => {
    const cases = [
      { name: 'an untainted node changes nothing', taints: [], tolerations: [], evicted: [] as string[] },
      { name: 'a tainted node deletes a pod that does not tolerate it', taints: [testTaint(1)], tolerations: [], evicted: ['default/pod1'] },
      { name: 'a tainted node keeps a pod that tolerates it forever', taints: [testTaint(1)], tolerations: [tolerate(1)], evicted: [] },
    ];
    for (const c of cases) {
      const w = new World({ minor, pods: [pod('pod1', 'node1', c.tolerations)] });
      w.addNode(node('node1', c.taints));
      w.runUntil(T0 + 3600 * S);
      assert.deepEqual(w.evicted(), c.evicted, c.name);
    }
  });

  test(`${v}: deleting a node forgets its taints but leaves scheduled evictions running`, () => {
    const w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1', [tolerate(1, 30)])] });
    w.settle();
    w.deleteNode('node1');
    w.settle();
    // a pod bound to the deleted node later is not handled: the node is no longer tainted
    w.addPod(pod('pod2', 'node1'));
    w.runUntil(T0 + 60 * S);
    assert.deepEqual(w.evicted(), ['default/pod1']);
    assert.ok(w.exists('default/pod2'));
  });

  // ---- TestUpdateNode ------------------------------------------------------
  test(`${v}: node taint changes evict, schedule or cancel`, () => {
    const cases: { name: string; tolerations: ReturnType<typeof tolerate>[]; from: number[]; to: number[]; evictedAt?: number; cancelled?: boolean }[] = [
      { name: 'an added taint deletes a pod that does not tolerate it', tolerations: [], from: [], to: [1], evictedAt: 0 },
      { name: 'an added tolerated taint schedules the deletion', tolerations: [tolerate(1, 100)], from: [], to: [1], evictedAt: 100 },
      { name: 'only one of two added taints tolerated: deleted at once', tolerations: [tolerate(1, 100)], from: [], to: [1, 2], evictedAt: 0 },
      { name: 'a removed taint cancels the deletion', tolerations: [tolerate(1, 1)], from: [1], to: [], cancelled: true },
      {
        name: 'a pod with several tolerations goes when the first runs out',
        tolerations: [tolerate(1, 1), tolerate(2, 100)],
        from: [],
        to: [1, 2],
        evictedAt: 1,
      },
    ];
    for (const c of cases) {
      const w = new World({
        minor,
        nodes: [
          node(
            'node1',
            c.from.map((i) => testTaint(i)),
          ),
        ],
        pods: [pod('pod1', 'node1', c.tolerations)],
      });
      w.settle();
      w.setTaints(
        'node1',
        c.to.map((i) => testTaint(i)),
      );
      w.runUntil(T0 + 3600 * S);
      const e = w.host.actions('PodEvicted');
      if (c.evictedAt !== undefined) {
        assert.equal(e.length, 1, c.name);
        assert.equal(e[0].time, formatTime(T0 + c.evictedAt * S), c.name);
      } else assert.equal(e.length, 0, c.name);
      assert.equal(w.host.actions('PodEvictionCancelled').length, c.cancelled ? 1 : 0, c.name);
    }
  });

  test(`${v}: a node update that leaves the NoExecute taints alone queues nothing`, () => {
    const w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1', [tolerate(1)])] });
    w.settle();
    w.setTaints('node1', [testTaint(1), { key: 'dedicated', effect: 'NoSchedule' }]);
    assert.equal(w.c.nextWake(), undefined);
  });

  // ---- TestUpdateNodeWithMultiplePods -----------------------------------------
  test(`${v}: pods with different tolerations on one node go at their own times, in name order`, () => {
    const pods = () => [pod('pod1', 'node1'), pod('pod2', 'node1', [tolerate(1, 1)]), pod('pod3', 'node1', [tolerate(1)])];
    let w = new World({ minor, nodes: [node('node1')], pods: pods() });
    w.setTaints('node1', [testTaint(1)]);
    w.runUntil(T0 + 3600 * S);
    assert.deepEqual(
      w.host.actions('PodEvicted').map((d) => [d.object, d.time]),
      [
        ['Pod/default/pod1', formatTime(T0)],
        ['Pod/default/pod2', formatTime(T0 + S)],
      ],
    );
    w = new World({ minor, nodes: [node('node1')], pods: pods() });
    w.setTaints('node1', [testTaint(1), testTaint(2)]);
    w.settle();
    assert.deepEqual(w.evicted(), ['default/pod1', 'default/pod2', 'default/pod3'], 'all at once, in name order');
  });

  // ---- TestEventualConsistency -------------------------------------------------
  test(`${v}: a pod that reaches a tainted node after the node update is still handled`, () => {
    const cases = [
      { name: 'an existing pod bound later is deleted', tolerations: [], existing: true, deletedAt: 0 },
      {
        name: 'an existing pod with a 100s toleration bound later is deleted 100s after binding',
        tolerations: [tolerate(1, 100)],
        existing: true,
        deletedAt: 110,
      },
      { name: 'a new pod created on the node is deleted', tolerations: [], existing: false, deletedAt: 0 },
      { name: 'a new pod with a 100s toleration is deleted 100s after creation', tolerations: [tolerate(1, 100)], existing: false, deletedAt: 110 },
    ];
    for (const c of cases) {
      const w = new World({ minor, nodes: [node('node1')], pods: [pod('pod1', 'node1'), ...(c.existing ? [pod('pod2', '', c.tolerations)] : [])] });
      w.setTaints('node1', [testTaint(1)]);
      w.settle();
      assert.deepEqual(w.evicted(), ['default/pod1'], c.name);
      w.host.now = T0 + 10 * S;
      if (c.existing) w.updatePod('default/pod2', { nodeName: 'node1' });
      else w.addPod(pod('pod2', 'node1', c.tolerations, T0 + 10 * S));
      w.runUntil(T0 + 3600 * S);
      const e = w.host.actions('PodEvicted').filter((d) => d.object === 'Pod/default/pod2');
      assert.equal(e.length, 1, c.name);
      assert.equal(e[0].time, formatTime(T0 + (c.deletedAt === 0 ? 10 : c.deletedAt) * S), c.name);
    }
  });

  // ---- the trace -----------------------------------------------------------------
  test(`${v}: decisions cite the taint, say why with values, and come from the machine`, () => {
    const w = new World({ minor, nodes: [node('node1')], pods: [pod('pod1', 'node1', [tolerate(1, 60)])] });
    const taintSeq = w.host.decide({ controller: 'node-lifecycle', action: 'TaintAdded', object: 'Node/node1', summary: 'test', because: [], source: 'test' });
    w.host.remember('Node/node1', 'taint:testTaint1:NoExecute', taintSeq);
    w.setTaints('node1', [testTaint(1)]);
    w.settle();
    const s = w.host.actions('PodEvictionScheduled')[0];
    assert.equal(s.object, 'Pod/default/pod1');
    assert.deepEqual(s.causes, [taintSeq]);
    assert.deepEqual(s.machine, { id: 'taint-eviction/default/pod1', from: 'idle', to: 'scheduled', event: 'SCHEDULE' });
    assert.equal(s.because[0].rule, 'deletion scheduled at CreatedAt + min(tolerationSeconds)', 'the decisive check comes first');
    assert.deepEqual(s.because[0].values, { createdAt: formatTime(T0), tolerationSeconds: '1m0s', deadline: formatTime(T0 + 60 * S) });
    assert.ok(
      s.because.some((c) => JSON.stringify(c.values ?? {}).includes('testTaint1=test1:NoExecute')),
      'the taint is named',
    );
    assert.ok(
      s.because.some((c) => Object.values(c.values ?? {}).some((v) => Array.isArray(v) && v.includes('testTaint1 Equal "test1" NoExecute for 60s'))),
      'the toleration is named',
    );
    assert.match(
      s.source,
      minor >= 29 ? /^tainteviction\/taint_eviction\.go: processPodOnNode$/ : /^nodelifecycle\/scheduler\/taint_manager\.go: processPodOnNode$/,
    );
    w.runUntil(T0 + 60 * S);
    const e = w.host.actions('PodEvicted')[0];
    assert.deepEqual(
      e.causes,
      [taintSeq, s.seq].sort((a, b) => a - b),
    );
    assert.deepEqual(e.machine, { id: 'taint-eviction/default/pod1', from: 'scheduled', to: 'deleting', event: 'DEADLINE' });
    assert.match(e.because[0].rule, /deadline was reached/);
    assert.match(e.summary, /ran out at 2026-01-01T00:01:00.000Z/);
    assert.equal(w.host.recall('Pod/default/pod1', 'deleted'), e.seq);
    // 1.26+ patches the DisruptionTarget condition before deleting; 1.12 only deletes
    assert.deepEqual(
      w.host.calls.filter((c) => c.includes('pod1')),
      minor >= 26 ? ['updatePod default/pod1', 'deletePod default/pod1'] : ['deletePod default/pod1'],
    );
  });

  test(`${v}: an immediate deletion says which taint is not tolerated, or that the toleration is 0s`, () => {
    const w = new World({
      minor,
      nodes: [node('node1', [testTaint(1), testTaint(2)])],
      pods: [pod('none', 'node1', [tolerate(1)]), pod('zero', 'node1', [tolerate(1, 0), tolerate(2)])],
    });
    w.settle();
    const [none, zero] = w.host.actions('PodEvicted');
    assert.equal(none.summary, 'Deleted pod default/none: it does not tolerate the NoExecute taint testTaint2=test2:NoExecute of node1');
    assert.equal(none.because[0].rule, 'a NoExecute taint on the node is not tolerated by the pod');
    assert.equal(zero.summary, 'Deleted pod default/zero: its toleration of the NoExecute taints of node1 is 0s');
    assert.match(zero.because[0].rule, /tolerationSeconds <= 0/);
  });

  // ---- failed deletes --------------------------------------------------------------
  test(`${v}: a failed delete is tried again 10 ms later, five tries in all, then dropped until the next update`, () => {
    const verb = 'delete pods';
    let w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1')], faults: { [verb]: 2 } });
    w.settle();
    w.runUntil(T0 + S);
    assert.deepEqual(
      w.host.actions('ApiCallFailed').map((d) => d.time),
      [formatTime(T0), formatTime(T0 + 10_000)],
    );
    assert.equal(w.host.actions('PodEvicted')[0].time, formatTime(T0 + 20_000), 'third try, 20 ms later');

    w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1')], faults: { [verb]: 5 } });
    w.runUntil(T0 + 3600 * S);
    assert.deepEqual(
      w.host.actions('ApiCallFailed').map((d) => d.time),
      [0, 1, 2, 3, 4].map((i) => formatTime(T0 + i * 10_000)),
    );
    assert.equal(w.host.actions('PodEvicted').length, 0);
    assert.ok(w.exists('default/pod1'), 'the eviction is lost');
    assert.match(w.c.whyNot(w.host, 'Pod/default/pod1')[0].check.rule, /all 5 delete attempts failed/);
    w.setTaints('node1', [testTaint(1), testTaint(2)]);
    w.settle();
    assert.deepEqual(w.evicted(), ['default/pod1'], 'the next node update evicts it');
  });

  if (minor >= 26) {
    test(`${v}: a failed DisruptionTarget patch is retried before the delete`, () => {
      const w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1')], faults: { 'patch pods': 1 } });
      w.settle();
      w.runUntil(T0 + S);
      assert.equal(w.host.actions('ApiCallFailed').length, 1);
      const e = w.host.actions('PodEvicted')[0];
      assert.equal(e.time, formatTime(T0 + 10_000));
    });
    test(`${v}: the DisruptionTarget condition is patched only once across retries`, () => {
      const w = new World({ minor, nodes: [node('node1', [testTaint(1)])], pods: [pod('pod1', 'node1')], faults: { 'delete pods': 1 } });
      const p = w.host.cluster.pods.get('default/pod1')!;
      w.runUntil(T0 + S);
      assert.deepEqual(w.host.calls, ['updatePod default/pod1', 'deletePod default/pod1']);
      assert.deepEqual(
        p.conditions.map((c) => [c.type, c.status, c.reason]),
        [['DisruptionTarget', 'True', 'DeletionByTaintManager']],
      );
    });
  }
}

// ---- what differs by version ----------------------------------------------------------
test('a pod whose tolerations become infinite keeps its scheduled deletion in 1.12 and loses it from 1.19 (TestUpdateNodeWithMultipleTaints)', () => {
  for (const [minor, evicted] of [
    [12, true],
    [18, true],
    [19, false],
    [31, false],
    [35, false],
  ] as const) {
    const tolerations = [
      { key: 'testTaint1', operator: 'Exists' as const, effect: 'NoExecute' as const },
      { key: 'testTaint2', operator: 'Exists' as const, effect: 'NoExecute' as const, tolerationSeconds: 60 },
    ];
    const w = new World({ minor, nodes: [node('node1')], pods: [pod('pod1', 'node1', tolerations)] });
    w.setTaints('node1', [testTaint(1)]);
    w.settle();
    assert.equal(w.host.actions('PodEvictionScheduled').length, 0, `1.${minor}: no taint -> infinitely tolerated taint schedules nothing`);
    w.setTaints('node1', [testTaint(1), testTaint(2)]);
    w.settle();
    assert.equal(w.host.actions('PodEvictionScheduled').length, 1, `1.${minor}: a limited toleration schedules`);
    w.host.now = T0 + 10 * S;
    w.setTaints('node1', [testTaint(1)]);
    w.runUntil(T0 + 3600 * S);
    assert.equal(w.host.actions('PodEvictionCancelled').length, evicted ? 0 : 1, `1.${minor}`);
    assert.equal(w.evicted().length, evicted ? 1 : 0, `1.${minor}: ${evicted ? 'still deleted at 60s' : 'cancelled'}`);
    if (evicted) assert.equal(w.host.actions('PodEvicted')[0].time, formatTime(T0 + 60 * S));
  }
});

test('whether the controller runs follows the version and the settings', () => {
  const cases: {
    name: string;
    minor: number;
    controllers?: string[];
    enableTaintManager?: boolean;
    featureGates?: Record<string, boolean>;
    runs: boolean;
    why?: RegExp;
  }[] = [
    { name: '1.12 runs it inside nodelifecycle with --enable-taint-manager', minor: 12, runs: true },
    { name: '1.12 with --enable-taint-manager=false does not', minor: 12, enableTaintManager: false, runs: false, why: /--enable-taint-manager=false/ },
    { name: '1.12 without nodelifecycle does not', minor: 12, controllers: ['replicaset'], runs: false, why: /inside nodelifecycle/ },
    { name: '1.27 ignores enableTaintManager (the flag is gone)', minor: 27, enableTaintManager: false, runs: true },
    { name: '1.31 runs taint-eviction-controller by default', minor: 31, runs: true },
    {
      name: '1.31 without taint-eviction-controller does not, even with nodelifecycle',
      minor: 31,
      controllers: ['nodelifecycle', 'replicaset'],
      runs: false,
      why: /taint-eviction-controller is not enabled/,
    },
    { name: '1.35 without taint-eviction-controller does not', minor: 35, controllers: ['nodelifecycle'], runs: false, why: /taint-eviction-controller/ },
    {
      name: '1.29 with SeparateTaintEvictionController off runs inside nodelifecycle',
      minor: 29,
      controllers: ['nodelifecycle'],
      featureGates: { SeparateTaintEvictionController: false },
      runs: true,
    },
  ];
  for (const c of cases) {
    const w = new World({
      minor: c.minor,
      controllers: c.controllers,
      enableTaintManager: c.enableTaintManager,
      featureGates: c.featureGates,
      nodes: [node('node1', [testTaint(1)])],
      pods: [pod('pod1', 'node1')],
    });
    w.runUntil(T0 + 3600 * S);
    assert.equal(w.evicted().length, c.runs ? 1 : 0, c.name);
    if (!c.runs) {
      const why = w.c.whyNot(w.host, 'Pod/default/pod1');
      assert.equal(why.length, 1, c.name);
      assert.match(why[0].check.rule, c.why!, c.name);
      assert.equal(w.host.decisions.length, 0, `${c.name}: decides nothing`);
    }
  }
});

// ---- controllerMemory --------------------------------------------------------------------
test("reconstructed memory counts tolerations from the taint's timeAdded, fresh memory from the start", () => {
  const tolerations = [tolerate(1, 300)];
  const cases: {
    name: string;
    memory: 'reconstructed' | 'fresh';
    taints: ReturnType<typeof testTaint>[];
    created?: number;
    deadline: number;
    assumed?: boolean;
  }[] = [
    {
      name: 'reconstructed: tainted 200s before the start, 300s toleration -> 100s after the start',
      memory: 'reconstructed',
      taints: [testTaint(1, T0 - 200 * S)],
      deadline: 100,
    },
    { name: 'fresh: the controller sees the taint at the start', memory: 'fresh', taints: [testTaint(1, T0 - 200 * S)], deadline: 300 },
    {
      name: 'reconstructed: a pod created after the taint counts from its creation',
      memory: 'reconstructed',
      taints: [testTaint(1, T0 - 200 * S)],
      created: -50,
      deadline: 250,
    },
    {
      name: 'reconstructed: a taint without timeAdded is assumed seen at the start',
      memory: 'reconstructed',
      taints: [testTaint(1)],
      deadline: 300,
      assumed: true,
    },
    { name: 'reconstructed: long past the deadline -> deleted at the start', memory: 'reconstructed', taints: [testTaint(1, T0 - 1000 * S)], deadline: 0 },
  ];
  for (const c of cases) {
    const created = c.created !== undefined ? T0 + c.created * S : undefined;
    const w = new World({ minor: 31, memory: c.memory, nodes: [node('node1', c.taints)], pods: [pod('pod1', 'node1', tolerations, created)] });
    w.runUntil(T0 + 3600 * S);
    assert.equal(w.host.actions('PodEvicted')[0]?.time, formatTime(T0 + c.deadline * S), c.name);
    const s = w.host.actions('PodEvictionScheduled')[0];
    assert.equal(s.time, formatTime(T0), `${c.name}: decided at the start`);
    assert.equal(
      s.because.some((b) => b.rule.startsWith('assumed:')),
      c.assumed ?? false,
      c.name,
    );
  }
  // Two taints: the first tolerated forever, the second for 60s: the work item starts with the second.
  const w = new World({
    minor: 31,
    memory: 'reconstructed',
    nodes: [node('node1', [testTaint(1, T0 - 500 * S), testTaint(2, T0 - 30 * S)])],
    pods: [pod('pod1', 'node1', [tolerate(1), tolerate(2, 60)], T0 - 1000 * S)],
  });
  w.runUntil(T0 + 3600 * S);
  assert.equal(w.host.actions('PodEvicted')[0].time, formatTime(T0 + 30 * S));
});

// Fuzz cases 4350/5344: a pod evicted at the start for a taint the snapshot already held cited nothing.
test("a NoExecute taint already in the snapshot is the root of what is decided about it, named in the root's summary", () => {
  const cases: {
    name: string;
    taints: ReturnType<typeof testTaint>[];
    tolerations: ReturnType<typeof tolerate>[];
    /** a decision of the run stands for the first taint */
    traced?: boolean;
    action?: 'PodEvicted' | 'PodEvictionScheduled';
    roots: number;
  }[] = [
    { name: 'an untolerated taint: evicted at the start', taints: [testTaint(1)], tolerations: [], action: 'PodEvicted', roots: 1 },
    { name: 'a tolerated taint: scheduled at the start', taints: [testTaint(1)], tolerations: [tolerate(1, 60)], action: 'PodEvictionScheduled', roots: 1 },
    {
      name: 'two taints on one node: one root names both',
      taints: [testTaint(1), testTaint(2)],
      tolerations: [tolerate(1, 60)],
      action: 'PodEvicted',
      roots: 1,
    },
    { name: 'a taint a decision stands for gets no root', taints: [testTaint(1)], tolerations: [], traced: true, action: 'PodEvicted', roots: 0 },
    { name: 'a taint tolerated forever: nothing decided, no root', taints: [testTaint(1)], tolerations: [tolerate(1)], roots: 0 },
  ];
  for (const c of cases) {
    for (const memory of ['reconstructed', 'fresh'] as const) {
      const name = `${c.name} (${memory})`;
      const w = new World({ minor: 31, memory, nodes: [node('node1', c.taints)], pods: [pod('pod1', 'node1', c.tolerations)] });
      let traced: number | undefined;
      if (c.traced) {
        traced = w.host.decide({ controller: 'world', action: 'ObjectApplied', object: 'Node/node1', summary: 'test', because: [], source: 'test' });
        w.host.remember('Node/node1', 'taint:testTaint1:NoExecute', traced);
      }
      w.settle();
      const roots = w.host.actions('AssumptionMade');
      assert.equal(roots.length, c.roots, name);
      if (!c.action) {
        assert.deepEqual(w.host.decisions, [], `${name}: nothing recorded`);
        continue;
      }
      const d = w.host.actions(c.action)[0];
      assert.ok(d, `${name}: ${c.action}`);
      if (!c.roots) {
        assert.deepEqual(d.causes, [traced], name);
        continue;
      }
      const root = roots[0];
      assert.equal(root.object, 'Node/node1', name);
      assert.equal(root.controller, 'world', name);
      for (const t of c.taints) assert.ok(root.summary.includes(`${t.key}=${t.value}:NoExecute`), `${name}: the root names ${t.key}`);
      assert.deepEqual(d.causes, [root.seq], `${name}: the decision cites the root`);
      assert.deepEqual(
        rootCauses(w.host.decisions, d.seq).map((r) => r.seq),
        [root.seq],
        `${name}: the why's root is the snapshot's taint`,
      );
      // a pod bound there later rests on the same root
      w.addPod(pod('later', ''));
      w.host.now += 5 * S;
      w.updatePod('default/later', { nodeName: 'node1' });
      w.settle();
      const later = w.host.decisions.filter((x) => x.object === 'Pod/default/later' && x.action === 'PodEvicted')[0];
      assert.ok(later.causes.includes(root.seq), `${name}: the later pod cites the root`);
      assert.equal(w.host.actions('AssumptionMade').length, 1, `${name}: one root per taint`);
    }
  }
});

// ---- why not -------------------------------------------------------------------------------
test('"why not" names the check that holds an eviction back, and when it would fire', () => {
  const w = new World({
    minor: 35,
    nodes: [node('node1', [testTaint(1)]), node('node2')],
    pods: [pod('limited', 'node1', [tolerate(1, 600)]), pod('forever', 'node1', [tolerate(1)]), pod('elsewhere', 'node2'), pod('pending', '')],
  });
  w.settle();
  const limited = w.c.whyNot(w.host, 'Pod/default/limited');
  assert.match(limited[0].check.rule, /has not run out yet/);
  assert.equal(limited[0].wouldFireAt, formatTime(T0 + 600 * S));
  assert.match(w.c.whyNot(w.host, 'Pod/default/forever')[0].check.rule, /tolerates every NoExecute taint of its node forever/);
  assert.match(w.c.whyNot(w.host, 'Pod/default/elsewhere')[0].check.rule, /no NoExecute taint/);
  assert.match(w.c.whyNot(w.host, 'Pod/default/pending')[0].check.rule, /not bound/);
  assert.deepEqual(w.c.whyNot(w.host, 'Pod/default/missing'), []);
  assert.deepEqual(w.c.whyNot(w.host, 'Node/node1'), []);
});

// ---- machines and checkpoints ---------------------------------------------------------------
test('machines show each pod with eviction work, and a checkpoint restores it exactly', () => {
  const w = new World({
    minor: 31,
    nodes: [node('node1', [testTaint(1)])],
    pods: [pod('a', 'node1', [tolerate(1, 100)]), pod('b', 'node1', [tolerate(1, 50)])],
  });
  w.settle();
  const views = w.c.machines();
  assert.deepEqual(
    views.map((m) => [m.id, m.state]),
    [
      ['taint-eviction/default/a', 'scheduled'],
      ['taint-eviction/default/b', 'scheduled'],
    ],
  );
  assert.ok(views[0].definition && typeof views[0].definition === 'object');
  const saved = w.c.save();
  const snapshotOfSaved = JSON.stringify(saved);
  w.runUntil(T0 + 200 * S);
  assert.deepEqual(w.evicted(), ['default/b', 'default/a']);
  assert.equal(JSON.stringify(saved), snapshotOfSaved, 'the checkpoint is not changed by running on');
  // back to the checkpoint: the world is put back by the simulation; here by hand
  w.c.restore(saved, w.host);
  w.host.now = T0;
  w.host.decisions = [];
  w.host.createPod(pod('a', 'node1', [tolerate(1, 100)]));
  w.host.createPod(pod('b', 'node1', [tolerate(1, 50)]));
  assert.equal(w.c.nextWake(), T0 + 50 * S);
  assert.deepEqual(
    w.c.machines().map((m) => m.state),
    ['scheduled', 'scheduled'],
  );
  w.runUntil(T0 + 200 * S);
  assert.deepEqual(
    w.host.actions('PodEvicted').map((d) => [d.object, d.time]),
    [
      ['Pod/default/b', formatTime(T0 + 50 * S)],
      ['Pod/default/a', formatTime(T0 + 100 * S)],
    ],
  );
});

test("a send its machine refuses throws under strictMachines (as the simulation's checking mode builds it) and writes nothing without it", () => {
  // A checkpoint whose timer disagrees with its work item's state: the timer sends an event the machine refuses there.
  const cases: { name: string; timerKind: 'fire' | 'giveUp'; state: 'scheduled' | 'deleting'; refused: string }[] = [
    { name: 'a give-up timer on scheduled work', timerKind: 'giveUp', state: 'scheduled', refused: 'GIVE_UP' },
    { name: 'a deadline timer on work being deleted', timerKind: 'fire', state: 'deleting', refused: 'DEADLINE' },
  ];
  for (const c of cases) {
    for (const strict of [true, false]) {
      const w = new World({ minor: 31, nodes: [node('node1', [testTaint(1)])], pods: [pod('a', 'node1', [tolerate(1, 100)])] });
      w.settle();
      const saved = w.c.save() as { work: { state: string; timerKind?: string; timerAt?: number }[] };
      saved.work[0] = { ...saved.work[0], state: c.state, timerKind: c.timerKind, timerAt: T0 + 10 * S };
      // built as the simulation builds it, in checking mode or not
      const c2 = defaultControllerFactory('taint-eviction', {
        config: w.host.config,
        behaviour: w.host.behaviour,
        binder: 'simplified',
        strictMachines: strict,
      });
      c2!.restore!(saved, w.host);
      w.c = c2 as typeof w.c;
      const before = w.host.decisions.length;
      const name = `${c.name} (${strict ? 'strict' : 'lenient'})`;
      if (strict) {
        assert.throws(() => w.runUntil(T0 + 20 * S), new RegExp(`default/a in ${c.state} refuses ${c.refused}`), name);
      } else {
        w.runUntil(T0 + 20 * S);
        assert.equal(w.host.decisions.length, before, `${name}: nothing decided`);
        assert.deepEqual(
          w.c.machines().map((m) => m.state),
          [c.state],
          `${name}: the state stays`,
        );
      }
    }
  }
});

test('nothing is visited per pass: the next wake is the earliest deadline among many pods', () => {
  const pods = [];
  for (let i = 0; i < 2000; i++) pods.push(pod(`p${String(i).padStart(4, '0')}`, `n${i % 20}`, [tolerate(1, 100 + (i % 37))]));
  const nodes = [];
  for (let i = 0; i < 20; i++) nodes.push(node(`n${i}`, [testTaint(1)]));
  const w = new World({ minor: 35, nodes, pods });
  w.settle();
  assert.equal(w.host.actions('PodEvictionScheduled').length, 2000);
  assert.equal(w.c.nextWake(), T0 + 100 * S);
  let wakes = 0;
  for (let next = w.c.nextWake(); next !== undefined; next = w.c.nextWake()) {
    w.host.now = next;
    w.c.wake(w.host);
    wakes++;
  }
  assert.equal(wakes, 37, 'one wake per distinct deadline');
  assert.equal(w.evicted().length, 2000);
});

// Many nodes tainted at once: every pod is evicted exactly once, at once or at
// its deadline. (Speed at 150,000 pods is measured by `npm run bench`, never here.)
test('5,000 pods on 100 tainted nodes are each evicted once, half at once and half at their deadline', () => {
  const nodes = [];
  const pods = [];
  for (let n = 0; n < 100; n++) {
    nodes.push(node(`node-${n}`));
    for (let i = 0; i < 50; i++) pods.push(pod(`p-${n}-${i}`, `node-${n}`, i % 2 ? [tolerate(1, 300)] : []));
  }
  const w = new World({ minor: 35, nodes, pods });
  for (let n = 0; n < 100; n++) w.setTaints(`node-${n}`, [testTaint(1)]);
  w.settle();
  assert.equal(w.host.actions('PodEvicted').length, 2_500, 'the untolerating half goes at once');
  w.runUntil(T0 + 3600 * S);
  const evicted = w.host.actions('PodEvicted');
  assert.equal(evicted.length, 5_000);
  assert.equal(new Set(evicted.map((d) => d.object)).size, 5_000, 'no pod is evicted twice');
  assert.equal(w.host.cluster.pods.size, 0);
});

// The machine is the source of truth: a work item's state is only ever the state its machine
// answered, so the transitions the decisions carry chain from `idle` for each pod, and the
// panel's view of a pod is the target of its last transition.
test("each pod's eviction state is the one its machine answered: its decisions' transitions chain, and the view shows the last", () => {
  const cases: { name: string; steps: (w: World) => void; want: Record<string, string[]> }[] = [
    {
      name: 'scheduled, cancelled by the taint going, scheduled again',
      steps: (w) => {
        w.settle();
        w.setTaints('node1', []);
        w.settle();
        w.setTaints('node1', [testTaint(1)]);
        w.settle();
      },
      want: { a: ['idle>scheduled', 'scheduled>idle', 'idle>scheduled'], b: ['idle>deleting'] },
    },
    {
      name: 'scheduled, then no longer tolerated: deleted at once',
      steps: (w) => {
        w.settle();
        w.updatePod('default/a', { tolerations: [] });
        w.settle();
      },
      want: { a: ['idle>scheduled', 'scheduled>deleting'], b: ['idle>deleting'] },
    },
    {
      name: 'the deadline fires',
      steps: (w) => {
        w.runUntil(T0 + 200 * S);
      },
      want: { a: ['idle>scheduled', 'scheduled>deleting'], b: ['idle>deleting'] },
    },
  ];
  for (const c of cases) {
    const w = new World({ minor: 35, nodes: [node('node1', [testTaint(1)])], pods: [pod('a', 'node1', [tolerate(1, 100)]), pod('b', 'node1')] });
    c.steps(w);
    const chains: Record<string, string[]> = {};
    for (const d of w.host.decisions) {
      if (d.controller !== 'taint-eviction' || !d.machine) continue;
      const name = d.object.replace(/^Pod\/default\//, '');
      const chain = (chains[name] ??= []);
      const last = chain.length ? chain[chain.length - 1]!.split('>')[1] : 'idle';
      assert.equal(d.machine.from, last, `${c.name}: ${name}'s ${d.action} starts where its machine was`);
      chain.push(`${d.machine.from}>${d.machine.to}`);
    }
    assert.deepEqual(chains, c.want, c.name);
    for (const v of w.c.machines()) {
      const name = v.id.replace('taint-eviction/default/', '');
      assert.equal(v.state, chains[name]!.at(-1)!.split('>')[1], `${c.name}: ${name}'s view`);
    }
  }
});
