/**
 * handleDisruption's pure decision functions (node_lifecycle_controller.go):
 * ComputeZoneState, ReducedQPSFunc, HealthyQPSFunc, and which nodes take part
 * in disruption checks.
 */
import type { ZoneStateName } from '../../simulation/api';
import type { ConditionStatus, NodeRecord } from '../../model/types';
import { MachineTable } from '../../machines/table';
import { zoneMachine } from './machines';

export const LABEL_EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

let zones: MachineTable<typeof zoneMachine> | undefined;

/**
 * ComputeZoneState over the Ready statuses of a zone's nodes (null: no Ready condition, counts as
 * not ready): the state the zone machine's guards give the counts (machines.ts), from its initial
 * state, so that the zone state is computed in one place.
 */
export function computeZoneState(
  readyStatuses: readonly (ConditionStatus | null)[],
  unhealthyZoneThreshold: number,
): { notReady: number; state: ZoneStateName } {
  let ready = 0;
  let notReady = 0;
  for (const s of readyStatuses) s === 'True' ? ready++ : notReady++;
  zones ??= new MachineTable(zoneMachine, (e) => (e.type === 'ZONE_HEALTH' ? `${e.ready}|${e.notReady}|${e.unhealthyZoneThreshold}` : e.type));
  const step = zones.step(zones.initialValue, { type: 'ZONE_HEALTH', ready, notReady, unhealthyZoneThreshold })!;
  return { notReady, state: step.text as ZoneStateName };
}

/** ReducedQPSFunc: the secondary rate when the zone is larger than largeClusterSizeThreshold, else 0 (evictions stop). */
export function reducedQPS(zoneSize: number, largeClusterSizeThreshold: number, secondaryNodeEvictionRate: number): number {
  return zoneSize > largeClusterSizeThreshold ? secondaryNodeEvictionRate : 0;
}

/** HealthyQPSFunc: the normal rate. */
export function healthyQPS(nodeEvictionRate: number): number {
  return nodeEvictionRate;
}

/** system.IsMasterNode (1.12): the name ends in "master", or in "master-" and three more characters. */
export function isMasterNodeName(name: string): boolean {
  if (name.endsWith('master')) return true;
  if (name.length >= 10) return name.slice(0, name.length - 3).endsWith('master-');
  return false;
}

/** Why a node is left out of the zone disruption checks, if it is. */
export function disruptionExclusion(node: NodeRecord, b: { excludeMasterByName: boolean; honoursExcludeDisruptionLabel: boolean }): string | undefined {
  if (b.excludeMasterByName && isMasterNodeName(node.meta.name)) return `the name ${node.meta.name} looks like a master's (system.IsMasterNode)`;
  if (b.honoursExcludeDisruptionLabel && Object.prototype.hasOwnProperty.call(node.meta.labels, LABEL_EXCLUDE_DISRUPTION)) {
    return `the node has the label ${LABEL_EXCLUDE_DISRUPTION}`;
  }
  return undefined;
}
