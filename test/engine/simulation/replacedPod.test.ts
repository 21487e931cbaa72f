/**
 * A pod replaced by `apply` is announced with what the controllers last saw of it (its informer's
 * old object), straight or after a step back (fuzz seed 1, case 5894: a pod bound to node-a1,
 * applied again with `spec: {}` after a step back, was announced as if it had never been bound, so
 * the binder did not move the pods waiting for room (AssignedPodDelete) and the trace differed).
 * The host read the old node from its pod index after it had already moved the pod there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import type { EventSpec } from '../../helpers/scenario';
import { node, pod, scenarioOf } from '../../helpers/scenario';

interface Case {
  name: string;
  /** the pod in the snapshot (bound to a), or created by apply at 10 s (bound to a) */
  from: 'snapshot' | 'apply';
  /** its node when applied again at 30 s */
  to: string | undefined;
}

const cases: Case[] = [
  { name: 'a snapshot pod applied again unbound', from: 'snapshot', to: undefined },
  { name: 'a snapshot pod applied again on another node', from: 'snapshot', to: 'b' },
  { name: 'an applied pod applied again unbound (case 5894)', from: 'apply', to: undefined },
  { name: 'an applied pod applied again on another node', from: 'apply', to: 'b' },
];

for (const c of cases) {
  test(`replaced by apply: ${c.name} is announced as bound to a, straight and after a step back`, () => {
    const seen: string[] = [];
    const factory: ControllerFactory = (name, ctx) => {
      const ctl = defaultControllerFactory(name, ctx);
      if (name === 'scheduler' && ctl?.onPodEvent) {
        const on = ctl.onPodEvent.bind(ctl);
        ctl.onPodEvent = (host, type, p, before) => {
          if (p.meta.name === 'p1' && type === 'updated' && host.now >= sim.startTime + 30_000_000) seen.push(`${before?.nodeName} -> ${p.nodeName}`);
          on(host, type, p, before);
        };
      }
      return ctl;
    };
    const events: EventSpec[] = [
      ...(c.from === 'apply' ? [{ at: '10s', kind: 'apply', object: pod('default', 'p1', 'a') } as EventSpec] : []),
      { at: '30s', kind: 'apply', object: pod('default', 'p1', c.to) } as EventSpec,
    ];
    const objects = [node('a'), node('b'), ...(c.from === 'snapshot' ? [pod('default', 'p1', 'a')] : [])];
    const sim = createSimulation(scenarioOf({ objects, version: '1.31', events }), { controllerFactory: factory, checkpointEvery: 2 });
    const end = sim.startTime + 60_000_000;
    sim.runUntil(end);
    const trace = traceToJsonLines(sim.trace);
    const straight = seen.splice(0);
    // the apply's announcement comes first (the binder may bind the pod again after it)
    assert.equal(straight[0], `a -> ${c.to}`);
    // back to a pass between the two applies, then forward again
    sim.goToPass(4);
    assert.ok(sim.now > sim.startTime + 10_000_000 && sim.now < sim.startTime + 30_000_000, `pass 4 is at ${sim.now - sim.startTime} µs`);
    sim.runUntil(end);
    assert.deepEqual(seen, straight);
    assert.equal(traceToJsonLines(sim.trace), trace);
  });
}
