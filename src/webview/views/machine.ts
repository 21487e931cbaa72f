/**
 * The machine view: the xstate machine of the selected node / zone /
 * ReplicaSet, drawn from the machine's own definition (MachineView.definition,
 * xstate's `machine.definition`), so the picture cannot drift from the code.
 * States are nested boxes, each listing its transitions (event → target,
 * guard, description); the current state is highlighted and the last
 * transition marked.
 */
import { el, replace } from '../dom';
import type { Store } from '../state';

export interface MachineState {
  /** dotted path from the root, '' for the root */
  path: string;
  key: string;
  states: MachineState[];
  transitions: { event: string; target: string; guard?: string; description?: string }[];
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** Reads xstate's definition (or config) shape into states and transitions; tolerant of what it does not know. */
export function readDefinition(def: unknown): MachineState {
  const root = obj(def);
  const rootId = typeof root.id === 'string' ? root.id : typeof root.key === 'string' ? root.key : '';
  const resolve = (target: unknown, parentPath: string): string => {
    // a target is '#id.path' or a relative key in JSON; a StateNode (whose id is absolute) before serialisation
    const t = typeof target === 'string' ? target : typeof obj(target).id === 'string' ? `#${obj(target).id as string}` : '';
    if (t.startsWith('#')) {
      const id = t.slice(1);
      return id === rootId ? '' : id.startsWith(`${rootId}.`) ? id.slice(rootId.length + 1) : id;
    }
    if (t.startsWith('.')) return parentPath ? `${parentPath}${t}` : t.slice(1);
    const parent = parentPath.includes('.') ? parentPath.slice(0, parentPath.lastIndexOf('.')) : '';
    return parent ? `${parent}.${t}` : t;
  };
  const walk = (node: Record<string, unknown>, path: string, key: string): MachineState => {
    const transitions: MachineState['transitions'] = [];
    for (const [event, raw] of Object.entries(obj(node.on))) {
      for (const tr of Array.isArray(raw) ? raw : [raw]) {
        const t = typeof tr === 'string' ? { target: tr } : obj(tr);
        const targets = Array.isArray(t.target) ? t.target : t.target === undefined ? [] : [t.target];
        const guard = typeof t.guard === 'string' ? t.guard : typeof obj(t.guard).type === 'string' ? (obj(t.guard).type as string) : undefined;
        for (const target of targets.length ? targets : [undefined]) {
          transitions.push({
            event,
            target: target === undefined ? '(stays)' : resolve(target, path),
            ...(guard ? { guard } : {}),
            ...(typeof t.description === 'string' ? { description: t.description } : {}),
          });
        }
      }
    }
    const states = Object.entries(obj(node.states)).map(([k, child]) => walk(obj(child), path ? `${path}.${k}` : k, k));
    return { path, key, states, transitions };
  };
  return walk(root, '', rootId);
}

/** `unknown.queued` is in `unknown` and `unknown.queued`. */
export const isActive = (statePath: string, current: string): boolean =>
  statePath !== '' && current.split(',').some((c) => c === statePath || c.startsWith(`${statePath}.`));

export class MachinePanel {
  readonly root = el('section', { id: 'machine', class: 'panel', 'aria-label': 'Machine' });
  private readonly body = el('div', { id: 'machine-body' });

  constructor(private readonly store: Store) {
    this.root.append(el('h2', null, 'Machine'), this.body);
  }

  render(): void {
    const s = this.store;
    const sel = s.selection.object;
    const m = s.machine;
    if (!m || !sel || `${sel.split('/')[0].toLowerCase()}/${sel.split('/').slice(1).join('/')}` !== m.id) {
      replace(this.body, el('p', { class: 'hint' }, 'Select a node, zone or ReplicaSet to see its machine.'));
      return;
    }
    const live = s.machines.get(m.id);
    const current = live?.state ?? m.state;
    const last = live?.lastTransition ?? m.lastTransition;
    const tree = readDefinition(m.definition);
    const box = (st: MachineState): HTMLElement => {
      const active = isActive(st.path, current);
      const atomicCurrent = current.split(',').includes(st.path);
      return el('div', { class: `state-box${active ? ' active' : ''}${atomicCurrent ? ' current' : ''}`, 'data-state': st.path || undefined } as Record<string, string | undefined>,
        st.path ? el('div', { class: 'state-name' }, st.key) : null,
        st.transitions.length
          ? el('ul', { class: 'transitions' }, ...st.transitions.map((t) => {
              const isLast = !!last && last.event === t.event && (st.path === '' || isActive(st.path, last.from)) && isActive(t.target, last.to);
              return el('li', { class: `transition${isLast ? ' last' : ''}` },
                el('span', { class: 'event' }, t.event), ' → ', el('span', { class: 'target' }, t.target),
                t.guard ? el('span', { class: 'guard' }, ` [${t.guard}]`) : null,
                t.description ? el('span', { class: 'description' }, ` ${t.description}`) : null,
                isLast ? el('span', { class: 'chip' }, 'last') : null);
            }))
          : null,
        ...st.states.map(box));
    };
    replace(this.body,
      el('p', { id: 'machine-current' }, `${m.id}: `, el('span', { class: 'state' }, current)),
      last ? el('p', { id: 'machine-last' }, 'last transition: ', `${last.from} → ${last.to} on ${last.event}`) : null,
      box(tree));
  }
}
