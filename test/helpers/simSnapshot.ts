/**
 * Everything a pass leaves that a view or a later pass reads, as one string: the restore and hand-off tests compare a
 * simulation that went back and forth with a fresh run's at the same pass.
 */
import type { SimulationImpl } from '../../src/engine/simulation/simulation';

export function simSnapshot(sim: SimulationImpl): string {
  const machines = sim.machines().map((m) => ({ id: m.id, state: m.state, lastTransition: m.lastTransition }));
  // the pod index too: the controllers read a node's pods there, in its order
  const podsByNode = [...sim.cluster.podsByNode].map(([node, keys]) => [node, [...keys]]);
  return JSON.stringify({ pass: sim.pass, now: sim.now, state: sim.state(), podsByNode, machines, problems: sim.problems });
}
