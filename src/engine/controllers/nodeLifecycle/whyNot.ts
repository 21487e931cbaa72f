/**
 * The node lifecycle controller's "why not (yet)", as data (trace/whyNot.ts):
 * for a node, a pod or a zone, the checks on the way to the outcome in the
 * order monitorNodeHealth, processTaintBaseEviction /
 * processNoTaintBaseEviction, handleDisruption and the zone queues make them,
 * each the answer of the guard the controller decides with (guards.ts, the
 * machines' guards by name, the token bucket), and the first pass at which the
 * false one would hold if nothing else changed.
 *
 * A time is named as certain (`wouldFireAt`) only when nothing but the
 * timeline could change it: the node's kubelet is stopped, and no other node
 * of its zone goes Unknown before it (which could change the zone's state and
 * its rate). Otherwise the time is conditional, and says on what.
 *
 * A node's outcomes are explained in whyNotStatusUnknown.ts (Ready goes
 * Unknown) and whyNotTaintedOrEvicted.ts (tainted NoExecute, pods evicted);
 * this file adds a pod's (DeletePods) and a zone's, and the entry points.
 */
import type { ControllerHost } from '../controllerHost';
import { formatTime } from '../../model/time';
import type { NodeRecord, ObjectRef, PodRecord } from '../../model/types';
import { zoneRef } from '../../model/types';
import { zoneTitle } from '../../model/zoneTitle';
import { whyNotFrom, type WhyNot, type WhyNotCheck, type WhyNotOutcome, type WhyNotWorld } from '../../trace/whyNot';
export type { WhyNotWorld } from '../../trace/whyNot';
import { daemonSetOf, deletePodsDeletes } from './guards';
import { FILE, type NodeLifecycleMemory } from './whyNotStatusUnknown';
import { TaintedOrEvictedWhyNot } from './whyNotTaintedOrEvicted';

class NodeWhyNot extends TaintedOrEvictedWhyNot {
  // ---------------------------------------------------------------- a pod (no taint-based evictions)

  /** DeletePods: when the controller would delete this pod. */
  podDeleted(pod: PodRecord, node: NodeRecord): WhyNot | undefined {
    const ref: ObjectRef = `Pod/${pod.meta.namespace}/${pod.meta.name}`;
    const what = 'deletion by the node lifecycle controller (pod eviction, DeletePods)';
    const o: WhyNotOutcome = 'PodDeletedByPodEviction';
    const ds = daemonSetOf(this.host.cluster, pod);
    const path: WhyNotCheck[] = [
      {
        guard: 'deletePodsDeletes',
        upstream: 'DeletePods (pkg/controller/util/node/controller_utils.go)',
        holds: deletePodsDeletes(this.host.cluster, pod, node.meta.name),
        rule: ds
          ? 'DeletePods skips pods managed by a DaemonSet: the pod is never deleted by this path (its status gets NodeLost only)'
          : pod.meta.deletionTimestamp !== undefined
            ? 'DeletePods skips pods already being deleted'
            : 'the pod is not managed by a DaemonSet and not being deleted',
        values: {
          node: node.meta.name,
          ...(ds ? { daemonSet: `${pod.meta.namespace}/${ds}` } : {}),
          ...(pod.meta.deletionTimestamp !== undefined ? { deletionTimestamp: formatTime(pod.meta.deletionTimestamp) } : {}),
        },
      },
    ];
    if (!path[0].holds) {
      // without the DaemonSet the pod goes with the node's other pods: only when they go
      const nodeGoes = !this.podsEvicted(node) || !!this.podsEvicted(node)?.wouldFireAt;
      return whyNotFrom(what, o, ref, path, {
        never: true,
        ...(ds && nodeGoes
          ? { counterfactual: { kind: 'dropLabels', pod: ref, description: `the pod without labels, so that DaemonSet ${ds} does not select it` } }
          : {}),
      });
    }
    const via = this.podsEvicted(node);
    if (!via) return undefined;
    path.push({ ...(via.blocking ?? via.path![via.path!.length - 1]), rule: `${via.what}: ${via.blocking?.rule ?? ''}` });
    return whyNotFrom(what, o, ref, path, {
      via,
      ...(via.never ? { never: true } : {}),
      ...(via.wouldFireAt ? { wouldFireAt: via.wouldFireAt } : {}),
      ...(via.conditional ? { conditional: via.conditional } : {}),
      ...(via.counterfactual ? { counterfactual: via.counterfactual } : {}),
    });
  }

  // ---------------------------------------------------------------- a zone

