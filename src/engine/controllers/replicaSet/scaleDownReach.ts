/**
 * What a scale-down's sync will read of the pods it ranks (getPodsToDelete reads each pod as the sync
 * finds it), when the scale comes later: the pods as they are, unless the timeline's events on the way
 * reach them or their node is failing. An event that reaches none of the pods ranked (a kubelet, a
 * condition or a taint of another node, another pod) changes nothing the ranking reads; a kubelet stop
 * of a pod's node makes it not ready at the pass its node goes Unknown, and the pod is read as it will
 * be then (WhyNotWorld.podAt) when it is not deleted by the sync; anything else (an apply, a fault, a
 * restart, an event about a ranked pod or its node) is not read, and no time is named.
 */
import type { ControllerHost } from '../controllerHost';
import type { PodRecord } from '../../model/types';
import { formatTime, type Micros } from '../../model/time';
import type { WhyNotWorld } from '../../trace/whyNot';
import { nodeFailing } from './nodeFails';

/** Why a pod's rank can change before then for a reason the world does not read ahead (not bound, not started), or undefined. */
function podUnstarted(pod: PodRecord, ref: string): string | undefined {
  if (!pod.nodeName) return `${ref} is not bound yet`;
  if (pod.phase !== 'Running') return `${ref} is ${pod.phase}`;
  return undefined;
}

/** Why a pod's rank can change before then (not bound, not started, its node failing), or undefined when it cannot. */
export function podUnsettled(host: ControllerHost, pod: PodRecord, world: WhyNotWorld | undefined): string | undefined {
  const ref = `Pod/${pod.meta.namespace}/${pod.meta.name}`;
  const unstarted = podUnstarted(pod, ref);
  if (unstarted) return unstarted;
  const node = host.cluster.nodes.get(pod.nodeName!);
  const why = node ? nodeFailing(node, world, false) : 'not in the cluster';
  return why ? `the node of ${ref} (${pod.nodeName}) is failing: ${why}` : undefined;
}

/** The pods as the sync at `until` reads them (by uid, those that differ from now), and the instants of the events read on the way. */
export type Reach = { view: Map<string, PodRecord>; instants: Micros[]; gone: Set<string> } | { why: string };

/**
 * The pods ranked (`pods`, and `related` whose count on a node ranks them) as a sync at `until` will
 * read them, through the timeline's events from now up to that instant; or why they cannot be read.
 */
export function readReach(
  host: ControllerHost,
  world: WhyNotWorld | undefined,
  pods: readonly PodRecord[],
  related: readonly PodRecord[],
  until: Micros,
): Reach {
  const events = world?.eventsUntil?.(until) ?? [];
  const own = new Set(pods.map((p) => p.meta.uid));
  const others = related.filter((p) => !own.has(p.meta.uid));
  const refOf = (p: PodRecord) => `Pod/${p.meta.namespace}/${p.meta.name}`;
  const ranked = new Set([...pods, ...others].map(refOf));
  const nodesOf = (list: readonly PodRecord[]) => new Set(list.map((p) => p.nodeName).filter((n): n is string => n !== undefined));
  const ownNodes = nodesOf(pods);
  const relatedNodes = nodesOf(others);
  const stopped = new Set<string>();
  const byRef = new Map(pods.map((p) => [refOf(p), p]));
  const gone = new Set<string>();
  for (const e of events) {
    const at = formatTime(e.at);
    if (e.kind === 'other') return { why: `the timeline's ${e.what} event at ${at} comes first: what it changes is not read ahead` };
    // a pod the timeline deletes at the sync's own instant is gone when it ranks (earlier, a replacement may be made first)
    if (e.kind === 'pod' && e.what === 'delete' && e.at === until && byRef.has(e.pod!)) {
      gone.add(byRef.get(e.pod!)!.meta.uid);
      continue;
    }
    if (e.kind === 'pod' && ranked.has(e.pod!)) return { why: `the timeline's ${e.what} event about ${e.pod} at ${at} comes first` };
    for (const n of e.nodes ?? []) {
      if (relatedNodes.has(n) || (e.kind === 'node' && ownNodes.has(n)))
        return { why: `the timeline's ${e.what} event about Node/${n} at ${at} comes first, and pods it ranks run there` };
      if (ownNodes.has(n)) stopped.add(n);
    }
  }
  for (const p of others) {
    const why = podUnsettled(host, p, world);
    if (why) return { why };
  }
  const view = new Map<string, PodRecord>();
  for (const p of pods) {
    if (gone.has(p.meta.uid)) continue;
    const ref = refOf(p);
    const unstarted = podUnstarted(p, ref);
    if (unstarted) return { why: unstarted };
    const node = host.cluster.nodes.get(p.nodeName!);
    const failing = node ? nodeFailing(node, world, false) : 'not in the cluster';
    if (!failing && !stopped.has(p.nodeName!)) continue;
    const then = node && world?.podAt?.(p, until);
    if (!then)
      return {
        why: `the node of ${ref} (${p.nodeName}) is failing: ${failing ?? 'the timeline stops its kubelet'}, and the pod may be deleted by ${formatTime(until)} or its time is not certain`,
      };
    if (then !== p) view.set(p.meta.uid, then);
  }
  return { view, instants: [...new Set(events.map((e) => e.at))], gone };
}
