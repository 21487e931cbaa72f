/**
 * The `reality:` list of a scenario: the decisions the real controllers took,
 * as `import` wrote them (or as a user wrote them by hand), each with its
 * time, action, object and evidence. Read here so the scenario parser only
 * hands the node over.
 */
import { isMap, isSeq, type Node as YamlNode } from 'yaml';
import { ACTIONS, type Action } from '../trace/decision';
import { parseTimestamp, type Micros } from '../model/time';

export interface RealityEntry {
  at: Micros;
  action: Action;
  object: string;
  detail?: string;
  controller?: string;
  evidence?: string;
  index: number;
  node?: YamlNode;
}

export type Report = (code: string, message: string, node: unknown) => void;

const ALL_ACTIONS = new Set<string>(Object.values(ACTIONS).flat());
const KEYS = new Set(['at', 'action', 'object', 'detail', 'controller', 'evidence', 'alsoIn']);

export function readReality(node: unknown, report: Report): RealityEntry[] {
  if (node === null || node === undefined) return [];
  if (!isSeq(node)) {
    report('wrong-type', 'expected reality as a list of {at, action, object, evidence}', node);
    return [];
  }
  const out: RealityEntry[] = [];
  node.items.forEach((item, index) => {
    const where = `reality ${index + 1}`;
    if (!isMap(item)) {
      report('wrong-type', `${where}: expected a mapping with at, action and object`, item);
      return;
    }
    const get = (k: string) => item.get(k, true) as YamlNode | undefined;
    for (const p of item.items) {
      const k = String((p.key as { value?: unknown })?.value ?? '');
      if (!KEYS.has(k)) report('unknown-field', `${where}: unknown field ${JSON.stringify(k)}; expected ${[...KEYS].join(', ')}`, p.key);
    }
    const text = (k: string): string | undefined => {
      const v = item.get(k);
      return typeof v === 'string' ? v : v === undefined || v === null ? undefined : String(v);
    };
    const at = parseTimestamp(text('at') ?? '');
    if (at === undefined) {
      report('bad-timestamp', `${where}: expected at: as an RFC3339 time, found ${JSON.stringify(text('at') ?? null)}`, get('at') ?? item);
      return;
    }
    const action = text('action');
    if (!action || !ALL_ACTIONS.has(action)) {
      report(
        'bad-value',
        `${where}: expected action: one of the trace's actions (TaintAdded, PodEvicted, ...), found ${JSON.stringify(action ?? null)}`,
        get('action') ?? item,
      );
      return;
    }
    const object = text('object');
    if (!object || !/^(Node|Pod|ReplicaSet|Zone)\//.test(object)) {
      report(
        'bad-reference',
        `${where}: expected object: Node/NAME, Pod/NS/NAME, ReplicaSet/NS/NAME or Zone/KEY, found ${JSON.stringify(object ?? null)}`,
        get('object') ?? item,
      );
      return;
    }
    out.push({
      at,
      action: action as Action,
      object,
      detail: text('detail'),
      controller: text('controller'),
      evidence: text('evidence'),
      index,
      node: item as unknown as YamlNode,
    });
  });
  return out;
}
