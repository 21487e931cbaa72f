/**
 * What the webview draws, as items built from the simulation, and the
 * difference between two such views: only what changed per step crosses to
 * the webview (5,000 nodes, 150,000 pods). Read from the live typed records
 * (`Simulation.cluster`) when the simulation offers them, else from the
 * exported state (spec 2.2). Pure: no vscode, testable with plain data.
 * Kept from step to step: recordsView.ts (the items of the live records),
 * countdowns.ts (pods' eviction times), podCounts.ts (each node's pod counts).
 */
import type { StateView } from '../engine/simulation/api';
import type { ClusterState } from '../engine/model/cluster';
import type { KObject, NodeRecord, OwnerReference, PodRecord, ReplicaSetRecord } from '../engine/model/types';
import { zoneKeyOfLabels } from '../engine/model/zones';
import { taintText } from '../engine/model/tolerations';
import type { Delta, NodeItem, PodItem, ReplicaSetItem } from '../protocol/webview';

export interface ClusterView {
  nodes: Map<string, NodeItem>;
  pods: Map<string, PodItem>;
  replicaSets: Map<string, ReplicaSetItem>;
  /** the pods by node name (`''`: pending), when the view keeps them (RecordsView) */
  podsByNode?: ReadonlyMap<string, ReadonlyMap<string, PodItem>>;
}

/** The pods bound to a node, from the view's index when it has one (the tree asks on every step for each expanded node). */
/** The node's pods by ref: the same list whatever path (steps, steps back) the kept view took to this position. */
export function podsOnNode(view: ClusterView, node: string): PodItem[] {
  const pods = view.podsByNode ? [...(view.podsByNode.get(node)?.values() ?? [])] : [...view.pods.values()].filter((p) => p.node === node);
  return pods.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown, dflt = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);

/** `Zone/KEY` as the trace names zones (spec 2.1), from a node's labels. */
export function zoneOfLabels(labels: Record<string, unknown>): string {
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') strings[k] = v;
  return `Zone/${zoneKeyOfLabels(strings)}`;
}

/** Where a pod's eviction countdown comes from: a map, or two read as one (see Session). */
export interface EvictionLookup {
  get(ref: string): { at: string; node: string } | undefined;
  /** 0 when there is none: then no pod is looked up (most steps of a healthy cluster) */
  readonly size: number;
}

export const NO_EVICTIONS: EvictionLookup = new Map();

export function evictionOf(ref: string, node: string, evictions: EvictionLookup): string | undefined {
  if (evictions.size === 0) return undefined;
  const e = evictions.get(ref);
  return e && (!e.node || e.node === node) ? e.at : undefined;
}

function withEviction(item: PodItem, evictions: EvictionLookup): PodItem {
  const at = evictionOf(item.ref, item.node, evictions);
  if (at !== undefined) item.evictionAt = at;
  return item;
}

export function readyOfNode(n: NodeRecord): string {
  for (const c of n.conditions) if (c.type === 'Ready') return c.status;
  return 'None';
}

export function readyOfPod(p: PodRecord): boolean {
  for (const c of p.conditions) if (c.type === 'Ready' && c.status === 'True') return true;
  return false;
}

export function replicaSetOwner(p: PodRecord): OwnerReference | undefined {
  for (const o of p.meta.ownerReferences) if (o.kind === 'ReplicaSet' && o.controller !== false) return o;
  return undefined;
}

export function nodeItem(n: NodeRecord, ref = `Node/${n.meta.name}`, zone = zoneOfLabels(n.meta.labels)): NodeItem {
  return { ref, name: n.meta.name, zone, ready: readyOfNode(n), taints: n.taints.map(taintText), unschedulable: n.unschedulable };
}

export function podItem(p: PodRecord, evictions: EvictionLookup, ref = `Pod/${p.meta.namespace}/${p.meta.name}`): PodItem {
  const owner = replicaSetOwner(p);
  const item: PodItem = { ref, node: p.nodeName ?? '', phase: p.phase, ready: readyOfPod(p) };
  if (owner) item.owner = `ReplicaSet/${p.meta.namespace}/${owner.name}`;
  return withEviction(item, evictions);
}

export function replicaSetItem(r: ReplicaSetRecord, ref = `ReplicaSet/${r.meta.namespace}/${r.meta.name}`): ReplicaSetItem {
  return { ref, desired: r.replicas ?? 1, current: r.status.replicas, ready: r.status.readyReplicas };
}

