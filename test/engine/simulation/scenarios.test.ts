/**
 * Whole timelines with the real controllers: one node stops heartbeating ->
 * Ready Unknown -> tainted (1.31) or queued for eviction (1.12) -> pods
 * evicted at the right times; explain's causal chain back to the world
 * event; determinism and stepping back with the real controllers'
 * checkpoints; expectations.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, FINE_CHECKPOINT_EVERY, MAX_CHECKPOINTS } from '../../../src/engine/simulation/simulation';
import { STEP_BACK_CHECKPOINTS } from '../../../src/engine/simulation/checkpointPlacement';
import { seconds } from '../../../src/engine/model/time';
import type { KObject } from '../../../src/engine/model/types';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { lease, node, pod, replicaSet, scenarioOf, T0_MICROS, type EventSpec, type ExpectSpec } from '../../helpers/scenario';

const s = (n: number) => T0_MICROS + seconds(n);
const tol = (key: string, secs?: number): KObject => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(secs === undefined ? {} : { tolerationSeconds: secs }),
});
const defaults = [tol('node.kubernetes.io/not-ready', 300), tol('node.kubernetes.io/unreachable', 300)];

function cluster(withLeases: boolean): KObject[] {
  const names = ['a1', 'a2', 'a3'];
  return [
    ...names.map((n) => node(n, { zone: 'z1', heartbeatAgo: withLeases ? '3m' : '5s' })),
    ...(withLeases ? names.map((n) => lease(n, '2s')) : []),
    pod('default', 'bare', 'a1'),
    pod('default', 'defaults', 'a1', { tolerations: defaults }),
    pod('default', 'sixty', 'a1', { tolerations: [tol('node.kubernetes.io/unreachable', 60)] }),
    pod('default', 'forever', 'a1', { tolerations: [tol('node.kubernetes.io/unreachable')] }),
    pod('default', 'elsewhere', 'a2'),
  ];
}

const stopA1: EventSpec[] = [{ at: '30s', kind: 'kubelet', action: 'stop', target: { nodes: ['a1'] } } as EventSpec];

function timeOf(sim: ReturnType<typeof createSimulation>, action: string, object: string, detail?: RegExp): string | undefined {
  return sim.trace.find((d) => d.action === action && d.object === object && (!detail || detail.test(d.summary)))?.time;
}

type Sim = ReturnType<typeof createSimulation>;
/** The passes after 0 a simulation keeps checkpoints of. */
const passes = (x: Sim) => (x as unknown as { checkpoints: { pass: number | null }[] }).checkpoints.map((c) => c.pass).filter((p) => p !== null && p > 0);

/** An interactive run kept `kept`, a plain run of the same only the regular ones (every 50), and both decided alike. */
function keptLikePlain(sim: Sim, plain: Sim, kept: readonly number[], last: number): void {
  assert.equal(STEP_BACK_CHECKPOINTS, 5);
  assert.deepEqual(passes(sim), kept, `checkpoints after the run to pass ${last}`);
  assert.deepEqual(
    passes(plain),
    kept.filter((p) => p % 50 === 0),
    'a plain run keeps the regular ones only',
  );
  assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(plain.trace));
}

