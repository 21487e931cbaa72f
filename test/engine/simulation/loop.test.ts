/**
 * The simulation loop (spec 1.3, 3): the virtual clock, the order of work
 * within one instant, monitor passes, stepping, restarts and failovers,
 * injected faults — driven with scripted fake controllers so that only the
 * loop is under test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import { seconds } from '../../../src/engine/model/time';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { fakeFactory, type FakeController } from '../../helpers/fakeControllers';
import { node, pod, scenarioOf, T0_MICROS, type EventSpec } from '../../helpers/scenario';
import { parseScenario } from '../../../src/engine/snapshot/scenario';

const s = (n: number) => T0_MICROS + seconds(n);

function run(events: EventSpec[], scripts: Parameters<typeof fakeFactory>[0], version = '1.31') {
  const log: string[] = [];
  const built: FakeController[] = [];
  const sim = createSimulation(scenarioOf({ objects: [node('a'), node('b'), pod('default', 'p1', 'a')], version, events }), {
    controllerFactory: fakeFactory(scripts, log, built),
  });
  return { sim, log, built };
}

describe('the simulation loop', () => {
  it('runs monitor passes at startTime + k × nodeMonitorPeriod, numbered from 0', () => {
    const { sim, log } = run([], { 'node-lifecycle': {} });
    sim.runUntil(s(12));
    assert.deepEqual(
      log.filter((l) => l.includes('wake')),
      [
        'node-lifecycle wake 2026-01-01T00:00:00.000Z pass=0',
        'node-lifecycle wake 2026-01-01T00:00:05.000Z pass=1',
        'node-lifecycle wake 2026-01-01T00:00:10.000Z pass=2',
      ],
    );
    assert.equal(sim.pass, 2);
    assert.equal(sim.now, s(12));
  });

  it('applies world events at an instant before the controllers, in file order', () => {
    const { sim, log } = run(
      [
        { at: '10s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'k2', effect: 'NoSchedule' } } as EventSpec,
        { at: '10s', kind: 'taint', target: { nodes: ['b'] }, taint: { key: 'k1', effect: 'NoSchedule' } } as EventSpec,
      ],
      { 'node-lifecycle': {} },
    );
    sim.runUntil(s(10));
    const i = log.indexOf('node-lifecycle node updated a');
    const j = log.indexOf('node-lifecycle node updated b');
    const w = log.indexOf('node-lifecycle wake 2026-01-01T00:00:10.000Z pass=2');
    assert.ok(i >= 0 && i < j && j < w, log.join('\n'));
    assert.deepEqual(
      sim.trace.map((d) => d.object),
      ['Node/a', 'Node/b'],
    );
  });

  it('applies events written out of time order sorted by time, keeping file order within an instant', () => {
    const { sim } = run(
      [
        { at: '20s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'late', effect: 'NoSchedule' } } as EventSpec,
        { at: '5s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'early', effect: 'NoSchedule' } } as EventSpec,
        { at: '5s', kind: 'taint', target: { nodes: ['b'] }, taint: { key: 'early2', effect: 'NoSchedule' } } as EventSpec,
      ],
      {},
    );
    sim.runUntil(s(30));
    assert.deepEqual(
      sim.trace.map((d) => d.summary),
      ['User added taint early:NoSchedule', 'User added taint early2:NoSchedule', 'User added taint late:NoSchedule'],
    );
  });

  it('wakes the controllers in the order node-lifecycle, taint-eviction, replicaset, scheduler', () => {
    const w = { wakes: [s(7)] };
    const { sim, log } = run([], { scheduler: w, replicaset: w, 'taint-eviction': w, 'node-lifecycle': w });
    sim.runUntil(s(7));
    assert.deepEqual(
      log.filter((l) => l.includes('00:07')).map((l) => l.split(' ')[0]),
      ['node-lifecycle', 'taint-eviction', 'replicaset', 'scheduler'],
    );
  });

  it('wakes a controller again within the same instant while it still has work due then', () => {
    let again = 2;
    const { sim, log } = run([], {
      replicaset: {
        wakes: [s(7)],
        onWake: (host, self) => {
          if (again-- > 0) self.wakes.unshift(host.now);
        },
      },
    });
    sim.runUntil(s(8));
    assert.equal(log.filter((l) => l.startsWith('replicaset wake 2026-01-01T00:00:07')).length, 3);
  });

  it('does nothing between monitor passes unless a controller asks to be woken', () => {
    const { sim, log } = run([], { 'node-lifecycle': {}, 'taint-eviction': { wakes: [s(1.3)] } });
    sim.runUntil(s(4.9));
    assert.deepEqual(
      log.filter((l) => l.includes('wake')),
      ['node-lifecycle wake 2026-01-01T00:00:00.000Z pass=0', 'taint-eviction wake 2026-01-01T00:00:01.300Z pass=0'],
    );
  });

  it('runUntil(t) includes everything due at t, and nothing after', () => {
    const { sim } = run(
      [
        { at: '7s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoSchedule' } } as EventSpec,
        { at: '7.000001s', kind: 'taint', target: { nodes: ['b'] }, taint: { key: 'y', effect: 'NoSchedule' } } as EventSpec,
      ],
      {},
    );
    sim.runUntil(s(7));
    assert.equal(sim.trace.length, 1);
    sim.runUntil(s(7) + 1);
    assert.equal(sim.trace.length, 2);
  });

  it('step() runs everything up to and including the next monitor pass', () => {
    const { sim, log } = run([{ at: '3s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoSchedule' } } as EventSpec], {
      'node-lifecycle': {},
    });
    sim.step();
    assert.equal(sim.pass, 0);
    assert.equal(sim.now, s(0));
    assert.equal(sim.trace.length, 0);
    sim.step();
    assert.equal(sim.pass, 1);
    assert.equal(sim.now, s(5));
    assert.equal(sim.trace.length, 1);
    assert.equal(log[log.length - 1], 'node-lifecycle wake 2026-01-01T00:00:05.000Z pass=1');
  });

  it('runUntilDecision stops at the instant of the first matching decision', () => {
    const { sim } = run(
      [
        { at: '3s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoSchedule' } } as EventSpec,
        { at: '9s', kind: 'taint', target: { nodes: ['b'] }, taint: { key: 'y', effect: 'NoSchedule' } } as EventSpec,
      ],
      {},
    );
    const d = sim.runUntilDecision((x) => x.object === 'Node/b', s(60));
    assert.equal(d?.time, '2026-01-01T00:00:09.000Z');
    assert.equal(sim.now, s(9));
    assert.equal(
      sim.runUntilDecision((x) => x.object === 'Node/zzz', s(60)),
      undefined,
    );
    assert.equal(sim.now, s(60));
  });

  it('records decisions with seq from 1, the simulated time with milliseconds and the pass', () => {
    const { sim } = run([{ at: '6.25s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'x', effect: 'NoSchedule' } } as EventSpec], {
      'node-lifecycle': {},
    });
    sim.runUntil(s(10));
    assert.deepEqual([sim.trace.at(0)!.seq, sim.trace.at(0)!.time, sim.trace.at(0)!.pass], [1, '2026-01-01T00:00:06.250Z', 1]);
  });
});

describe('restarts and failovers of kube-controller-manager', () => {
  it('restartControllerManager: true starts new controllers with empty memory, first monitor pass at that instant', () => {
    const { sim, log, built } = run([{ at: '12s', kind: 'restartControllerManager', failover: false } as EventSpec], { 'node-lifecycle': {} });
    sim.runUntil(s(20));
    assert.equal(built.length, 2);
    assert.ok(log.includes('node-lifecycle start fresh 2026-01-01T00:00:12.000Z'), log.join('\n'));
    const wakes = log.filter((l) => l.includes('wake'));
    assert.deepEqual(wakes.slice(-3), [
      'node-lifecycle wake 2026-01-01T00:00:10.000Z pass=2',
      'node-lifecycle wake 2026-01-01T00:00:12.000Z pass=3',
      'node-lifecycle wake 2026-01-01T00:00:17.000Z pass=4',
    ]);
    assert.equal(built[0].log.filter((l) => l.includes('wake')).length, 3, 'the old instance is never woken again');
    assert.equal(sim.trace.at(0)!.action, 'ControllerManagerRestarted');
  });

  it('restartControllerManager: {failover: true} decides nothing until leaderElectLeaseDuration has passed', () => {
    const { sim, log } = run([{ at: '12s', kind: 'restartControllerManager', failover: true } as EventSpec], { 'node-lifecycle': {} });
    sim.runUntil(s(20));
    assert.equal(log.filter((l) => l.includes('wake')).length, 3);
    const ex = sim.explain('Node/a');
    assert.ok(
      ex.whyNot.some((w) => w.check.rule.includes('not leading') && w.wouldFireAt === '2026-01-01T00:00:27.000Z'),
      JSON.stringify(ex.whyNot),
    );
    sim.runUntil(s(32));
    assert.ok(log.includes('node-lifecycle start fresh 2026-01-01T00:00:27.000Z'));
    assert.deepEqual(log.filter((l) => l.includes('wake')).slice(-2), [
      'node-lifecycle wake 2026-01-01T00:00:27.000Z pass=3',
      'node-lifecycle wake 2026-01-01T00:00:32.000Z pass=4',
    ]);
    const restarts = sim.trace.filter((d) => d.action === 'ControllerManagerRestarted');
    assert.equal(restarts.length, 2);
    assert.deepEqual(restarts[1].causes, [restarts[0].seq]);
  });
});

describe('injected API faults', () => {
  it('fails the next N calls of that verb and resource, each an ApiCallFailed of the calling controller citing the fail: event', () => {
    const results: boolean[] = [];
    const { sim } = run([{ at: '1s', kind: 'fail', verb: 'create', resource: 'pods', count: 2 } as EventSpec], {
      replicaset: {
        wakes: [s(2), s(3), s(4)],
        onWake: (host) => {
          results.push(host.apiCall('replicaset', 'delete', 'pods', 'Pod/default/x'));
          results.push(host.apiCall('replicaset', 'create', 'pods', 'ReplicaSet/default/web'));
        },
      },
    });
    sim.runUntil(s(5));
    assert.deepEqual(results, [true, false, true, false, true, true]);
    const failed = sim.trace.filter((d) => d.action === 'ApiCallFailed');
    assert.equal(failed.length, 2);
    assert.ok(failed.every((d) => d.controller === 'replicaset' && d.causes[0] === 1 && d.object === 'ReplicaSet/default/web'));
    assert.equal(sim.trace.at(0)!.action, 'FaultInjected');
  });
});

describe('determinism and stepping back', () => {
  const events: EventSpec[] = [
    { at: '10s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec,
    { at: '33s', kind: 'taint', target: { nodes: ['b'] }, taint: { key: 'x', effect: 'NoExecute' } } as EventSpec,
    { at: '61s', kind: 'condition', target: { nodes: ['b'] }, condition: { type: 'Ready', status: 'False' } } as EventSpec,
    { at: '80s', kind: 'kubelet', action: 'start', target: { nodes: ['a'] } } as EventSpec,
  ];
  // a fake that takes a decision at every monitor pass and keeps a counter in its memory
  const deciding = () => ({
    'node-lifecycle': {
      onWake: (host: Parameters<NonNullable<Parameters<typeof fakeFactory>[0]['node-lifecycle']>['onWake'] & {}>[0], self: FakeController) => {
        const a = host.cluster.nodes.get('a')!;
        host.decide({
          controller: 'node-lifecycle',
          action: 'MonitorPass',
          object: 'Node/a',
          summary: `pass ${self.counter}: Ready heartbeat ${a.conditions.find((c) => c.type === 'Ready')!.lastHeartbeatTime}`,
          because: [],
          source: 'test',
        });
      },
    },
  });

  it('gives byte-identical trace JSON for the same input', () => {
    const one = run(events, deciding());
    const two = run(events, deciding());
    one.sim.runUntil(s(120));
    two.sim.runUntil(s(120));
    assert.ok(one.sim.trace.length > 20);
    assert.equal(traceToJsonLines(one.sim.trace), traceToJsonLines(two.sim.trace));
    assert.equal(JSON.stringify(one.sim.state()), JSON.stringify(two.sim.state()));
  });

  it('goToPass backwards gives the same state and trace as a fresh run to that pass', () => {
    const { sim } = createSimWith(events, deciding(), 3);
    sim.runUntil(s(120));
    sim.goToPass(7);
    const fresh = createSimWith(events, deciding(), 3).sim;
    fresh.goToPass(7);
    assert.equal(sim.pass, 7);
    assert.equal(sim.now, s(35));
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
    assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()));
    // and forwards again to where it was, identically
    sim.goToPass(20);
    fresh.goToPass(20);
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace));
    assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()));
    // back before the first checkpoint boundary
    sim.goToPass(1);
    const fresh1 = createSimWith(events, deciding(), 3).sim;
    fresh1.goToPass(1);
    assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh1.trace));
  });
});

function createSimWith(events: EventSpec[], scripts: Parameters<typeof fakeFactory>[0], checkpointEvery: number) {
  const log: string[] = [];
  const sim = createSimulation(scenarioOf({ objects: [node('a'), node('b'), pod('default', 'p1', 'a')], version: '1.31', events }), {
    controllerFactory: fakeFactory(scripts, log),
    checkpointEvery,
  });
  return { sim, log };
}

/** A simulation at pass 10 handed pass 11 by `from` (which steps there from pass 9 and keeps its checkpoints), as the panel's run-ahead hands a pass over. */
function handedPass11<S extends SimulationImpl>(from: S, make: () => S): S {
  from.goToPass(9);
  from.step(true);
  from.step(true);
  void from.checkpointPasses;
  const to = make();
  to.goToPass(9);
  to.step(true);
  let left: boolean | undefined;
  while ((left = to.handOffSlice(from, 11, () => true)) === true);
  assert.equal(left, false, 'handed off');
  return to;
}

