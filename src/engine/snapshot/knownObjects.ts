/**
 * What a scenario's references may name before its events run: every object of the snapshot as the trace names it,
 * and `Zone/KEY` for each of its nodes' zones (GetZoneKey). parseEvents adds what the events create.
 */
import { NODE_LEASE_NAMESPACE } from '../model/types';
import { zoneKeyOfLabels } from '../model/zones';
import type { LoadedSnapshot } from './types';

export function knownObjects(snap: LoadedSnapshot): Set<string> {
  const known = new Set<string>();
  const c = snap.cluster;
  for (const k of c.nodes.keys()) known.add(`Node/${k}`);
  for (const k of c.pods.keys()) known.add(`Pod/${k}`);
  for (const k of c.replicaSets.keys()) known.add(`ReplicaSet/${k}`);
  for (const k of c.daemonSets.keys()) known.add(`DaemonSet/${k}`);
  for (const k of c.leases.keys()) known.add(`Lease/${NODE_LEASE_NAMESPACE}/${k}`);
  for (const n of c.nodes.values()) known.add(`Zone/${zoneKeyOfLabels(n.meta.labels)}`);
  return known;
}