describe('one node stops heartbeating, Kubernetes 1.31', () => {
  const sim = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events: stopA1 }));
  sim.runUntil(s(600));

  const cases: [string, string, string, RegExp | undefined, string | undefined][] = [
    [
      'Ready becomes Unknown at the first pass more than 40s after the last Lease renewal (20s)',
      'NodeStatusUnknown',
      'Node/a1',
      undefined,
      '2026-01-01T00:01:05.000Z',
    ],
    ['the unreachable NoSchedule taint follows in the same pass', 'TaintAdded', 'Node/a1', /unreachable:NoSchedule/, '2026-01-01T00:01:05.000Z'],
    ['the unreachable NoExecute taint comes one pass later (1.27-1.33)', 'TaintAdded', 'Node/a1', /unreachable:NoExecute/, '2026-01-01T00:01:10.000Z'],
    ['a pod without tolerations is evicted at once', 'PodEvicted', 'Pod/default/bare', undefined, '2026-01-01T00:01:10.000Z'],
    ['a pod tolerating for 60s is evicted 60s after the taint', 'PodEvicted', 'Pod/default/sixty', undefined, '2026-01-01T00:02:10.000Z'],
    ['a pod with the default 300s tolerations is evicted 300s after the taint', 'PodEvicted', 'Pod/default/defaults', undefined, '2026-01-01T00:06:10.000Z'],
    ['a pod tolerating forever is never evicted', 'PodEvicted', 'Pod/default/forever', undefined, undefined],
    ['a pod on a healthy node is never evicted', 'PodEvicted', 'Pod/default/elsewhere', undefined, undefined],
  ];
  for (const [name, action, object, detail, time] of cases) it(name, () => assert.equal(timeOf(sim, action, object, detail), time));

  it('explains an eviction with the chain of causes back to the kubelet stopping', () => {
    const ex = sim.explain('Pod/default/defaults');
    assert.equal(ex.exists, false);
    const evicted = ex.happened.find((h) => h.decision.action === 'PodEvicted')!;
    const actions = evicted.chain.map((d) => d.action);
    assert.ok(actions.includes('KubeletStopped'), actions.join(','));
    assert.ok(actions.includes('TaintAdded'), actions.join(','));
    assert.equal(evicted.chain[0].action, 'KubeletStopped');
  });

  it('the state lists the remaining pods and the tainted node', () => {
    const st = sim.state();
    const names = st.objects.items.filter((o) => o.kind === 'Pod').map((o) => (o.metadata as { name: string }).name);
    assert.deepEqual(names.sort(), ['elsewhere', 'forever']);
    const a1 = st.objects.items.find((o) => o.kind === 'Node' && (o.metadata as { name: string }).name === 'a1') as {
      spec: { taints: { key: string; effect: string }[] };
    };
    assert.deepEqual(a1.spec.taints.map((t) => `${t.key}:${t.effect}`).sort(), [
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    assert.equal(st.zones.length, 1);
    assert.equal(st.zones[0].zone, 'Zone/z1');
  });
});

describe('one node stops heartbeating, Kubernetes 1.12', () => {
  const sim = createSimulation(scenarioOf({ objects: cluster(false), version: '1.12', events: stopA1 }));
  sim.runUntil(s(600));

  it('Ready becomes Unknown at the first pass more than 40s after the last status post (20s)', () => {
    assert.equal(timeOf(sim, 'NodeStatusUnknown', 'Node/a1'), '2026-01-01T00:01:05.000Z');
  });
  it('adds no NoExecute taint (TaintBasedEvictions is off in 1.12)', () => {
    assert.equal(timeOf(sim, 'TaintAdded', 'Node/a1', /NoExecute/), undefined);
  });
  it('deletes the pods podEvictionTimeout (5m) after the probe timestamp, tolerations or not', () => {
    for (const p of ['bare', 'defaults', 'sixty', 'forever']) assert.equal(timeOf(sim, 'PodEvicted', `Pod/default/${p}`), '2026-01-01T00:05:25.000Z', p);
    assert.equal(sim.trace.find((d) => d.action === 'PodEvicted')!.controller, 'node-lifecycle');
    assert.equal(timeOf(sim, 'PodEvicted', 'Pod/default/elsewhere'), undefined);
  });
});

describe('determinism and checkpoints with the real controllers', () => {
  const events: EventSpec[] = [
    ...stopA1,
    { at: '3m', kind: 'kubelet', action: 'start', target: { nodes: ['a1'] } } as EventSpec,
    { at: '4m', kind: 'restartControllerManager', failover: true } as EventSpec,
  ];
  for (const version of ['1.12', '1.31', '1.35']) {
    it(`${version}: the same input gives byte-identical trace JSON`, () => {
      const one = createSimulation(scenarioOf({ objects: cluster(version !== '1.12'), version, events }));
      const two = createSimulation(scenarioOf({ objects: cluster(version !== '1.12'), version, events }));
      one.runUntil(s(420));
      two.runUntil(s(420));
      assert.ok(one.trace.length > 10);
      assert.equal(traceToJsonLines(one.trace), traceToJsonLines(two.trace));
    });

    it(`${version}: goToPass backwards equals a fresh run to that pass (state and trace)`, () => {
      const sim = createSimulation(scenarioOf({ objects: cluster(version !== '1.12'), version, events }), { checkpointEvery: 4 });
      sim.runUntil(s(420));
      for (const n of [15, 45, 2]) {
        sim.goToPass(n);
        const fresh = createSimulation(scenarioOf({ objects: cluster(version !== '1.12'), version, events }), { checkpointEvery: 4 });
        fresh.goToPass(n);
        assert.equal(sim.pass, n);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `trace at pass ${n}`);
        assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()), `state at pass ${n}`);
      }
    });
  }
});

