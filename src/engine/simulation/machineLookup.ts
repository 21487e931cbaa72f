/**
 * The Simulation's answer to "the machine with this id" and "the machines of this object", for
 * every machine: the controllers' own (node health, zone, monitor, ReplicaSet, taint eviction
 * worker) and the stateless ones (controllers/statelessMachines.ts), drawn in the state their last
 * answer in the trace reached. The extension asks here and never reaches into a controller.
 *
 * Why an index per position: the controllers list their machines all at once (about 19,000 at
 * 5,000 nodes and 14,120 ReplicaSets), and the panel asks for a few ids each time something is
 * selected; the list is made at most once per position (time, decisions, pass).
 */
import type { ObjectRef } from '../model/types';
import type { DecisionList } from '../trace/decisionLog';
import type { MachineView } from '../trace/views';
import { lastOfMachine, statelessMachineIds, statelessMachineView } from '../controllers/statelessMachines';
import { podEvictionMachineDefinition, podEvictionTransition } from '../controllers/taintEviction/machine';

/** What the lookup reads of a simulation. */
export interface MachineSource {
  readonly now: number;
  readonly pass: number | null;
  readonly trace: DecisionList;
  /** the seqs of the decisions whose machine is `id` (SimHost.byMachine): read instead of the whole trace */
  seqsOf?(id: string): readonly number[];
  machines(): MachineView[];
  /** the controllers, when each answers for one id (`machine`): then no list is made */
  readonly controllers?: readonly { machine?(id: string): MachineView | undefined }[];
}

export class MachineLookup {
  /** `one`: every controller answers for one id (no list is made) */
  private at?: { now: number; decisions: number; pass: number | null; one: boolean; index: Map<string, MachineView | undefined> };

  machine(sim: MachineSource, id: string): MachineView | undefined {
    let at = this.at;
    if (!at || at.now !== sim.now || at.decisions !== sim.trace.length || at.pass !== sim.pass) {
      // a step back or a step with something selected asked again at each position: the list cost 50-140 ms at 5,000 nodes
      const one = sim.controllers?.every((c) => c.machine !== undefined) ?? false;
      at = this.at = { now: sim.now, decisions: sim.trace.length, pass: sim.pass, one, index: one ? new Map() : new Map(sim.machines().map((m) => [m.id, m])) };
    }
    if (!at.index.has(id))
      at.index.set(
        id,
        (at.one ? controllerMachine(sim.controllers!, id) : undefined) ??
          statelessMachineView(id, sim.trace, sim.seqsOf?.(id)) ??
          endedWorkerView(id, sim.trace, sim.seqsOf?.(id)),
      );
    return at.index.get(id);
  }
}

/**
 * A pod's taint eviction worker whose work ended: the controller drops it (upstream's TimedWorker is done once the pod
 * is deleted, or the work cancelled or given up), so the PodEvicted decision's Machine tab had nothing to draw while
 * its Why named the machine. Drawn in the state its last answer reached: `evicted` (final) after PodEvicted, whose
 * decision records the transition that started the delete, the DELETED that followed it in the same instant.
 */
function endedWorkerView(id: string, trace: DecisionList, seqs: readonly number[] | undefined): MachineView | undefined {
  if (!id.startsWith('taint-eviction/')) return undefined;
  const d = lastOfMachine(id, trace, seqs);
  if (d?.machine) {
    const deleted = d.action === 'PodEvicted' ? podEvictionTransition('deleting', 'DELETED', id) : null;
    const last = deleted ?? d.machine;
    return {
      id,
      state: last.to,
      definition: podEvictionMachineDefinition,
      lastTransition: { id, from: last.from, to: last.to, event: last.event, seq: d.seq },
    };
  }
  return undefined;
}

/** What the list would hold under `id` (the last controller's, as the list's map keeps the last), asked of each controller. */
function controllerMachine(cs: NonNullable<MachineSource['controllers']>, id: string): MachineView | undefined {
  for (let i = cs.length - 1; i >= 0; i--) {
    const m = cs[i].machine!(id);
    if (m) return m;
  }
  return undefined;
}

/**
 * The ids of the machines that may answer about an object: its own (`node/…`, `zone/…`,
 * `replicaset/…`, `monitor` for the controller manager; for a pod its taint eviction worker's), and
 * the stateless machines' (whose instances always have a view: `observed` before any answer).
 */
export function machineIdsOf(ref: ObjectRef): { own: string[]; stateless: string[] } {
  const slash = ref.indexOf('/');
  const kind = ref.slice(0, slash);
  const name = ref.slice(slash + 1);
  const own = kind === 'Pod' ? [`pod/${name}`, `taint-eviction/${name}`] : kind === 'ControllerManager' ? ['monitor'] : [`${kind.toLowerCase()}/${name}`];
  return { own, stateless: statelessMachineIds(ref) };
}
