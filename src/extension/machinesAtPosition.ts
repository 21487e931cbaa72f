/**
 * The machines of the current position, asked of the engine at most once per
 * position and only when something is selected: at 5,000 nodes and 14,120
 * ReplicaSets one ask lists about 19,000 (the panel shows one of them).
 */
import type { MachineView, Simulation } from '../engine/simulation/api';
import { statelessMachineIds, statelessMachineView } from '../engine/controllers/nodeLifecycle/statelessMachines';

export class MachinesAtPosition {
  private at?: { sim: Simulation; now: number; decisions: number; pass: number | null; index: Map<string, MachineView | undefined> };

  /** A controller's machine, or an instance of a stateless machine, drawn in the state its last answer in the trace reached. */
  byId(sim: Simulation, id: string): MachineView | undefined {
    let at = this.at;
    if (!at || at.sim !== sim || at.now !== sim.now || at.decisions !== sim.trace.length || at.pass !== sim.pass) {
      at = this.at = { sim, now: sim.now, decisions: sim.trace.length, pass: sim.pass, index: new Map(sim.machines().map((m) => [m.id, m])) };
    }
    if (!at.index.has(id)) at.index.set(id, statelessMachineView(id, sim.trace));
    return at.index.get(id);
  }

  /**
   * The machines the panel offers for a selection, the one it draws first: the selected decision's
   * machine (the machine that decided), else the object's own; then the object's own and the stateless
   * machines that have answered about it (their instances that made no decision yet are left out).
   */
  forSelection(sim: Simulation, object: string, decided: string | undefined): MachineView[] {
    const out: MachineView[] = [];
    const add = (m: MachineView | undefined) => {
      if (m && !out.some((x) => x.id === m.id)) out.push(m);
    };
    if (decided !== undefined) add(this.byId(sim, decided));
    add(this.of(sim, object));
    for (const id of statelessMachineIds(object)) {
      const m = this.byId(sim, id);
      if (m?.lastTransition) add(m);
    }
    return out;
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