describe('many checkpoints', () => {
  it('keeps at most MAX_CHECKPOINTS, merging the dropped ones, and still steps back exactly', () => {
    const events: EventSpec[] = [...stopA1, { at: '3m', kind: 'kubelet', action: 'start', target: { nodes: ['a1'] } } as EventSpec];
    const sim = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events }), { checkpointEvery: 1 });
    sim.runUntil(s(600));
    assert.ok(sim.pass! >= 119);
    assert.ok((sim as unknown as { checkpoints: unknown[] }).checkpoints.length <= MAX_CHECKPOINTS);
    for (const n of [100, 13, 61, 1]) {
      sim.goToPass(n);
      const fresh = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events }));
      fresh.goToPass(n);
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `trace at pass ${n}`);
      assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()), `state at pass ${n}`);
    }
  });
});

describe('expectations', () => {
  const expect: ExpectSpec[] = [
    { at: '1m', node: 'a1', ready: 'True' },
    { at: '1m5s', node: 'a1', ready: 'Unknown', hasTaint: 'node.kubernetes.io/unreachable:NoSchedule' },
    { at: '1m9s', node: 'a1', lacksTaint: 'node.kubernetes.io/unreachable:NoExecute' },
    { at: '1m10s', pod: 'default/bare', deleted: true },
    { at: '2m', pod: 'default/defaults', deleted: false, boundTo: 'a1' },
    { at: '2m', zone: 'z1', state: 'Normal' },
    { at: '10m', decision: { action: 'PodEvicted', count: 3 } },
    // these two are wrong on purpose
    { at: '1m', node: 'a1', hasTaint: 'node.kubernetes.io/unreachable' },
    { at: '30s', pod: 'default/bare', deleted: true },
    // two checks, one wrong: the finding names which
    { at: '30s', pod: 'default/bare', deleted: false, boundTo: 'a2' },
  ];
  const sim = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events: stopA1, expect }));
  const results = sim.checkExpectations();

  it('passes the ones that hold, in the order written', () => {
    assert.deepEqual(
      results.map((r) => r.ok),
      [true, true, true, true, true, true, true, false, false, false],
    );
    assert.deepEqual(
      results.map((r) => r.index),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
  });

  it('says what was expected and what was found when one fails', () => {
    assert.equal(results[7].description, 'at 2026-01-01T00:01:00.000Z: Node/a1 has taint node.kubernetes.io/unreachable');
    // one check: the finding alone (it repeated the check, "Pod/x is deleted: it exists", which read as the opposite)
    assert.equal(results[7].actual, 'no taints');
    assert.equal(results[8].actual, 'it exists on a1');
    assert.equal(results[9].actual, 'Pod/default/bare is bound to a2: bound to a1');
  });

  it('runs again from the start when the simulation is already past the first time', () => {
    const again = sim.checkExpectations();
    assert.deepEqual(
      again.map((r) => r.ok),
      results.map((r) => r.ok),
    );
  });
});

describe('ReplicaSets in a timeline', () => {
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true, blockOwnerDeletion: true };
  const objects = (): KObject[] => [
    ...cluster(true),
    replicaSet('default', 'web', 2, { app: 'web' }),
    pod('default', 'web-1', 'a1', { labels: { app: 'web' }, owner, tolerations: defaults }),
    pod('default', 'web-2', 'a2', { labels: { app: 'web' }, owner, tolerations: defaults }),
  ];

  it('scale: the ReplicaSet controller creates the pods, the binder places them, and the expectations see the counts', () => {
    const expect: ExpectSpec[] = [
      { at: '5s', replicaSet: 'default/web', replicas: 2 },
      { at: '1m', replicaSet: 'default/web', replicas: 4, readyReplicas: 4, availableReplicas: 4 },
      { at: '1m', decision: { action: 'PodsCreated', object: 'ReplicaSet/default/web', count: 1 } },
    ];
    const sim = createSimulation(
      scenarioOf({ objects: objects(), version: '1.31', events: [{ at: '10s', kind: 'scale', replicaSet: 'default/web', replicas: 4 } as EventSpec], expect }),
    );
    const results = sim.checkExpectations();
    assert.deepEqual(
      results.filter((r) => !r.ok).map((r) => r.actual),
      [],
    );
    const created = sim.trace.find((d) => d.action === 'PodsCreated')!;
    assert.equal(created.time, '2026-01-01T00:00:10.000Z');
    assert.ok(created.causes.includes(sim.trace.find((d) => d.summary.startsWith('Scaled to 4'))!.seq), JSON.stringify(created.causes));
  });

  it('an evicted pod is replaced, and the replacement cites the eviction', () => {
    const sim = createSimulation(scenarioOf({ objects: objects(), version: '1.31', events: stopA1 }));
    sim.runUntil(s(400));
    const evicted = sim.trace.find((d) => d.action === 'PodEvicted' && d.object === 'Pod/default/web-1')!;
    assert.equal(evicted.time, '2026-01-01T00:06:10.000Z');
    const created = sim.trace.find((d) => d.action === 'PodsCreated' && d.seq > evicted.seq)!;
    assert.ok(created, 'a replacement is created');
    assert.ok(sim.explain(created.object).happened.some((h) => h.decision.seq === created.seq && h.chain.some((c) => c.action === 'KubeletStopped')));
  });
});

