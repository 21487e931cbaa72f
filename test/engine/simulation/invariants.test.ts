import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InvariantChecker } from '../../../src/engine/simulation/invariants';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario, parseScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import type { Decision } from '../../../src/engine/trace/decision';

const EXAMPLES = join(__dirname, '../../../examples');

let seq = 0;
const d = (time: string, over: Partial<Decision>): Decision =>
  ({
    seq: ++seq,
    time: `2026-01-01T00:${time}Z`,
    pass: 0,
    controller: 'node-lifecycle',
    action: 'MonitorPass',
    object: 'Node/a',
    summary: '',
    because: [],
    causes: [],
    machine: null,
    source: '',
    ...over,
  }) as Decision;
const released = (zone: string, rate: number, extra: Record<string, unknown> = {}) => [
  { rule: 'zone eviction queue released the node', values: { zone, rate, ...extra } },
];
const taint = (time: string, node: string, rate = 0.1, zone = 'Zone/z') =>
  d(time, { action: 'TaintAdded', object: `Node/${node}`, because: released(zone, rate), causes: [1] });

function violations(build: () => Decision[], burst = 500): string[] {
  seq = 0;
  const c = new InvariantChecker(burst);
  c.observe(build());
  return [...c.violations];
}

test('each invariant catches the trace that breaks it, and passes the one that keeps it', () => {
  const cases: [name: string, trace: () => Decision[], want: RegExp | null][] = [
    ['a taint without a cause', () => [d('00:00.000', {}), d('00:01.000', { action: 'TaintAdded', because: released('Zone/z', 0.1) })], /no recorded cause/],
    [
      'a cause that is not earlier',
      () => [d('00:00.000', {}), d('00:01.000', { action: 'PodEvicted', controller: 'taint-eviction', object: 'Pod/d/p', causes: [5] })],
      /not an earlier decision/,
    ],
    ['a decision back in time', () => [d('00:05.000', {}), d('00:04.000', {})], /back in time/],
    ['two taints in a zone 1 s apart at 0.1/s', () => [d('00:00.000', {}), taint('00:10.000', 'a'), taint('00:11.000', 'b')], /faster than its rate/],
    ['two taints in a zone 10 s apart at 0.1/s', () => [d('00:00.000', {}), taint('00:10.000', 'a'), taint('00:20.000', 'b')], null],
    ['two taints in different zones at once', () => [d('00:00.000', {}), taint('00:10.000', 'a', 0.1, 'Zone/x'), taint('00:10.000', 'b', 0.1, 'Zone/y')], null],
    [
      'a taint right after the limiter was swapped',
      () => [d('00:00.000', {}), taint('00:10.000', 'a'), d('00:10.500', { action: 'EvictionRateChanged', object: 'Zone/z' }), taint('00:11.000', 'b')],
      null,
    ],
    ['a first release at rate 0 (a new bucket holds one token)', () => [d('00:00.000', {}), taint('00:10.000', 'a', 0)], null],
    [
      'a release at rate 0 after a restart of the controller manager (new queues, new buckets)',
      () => [
        d('00:00.000', {}),
        taint('00:10.000', 'a', 0),
        d('01:00.000', { controller: 'world', action: 'ControllerManagerRestarted', object: 'ControllerManager/kube-controller-manager' }),
        taint('02:00.000', 'b', 0),
      ],
      null,
    ],
    ['a second release at rate 0', () => [d('00:00.000', {}), taint('00:10.000', 'a', 0), taint('05:10.000', 'b', 0)], /faster than its rate 0/],
    [
      'all the pods of one node evicted at one release (one token)',
      () => [
        d('00:00.000', {}),
        d('00:10.000', { action: 'PodEvicted', object: 'Pod/d/p1', because: released('Zone/z', 0.1, { node: 'a' }), causes: [1] }),
        d('00:10.000', { action: 'PodEvicted', object: 'Pod/d/p2', because: released('Zone/z', 0.1, { node: 'a' }), causes: [1] }),
      ],
      null,
    ],
    [
      'a pod evicted and then bound again',
      () => [
        d('00:00.000', {}),
        d('00:01.000', { controller: 'taint-eviction', action: 'PodEvicted', object: 'Pod/d/p', causes: [1] }),
        d('00:02.000', { controller: 'scheduler', action: 'PodBound', object: 'Pod/d/p' }),
      ],
      /came back/,
    ],
    [
      'a pod deleted by scale-down and created again by name',
      () => [
        d('00:00.000', {}),
        d('00:01.000', { controller: 'replicaset', action: 'PodsDeleted', object: 'ReplicaSet/d/web', details: { pods: ['web-1'] } }),
        d('00:02.000', { controller: 'replicaset', action: 'PodsCreated', object: 'ReplicaSet/d/web', details: { pods: ['web-1'] } }),
      ],
      /came back/,
    ],
    [
      'a pod evicted and then applied anew by the world',
      () => [
        d('00:00.000', {}),
        d('00:01.000', { controller: 'taint-eviction', action: 'PodEvicted', object: 'Pod/d/p', causes: [1] }),
        d('00:02.000', { controller: 'world', action: 'ObjectApplied', object: 'Pod/d/p' }),
        d('00:03.000', { controller: 'scheduler', action: 'PodBound', object: 'Pod/d/p' }),
      ],
      null,
    ],
    [
      'a sync that creates more than burstReplicas',
      () => [d('00:00.000', { controller: 'replicaset', action: 'PodsCreated', object: 'ReplicaSet/d/web', details: { pods: ['a', 'b', 'c'] } })],
      /more than burstReplicas \(2\)/,
    ],
  ];
  for (const [name, trace, want] of cases) {
    const v = violations(trace, 2);
    if (want)
      assert.ok(
        v.some((m) => want.test(m)),
        `${name}: ${v.join('; ') || 'no violation'}`,
      );
    else assert.deepEqual(v, [], name);
  }
});

