/**
 * What "Explain which object?" offers: the zones, then the nodes, pods and
 * ReplicaSets, each kind in the natural order of its names, as the panel
 * lists them. The view's maps are in the order their items were made (a
 * replacement pod last), which is no order a user looks things up in.
 */
import { naturalCompare, type ZoneView } from '../engine';
import type { ClusterView } from './viewModel';

export interface ObjectPickItem {
  label: string;
  description: string;
}

export function objectPickItems(zones: readonly ZoneView[], view: ClusterView): ObjectPickItem[] {
  const byRef = <T extends { ref: string }>(items: Iterable<T>): T[] => [...items].sort((a, b) => naturalCompare(a.ref, b.ref));
  return [
    ...[...zones].sort((a, b) => naturalCompare(a.zone, b.zone)).map((z) => ({ label: z.zone, description: `${z.state}, ${z.notReady}/${z.nodes} not ready` })),
    ...byRef(view.nodes.values()).map((n) => ({ label: n.ref, description: `Ready ${n.ready}${n.taints.length ? ` · ${n.taints.join(', ')}` : ''}` })),
    ...byRef(view.pods.values()).map((p) => ({ label: p.ref, description: `${p.phase} on ${p.node || '(pending)'}` })),
    ...byRef(view.replicaSets.values()).map((r) => ({ label: r.ref, description: `${r.ready}/${r.desired} ready` })),
  ];
}