describe('which controllers run', () => {
  it('--controllers=*,-nodelifecycle: nothing is tainted or evicted, and explain says why', () => {
    const sim = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events: stopA1 }), { set: { controllers: '*,-nodelifecycle' } });
    sim.runUntil(s(600));
    assert.deepEqual(
      sim.problems.filter((p) => p.severity === 'error'),
      [],
    );
    assert.equal(sim.trace.filter((d) => d.controller === 'node-lifecycle').length, 0);
    assert.equal(sim.trace.filter((d) => d.action === 'PodEvicted').length, 0);
    const why = sim.explain('Node/a1').whyNot.map((w) => w.check.rule);
    assert.ok(
      why.some((r) => r.includes('node-lifecycle does not run')),
      why.join(' | '),
    );
    assert.equal(sim.zones().length, 0);
  });

  it('1.29+: --controllers=*,-taint-eviction-controller taints the node but evicts nothing', () => {
    const sim = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events: stopA1 }), {
      set: { controllers: '*,-taint-eviction-controller' },
    });
    sim.runUntil(s(600));
    assert.equal(timeOf(sim, 'TaintAdded', 'Node/a1', /unreachable:NoExecute/), '2026-01-01T00:01:10.000Z');
    assert.equal(sim.trace.filter((d) => d.action === 'PodEvicted').length, 0);
    const why = sim.explain('Pod/default/bare').whyNot.map((w) => w.check.rule);
    assert.ok(
      why.some((r) => r.includes('taint-eviction does not run')),
      why.join(' | '),
    );
  });

  it('binder: none leaves the scheduler out', () => {
    const sim = createSimulation(scenarioOf({ objects: [...cluster(true), pod('default', 'pending', undefined)], version: '1.31', binder: 'none' }));
    sim.runUntil(s(30));
    assert.equal(
      sim.controllers.some((c) => c.name === 'scheduler'),
      false,
    );
    assert.equal(sim.cluster.pods.get('default/pending')!.nodeName, undefined);
  });
});