test('every bundled example keeps every invariant, running forward and after a step back', () => {
  for (const f of readdirSync(EXAMPLES)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    const sim = createSimulation(loadScenario(join(EXAMPLES, f), nodeFs()), { checkInvariants: true });
    sim.runUntil(sim.startTime + 15 * 60_000_000);
    assert.ok(sim.trace.length > 0, f);
    assert.deepEqual(sim.invariants?.violations, [], f);
    if (sim.pass !== null && sim.pass > 3) {
      sim.goToPass(2);
      sim.runUntil(sim.startTime + 15 * 60_000_000);
      assert.deepEqual(sim.invariants?.violations, [], `${f} after a step back`);
    }
  }
});

test('without checking mode there is no checker', () => {
  const sim = createSimulation(loadScenario(join(EXAMPLES, 'one-node-stops.yaml'), nodeFs()));
  assert.equal(sim.invariants, undefined);
});

test('no caller can run the clock past the horizon: runUntil stops there with a warning, goToPass refuses', () => {
  // an empty cluster with a monitor pass every 100 hours: a year is 88 passes
  const text =
    'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\nstartTime: "2026-01-01T00:00:00Z"\nobjects: []\ncontrollerManager:\n  nodeMonitorPeriod: 100h\n  nodeMonitorGracePeriod: 200h\n';
  const sim = createSimulation(parseScenario(text, 's.yaml').scenario);
  const year = 366 * 86_400 * 1_000_000;
  const cases: [what: string, act: () => void][] = [
    ['runUntil 100000h', () => sim.runUntil(sim.startTime + 100_000 * 3_600_000_000)],
    ['runUntil Infinity', () => sim.runUntil(Infinity)],
    ['runUntil NaN', () => sim.runUntil(Number.NaN)],
  ];
  for (const [what, act] of cases) {
    act();
    assert.equal(sim.now, sim.startTime + year, what);
  }
  assert.equal(sim.problems.filter((p) => p.code === 'beyond-horizon').length, 1);
  assert.throws(() => sim.goToPass(2 ** 53 - 1), /beyond the simulation's horizon/);
});
