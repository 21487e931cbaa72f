/**
 * What a Kubernetes Event says about the controllers, one row per reason:
 * the reason and message as the upstream recorder call writes them, and the
 * trace action it is. Shared by `kubectl get events` (events.ts) and the
 * "Event occurred" lines the controller manager logs (klog.ts).
 *
 * Upstream (kubernetes/kubernetes):
 * - RegisteredNode, RemovingNode: pkg/controller/nodelifecycle/node_lifecycle_controller.go,
 *   `nodeutil.RecordNodeEvent(..., "RegisteredNode", "Registered Node %v in Controller")`
 *   (and "Removing Node %v from Controller"), 1.10 to today; before 1.10 pkg/controller/node.
 * - NodeNotReady on a Node from node-controller: `nodeutil.RecordNodeStatusChange(recorder, node, "NodeNotReady")`
 *   ("Node %s status is now: %s") in monitorNodeHealth, printed when Ready leaves True, in the same
 *   pass as MarkPodsNotReady.
 * - NodeNotReady on a Pod ("Node is not ready"): MarkPodsNotReady, pkg/controller/util/node/controller_utils.go
 *   (`recorder.Eventf(pod, v1.EventTypeWarning, "NodeNotReady", "Node is not ready")`), 1.9 to today.
 * - TaintManagerEviction "Marking for deletion Pod %s" / "Cancelling deletion of Pod %s":
 *   pkg/controller/nodelifecycle/scheduler/taint_manager.go (1.9–1.28),
 *   pkg/controller/tainteviction/taint_eviction.go (1.29+).
 * - NodeControllerEviction "Marking for deletion Pod %s from Node %s": DeletePods in
 *   pkg/controller/util/node/controller_utils.go, the pod-eviction path (to 1.26).
 * - SuccessfulCreate "Created pod: %v" / SuccessfulDelete "Deleted pod: %v": pkg/controller/controller_utils.go
 *   (RealPodControl), recorded on the ReplicaSet.
 * - Kubelet's NodeReady / NodeNotReady: pkg/kubelet/nodestatus/setters.go (ReadyCondition's recordEventFunc).
 */
import type { Action, ControllerName } from '../trace/decision';

export interface EventFacts {
  reason: string;
  /** the involved object's kind, namespace (may be empty) and name */
  kind: string;
  namespace: string;
  name: string;
  message: string;
  /** the reporting component (`node-controller`, `kubelet`, `taint-eviction-controller`), empty when unknown */
  component: string;
}

export type EventMeaning =
  | { decision: { controller: ControllerName; action: Action; object: string; detail?: string }; podOnNode?: { pod: string; node: string } }
  | { world: 'ready' | 'not-ready'; node: string }
  | { world: 'leader'; identity: string }
  | { world: 'scheduled'; pod: string; node: string }
  | { world: 'scaled'; replicaSet: string; replicas: number }
  | { ignored: string };

const KUBELET = new Set(['kubelet']);

const nsName = (ns: string, name: string) => (ns ? `${ns}/${name}` : name);

/** The meaning of one event, by its reason (table-driven: each row cites its upstream call above). */
export function meaningOf(e: EventFacts): EventMeaning {
  const fromKubelet = KUBELET.has(e.component);
  switch (e.reason) {
    case 'RegisteredNode':
      return e.kind === 'Node'
        ? { decision: { controller: 'node-lifecycle', action: 'NodeRegistered', object: `Node/${e.name}` } }
        : { ignored: 'RegisteredNode on a non-Node' };
    case 'RemovingNode':
      return e.kind === 'Node'
        ? { decision: { controller: 'node-lifecycle', action: 'NodeRemoved', object: `Node/${e.name}` } }
        : { ignored: 'RemovingNode on a non-Node' };
    case 'NodeNotReady':
      if (e.kind === 'Pod') return { decision: { controller: 'node-lifecycle', action: 'PodsMarkedNotReady', object: `Pod/${nsName(e.namespace, e.name)}` } };
      if (e.kind === 'Node') {
        return fromKubelet
          ? { world: 'not-ready', node: e.name }
          : { decision: { controller: 'node-lifecycle', action: 'PodsMarkedNotReady', object: `Node/${e.name}` } };
      }
      return { ignored: 'NodeNotReady on an unexpected kind' };
    case 'NodeReady':
      return e.kind === 'Node' ? { world: 'ready', node: e.name } : { ignored: 'NodeReady on a non-Node' };
    case 'TaintManagerEviction': {
      const pod = `Pod/${nsName(e.namespace, e.name)}`;
      if (/^Cancelling deletion/i.test(e.message)) return { decision: { controller: 'taint-eviction', action: 'PodEvictionCancelled', object: pod } };
      return { decision: { controller: 'taint-eviction', action: 'PodEvicted', object: pod } };
    }
    case 'NodeControllerEviction': {
      const m = /from Node (\S+?)\.?$/.exec(e.message);
      const pod = `Pod/${nsName(e.namespace, e.name)}`;
      return { decision: { controller: 'node-lifecycle', action: 'PodEvicted', object: pod }, podOnNode: m ? { pod, node: m[1] } : undefined };
    }
    case 'SuccessfulCreate':
    case 'SuccessfulDelete': {
      if (e.kind !== 'ReplicaSet') return { ignored: `${e.reason} on a ${e.kind || 'object'} (only ReplicaSets are simulated)` };
      const m = /pod: (\S+)/.exec(e.message);
      return {
        decision: {
          controller: 'replicaset',
          action: e.reason === 'SuccessfulCreate' ? 'PodsCreated' : 'PodsDeleted',
          object: `ReplicaSet/${nsName(e.namespace, e.name)}`,
          detail: m ? m[1] : undefined,
        },
      };
    }
    case 'LeaderElection': {
      const m = /^(\S+) became leader/.exec(e.message);
      if (m && /kube-controller-manager/.test(e.name)) return { world: 'leader', identity: m[1] };
      return { ignored: 'LeaderElection of another component' };
    }
    case 'Scheduled': {
      const m = /assigned (\S+) to (\S+)/.exec(e.message);
      return m ? { world: 'scheduled', pod: `Pod/${m[1]}`, node: m[2] } : { ignored: 'Scheduled without a node' };
    }
    case 'ScalingReplicaSet': {
      // deployment-controller: "Scaled up replica set %s to %d" (pkg/controller/deployment/sync.go)
      const m = /Scaled (?:up|down) replica set (\S+) (?:to|from \d+ to) (\d+)/.exec(e.message);
      return m
        ? { world: 'scaled', replicaSet: `ReplicaSet/${nsName(e.namespace, m[1])}`, replicas: Number(m[2]) }
        : { ignored: 'ScalingReplicaSet not understood' };
    }
    default:
      return { ignored: `reason ${e.reason} says nothing the simulation decides` };
  }
}
