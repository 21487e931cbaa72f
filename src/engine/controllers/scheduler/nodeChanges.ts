/**
 * Whether a node update may make a waiting pod fit: the comparisons behind kube-scheduler's
 * nodeSchedulingPropertiesChanged (pkg/scheduler/eventhandlers.go), made on every node update
 * (every heartbeat of every node is one here), so they avoid writing text where they can.
 */
import type { NodeRecord, Taint } from '../../model/types';
import { nodeAllocatable } from './resources';

/**
 * `JSON.stringify(a) === JSON.stringify(b)` for two lists of flat objects,
 * without writing the text when the lists hold the same fields and values in
 * the same order (every heartbeat of every node is a node update here).
 */
export function sameJson(a: readonly object[], b: readonly object[]): boolean {
  if (a === b) return true;
  if (a.length === b.length) {
    let same = true;
    for (let i = 0; same && i < a.length; i++) same = shallowSame(a[i] as Record<string, unknown>, b[i] as Record<string, unknown>);
    if (same) return true;
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

export function shallowSame(x: Record<string, unknown>, y: Record<string, unknown>): boolean {
  if (x === y) return true;
  const kx = Object.keys(x),
    ky = Object.keys(y);
  if (kx.length !== ky.length) return false;
  for (let i = 0; i < kx.length; i++) if (kx[i] !== ky[i] || x[kx[i]] !== y[kx[i]]) return false;
  return true;
}

export function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  if (shallowSame(a, b)) return true;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (b[k] !== a[k] || !(k in b)) return false;
  return true;
}

/** Some Ready condition of the list is True (`conditions.some(Ready && True)`). */
export function anyReadyTrue(conditions: readonly { type: string; status: string }[]): boolean {
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === 'Ready' && conditions[i].status === 'True') return true;
  return false;
}

export function allocatableKey(node: NodeRecord): string {
  const a = nodeAllocatable(node);
  return a.reported ? `${a.milliCpu}/${a.memory}/${a.pods}` : '-';
}

/** The same NoSchedule and NoExecute taints, in the same order (PreferNoSchedule is not filtered on). */
export function sameFilterTaints(a: readonly Taint[], b: readonly Taint[]): boolean {
  if (a === b) return true;
  let i = 0,
    j = 0;
  for (;;) {
    while (i < a.length && a[i]!.effect === 'PreferNoSchedule') i++;
    while (j < b.length && b[j]!.effect === 'PreferNoSchedule') j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    const x = a[i]!,
      y = b[j]!;
    if (x.key !== y.key || (x.value ?? '') !== (y.value ?? '') || x.effect !== y.effect) return false;
    i++;
    j++;
  }
}

/** Each node's allocatableKey, by name: what a node update's allocatable is compared with (NodeBefore does not carry it). */
export function allocatableOf(nodes: ReadonlyMap<string, NodeRecord>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, node] of nodes) out.set(name, allocatableKey(node));
  return out;
}

/**
 * allocatableOf the nodes a restore left, from `live`, the map of the binder that ran until then (every live node's key:
 * each node update sets it): the nodes the restore did not put back (`putBack`) are the live ones, so only those it put
 * back are read again. A Reset at 5,000 nodes read every node's allocatable, 3-40 ms by the collector's state. `check`:
 * compared with allocatableOf, a difference throws.
 */
export function allocatableRestored(
  live: Map<string, string>,
  nodes: ReadonlyMap<string, NodeRecord>,
  putBack: ReadonlyMap<string, unknown>,
  check: boolean,
): Map<string, string> {
  for (const name of putBack.keys()) {
    const node = nodes.get(name);
    if (node === undefined) live.delete(name);
    else live.set(name, allocatableKey(node));
  }
  if (check) {
    const all = allocatableOf(nodes);
    if (all.size !== live.size || [...all].some(([name, key]) => live.get(name) !== key))
      throw new Error("binder: the allocatable taken over on a restore differs from the restored nodes'");
  }
  return live;
}
