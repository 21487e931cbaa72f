/**
 * A generated zone outage written to a folder (cluster.json + outage.yaml), for the tests that
 * need one pass where many nodes go Unknown at once (by default 300 of 600).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateClusterStream, listChunks, renderObject } from '../../src/engine/generate/index';
import { loadScenario } from '../../src/engine/snapshot/scenario';
import type { Scenario } from '../../src/engine/snapshot/types';
import { nodeFs } from '../../src/platform/nodeFs';

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

/**
 * The small generated outage the why-not audits run on (24 nodes, 4 pods each, 3 zones; zone 1's kubelets stop at 60 s and
 * come back at 12 m, or `recoverAt`) under `kubernetesVersion`, written as DIR/NAME.json and DIR/NAME.yaml (with `extra` scenario fields),
 * and loaded.
 */
export function loadSmallOutage(dir: string, name: string, kubernetesVersion: string, extra: Record<string, unknown> = {}, recoverAt = '12m'): Scenario {
  const stream = generateClusterStream({
    nodes: 24,
    podsPerNode: 4,
    zones: 3,
    detail: 'lean',
    kubernetesVersion,
    seed: name,
    timeline: { zoneOutage: { zone: 1, at: '60s', recoverAt } },
  });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  writeFileSync(join(dir, `${name}.json`), text);
  writeFileSync(join(dir, `${name}.yaml`), renderObject({ ...stream.scenario!, ...extra, snapshot: `${name}.json` } as never, 'yaml'));
  return loadScenario(join(dir, `${name}.yaml`), nodeFs());
}
