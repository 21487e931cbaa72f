/**
 * Renders a simulated trace as the evidence a real cluster would leave: the
 * controller manager's klog lines (structured, 1.21+ wording), `kubectl get
 * events -o yaml` (core v1), and an audit log (RequestResponse). Used only by
 * the round-trip tests: simulate, render, import, compare -> full agreement.
 * The wording of each line is the upstream one the importers cite.
 */
import { stringify } from 'yaml';
import type { Decision } from '../../../src/engine/trace/decision';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';
import type { Scenario } from '../../../src/engine/snapshot/types';
import type { DecisionList } from '../../../src/engine/trace/decisionLog';

const pods = (d: Decision): string[] => (Array.isArray(d.details?.pods) ? (d.details!.pods as string[]) : []);
const taintOf = (d: Decision) => {
  const t = /taint (\S+)/.exec(d.summary)![1];
  const colon = t.lastIndexOf(':');
  const eq = t.indexOf('=');
  return {
    key: eq >= 0 && eq < colon ? t.slice(0, eq) : t.slice(0, colon),
    value: eq >= 0 && eq < colon ? t.slice(eq + 1, colon) : undefined,
    effect: t.slice(colon + 1),
  };
};
const nsName = (ref: string) => ref.split('/').slice(1).join('/');
const name = (ref: string) => ref.split('/').at(-1)!;

function klogTime(time: string): string {
  const t = formatTime(parseTimestamp(time)!);
  return `I${t.slice(5, 7)}${t.slice(8, 10)} ${t.slice(11, 23)}000`;
}

/** One klog line per decision a real controller manager logs at --v=4. */
export function renderKlog(trace: DecisionList): string {
  const lines: string[] = [];
  const log = (d: Decision, caller: string, msg: string, kv: Record<string, string | number>) => {
    const pairs = Object.entries(kv)
      .map(([k, v]) => ` ${k}=${typeof v === 'number' ? v : JSON.stringify(v)}`)
      .join('');
    lines.push(`${klogTime(d.time)}       1 ${caller}] ${JSON.stringify(msg)}${pairs}`);
  };
  for (const d of trace) {
    const zone = d.object.slice(5);
    switch (d.action) {
      case 'ZoneStateChanged': {
        const parts = zone.split('/');
        log(d, 'node_lifecycle_controller.go:1067', 'Controller detected that zone is now in new state', {
          zone: parts.length === 2 ? `${parts[0]}:\\x00:${parts[1]}` : zone,
          newState: /is now (\w+)/.exec(d.summary)![1],
        });
        break;
      }
      case 'NodeQueuedForTainting':
        log(d, 'node_lifecycle_controller.go:790', 'Node is unresponsive. Adding it to the Taint queue', { node: name(d.object), timeStamp: d.time });
        break;
      case 'NodeQueuedForEviction':
        log(d, 'node_lifecycle_controller.go:820', 'Node is unresponsive. Adding Pods on Node to eviction queue', { node: name(d.object) });
        break;
      case 'TaintAdded': {
        const t = taintOf(d);
        lines.push(
          `${klogTime(d.time)}       1 controller_utils.go:200] "Added taint to node" taint=[{"key":"${t.key}",${t.value ? `"value":"${t.value}",` : ''}"effect":"${t.effect}"}] node="${name(d.object)}"`,
        );
        break;
      }
      case 'NodeStatusUnknown':
        log(d, 'node_lifecycle_controller.go:1200', "Node hasn't been updated", { node: name(d.object), duration: '40s', conditionType: 'Ready' });
        break;
      case 'PodsMarkedNotReady':
        for (const p of pods(d)) log(d, 'controller_utils.go:129', 'Updating ready status of pod to false', { pod: p });
        break;
      case 'PodEvicted':
        if (d.controller === 'taint-eviction')
          log(d, 'taint_eviction.go:109', 'Deleting pod', { controller: 'taint-eviction-controller', pod: nsName(d.object) });
        else
          log(d, 'event.go:307', 'Event occurred', {
            object: nsName(d.object),
            kind: 'Pod',
            apiVersion: 'v1',
            type: 'Normal',
            reason: 'NodeControllerEviction',
            message: `Marking for deletion Pod ${name(d.object)} from Node ${String(d.details?.node ?? '')}`,
          });
        break;
      case 'PodsCreated':
        log(d, 'replica_set.go:548', 'Too few replicas', { replicaSet: nsName(d.object), need: 0, creating: Math.max(1, pods(d).length) });
        break;
      case 'PodsDeleted':
        log(d, 'replica_set.go:583', 'Too many replicas', { replicaSet: nsName(d.object), need: 0, deleting: Math.max(1, pods(d).length) });
        break;
      case 'NodeRegistered':
        log(d, 'event.go:307', 'Event occurred', {
          object: name(d.object),
          kind: 'Node',
          apiVersion: 'v1',
          type: 'Normal',
          reason: 'RegisteredNode',
          message: `Node ${name(d.object)} event: Registered Node ${name(d.object)} in Controller`,
        });
        break;
      default:
        break;
    }
  }
  return lines.join('\n') + '\n';
}