describe("the simulation's own problems, once per run, after a step back and a hand-off", () => {
  // a fake that still has work due at `at` after every wake then: the instant gives up after MAX_ROUNDS
  const livelocked = (...at: number[]) => ({
    replicaset: {
      wakes: at.map(s),
      onWake: (host: { now: number }, self: FakeController) => {
        if (at.some((x) => s(x) === host.now)) self.wakes.unshift(host.now);
      },
    },
  });
  const codes = (sim: { problems: readonly { code: string; message: string }[] }) =>
    sim.problems.filter((p) => p.code === 'controller-livelock').map((p) => p.message);
  const cases: { name: string; at: number[]; go: (make: () => SimulationImpl) => SimulationImpl }[] = [
    {
      name: 'a livelock after the checkpoint, stepped back before and run over again',
      at: [52],
      go: (make) => {
        const sim = make();
        sim.goToPass(14);
        sim.goToPass(6);
        sim.goToPass(14);
        return sim;
      },
    },
    {
      name: 'a pass with a livelock handed off, then a second livelock',
      at: [52, 62],
      go: (make) => {
        const from = make();
        const to = handedPass11(from, make);
        to.goToPass(14);
        return to;
      },
    },
  ];
  for (const c of cases)
    it(`${c.name}: reported as a fresh run reports it`, () => {
      // one scenario for both simulations: a hand-off is between runs of the same snapshot
      const scenario = scenarioOf({ objects: [node('a'), node('b'), pod('default', 'p1', 'a')], version: '1.31', events: [] });
      const make = () => createSimulation(scenario, { controllerFactory: fakeFactory(livelocked(...c.at)), checkpointEvery: 2 });
      const fresh = make();
      fresh.goToPass(14);
      assert.equal(codes(fresh).length, 1, 'the fresh run reports the first livelock only');
      assert.deepEqual(codes(c.go(make)), codes(fresh));
    });
});

