/**
 * A simulation against its scenario's `reality:`: run to the end of the
 * evidence (plus the tolerance) and compared decision by decision, with what
 * the simulated cluster and version can explain a difference by. Used by
 * `controller-stepper compare` and the panel's reality lane.
 */
import type { Simulation } from '../simulation/api';
import type { DecisionList } from '../trace/decisionLog';
import type { Duration } from '../model/time';
import { usesTaintBasedEvictions } from '../config/resolve';
import { compareDecisions, type CompareReport } from './compare';

/** Runs `sim` to the last real decision plus `tolerance` (default: nodeMonitorPeriod) and compares; undefined without `reality:`. */
export function compareWithReality(sim: Simulation, tolerance?: Duration): CompareReport | undefined {
  const reality = sim.scenario.reality;
  if (!reality?.length) return undefined;
  const tol = tolerance ?? sim.config.nodeMonitorPeriod;
  sim.runUntil(Math.max(...reality.map((r) => r.at)) + tol);
  const trace: DecisionList = sim.trace;
  const objects = new Set<string>();
  for (const l of sim.scenario.snapshot.objects) objects.add(`${l.kind}/${l.name}`);
  for (const d of trace) {
    objects.add(d.object);
    if (Array.isArray(d.details?.pods)) for (const p of d.details!.pods as string[]) objects.add(`Pod/${p}`);
  }
  const taintBased = usesTaintBasedEvictions(sim.config, sim.behaviour);
  return compareDecisions(
    trace,
    reality,
    tol,
    {
      version: sim.behaviour.version.text,
      hasObject: (ref) => objects.has(ref) || ref.startsWith('Zone/'),
      versionHas: (action, controller) => !((action === 'NodeQueuedForEviction' || (action === 'PodEvicted' && controller === 'node-lifecycle')) && taintBased),
    },
    sim.startTime,
  );
}