  zone(zone: string): WhyNot {
    const ref: ObjectRef = zoneRef(zone);
    // `Zone/ tainting` for the nodes without zone labels would read as a name cut short
    const what = `${zoneTitle(ref)} ${this.c._rules.taintBasedEvictions ? 'tainting' : 'evicting'}`;
    const path: WhyNotCheck[] = [this.enabledCheck(), this.masterCheck()];
    if (!path[0].holds || !path[1].holds) return whyNotFrom(what, 'ZoneEvicting', ref, path);
    const state = this.c.zoneStateOf(zone);
    path.push({
      guard: 'zoneState',
      upstream: `handleDisruption (${FILE})`,
      holds: state !== undefined,
      rule: 'the controller has a state for this zone',
      unmet: 'the controller has no state for this zone (no node in it takes part in disruption checks)',
    });
    if (!state) return whyNotFrom(what, 'ZoneEvicting', ref, path);
    const q = this.c.queueOf(zone);
    path.push({
      guard: 'queued',
      upstream: `doNoExecuteTaintingPass / doEvictionPass (${FILE})`,
      holds: !!q?.length,
      rule: 'a node is queued in the zone',
      unmet: 'nothing is queued in the zone',
      values: { zoneState: state, queued: q?.length ?? 0 },
    });
    if (!q?.length) return whyNotFrom(what, 'ZoneEvicting', ref, path);
    const rc = this.rateCheck(zone);
    path.push(rc.check);
    if (!rc.check.holds)
      return whyNotFrom(what, 'ZoneEvicting', ref, path, { never: true, ...(rc.counterfactual ? { counterfactual: rc.counterfactual } : {}) });
    const next = this.c.nextTokenOf(zone, this.host.now);
    path.push({
      guard: 'wouldAllow',
      upstream: 'RateLimitedTimedQueue.Try (scheduler/rate_limited_queue.go)',
      holds: false,
      rule: 'the zone releases one node per token',
      values: { zoneState: state, queued: q.length, ...(next !== undefined ? { nextToken: formatTime(next) } : {}) },
    });
    return whyNotFrom(
      what,
      'ZoneEvicting',
      ref,
      path,
      next !== undefined ? { conditional: { if: 'nothing else in the zone changes', at: formatTime(next) } } : {},
    );
  }
}

/** The node lifecycle controller's why-nots for an object (Node, Pod, Zone). */
export function explainWhyNot(c: NodeLifecycleMemory, host: ControllerHost, object: ObjectRef, world?: WhyNotWorld): WhyNot[] {
  const w = new NodeWhyNot(c, host, world);
  if (!c.enabled(host)) {
    return [
      {
        what: 'node lifecycle controller decisions',
        check: { rule: 'the nodelifecycle controller is disabled by --controllers', values: { controllers: [...host.config.controllers].sort() } },
        never: true,
      },
    ];
  }
  if (object.startsWith('Zone/')) return [w.zone(object.slice(5))];
  if (object.startsWith('Node/')) {
    const node = host.cluster.nodes.get(object.slice(5));
    if (!node) return [];
    const out: WhyNot[] = [];
    const unknown = w.statusUnknown(node);
    if (unknown) out.push(unknown);
    const ahead = c._rules.taintBasedEvictions ? w.tainted(node) : w.podsEvicted(node);
    if (ahead) out.push(ahead);
    return out;
  }
  if (object.startsWith('Pod/')) {
    if (c._rules.taintBasedEvictions) return [];
    const [, ns, name] = object.split('/');
    const pod = host.cluster.pods.get(`${ns}/${name}`);
    const node = pod?.nodeName ? host.cluster.nodes.get(pod.nodeName) : undefined;
    if (!pod || !node) return [];
    const d = w.podDeleted(pod, node);
    return d ? [d] : [];
  }
  return [];
}

/** One outcome about a node, for another controller's why-not to chain to (a pod waits for its node's taint). */
export function nodeWhyNot(
  c: NodeLifecycleMemory,
  host: ControllerHost,
  node: string,
  outcome: 'NodeTaintedNoExecute' | 'NodePodsEvicted',
  world?: WhyNotWorld,
): WhyNot | undefined {
  const n = host.cluster.nodes.get(node);
  if (!n) return undefined;
  const w = new NodeWhyNot(c, host, world);
  return outcome === 'NodeTaintedNoExecute' ? w.tainted(n) : w.podsEvicted(n);
}

/** The pod-eviction path's time for a node (podEvictionDeadlines): certain or conditional. */
export function podEvictionTime(c: NodeLifecycleMemory, host: ControllerHost, node: string, world?: WhyNotWorld): string | undefined {
  const w = nodeWhyNot(c, host, node, 'NodePodsEvicted', world);
  return w?.wouldFireAt ?? w?.conditional?.at;
}