/** From the live records: no export, no copies of the objects. */
export function buildClusterViewFromRecords(cluster: ClusterState, evictions: EvictionLookup = NO_EVICTIONS): ClusterView {
  const view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map() };
  for (const n of cluster.nodes.values()) {
    const item = nodeItem(n);
    view.nodes.set(item.ref, item);
  }
  for (const p of cluster.pods.values()) {
    const item = podItem(p, evictions);
    view.pods.set(item.ref, item);
  }
  for (const r of cluster.replicaSets.values()) {
    const item = replicaSetItem(r);
    view.replicaSets.set(item.ref, item);
  }
  return view;
}

export type ClusterDelta = { nodes: Delta<NodeItem>; pods: Delta<PodItem>; replicaSets: Delta<ReplicaSetItem> };

/** From the exported state (a `kind: List`), for simulations that do not offer their records. */
export function buildClusterView(state: Pick<StateView, 'objects'>, evictions: EvictionLookup = NO_EVICTIONS): ClusterView {
  const view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map() };
  for (const i of arr(state.objects.items)) {
    const o = obj(i) as KObject;
    const meta = obj(o.metadata);
    const spec = obj(o.spec);
    const status = obj(o.status);
    const ns = str(meta.namespace) || 'default';
    if (o.kind === 'Node') {
      const ready = arr(status.conditions)
        .map(obj)
        .find((c) => c.type === 'Ready');
      const name = str(meta.name);
      view.nodes.set(`Node/${name}`, {
        ref: `Node/${name}`,
        name,
        zone: zoneOfLabels(obj(meta.labels)),
        ready: ready ? str(ready.status) || 'Unknown' : 'None',
        taints: arr(spec.taints)
          .map(obj)
          .map((t) => `${str(t.key)}${str(t.value) ? `=${str(t.value)}` : ''}:${str(t.effect)}`),
        unschedulable: spec.unschedulable === true,
      });
    } else if (o.kind === 'Pod') {
      const owner = arr(meta.ownerReferences)
        .map(obj)
        .find((r) => r.kind === 'ReplicaSet' && r.controller !== false);
      const ref = `Pod/${ns}/${str(meta.name)}`;
      const item: PodItem = {
        ref,
        node: str(spec.nodeName),
        phase: str(status.phase) || 'Pending',
        ready: arr(status.conditions)
          .map(obj)
          .some((c) => c.type === 'Ready' && c.status === 'True'),
      };
      if (owner) item.owner = `ReplicaSet/${ns}/${str(owner.name)}`;
      view.pods.set(ref, withEviction(item, evictions));
    } else if (o.kind === 'ReplicaSet') {
      const ref = `ReplicaSet/${ns}/${str(meta.name)}`;
      view.replicaSets.set(ref, { ref, desired: num(spec.replicas, 1), current: num(status.replicas), ready: num(status.readyReplicas) });
    }
  }
  return view;
}

/** Items of `next` that are new or differ from `prev` (by `same`), and keys of `prev` that are gone. */
export function diffItems<T extends { ref: string }>(
  prev: Map<string, T> | undefined,
  next: Map<string, T>,
  same: (a: T, b: T) => boolean = sameValue,
): Delta<T> {
  const upsert: T[] = [];
  const remove: string[] = [];
  for (const [key, item] of next) {
    const old = prev?.get(key);
    if (!old || !same(old, item)) upsert.push(item);
  }
  if (prev) for (const key of prev.keys()) if (!next.has(key)) remove.push(key);
  return { upsert, remove };
}

/** Structural equality of plain data (the fallback comparison). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

// Field-by-field comparisons for the big collections: a step compares 150,000 pods.
const sameStrings = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
export const sameNode = (a: NodeItem, b: NodeItem): boolean =>
  a.ready === b.ready && a.unschedulable === b.unschedulable && a.zone === b.zone && a.name === b.name && sameStrings(a.taints, b.taints);
export const samePod = (a: PodItem, b: PodItem): boolean =>
  a.phase === b.phase && a.ready === b.ready && a.node === b.node && a.evictionAt === b.evictionAt && a.owner === b.owner;
export const sameReplicaSet = (a: ReplicaSetItem, b: ReplicaSetItem): boolean => a.desired === b.desired && a.current === b.current && a.ready === b.ready;

export function diffClusterViews(prev: ClusterView | undefined, next: ClusterView) {
  return {
    nodes: diffItems(prev?.nodes, next.nodes, sameNode),
    pods: diffItems(prev?.pods, next.pods, samePod),
    replicaSets: diffItems(prev?.replicaSets, next.replicaSets, sameReplicaSet),
  };
}
