/**
 * The zone a node belongs to, as kube-controller-manager's node lifecycle
 * controller keys its zone states and eviction queues
 * (`GetZoneKey`: pkg/util/node at v1.12, k8s.io/component-helpers/node/topology
 * later). Upstream joins region and zone with ":\x00:"; the trace shows the
 * same pair as `Zone/REGION/ZONE` (spec 2.1), so the key used everywhere in
 * the engine is that printable form:
 *
 *   zone label only          -> `ZONE`
 *   region and zone labels   -> `REGION/ZONE`
 *   region label only        -> `REGION/`
 *   neither                  -> `` (the unlabelled zone, `Zone/`)
 *
 * Label values cannot contain `/`, so the printable key is as unambiguous as
 * upstream's.
 */
import type { NodeRecord } from './types';
import { zoneRef } from './types';

export const LABEL_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_REGION = 'topology.kubernetes.io/region';
export const LABEL_ZONE_BETA = 'failure-domain.beta.kubernetes.io/zone';
export const LABEL_REGION_BETA = 'failure-domain.beta.kubernetes.io/region';

/** The (region, zone) pair of a node: the GA labels, else the beta ones. */
export function zoneLabelsOf(labels: Record<string, string> | undefined): { region: string; zone: string } {
  const l = labels ?? {};
  const zone = has(l, LABEL_ZONE) ? l[LABEL_ZONE] : has(l, LABEL_ZONE_BETA) ? l[LABEL_ZONE_BETA] : '';
  const region = has(l, LABEL_REGION) ? l[LABEL_REGION] : has(l, LABEL_REGION_BETA) ? l[LABEL_REGION_BETA] : '';
  return { region: region ?? '', zone: zone ?? '' };
}

/** GetZoneKey, in the engine's printable form (see above). */
export function zoneKeyOfLabels(labels: Record<string, string> | undefined): string {
  const { region, zone } = zoneLabelsOf(labels);
  if (region === '' && zone === '') return '';
  return region === '' ? zone : `${region}/${zone}`;
}

export function zoneKeyOf(node: NodeRecord): string {
  return zoneKeyOfLabels(node.meta.labels);
}

/** `Zone/KEY`, the trace's name for a zone. */
export function zoneRefOf(node: NodeRecord): string {
  return zoneRef(zoneKeyOf(node));
}

/** The zones of a cluster's nodes, sorted (the unlabelled zone's "" left out): what a scenario's `zone:` may name. */
export function zoneKeysOf(snapshot: { cluster: { nodes: ReadonlyMap<string, NodeRecord> } }): string[] {
  const keys = new Set<string>();
  for (const n of snapshot.cluster.nodes.values()) keys.add(zoneKeyOf(n));
  keys.delete('');
  return [...keys].sort();
}

/** The zone label's value of a zone key: its last part (`us-east-1b` of `us-east-1/us-east-1b`; `` of `REGION/`). */
export const zoneLabelOfKey = (key: string): string => key.slice(key.lastIndexOf('/') + 1);

/**
 * The zone keys whose zone label is `label` (a scenario's events name zones so), sorted: none for a text with a `/`,
 * which is a key itself.
 */
export function zonesWithLabel(label: string, keys: Iterable<string>): string[] {
  if (label.includes('/')) return [];
  return [...keys].filter((k) => k.endsWith(`/${label}`)).sort();
}

function has(l: Record<string, string>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(l, k);
}