describe("explain: the simulation's own reasons", () => {
  it("says a node's kubelet is still posting, and when it posts next", () => {
    const sim = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31' }));
    sim.runUntil(s(12));
    const w = sim.explain('Node/a2').whyNot.find((x) => x.blocking?.guard === 'kubeletStopped')!;
    assert.equal(w.outcome, 'NodeStatusUnknown');
    assert.match(w.check.rule, /^the node's kubelet is running: it posts node status and renews its Lease; Ready stays as it is as long as it does/);
    assert.equal(w.check.values!.nextPost, '2026-01-01T00:05:00.000Z');
    assert.equal(w.check.values!.nextLeaseRenewal, '2026-01-01T00:00:20.000Z');
    assert.equal(w.wouldFireAt, undefined, 'nothing fires while the kubelet posts');
    sim.runUntil(s(300));
    const later = sim.explain('Node/a2').whyNot.find((x) => x.blocking?.guard === 'kubeletStopped')!;
    assert.equal(later.check.values!.lastPost, '2026-01-01T00:05:00.000Z');
    assert.equal(later.check.values!.nextPost, '2026-01-01T00:10:00.000Z');
    assert.equal(later.check.values!.nextLeaseRenewal, '2026-01-01T00:05:10.000Z');
  });

  it('says an object never existed', () => {
    const sim = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31' }));
    const ex = sim.explain('Pod/default/nope');
    assert.equal(ex.exists, false);
    assert.match(ex.whyNot[0].check.rule, /never existed/);
    assert.equal(ex.neverExisted, true);
    // an object of the snapshot is not "never existed", even with nothing decided about it
    assert.equal(sim.explain('Pod/default/elsewhere').neverExisted, undefined);
    assert.equal(sim.explain('Node/a9').neverExisted, true);
  });
});

describe('fine checkpoints after a step back', () => {
  it('replaying forward after a restore leaves a checkpoint every FINE_CHECKPOINT_EVERY passes, and for a step back at each of the STEP_BACK_CHECKPOINTS passes before it, and stepping back one pass at a time stays exact', () => {
    const events: EventSpec[] = [...stopA1, { at: '4m', kind: 'kubelet', action: 'start', target: { nodes: ['a1'] } } as EventSpec];
    const make = () => createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events }), { checkpointEvery: 50 });
    const sim = make();
    sim.runUntil(s(600));
    const passes = () => (sim as unknown as { checkpoints: { pass: number | null }[] }).checkpoints.map((c) => c.pass);
    assert.deepEqual(
      passes().filter((p) => p !== null && p > 0 && p % 50 !== 0),
      [],
      'forward: only the regular checkpoints',
    );
    sim.goToPass(97);
    const fine = passes().filter((p) => p !== null && p > 50 && p <= 97);
    assert.deepEqual(
      fine,
      [60, 70, 80, 90].filter((p) => p % FINE_CHECKPOINT_EVERY === 0),
      'the replayed stretch from the checkpoint at 50 up to 97 (a jump: no step-back checkpoints)',
    );
    // a step back (to the pass before): also each of the STEP_BACK_CHECKPOINTS passes before its target
    sim.goToPass(96);
    const behind = Array.from({ length: STEP_BACK_CHECKPOINTS }, (_, i) => 96 - STEP_BACK_CHECKPOINTS + i);
    assert.deepEqual(
      passes().filter((p) => p !== null && p > 90 && p <= 96),
      behind,
      'the step back from 97 to 96',
    );
    for (const n of [96, 95, 91, 90, 89, 62, 3]) {
      sim.goToPass(n);
      const fresh = make();
      fresh.goToPass(n);
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `trace at pass ${n}`);
      assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()), `state at pass ${n}`);
    }
    // and on to the end again, as if it never went back
    sim.runUntil(s(600));
    const fresh = make();
    fresh.runUntil(s(600));
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
  });

  it("a user's single steps keep a checkpoint every FINE_CHECKPOINT_EVERY passes and after the shown pass and each of the STEP_BACK_CHECKPOINTS before it; plain steps do not", () => {
    const make = () => createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events: stopA1 }), { checkpointEvery: 50 });
    const plain = make();
    for (let i = 0; i < 35; i++) plain.step();
    plain.settle();
    assert.deepEqual(passes(plain), []);
    const sim = make();
    for (let i = 0; i < 35; i++) sim.step(true);
    sim.settle();
    // the shown pass's and the five before it (the ring's own: older ones merged into the next) and the fine ones, which stay
    assert.deepEqual(passes(sim), [10, 20, 28, 29, 30, 31, 32, 33, 34]);
    // the state and trace are those of the plain steps, and a step back from there is exact
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(plain.trace));
    // after a long run, the first single step keeps one at once
    sim.runUntil(sim.now + 27 * 5e6);
    plain.runUntil(plain.now + 27 * 5e6);
    sim.step(true);
    plain.step();
    sim.settle();
    const at = sim.pass!;
    assert.ok(at > 60 && at - 50 < 2 * FINE_CHECKPOINT_EVERY, `pass ${at}`);
    assert.deepEqual(passes(sim), [10, 20, 28, 29, 30, 31, 32, 33, 34, 50, at]);
    for (const back of [at - 1, at - 2, 55, 49]) {
      sim.goToPass(back);
      plain.goToPass(back);
      assert.equal(JSON.stringify(sim.state()), JSON.stringify(plain.state()), `state at pass ${back}`);
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(plain.trace), `trace at pass ${back}`);
    }
  });

  it("the panel's runUntil keeps a checkpoint after each of the STEP_BACK_CHECKPOINTS passes before its last, and none on the way; the run and the step backs after it are those of a plain run", () => {
    const make = () => createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events: stopA1 }), { checkpointEvery: 50 });
    const plain = make();
    const sim = make();
    // passes every 5 s from the start: pass 40 at 200 s, pass 87 at 435 s
    for (const [until, last, kept] of [
      [s(200), 40, [35, 36, 37, 38, 39]],
      [s(437), 87, [35, 36, 37, 38, 39, 50, 82, 83, 84, 85, 86]],
    ] as const) {
      plain.runUntil(until);
      sim.runUntil(until, { interactive: true });
      assert.equal(sim.pass, last, `the last pass up to ${until}`);
      // none on the way: only the regular one at 50 between the two stretches of STEP_BACK_CHECKPOINTS
      keptLikePlain(sim, plain, kept, last);
    }
    for (const back of [86, 85, 81, 49]) {
      sim.goToPass(back);
      plain.goToPass(back);
      assert.equal(JSON.stringify(sim.state()), JSON.stringify(plain.state()), `state at pass ${back}`);
      assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(plain.trace), `trace at pass ${back}`);
    }
  });
});

