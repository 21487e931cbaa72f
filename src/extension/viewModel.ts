/**
 * What the webview draws, built from the simulation's state (spec 2.2), and
 * the delta between two such views: only what changed per step crosses to the
 * webview (5,000 nodes, 150,000 pods). Pure: no vscode, testable with plain data.
 */
import type { StateView } from '../engine/simulation/api';
import type { KObject } from '../engine/model/types';
import { formatTime, parseTimestamp, type Micros } from '../engine/model/time';
import type { Delta, NodeItem, PodItem, ReplicaSetItem } from '../protocol/webview';

export interface ClusterView {
  nodes: Map<string, NodeItem>;
  pods: Map<string, PodItem>;
  replicaSets: Map<string, ReplicaSetItem>;
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown, dflt = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);

const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];
const REGION_LABELS = ['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'];

/** `Zone/KEY` as the trace names zones (spec 2.1): `REGION/ZONE`, `ZONE`, or empty. */
export function zoneOfLabels(labels: Record<string, unknown>): string {
  const first = (keys: string[]) => keys.map((k) => str(labels[k])).find((v) => v !== '') ?? '';
  const zone = first(ZONE_LABELS);
  const region = first(REGION_LABELS);
  return `Zone/${region ? `${region}/${zone}` : zone}`;
}

export function formatTaint(t: Record<string, unknown>): string {
  const value = str(t.value);
  return `${str(t.key)}${value ? `=${value}` : ''}:${str(t.effect)}`;
}

interface RawToleration {
  key: string;
  operator: string;
  value: string;
  effect: string;
  seconds?: number;
}

/** Whether a toleration tolerates a taint: v1.Toleration.ToleratesTaint. */
export function tolerates(tol: RawToleration, taint: Record<string, unknown>): boolean {
  if (tol.effect && tol.effect !== str(taint.effect)) return false;
  if (tol.key && tol.key !== str(taint.key)) return false;
  if (tol.operator === 'Exists') return true;
  if (tol.operator === '' || tol.operator === 'Equal') return tol.value === str(taint.value);
  return false;
}

function tolerationsOf(pod: Record<string, unknown>): RawToleration[] {
  return arr(obj(pod.spec).tolerations).map((t) => {
    const o = obj(t);
    return {
      key: str(o.key),
      operator: str(o.operator),
      value: str(o.value),
      effect: str(o.effect),
      seconds: typeof o.tolerationSeconds === 'number' ? o.tolerationSeconds : undefined,
    };
  });
}

/**
 * When the taint-eviction controller deletes this pod given its node's NoExecute
 * taints (processPodOnNode): now when one is not tolerated; otherwise the taint's
 * timeAdded plus the smallest tolerationSeconds of the matching tolerations; never
 * when they all tolerate forever.
 */
export function evictionOf(pod: Record<string, unknown>, nodeTaints: Record<string, unknown>[]): Pick<PodItem, 'evictionAt' | 'evictionTaint' | 'evictNow'> {
  const noExecute = nodeTaints.filter((t) => str(t.effect) === 'NoExecute');
  if (!noExecute.length) return {};
  const tols = tolerationsOf(pod);
  let best: { at: Micros; taint: string } | undefined;
  for (const taint of noExecute) {
    const matching = tols.filter((t) => tolerates(t, taint));
    if (!matching.length) return { evictNow: true, evictionTaint: formatTaint(taint) };
    const finite = matching.filter((t) => t.seconds !== undefined).map((t) => Math.max(0, t.seconds as number));
    if (!finite.length) continue;
    const added = parseTimestamp(str(taint.timeAdded));
    if (added === undefined) continue;
    const at = added + Math.min(...finite) * 1_000_000;
    if (!best || at < best.at) best = { at, taint: formatTaint(taint) };
  }
  return best ? { evictionAt: formatTime(best.at), evictionTaint: best.taint } : {};
}

function nodeItem(o: KObject): NodeItem {
  const meta = obj(o.metadata);
  const spec = obj(o.spec);
  const ready = arr(obj(o.status).conditions).map(obj).find((c) => c.type === 'Ready');
  const name = str(meta.name);
  return {
    ref: `Node/${name}`,
    name,
    zone: zoneOfLabels(obj(meta.labels)),
    ready: ready ? str(ready.status) || 'Unknown' : 'None',
    taints: arr(spec.taints).map((t) => formatTaint(obj(t))),
    unschedulable: spec.unschedulable === true,
  };
}

function podItem(o: KObject, nodeTaints: Map<string, Record<string, unknown>[]>): PodItem {
  const meta = obj(o.metadata);
  const spec = obj(o.spec);
  const status = obj(o.status);
  const node = str(spec.nodeName);
  const owner = arr(meta.ownerReferences).map(obj).find((r) => r.kind === 'ReplicaSet' && r.controller !== false);
  const readyCond = arr(status.conditions).map(obj).find((c) => c.type === 'Ready');
  const item: PodItem = {
    ref: `Pod/${str(meta.namespace) || 'default'}/${str(meta.name)}`,
    node,
    phase: str(status.phase) || 'Pending',
    ready: readyCond?.status === 'True',
  };
  if (owner) item.owner = `ReplicaSet/${str(meta.namespace) || 'default'}/${str(owner.name)}`;
  if (node) Object.assign(item, evictionOf(o, nodeTaints.get(node) ?? []));
  return item;
}

function replicaSetItem(o: KObject): ReplicaSetItem {
  const meta = obj(o.metadata);
  const status = obj(o.status);
  return {
    ref: `ReplicaSet/${str(meta.namespace) || 'default'}/${str(meta.name)}`,
    desired: num(obj(o.spec).replicas, 1),
    current: num(status.replicas),
    ready: num(status.readyReplicas),
  };
}

export function buildClusterView(state: Pick<StateView, 'objects'>): ClusterView {
  const view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map() };
  const taints = new Map<string, Record<string, unknown>[]>();
  const items = arr(state.objects.items).map((i) => obj(i) as KObject);
  for (const o of items) {
    if (o.kind !== 'Node') continue;
    const n = nodeItem(o);
    view.nodes.set(n.ref, n);
    taints.set(n.name, arr(obj(o.spec).taints).map(obj));
  }
  for (const o of items) {
    if (o.kind === 'Pod') {
      const p = podItem(o, taints);
      view.pods.set(p.ref, p);
    } else if (o.kind === 'ReplicaSet') {
      const r = replicaSetItem(o);
      view.replicaSets.set(r.ref, r);
    }
  }
  return view;
}

/** Items of `next` that are new or differ from `prev`, and keys of `prev` that are gone. */
export function diffItems<T extends { ref: string }>(prev: Map<string, T> | undefined, next: Map<string, T>): Delta<T> {
  const upsert: T[] = [];
  const remove: string[] = [];
  for (const [key, item] of next) {
    const old = prev?.get(key);
    if (!old || !sameItem(old, item)) upsert.push(item);
  }
  if (prev) for (const key of prev.keys()) if (!next.has(key)) remove.push(key);
  return { upsert, remove };
}

function sameItem(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!sameItem((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

export function diffClusterViews(prev: ClusterView | undefined, next: ClusterView) {
  return {
    nodes: diffItems(prev?.nodes, next.nodes),
    pods: diffItems(prev?.pods, next.pods),
    replicaSets: diffItems(prev?.replicaSets, next.replicaSets),
  };
}
