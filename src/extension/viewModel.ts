/**
 * What the webview draws, built from the simulation, and the delta between two
 * such views: only what changed per step crosses to the webview (5,000 nodes,
 * 150,000 pods). Read from the live typed records (`Simulation.cluster`) when
 * the simulation offers them, else from the exported state (spec 2.2). Pure:
 * no vscode, testable with plain data.
 */
import type { Simulation, StateView } from '../engine/simulation/api';
import { usesTaintBasedEvictions } from '../engine/config/resolve';
import type { ClusterState } from '../engine/model/cluster';
import type { KObject } from '../engine/model/types';
import type { Decision } from '../engine/trace/decision';
import { zoneKeyOfLabels } from '../engine/model/zones';
import { taintText } from '../engine/model/tolerations';
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

/** `Zone/KEY` as the trace names zones (spec 2.1), from a node's labels. */
export function zoneOfLabels(labels: Record<string, unknown>): string {
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') strings[k] = v;
  return `Zone/${zoneKeyOfLabels(strings)}`;
}

/**
 * Pending taint-based evictions as the taint-eviction controller scheduled
 * them: the latest PodEvictionScheduled of each pod (its `details.deadline`)
 * unless a PodEvictionCancelled or PodEvicted came after it. Incremental: it
 * reads only the decisions added since the last call, and starts again when
 * the trace was cut back (stepping back).
 */
export class EvictionIndex {
  private readonly pending = new Map<string, { at: string; node: string }>();
  private seen = 0;
  private lastSeq = 0;

  update(trace: readonly Decision[]): Map<string, { at: string; node: string }> {
    const cut = this.seen > trace.length || (this.seen > 0 && trace[this.seen - 1]?.seq !== this.lastSeq);
    if (cut) {
      this.pending.clear();
      this.seen = 0;
    }
    for (let i = this.seen; i < trace.length; i++) {
      const d = trace[i];
      if (d.action === 'PodEvictionScheduled') {
        const deadline = str(d.details?.deadline);
        if (deadline) this.pending.set(d.object, { at: deadline, node: str(d.details?.node) });
      } else if (d.action === 'PodEvictionCancelled' || d.action === 'PodEvicted') {
        this.pending.delete(d.object);
      }
    }
    this.seen = trace.length;
    this.lastSeq = trace.length ? trace[trace.length - 1].seq : 0;
    return this.pending;
  }
}

/**
 * The pod-eviction path (1.12 and whenever taint-based evictions are off):
 * the node lifecycle controller deletes a node's pods itself, once
 * podEvictionTimeout has passed and the zone's queue releases the node. The
 * countdown of each pod on a not-Ready node is when the controller's own
 * "why not" says that will happen (DaemonSet pods are never deleted).
 * Only not-Ready nodes are asked, and at most `limit` of them per view.
 */
export function podEvictionPathDeadlines(
  sim: Pick<Simulation, 'config' | 'behaviour' | 'explain'> & { cluster?: ClusterState },
  limit = 500,
): Map<string, { at: string; node: string }> {
  const out = new Map<string, { at: string; node: string }>();
  const cluster = sim.cluster;
  if (!cluster || usesTaintBasedEvictions(sim.config, sim.behaviour)) return out;
  let asked = 0;
  for (const n of cluster.nodes.values()) {
    if (n.conditions.find((c) => c.type === 'Ready')?.status === 'True') continue;
    if (asked++ >= limit) break;
    const name = n.meta.name;
    const due = sim.explain(`Node/${name}`).whyNot.find((w) => w.what === `pods of Node/${name} evicted` && w.wouldFireAt)?.wouldFireAt;
    if (!due) continue;
    for (const key of cluster.podsByNode.get(name) ?? []) {
      const pod = cluster.pods.get(key);
      if (!pod || pod.meta.ownerReferences.some((o) => o.kind === 'DaemonSet' && o.controller !== false)) continue;
      out.set(`Pod/${key}`, { at: due, node: name });
    }
  }
  return out;
}

function withEviction(item: PodItem, evictions: ReadonlyMap<string, { at: string; node: string }>): PodItem {
  const e = evictions.get(item.ref);
  if (e && (!e.node || e.node === item.node)) item.evictionAt = e.at;
  return item;
}

/** From the live records: no export, no copies of the objects. */
export function buildClusterViewFromRecords(cluster: ClusterState, evictions: ReadonlyMap<string, { at: string; node: string }> = new Map()): ClusterView {
  const view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map() };
  for (const n of cluster.nodes.values()) {
    const ready = n.conditions.find((c) => c.type === 'Ready');
    const ref = `Node/${n.meta.name}`;
    view.nodes.set(ref, {
      ref,
      name: n.meta.name,
      zone: zoneOfLabels(n.meta.labels),
      ready: ready ? ready.status : 'None',
      taints: n.taints.map(taintText),
      unschedulable: n.unschedulable,
    });
  }
  for (const p of cluster.pods.values()) {
    const ref = `Pod/${p.meta.namespace}/${p.meta.name}`;
    const owner = p.meta.ownerReferences.find((o) => o.kind === 'ReplicaSet' && o.controller !== false);
    const item: PodItem = { ref, node: p.nodeName ?? '', phase: p.phase, ready: p.conditions.some((c) => c.type === 'Ready' && c.status === 'True') };
    if (owner) item.owner = `ReplicaSet/${p.meta.namespace}/${owner.name}`;
    view.pods.set(ref, withEviction(item, evictions));
  }
  for (const r of cluster.replicaSets.values()) {
    const ref = `ReplicaSet/${r.meta.namespace}/${r.meta.name}`;
    view.replicaSets.set(ref, { ref, desired: r.replicas ?? 1, current: r.status.replicas, ready: r.status.readyReplicas });
  }
  return view;
}

/** From the exported state (a `kind: List`), for simulations that do not offer their records. */
export function buildClusterView(state: Pick<StateView, 'objects'>, evictions: ReadonlyMap<string, { at: string; node: string }> = new Map()): ClusterView {
  const view: ClusterView = { nodes: new Map(), pods: new Map(), replicaSets: new Map() };
  for (const i of arr(state.objects.items)) {
    const o = obj(i) as KObject;
    const meta = obj(o.metadata);
    const spec = obj(o.spec);
    const status = obj(o.status);
    const ns = str(meta.namespace) || 'default';
    if (o.kind === 'Node') {
      const ready = arr(status.conditions).map(obj).find((c) => c.type === 'Ready');
      const name = str(meta.name);
      view.nodes.set(`Node/${name}`, {
        ref: `Node/${name}`,
        name,
        zone: zoneOfLabels(obj(meta.labels)),
        ready: ready ? str(ready.status) || 'Unknown' : 'None',
        taints: arr(spec.taints).map(obj).map((t) => `${str(t.key)}${str(t.value) ? `=${str(t.value)}` : ''}:${str(t.effect)}`),
        unschedulable: spec.unschedulable === true,
      });
    } else if (o.kind === 'Pod') {
      const owner = arr(meta.ownerReferences).map(obj).find((r) => r.kind === 'ReplicaSet' && r.controller !== false);
      const ref = `Pod/${ns}/${str(meta.name)}`;
      const item: PodItem = {
        ref,
        node: str(spec.nodeName),
        phase: str(status.phase) || 'Pending',
        ready: arr(status.conditions).map(obj).some((c) => c.type === 'Ready' && c.status === 'True'),
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
export function diffItems<T extends { ref: string }>(prev: Map<string, T> | undefined, next: Map<string, T>, same: (a: T, b: T) => boolean = sameValue): Delta<T> {
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