describe('the horizon warning, once per run, after a step back and a hand-off', () => {
  // an empty cluster with a monitor pass every 100 hours: the year's horizon is 88 passes away
  const text =
    'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\nstartTime: "2026-01-01T00:00:00Z"\nobjects: []\ncontrollerManager:\n  nodeMonitorPeriod: 100h\n  nodeMonitorGracePeriod: 200h\n';
  const warnings = (sim: { problems: readonly { code: string }[] }) => sim.problems.filter((p) => p.code === 'beyond-horizon').length;
  const cases: { name: string; go: (make: () => SimulationImpl) => SimulationImpl }[] = [
    {
      name: 'run past the horizon, reset, and run past it again',
      go: (make) => {
        const sim = make();
        sim.runUntil(Infinity);
        sim.reset();
        sim.runUntil(Infinity);
        return sim;
      },
    },
    {
      name: 'handed a pass of a run that went past the horizon, then run past it',
      go: (make) => {
        const from = make();
        from.runUntil(Infinity);
        const to = handedPass11(from, make);
        to.runUntil(Infinity);
        return to;
      },
    },
  ];
  for (const c of cases)
    it(`${c.name}: warned once, as a fresh run is`, () => {
      const scenario = parseScenario(text, 's.yaml').scenario;
      const make = () => createSimulation(scenario) as SimulationImpl;
      const fresh = make();
      fresh.runUntil(Infinity);
      assert.equal(warnings(fresh), 1);
      assert.equal(warnings(c.go(make)), 1);
    });
});
