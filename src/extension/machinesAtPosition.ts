/**
 * The machines the panel offers for a selection, asked of the Simulation API (`machine(id)`,
 * `machineIds(object)`): the engine answers for every machine, a controller's or a stateless one's,
 * and makes its list at most once per position (at 5,000 nodes and 14,120 ReplicaSets one list
 * holds about 19,000; the panel shows one of them).
 */
import type { MachineView, Simulation } from '../engine/simulation/api';

/**
 * The machines the panel offers for a selection, the one it draws first: the selected decision's
 * machine (the machine that decided), else the object's own; then the object's own and the stateless
 * machines that have answered about it (their instances that made no decision yet are left out).
 */
export function machinesForSelection(sim: Simulation, object: string, decided: string | undefined): MachineView[] {
  const out: MachineView[] = [];
  const add = (m: MachineView | undefined) => {
    if (m && !out.some((x) => x.id === m.id)) out.push(m);
  };
  if (decided !== undefined) add(sim.machine(decided));
  add(machineOf(sim, object));
  for (const id of sim.machineIds(object).stateless) {
    const m = sim.machine(id);
    if (m?.lastTransition) add(m);
  }
  return out;
}

/** An object's own machine (`node/…`, `zone/…`, `replicaset/…`), or for a pod its taint-eviction worker's. */
export function machineOf(sim: Simulation, object: string): MachineView | undefined {
  for (const id of sim.machineIds(object).own) {
    const m = sim.machine(id);
    if (m) return m;
  }
  return undefined;
}
