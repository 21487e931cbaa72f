/**
 * What each node's bound pods request, summed by node name, as the scheduler cache counts it (the
 * non-terminal pods bound there; a terminating pod still counts until it is gone).
 *
 * The node index (nodeIndex.ts) needs these sums when it is first built, at the first placement:
 * made there, that is a walk over every pod of the cluster (150,000 at 5,000 nodes) in the middle
 * of the pass that first needs a replacement, most of that build. The binder walks every pod at its
 * start anyway, so it sums them there and keeps the sums from the announcements until the index
 * takes them over: the index is then built from one sum per node.
 */
import type { ClusterState } from '../../model/cluster';
import type { PodPhase, PodRecord } from '../../model/types';
import { emptyUsage, type Usage } from './fit';
import { podRequests, specRequests, type Requests } from './resources';
import type { PodBefore, WatchType } from '../controller';

/** The node whose usage the pod counts in: bound and not finished (a terminating pod still counts). */
export function countingNode(nodeName: string | undefined, phase: PodPhase): string | undefined {
  return nodeName && phase !== 'Succeeded' && phase !== 'Failed' ? nodeName : undefined;
}

export function addTo(u: Usage, r: Requests, sign: 1 | -1): void {
  u.milliCpu += sign * r.milliCpu;
  u.memory += sign * r.memory;
  u.nonZeroMilliCpu += sign * r.nonZeroMilliCpu;
  u.nonZeroMemory += sign * r.nonZeroMemory;
  u.pods += sign;
}

export function sameRequests(a: Requests, b: Requests): boolean {
  return a.milliCpu === b.milliCpu && a.memory === b.memory && a.nonZeroMilliCpu === b.nonZeroMilliCpu && a.nonZeroMemory === b.nonZeroMemory;
}

/**
 * Where the pod's requests count before and after the announcement, when that or what it requests
 * changed (the binder's announcements; a record replaced under its key: `reqWas`, its requests before, read from `before.raw`).
 */
export function podMove(type: WatchType, pod: PodRecord, before?: PodBefore): { was?: string; now?: string; reqWas?: Requests } | undefined {
  const was = type === 'added' ? undefined : before ? countingNode(before.nodeName, before.phase) : countingNode(pod.nodeName, pod.phase);
  const now = type === 'deleted' ? undefined : countingNode(pod.nodeName, pod.phase);
  const rawWas = before?.raw;
  const reqWas = was !== undefined && rawWas !== undefined && rawWas !== pod.raw ? specRequests(rawWas.spec) : undefined;
  if (was === now && (reqWas === undefined || sameRequests(reqWas, podRequests(pod)))) return undefined;
  return { was, now, reqWas };
}

/** A pod's requests counted on `was` before (`reqWas`, else its own), on `now` after: told to `use` as restoredMoves does. */
export function movedRequests(
  was: string | undefined,
  now: string | undefined,
  pod: PodRecord,
  reqWas: Requests | undefined,
  use: (node: string, req: Requests, sign: 1 | -1) => void,
): void {
  const req = podRequests(pod);
  const from = reqWas ?? req;
  if (was === now && from === req) return;
  if (was !== undefined) use(was, from, -1);
  if (now !== undefined) use(now, req, 1);
}

/**
 * The usage moves a restore made: `pods` are the pods put back, each with the record it replaced
 * (undefined: none); `use` is told each node's requests to take away (-1) and to add (1).
 */
export function restoredMoves(
  cluster: ClusterState,
  pods: ReadonlyMap<string, PodRecord | undefined>,
  use: (node: string, req: Requests, sign: 1 | -1) => void,
): void {
  for (const [key, was] of pods) {
    const now = cluster.pods.get(key);
    const from = was === undefined ? undefined : countingNode(was.nodeName, was.phase);
    const to = now === undefined ? undefined : countingNode(now.nodeName, now.phase);
    if (from === undefined && to === undefined) continue;
    // requests are read from the spec, which a copy shares
    if (from === to && was!.raw.spec === now!.raw.spec) continue;
    const before = from === undefined ? undefined : podRequests(was!);
    const after = to === undefined ? undefined : podRequests(now!);
    if (from === to && sameRequests(before!, after!)) continue;
    if (from !== undefined) use(from, before!, -1);
    if (to !== undefined) use(to, after!, 1);
  }
}

/** The sums by node name (of any name a pod is bound to: a node that is not there yet counts too). */
export class NodeUsage {
  private readonly sums = new Map<string, Usage>();

  /** The sums of every pod of `cluster` (tests; the binder counts the pods of its own walk). */
  static of(cluster: ClusterState): NodeUsage {
    const u = new NodeUsage();
    for (const pod of cluster.pods.values()) u.count(pod);
    return u;
  }

  /** A pod of the cluster, counted once. */
  count(pod: PodRecord): void {
    const name = countingNode(pod.nodeName, pod.phase);
    if (name !== undefined) this.use(name, podRequests(pod), 1);
  }

  /** As NodeIndex.podMoved: the pod's requests counted on `was` before (`reqWas`, else its own), on `now` after (undefined: nowhere). */
  moved(was: string | undefined, now: string | undefined, pod: PodRecord, reqWas?: Requests): void {
    movedRequests(was, now, pod, reqWas, (node, req, sign) => this.use(node, req, sign));
  }

  /** These sums made those of `cluster` after a restore (see restoredMoves). */
  restoredTo(cluster: ClusterState, pods: ReadonlyMap<string, PodRecord | undefined>): NodeUsage {
    restoredMoves(cluster, pods, (node, req, sign) => this.use(node, req, sign));
    return this;
  }

  /** A copy of the node's sum (a node no pod counts in: zero). */
  of(name: string): Usage {
    const u = this.sums.get(name);
    // written out, not spread: the same shape as emptyUsage's, which the index's heaps read
    return u === undefined
      ? emptyUsage()
      : { milliCpu: u.milliCpu, memory: u.memory, nonZeroMilliCpu: u.nonZeroMilliCpu, nonZeroMemory: u.nonZeroMemory, pods: u.pods };
  }

  private use(name: string, req: Requests, sign: 1 | -1): void {
    let u = this.sums.get(name);
    if (u === undefined) this.sums.set(name, (u = emptyUsage()));
    addTo(u, req, sign);
  }
}
