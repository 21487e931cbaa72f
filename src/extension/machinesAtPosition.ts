/**
 * The machines of the current position, asked of the engine at most once per
 * position and only when something is selected: at 5,000 nodes and 14,120
 * ReplicaSets one ask lists about 19,000 (the panel shows one of them).
 */
import type { MachineView, Simulation } from '../engine/simulation/api';

export class MachinesAtPosition {
  private at?: { sim: Simulation; now: number; decisions: number; pass: number | null; index: Map<string, MachineView> };

  byId(sim: Simulation, id: string): MachineView | undefined {
    let at = this.at;
    if (!at || at.sim !== sim || at.now !== sim.now || at.decisions !== sim.trace.length || at.pass !== sim.pass) {
      at = this.at = { sim, now: sim.now, decisions: sim.trace.length, pass: sim.pass, index: new Map(sim.machines().map((m) => [m.id, m])) };
    }
    return at.index.get(id);
  }

  /** An object's machine: its own (`node/…`, `zone/…`, `replicaset/…`), or for a pod its taint-eviction worker's. */
  of(sim: Simulation, ref: string): MachineView | undefined {
    const [kind, ...rest] = ref.split('/');
    const name = rest.join('/');
    const ids = kind === 'Pod' ? [`pod/${name}`, `taint-eviction/${name}`] : kind === 'ControllerManager' ? ['monitor'] : [`${kind.toLowerCase()}/${name}`];
    for (const id of ids) {
      const m = this.byId(sim, id);
      if (m) return m;
    }
    return undefined;
  }
}