/** `kubectl get events -A -o yaml`: the Events the controllers record (core v1). */
export function renderEvents(trace: DecisionList): string {
  const items: Record<string, unknown>[] = [];
  const event = (d: Decision, kind: string, ref: string, reason: string, message: string, component: string) => {
    const parts = ref.split('/');
    const ns = kind === 'Node' ? '' : parts[1];
    const t = `${d.time.slice(0, 19)}Z`;
    items.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${parts.at(-1)}.${items.length}`, namespace: ns || 'default' },
      involvedObject: { kind, ...(ns ? { namespace: ns } : {}), name: parts.at(-1) },
      reason,
      message,
      source: { component },
      firstTimestamp: t,
      lastTimestamp: t,
      count: 1,
      type: 'Normal',
    });
  };
  for (const d of trace) {
    switch (d.action) {
      case 'NodeRegistered':
        event(d, 'Node', d.object, 'RegisteredNode', `Node ${name(d.object)} event: Registered Node ${name(d.object)} in Controller`, 'node-controller');
        break;
      case 'NodeRemoved':
        event(d, 'Node', d.object, 'RemovingNode', `Node ${name(d.object)} event: Removing Node ${name(d.object)} from Controller`, 'node-controller');
        break;
      case 'PodsMarkedNotReady':
        for (const p of pods(d)) event(d, 'Pod', `Pod/${p}`, 'NodeNotReady', 'Node is not ready', 'node-controller');
        break;
      case 'PodEvicted':
        if (d.controller === 'taint-eviction')
          event(d, 'Pod', d.object, 'TaintManagerEviction', `Marking for deletion Pod ${nsName(d.object)}`, 'taint-eviction-controller');
        else
          event(
            d,
            'Pod',
            d.object,
            'NodeControllerEviction',
            `Marking for deletion Pod ${name(d.object)} from Node ${String(d.details?.node ?? '')}`,
            'node-controller',
          );
        break;
      case 'PodEvictionCancelled':
        event(d, 'Pod', d.object, 'TaintManagerEviction', `Cancelling deletion of Pod ${nsName(d.object)}`, 'taint-eviction-controller');
        break;
      case 'PodsCreated':
        for (const p of pods(d)) event(d, 'ReplicaSet', d.object, 'SuccessfulCreate', `Created pod: ${p}`, 'replicaset-controller');
        break;
      case 'PodsDeleted':
        for (const p of pods(d)) event(d, 'ReplicaSet', d.object, 'SuccessfulDelete', `Deleted pod: ${name(p)}`, 'replicaset-controller');
        break;
      default:
        break;
    }
  }
  return stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } });
}

/** An audit log at RequestResponse level: the controllers' writes, one JSON object a line. */
export function renderAudit(trace: DecisionList, scenario: Scenario): string {
  const lines: string[] = [];
  let id = 0;
  const taints = new Map<string, { key: string; value?: string; effect: string }[]>();
  const write = (time: string, verb: string, user: string, ref: Record<string, string>, body?: Record<string, unknown>) => {
    lines.push(
      JSON.stringify({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'RequestResponse',
        auditID: `id-${++id}`,
        stage: 'ResponseComplete',
        verb,
        user: { username: user },
        userAgent: 'kube-controller-manager/v1.31.0 (linux/amd64)',
        objectRef: { apiVersion: 'v1', ...ref },
        responseStatus: { code: 200 },
        ...(body ? { requestObject: body, responseObject: body } : {}),
        requestReceivedTimestamp: time,
        stageTimestamp: time,
      }),
    );
  };
  const nodeController = 'system:serviceaccount:kube-system:node-controller';
  // the taints the nodes start with, written once by their owner before anything happens
  for (const [n, rec] of scenario.snapshot.cluster.nodes) {
    const list = rec.taints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect }));
    taints.set(n, list);
    write('2000-01-01T00:00:00.000000Z', 'update', 'kubernetes-admin', { resource: 'nodes', name: n }, { metadata: { name: n }, spec: { taints: list } });
  }
  for (const d of trace) {
    const t = `${d.time.slice(0, 23)}000Z`;
    switch (d.action) {
      case 'TaintAdded':
      case 'TaintRemoved': {
        const n = name(d.object);
        const tt = taintOf(d);
        const list = (taints.get(n) ?? []).filter((x) => !(x.key === tt.key && x.effect === tt.effect));
        if (d.action === 'TaintAdded') list.push({ key: tt.key, ...(tt.value ? { value: tt.value } : {}), effect: tt.effect });
        taints.set(n, list);
        write(t, 'patch', nodeController, { resource: 'nodes', name: n }, { metadata: { name: n }, spec: { taints: list } });
        break;
      }
      case 'NodeStatusUnknown': {
        const n = name(d.object);
        write(
          t,
          'patch',
          nodeController,
          { resource: 'nodes', name: n, subresource: 'status' },
          { metadata: { name: n }, status: { conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' }] } },
        );
        break;
      }
      case 'PodsMarkedNotReady':
        for (const p of pods(d))
          write(
            t,
            'patch',
            nodeController,
            { resource: 'pods', namespace: p.split('/')[0], name: p.split('/')[1], subresource: 'status' },
            { status: { conditions: [{ type: 'Ready', status: 'False' }] } },
          );
        break;
      case 'PodEvicted':
        write(t, 'delete', d.controller === 'taint-eviction' ? 'system:serviceaccount:kube-system:taint-eviction-controller' : nodeController, {
          resource: 'pods',
          namespace: d.object.split('/')[1],
          name: name(d.object),
        });
        break;
      case 'PodsCreated':
      case 'PodsDeleted': {
        const [, ns, rs] = d.object.split('/');
        for (const p of pods(d)) {
          const podName = name(p);
          write(
            t,
            d.action === 'PodsCreated' ? 'create' : 'delete',
            'system:serviceaccount:kube-system:replicaset-controller',
            { resource: 'pods', namespace: ns, ...(d.action === 'PodsDeleted' ? { name: podName } : {}) },
            { metadata: { name: podName, namespace: ns, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, controller: true }] } },
          );
        }
        break;
      }
      case 'KubeletStarted': {
        const n = name(d.object);
        write(
          t,
          'patch',
          `system:node:${n}`,
          { resource: 'nodes', name: n, subresource: 'status' },
          { metadata: { name: n }, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] } },
        );
        break;
      }
      default:
        break;
    }
  }
  return lines.join('\n') + '\n';
}
