/**
 * What the loader says about a snapshot as a whole once it is read: node
 * heartbeats without Leases, heartbeats that disagree, references to objects
 * missing from it (dangling.ts), Leases without nodes; and the latest
 * timestamp in it, where the clock starts.
 */
import type { ClusterState } from '../model/cluster';
import { ZERO_TIME, formatDuration, type Micros } from '../model/time';
import { ENGINE_KINDS, NODE_LEASE_NAMESPACE, type KObject } from '../model/types';
import type { Problem, Severity, SourcePosition } from '../problems';
import type { ClusterStore } from './clusterStore';
import { danglingReferences } from './dangling';
import { kubeMinor } from '../versions/table';

const HEARTBEAT_SPREAD_WARNING = 60 * 60 * 1_000_000;

/** The kinds the controllers read, as messages name them (a Lease only in kube-node-lease). */
export const SIMULATED_KINDS = ENGINE_KINDS.map((k) => (k === 'Lease' ? 'node Lease' : k)).join(', ');

/** "1 Deployment, 2 Services": counts by kind, in the order given. */
export function kindCounts(counts: Iterable<readonly [kind: string, count: number]>): string {
  return [...counts].map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`).join(', ');
}

/**
 * Warnings about the snapshot as a whole (spec 1.4 and the quirks of real exports); `exported`:
 * some input was an export, not a scenario's inline objects.
 */
export function crossChecks(store: ClusterStore, exported: boolean): Problem[] {
  const cluster = store.cluster;
  const problems: Problem[] = [];
  const problem = (code: string, severity: Severity, message: string, position?: SourcePosition): void => {
    const p: Problem = { code, severity, message };
    if (position) p.position = position;
    problems.push(p);
  };
  const firstPosition = (kind: string, name: string) => store.positionOf(kind, name);
  // A modern snapshot without Leases makes healthy nodes look stale.
  if (cluster.nodes.size && !cluster.leases.size) {
    for (const node of cluster.nodes.values()) {
      const v = kubeletMinor(node.raw);
      if (v && v.minor >= 14) {
        problem(
          'no-leases',
          'warning',
          `the nodes run Kubernetes ${v.text} (1.14 or later: the kubelet heartbeats with a Lease in ${NODE_LEASE_NAMESPACE} and rewrites lastHeartbeatTime only every few minutes), but the snapshot holds no node Leases, ${exported ? 'so nodes whose Ready is True are taken as having renewed their Lease at the start time, unless the simulated version has no Leases or a scenario says missingLeases: absent (the trace shows the assumption); for their real renew times export them too' : 'so healthy nodes may look stale; add them with'}: kubectl get leases -n ${NODE_LEASE_NAMESPACE} -o yaml`,
          firstPosition('Node', node.meta.name),
        );
        break;
      }
    }
  }
  // Heartbeats that disagree: the snapshot has no single "now".
  let lo: Micros | undefined,
    hi: Micros | undefined,
    loNode = '',
    hiNode = '';
  for (const node of cluster.nodes.values()) {
    const ready = node.conditions.find((c) => c.type === 'Ready');
    if (!ready || ready.lastHeartbeatTime === ZERO_TIME) continue;
    if (lo === undefined || ready.lastHeartbeatTime < lo) {
      lo = ready.lastHeartbeatTime;
      loNode = node.meta.name;
    }
    if (hi === undefined || ready.lastHeartbeatTime > hi) {
      hi = ready.lastHeartbeatTime;
      hiNode = node.meta.name;
    }
  }
  if (lo !== undefined && hi !== undefined && hi - lo > HEARTBEAT_SPREAD_WARNING) {
    problem(
      'heartbeats-disagree',
      'warning',
      `the nodes' Ready heartbeats are ${formatDuration(hi - lo)} apart (${loNode} oldest, ${hiNode} newest): the snapshot has no single "now"; the clock starts at the latest timestamp, so ${loNode} will look stale${exported && !cluster.leases.size && cluster.nodes.get(loNode)?.conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? ' unless its Lease is taken as renewed at the start time (no-leases)' : ''}`,
      firstPosition('Node', loNode),
    );
  }
  // Objects were read, but none the controllers watch: without this the replay runs on an empty
  // cluster and prints a trace as if all were well (a manifest of Deployments given for an export).
  if (!cluster.nodes.size && !cluster.pods.size && !cluster.replicaSets.size && !cluster.daemonSets.size && !cluster.leases.size) {
    const kinds = store.ignoredKindsFrom();
    if (kinds.size) {
      const n = [...kinds.values()].reduce((a, b) => a + b, 0);
      problem(
        'nothing-simulated',
        'warning',
        `none of the ${n} object${n === 1 ? '' : 's'} read (${kindCounts(kinds)}) is of a kind the controllers read (${SIMULATED_KINDS}): the simulation has nothing to watch. Export the cluster itself: kubectl get nodes,pods,replicasets,daemonsets -A -o yaml${kinds.has('Event') ? '; Events record what happened: controller-stepper import turns them into a scenario' : ''}`,
        store.ignored.find((l) => l.kind)?.position,
      );
    }
  }
  // Dangling references, as in partial exports.
  problems.push(...danglingReferences(cluster, firstPosition));
  const orphanLeases = [...cluster.leases.keys()].filter((n) => !cluster.nodes.has(n));
  if (orphanLeases.length) {
    problem(
      'leases-without-nodes',
      'info',
      `${orphanLeases.length} node Lease${orphanLeases.length === 1 ? '' : 's'} without a Node in the snapshot (${orphanLeases.slice(0, 3).join(', ')}${orphanLeases.length > 3 ? ', ...' : ''})`,
    );
  }
  return problems;
}

function kubeletMinor(raw: KObject): { minor: number; text: string } | undefined {
  const status = raw.status as KObject | undefined;
  const info = status && (status.nodeInfo as KObject | undefined);
  const text = info && typeof info.kubeletVersion === 'string' ? info.kubeletVersion : undefined;
  if (!text) return undefined;
  const minor = kubeMinor(text);
  return minor === undefined ? undefined : { minor, text };
}

/**
 * The latest timestamp in the snapshot: node condition heartbeats and
 * transitions, taints' timeAdded, Lease renewTimes, pod condition transitions
 * and every object's creationTimestamp. Deletion timestamps are left out (they
 * lie in the future while a pod terminates). Undefined when there is none.
 */
export function latestTimestamp(cluster: ClusterState): Micros | undefined {
  let max = ZERO_TIME;
  const see = (t: Micros | undefined) => {
    if (t !== undefined && t > max) max = t;
  };
  for (const n of cluster.nodes.values()) {
    see(n.meta.creationTimestamp);
    for (const c of n.conditions) {
      see(c.lastHeartbeatTime);
      see(c.lastTransitionTime);
    }
    for (const t of n.taints) see(t.timeAdded);
  }
  for (const p of cluster.pods.values()) {
    see(p.meta.creationTimestamp);
    for (const c of p.conditions) see(c.lastTransitionTime);
  }
  for (const r of cluster.replicaSets.values()) see(r.meta.creationTimestamp);
  for (const d of cluster.daemonSets.values()) see(d.meta.creationTimestamp);
  for (const l of cluster.leases.values()) {
    see(l.meta.creationTimestamp);
    see(l.renewTime);
  }
  return max === ZERO_TIME ? undefined : max;
}
