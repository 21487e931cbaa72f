/**
 * A generated zone outage written to a folder (cluster.json + outage.yaml), for the tests that
 * need one pass where many nodes go Unknown at once: 600 nodes in two zones, the second zone's
 * kubelets stop at 60 s, so 300 nodes go Unknown in one pass.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateClusterStream, listChunks, renderObject } from '../../src/engine/generate/index';

/** `podsPerNode` above the DaemonSets' (2) gives ReplicaSets: 5 gives about 260. */
export function writeZoneOutage(dir: string, podsPerNode = 1): string {
  const stream = generateClusterStream({
    nodes: 600,
    podsPerNode,
    zones: 2,
    detail: 'lean',
    seed: 'big-pass',
    timeline: { zoneOutage: { zone: 1, at: '60s', recoverAt: '30m' } },
  });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  writeFileSync(join(dir, 'cluster.json'), text);
  const path = join(dir, 'outage.yaml');
  writeFileSync(path, renderObject({ ...stream.scenario!, snapshot: 'cluster.json' } as never, 'yaml'));
  return path;
}
