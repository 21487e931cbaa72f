/**
 * The binder's promise on whole outages: replayed for an hour, no node ever
 * holds more pods, cpu requests or memory requests than its allocatable
 * allows, and the replacements spread instead of piling on one node.
 * The generated outage is `controller-stepper generate --nodes 150
 * --pods-per-node 30 --zones 3 --outage 1:60s:30m`.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { generateClusterStream, listChunks, renderObject } from '../../../../src/engine/generate/index';
import { nodeFs } from '../../../../src/platform/nodeFs';
import type { ClusterState } from '../../../../src/engine/model/cluster';
import { nodeAllocatable, podRequests } from '../../../../src/engine/controllers/scheduler/resources';

const dir = mkdtempSync(join(tmpdir(), 'cs-binder-outage-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function generatedOutage(): string {
  const stream = generateClusterStream({ nodes: 150, podsPerNode: 30, zones: 3, timeline: { zoneOutage: { zone: 1, at: '60s', recoverAt: '30m' } } });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  writeFileSync(join(dir, 'cluster.json'), text);
  const path = join(dir, 'scenario.yaml');
  writeFileSync(path, renderObject({ ...stream.scenario!, snapshot: 'cluster.json' } as never, 'yaml'));
  return path;
}

/** Nodes holding more than their allocatable (pods, cpu or memory requests of non-terminal pods). */
function overcommitted(cluster: ClusterState): string[] {
  const out: string[] = [];
  for (const node of cluster.nodes.values()) {
    const a = nodeAllocatable(node);
    let pods = 0,
      cpu = 0,
      memory = 0;
    for (const key of cluster.podsByNode.get(node.meta.name) ?? []) {
      const p = cluster.pods.get(key);
      if (!p || p.phase === 'Succeeded' || p.phase === 'Failed') continue;
      const r = podRequests(p);
      pods++;
      cpu += r.milliCpu;
      memory += r.memory;
    }
    if (pods > a.pods || (a.milliCpu !== undefined && cpu > a.milliCpu) || (a.memory !== undefined && memory > a.memory)) {
      out.push(`${node.meta.name}: ${pods}/${a.pods} pods, ${cpu}m/${a.milliCpu}m cpu, ${memory}/${a.memory} memory`);
    }
  }
  return out;
}

const cases = [
  { name: 'the generated 150-node zone outage', path: generatedOutage, minBound: 100 },
  { name: 'examples/rs-zone-outage.yaml', path: () => join(__dirname, '../../../../examples/rs-zone-outage.yaml'), minBound: 3 },
];

for (const c of cases) {
  test(`${c.name}: no node ever holds more than its allocatable, and the replacements spread`, () => {
    const sim = createSimulation(loadScenario(c.path(), nodeFs()));
    for (let minute = 5; minute <= 60; minute += 5) {
      sim.runUntil(sim.startTime + minute * 60e6);
      assert.deepEqual(overcommitted(sim.cluster), [], `${c.name} at ${minute}m`);
    }
    const bound = sim.trace.filter((d) => d.action === 'PodBound');
    assert.ok(bound.length >= c.minBound, `${c.name}: ${bound.length} pods bound`);
    const perNode = new Map<string, number>();
    for (const d of bound) perNode.set(d.details!.node as string, (perNode.get(d.details!.node as string) ?? 0) + 1);
    // least allocated spreads them: no node takes more than a few of the replacements
    const most = Math.max(...perNode.values());
    assert.ok(most <= Math.max(1, Math.ceil((3 * bound.length) / perNode.size)), `${c.name}: ${most} of ${bound.length} replacements on one node`);
    assert.ok(perNode.size > 1, `${c.name}: replacements on ${perNode.size} node(s)`);
    assert.equal(sim.trace.filter((d) => d.action === 'PodUnschedulable').length, 0, `${c.name}: the rest of the cluster has room`);
  });
}
