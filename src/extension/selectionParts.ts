/**
 * The selection's parts read from the engine for one object: its lineage and the machines the panel offers for it.
 * The selection's message (session.ts) and its idle warm-up (warmSelection.ts) both make them here, so that the
 * warm-up compiles the code a click runs, not a copy of it that could drift.
 */
import type { Simulation } from '../engine/simulation/api';
import { podLineage } from '../engine/trace/lineage';
import { machinesForSelection } from './machinesAtPosition';
import { machinesMessage } from './machineGraph';

/** `owner`: a pod's ReplicaSet as the panel's records know it; `machineId`: the selected decision's machine, drawn first. */
export function selectionParts(sim: Simulation, object: string, owner?: string, machineId?: string) {
  const lineage = podLineage(sim.trace, object, owner);
  const seqsOf = sim.machineSeqs && ((id: string) => sim.machineSeqs!(id));
  return { ...(lineage ? { lineage } : {}), ...machinesMessage(machinesForSelection(sim, object, machineId), sim.trace, seqsOf) };
}
