/**
 * `explain --object`: the engine's refs (Node/NAME, Pod/NAMESPACE/NAME, ReplicaSet/NAMESPACE/NAME,
 * Zone/KEY), and what a kubectl user types for them: kubectl's kinds and short names in any case
 * (`node/node-a1`, `po/web-1`, `rs/default/web`), a pod or ReplicaSet without its namespace, or a
 * bare name. A short form is looked up in the clusters (the snapshot's, and the one the run left:
 * replacements are made during it) and must name exactly one object.
 */
import type { ClusterState } from '../engine/model/cluster';
import { closest } from '../engine/config/suggest';
import { zoneKeyOf, zonesWithLabel } from '../engine/model/zones';
import { zoneMeant } from '../engine/snapshot/scenarioReader';

type Kind = 'Node' | 'Pod' | 'ReplicaSet' | 'Zone';

const KINDS: Record<string, Kind> = {
  node: 'Node',
  nodes: 'Node',
  no: 'Node',
  pod: 'Pod',
  pods: 'Pod',
  po: 'Pod',
  replicaset: 'ReplicaSet',
  replicasets: 'ReplicaSet',
  rs: 'ReplicaSet',
  zone: 'Zone',
  zones: 'Zone',
};

export const OBJECT_REF_FORMS =
  "Node/NAME, Pod/NAMESPACE/NAME, ReplicaSet/NAMESPACE/NAME or Zone/KEY (or kubectl's node/NAME, pod/NAME, rs/NAME, a bare name, or Zone/ZONE by its zone label)";

/** Whether `text` has the shape of a ref this module can read (checked before anything is loaded). */
export function refShapeOk(text: string): boolean {
  if (!text || /\s/.test(text)) return false;
  const slash = text.indexOf('/');
  if (slash < 0) return true;
  const kind = KINDS[text.slice(0, slash).toLowerCase()];
  if (!kind) return false;
  const rest = text.slice(slash + 1);
  if (kind === 'Zone') return true;
  const parts = rest.split('/');
  return parts.every((p) => p.length > 0) && parts.length <= (kind === 'Node' ? 1 : 2);
}

/** The engine's ref for `text` (refShapeOk), or why there is none. */
export function resolveObjectRef(text: string, clusters: Clusters): { ref: string } | { error: string } {
  const slash = text.indexOf('/');
  if (slash < 0) return bare(text, clusters);
  const kind = KINDS[text.slice(0, slash).toLowerCase()]!;
  const rest = text.slice(slash + 1);
  if (kind === 'Zone') return zoneNamed(text, rest, clusters);
  if (kind === 'Node' || rest.includes('/')) return { ref: `${kind}/${rest}` };
  // a pod or ReplicaSet without its namespace: the one of that name, in whichever namespace
  const found = named([kind], rest, clusters);
  if (found.length === 1) return { ref: found[0] };
  if (found.length > 1) return { error: `${text} names ${found.length} objects: ${found.join(', ')}; give one of them` };
  // none: as kubectl would, the default namespace (explain then says it never existed, with a likely name)
  return { ref: `${kind}/default/${rest}` };
}

type Clusters = readonly (ClusterState | undefined)[];

/**
 * A zone by its key (`REGION/ZONE` when the nodes have a region label) or, as a scenario's events name zones, by its
 * zone label alone when one zone has it (`zone/us-east-1b` for `Zone/us-east-1/us-east-1b`).
 */
function zoneNamed(text: string, rest: string, clusters: Clusters): { ref: string } | { error: string } {
  const keys = new Set(clusters.flatMap((c) => [...(c?.nodes.values() ?? [])].map(zoneKeyOf)));
  if (keys.has(rest) || rest.includes('/')) return { ref: `Zone/${rest}` };
  const byLabel = zonesWithLabel(rest, keys);
  if (byLabel.length === 1) return { ref: `Zone/${byLabel[0]}` };
  if (byLabel.length > 1) return { error: `${text} names ${byLabel.length} zones: ${byLabel.map((k) => `Zone/${k}`).join(', ')}; give one of them` };
  return { ref: `Zone/${rest}` };
}

/** Every ref of a kind in the clusters (`Node/NAME`, `Pod/NS/NAME`, `ReplicaSet/NS/NAME`), each once. */
function refsOf(kind: 'Node' | 'Pod' | 'ReplicaSet', clusters: Clusters): Set<string> {
  const out = new Set<string>();
  for (const c of clusters) {
    const map = kind === 'Node' ? c?.nodes : kind === 'Pod' ? c?.pods : c?.replicaSets;
    for (const key of map?.keys() ?? []) out.add(`${kind}/${key}`);
  }
  return out;
}

/** A ref's name: what follows its last `/`. */
const nameOf = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

function named(kinds: readonly ('Node' | 'Pod' | 'ReplicaSet')[], name: string, clusters: Clusters): string[] {
  return kinds.flatMap((k) => [...refsOf(k, clusters)].filter((r) => nameOf(r) === name).sort());
}

function bare(name: string, clusters: Clusters): { ref: string } | { error: string } {
  const refs = named(['Node', 'Pod', 'ReplicaSet'], name, clusters);
  if (refs.length === 1) return { ref: refs[0] };
  if (refs.length > 1) return { error: `${name} names ${refs.length} objects: ${refs.join(', ')}; give one of them` };
  const names = new Set((['Node', 'Pod', 'ReplicaSet'] as const).flatMap((k) => [...refsOf(k, clusters)].map(nameOf)));
  const hint = closest(name, [...names]);
  return { error: `no Node, Pod or ReplicaSet is named ${name}${hint ? ` (did you mean ${hint}?)` : ''}; --object is ${OBJECT_REF_FORMS}` };
}

/** The closest existing object of the same kind as `ref`, for "did you mean". */
export function similarName(ref: string, clusters: Clusters, zones: readonly string[]): string | undefined {
  const kind = ref.slice(0, ref.indexOf('/'));
  // zones are `Zone/KEY`; the hint may be a zone label alone, which --object takes (zoneNamed)
  if (kind === 'Zone')
    return zoneMeant(
      ref,
      zones.map((z) => z.slice('Zone/'.length)),
    );
  return kind === 'Node' || kind === 'Pod' || kind === 'ReplicaSet' ? closest(ref, [...refsOf(kind, clusters)]) : undefined;
}
