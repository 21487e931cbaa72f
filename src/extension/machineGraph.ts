/**
 * The statechart the machine view draws, read from the machine's own xstate
 * definition (v5 `machine.definition`: the `machine.root` state nodes as
 * plain data, targets as `#id` paths), so the picture cannot drift from the
 * code. Also: which decisions of the trace took each transition.
 */
import type { Decision } from '../engine/trace/decision';
import type { DecisionList } from '../engine/trace/decisionLog';
import type { MachineGraph, MachineGraphState, MachineGraphTransition, SelectedMachine } from '../protocol/webview';
import type { MachineView } from '../engine/simulation/api';

export const MAX_TAKEN = 100;

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const STATE_TYPES = new Set(['atomic', 'compound', 'parallel', 'final', 'history']);

/** Reads a definition (or a plain config) into nested states and a flat list of transitions; tolerant of what it does not know. */
export function machineGraph(def: unknown): MachineGraph {
  const root = obj(def);
  const rootId = typeof root.id === 'string' ? root.id : typeof root.key === 'string' ? root.key : '';
  const resolve = (target: unknown, sourcePath: string): string => {
    // '#id.path' (definitions), a StateNode (whose id is absolute), '.child' or a sibling key (configs)
    const t = typeof target === 'string' ? target : typeof obj(target).id === 'string' ? `#${obj(target).id as string}` : '';
    if (t.startsWith('#')) {
      const id = t.slice(1);
      return id === rootId ? '' : id.startsWith(`${rootId}.`) ? id.slice(rootId.length + 1) : id;
    }
    if (t.startsWith('.')) return sourcePath ? `${sourcePath}${t}` : t.slice(1);
    const parent = sourcePath.includes('.') ? sourcePath.slice(0, sourcePath.lastIndexOf('.')) : '';
    return parent ? `${parent}.${t}` : t;
  };
  const transitions: MachineGraphTransition[] = [];
  const walk = (node: Record<string, unknown>, path: string, key: string): MachineGraphState => {
    for (const [event, raw] of Object.entries(obj(node.on))) {
      for (const tr of Array.isArray(raw) ? raw : [raw]) {
        const t = typeof tr === 'string' ? { target: tr } : obj(tr);
        const targets = Array.isArray(t.target) ? t.target : t.target === undefined ? [] : [t.target];
        const guard = typeof t.guard === 'string' ? t.guard : typeof obj(t.guard).type === 'string' ? (obj(t.guard).type as string) : undefined;
        for (const target of targets.length ? targets : [undefined]) {
          transitions.push({
            id: transitions.length,
            source: path,
            target: target === undefined ? '' : resolve(target, path),
            event,
            ...(guard ? { guard } : {}),
            ...(typeof t.description === 'string' ? { description: t.description } : {}),
            taken: [],
            takenCount: 0,
          });
        }
      }
    }
    const children = Object.entries(obj(node.states)).map(([k, child]) => walk(obj(child), path ? `${path}.${k}` : k, k));
    const type =
      typeof node.type === 'string' && STATE_TYPES.has(node.type) ? (node.type as MachineGraphState['type']) : children.length ? 'compound' : 'atomic';
    const initialTarget = obj(node.initial).target;
    const first = Array.isArray(initialTarget) ? initialTarget[0] : typeof node.initial === 'string' ? `.${node.initial}` : undefined;
    const initial = type === 'compound' && first !== undefined ? resolve(first, path) : undefined;
    return { path, key, type, ...(initial ? { initial } : {}), children };
  };
  return { root: walk(root, '', rootId), transitions };
}

/** `unknown` is active in `unknown.queued`; a parallel state lists its regions' states comma-separated. */
export const isActive = (statePath: string, current: string): boolean =>
  statePath === '' || current.split(',').some((c) => c === statePath || c.startsWith(`${statePath}.`));

/** Did this recorded transition take that declared one? Same event, from inside its source, into its target. */
export function took(t: Pick<MachineGraphTransition, 'source' | 'target' | 'event'>, m: NonNullable<Decision['machine']>): boolean {
  if (m.event !== t.event || !isActive(t.source, m.from)) return false;
  return t.target === '' ? m.from === m.to : isActive(t.target, m.to);
}

const graphs = new WeakMap<object, MachineGraph>();

/** The graph of a definition, built once per definition object (a machine's definition is shared by all its actors). */
function graphOf(def: unknown): MachineGraph {
  if (typeof def !== 'object' || def === null) return machineGraph(def);
  let g = graphs.get(def);
  if (!g) graphs.set(def, (g = machineGraph(def)));
  return g;
}

/** The selected machine for the webview: plain data, with the decisions in `trace` that took each transition. */
export function selectedMachine(m: MachineView, trace: DecisionList): SelectedMachine {
  return selectedMachines([m], trace)[0]!;
}

/**
 * `selectedMachine` of each, in one walk of the trace, or with `seqsOf` (each machine's decisions: Simulation.machineSeqs)
 * only the machines' own decisions.
 */
export function selectedMachines(ms: readonly MachineView[], trace: DecisionList, seqsOf?: (id: string) => readonly number[]): SelectedMachine[] {
  const byId = new Map<string, MachineGraphTransition[]>();
  const graphs = ms.map((m) => {
    const g = graphOf(m.definition);
    const transitions = g.transitions.map((t) => ({ ...t, taken: [] as MachineGraphTransition['taken'], takenCount: 0 }));
    byId.set(m.id, transitions);
    return { root: g.root, transitions };
  });
  const count = (d: Decision, mt: NonNullable<Decision['machine']>, transitions: MachineGraphTransition[]) => {
    for (const t of transitions) {
      if (!took(t, mt)) continue;
      t.takenCount++;
      if (t.taken.length < MAX_TAKEN) t.taken.push({ seq: d.seq, time: d.time, action: d.action, object: d.object, from: mt.from, to: mt.to });
    }
  };
  if (seqsOf) {
    // each machine's transitions see its decisions in trace order, as in the walk
    for (const [id, transitions] of byId)
      for (const seq of seqsOf(id)) {
        const d = trace.at(seq - 1)!;
        count(d, d.machine!, transitions);
      }
  } else
    for (const d of trace) {
      const mt = d.machine;
      const transitions = mt && byId.get(mt.id);
      if (transitions) count(d, mt, transitions);
    }
  return ms.map((m, i) => {
    const last = m.lastTransition
      ? {
          id: m.lastTransition.id,
          from: m.lastTransition.from,
          to: m.lastTransition.to,
          event: m.lastTransition.event,
          ...(m.lastTransition.seq !== undefined ? { seq: m.lastTransition.seq } : {}),
        }
      : undefined;
    return { id: m.id, state: m.state, ...(last ? { lastTransition: last } : {}), graph: graphs[i]! };
  });
}

/**
 * The selection message's machines: the first drawn (`machine`), the others offered beside it
 * (`otherMachines`). Plain data only: a definition may hold functions (guards, actions) that no
 * message can carry.
 */
export function machinesMessage(
  ms: readonly MachineView[],
  trace: DecisionList,
  seqsOf?: (id: string) => readonly number[],
): { machine?: SelectedMachine; otherMachines?: SelectedMachine[] } {
  if (!ms.length) return {};
  const [machine, ...others] = selectedMachines(ms, trace, seqsOf);
  return others.length ? { machine, otherMachines: others } : { machine };
}
