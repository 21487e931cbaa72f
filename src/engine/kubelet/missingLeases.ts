/**
 * Leases an export leaves out (spec 1.4, last paragraph). With the NodeLease
 * gate (on by default from 1.14) the kubelet heartbeats through its Lease in
 * kube-node-lease and rewrites the Ready condition's lastHeartbeatTime only
 * every nodeStatusReportFrequency (1m in 1.14-1.16, 5m from 1.17), so `kubectl get nodes -o yaml` alone, the most common export there
 * is, shows healthy nodes minutes stale. Read literally, the controller's
 * first pass would find them past nodeMonitorGracePeriod and taint them
 * unreachable: an outage that never happened.
 *
 * So when the snapshot came from an export (not only a scenario's inline
 * `objects:`, where a missing Lease is meant), holds no Lease at all, and the
 * simulated version heartbeats with Leases, every node whose Ready condition
 * is True is taken as having renewed its Lease at the start time. It is an
 * assumption, shown as one (world.ts records it); `missingLeases: absent`
 * turns it off.
 */
import type { Micros } from '../model/time';
import type { ClusterState } from '../model/cluster';
import type { LeaseRecord } from '../model/types';
import type { Scenario } from '../snapshot/types';
import { kubeletLease } from './nodelease';

/** `details.assumption` of the AssumptionMade decisions this assumption makes (one per node). */
export const MISSING_LEASES_ASSUMPTION = 'missingLeases';

export const MISSING_LEASES_VALUES = ['assumed', 'absent'] as const;
export type MissingLeases = (typeof MISSING_LEASES_VALUES)[number];

/** The setting in effect: as the scenario writes it, else `assumed` for an export and `absent` for inline objects. */
export function missingLeasesMode(scenario: Pick<Scenario, 'missingLeases' | 'snapshot'>): MissingLeases {
  return scenario.missingLeases ?? (scenario.snapshot.exported ? 'assumed' : 'absent');
}

/** Why the assumption does or does not apply, for the trace and the lint message. */
export interface MissingLeasePlan {
  mode: MissingLeases;
  /** the nodes taken as renewed at the start time, in name order (empty when it does not apply) */
  nodes: string[];
}

/**
 * The nodes whose Lease is taken as renewed at the start: none unless the mode is `assumed`, the
 * version heartbeats with Leases and the snapshot holds no Lease at all; then every node whose
 * Ready condition is True (a NotReady or Unknown node says nothing about a live kubelet).
 */
export function planMissingLeases(cluster: ClusterState, mode: MissingLeases, leasesOn: boolean): MissingLeasePlan {
  if (mode !== 'assumed' || !leasesOn || cluster.leases.size > 0) return { mode, nodes: [] };
  const nodes: string[] = [];
  for (const node of cluster.nodes.values()) {
    if (node.conditions.find((c) => c.type === 'Ready')?.status === 'True') nodes.push(node.meta.name);
  }
  nodes.sort();
  return { mode, nodes };
}

/** The Lease each planned node is taken to hold: renewed at `startTime` by its kubelet. */
export function assumedLeases(plan: MissingLeasePlan, startTime: Micros, leaseDurationSeconds = 40): LeaseRecord[] {
  return plan.nodes.map((name) => kubeletLease(name, startTime, leaseDurationSeconds));
}