describe("the panel's runUntil cut short", () => {
  // A runUntil to 437 s (pass 87) cut at pass 20 (a slice's end, then a cancel) and followed by another call:
  // only the panel's own runUntil, resumed, keeps the checkpoints before its last pass (82–86).
  const make = (stopAt: { pass: number }) => {
    const sim = createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events: stopA1 }), {
      checkpointEvery: 50,
      shouldStop: () => (sim.pass ?? -1) >= stopAt.pass,
    });
    return sim;
  };
  const cases: [string, (sim: Sim) => void, number[]][] = [
    ['a plain runUntil', (sim) => sim.runUntil(s(437)), [50]],
    ['a runUntilDecision', (sim) => sim.runUntilDecision(() => false, s(437)), [50]],
    ['plain steps', (sim) => sim.goToPass(87), [50]],
    ['the same runUntil resumed', (sim) => sim.runUntil(s(437), { interactive: true }), [50, 82, 83, 84, 85, 86]],
  ];
  for (const [then, run, kept] of cases) {
    it(`then ${then}: checkpoints ${kept.join(', ')}`, () => {
      const stopAt = { pass: 20 };
      const sim = make(stopAt);
      sim.runUntil(s(437), { interactive: true });
      assert.ok(sim.stopped && sim.pass === 20, `cut at pass ${sim.pass}`);
      stopAt.pass = Number.POSITIVE_INFINITY;
      run(sim);
      assert.equal(sim.pass, 87);
      assert.deepEqual(passes(sim), kept);
    });
  }
});

describe("the panel's runUntilDecision keeps checkpoints near its end", () => {
  // a1 stops at 30 s: Unknown and tainted at pass 14, `bare` evicted then, `sixty` 60 s later, `defaults` 300 s later
  // sliced: the panel's slices, each call cut after its first instant and made again until the run is done
  let slicing = false;
  let calls = 0;
  const make = () =>
    createSimulation(scenarioOf({ objects: cluster(true), version: '1.31', events: stopA1 }), {
      checkpointEvery: 50,
      shouldStop: () => slicing && calls++ % 2 === 0,
    });
  const evicted = (name: string) => (d: { action: string; object: string }) => d.action === 'PodEvicted' && d.object === `Pod/default/${name}`;
  const runs: [string, string[], number[], boolean?][] = [
    ['one run to pass 14', ['bare'], [9, 10, 11, 12, 13]],
    ['one run past the regular checkpoint at 50', ['defaults'], [50, 69, 70, 71, 72, 73]],
    ['two runs: the second drops the first one’s', ['sixty', 'defaults'], [50, 69, 70, 71, 72, 73]],
    ['one run in slices', ['defaults'], [50, 69, 70, 71, 72, 73], true],
  ];
  for (const [what, pods, kept, sliced] of runs) {
    it(`${what}: checkpoints ${kept.join(', ')}, and the step backs after it are those of a plain run`, () => {
      const sim = make();
      const plain = make();
      slicing = sliced === true;
      for (const name of pods) {
        const limit = s(3600);
        let d = sim.runUntilDecision(evicted(name), limit, { interactive: true });
        for (let calls = 1; sim.stopped; calls++) {
          assert.ok(sliced && calls < 1000, 'cut only in slices');
          d = sim.runUntilDecision(evicted(name), limit, { interactive: true });
        }
        slicing = false;
        assert.equal(plain.runUntilDecision(evicted(name), limit)?.seq, d?.seq, `evicted ${name}`);
      }
      const last = sim.pass!;
      keptLikePlain(sim, plain, kept, last);
      for (const back of [last - 1, last - 2, last - 6, 3]) {
        sim.goToPass(back);
        plain.goToPass(back);
        assert.equal(JSON.stringify(sim.state()), JSON.stringify(plain.state()), `state at pass ${back}`);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(plain.trace), `trace at pass ${back}`);
      }
    });
  }
});
