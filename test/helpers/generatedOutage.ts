/**
 * A generated zone outage written to a folder (cluster.json + outage.yaml), for the tests that
 * need one pass where many nodes go Unknown at once (by default 300 of 600).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateClusterStream, listChunks, renderObject } from '../../src/engine/generate/index';

/** The shape of a generated outage: by default 600 nodes in two zones, the second zone's kubelets stopping at 60 s. */
export interface ZoneOutageShape {
  nodes?: number;
  zones?: number;
  seed?: string;
  recoverAt?: string;
}

/** `podsPerNode` above the DaemonSets' (2) gives ReplicaSets: 5 gives about 260. */
export function writeZoneOutage(dir: string, podsPerNode = 1, shape: ZoneOutageShape = {}): string {
  const stream = generateClusterStream({
    nodes: shape.nodes ?? 600,
    podsPerNode,
    zones: shape.zones ?? 2,
    detail: 'lean',
    seed: shape.seed ?? 'big-pass',
    timeline: { zoneOutage: { zone: 1, at: '60s', recoverAt: shape.recoverAt ?? '30m' } },
  });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  writeFileSync(join(dir, 'cluster.json'), text);
  const path = join(dir, 'outage.yaml');
  writeFileSync(path, renderObject({ ...stream.scenario!, snapshot: 'cluster.json' } as never, 'yaml'));
  return path;
}
