/**
 * 1.12's pod eviction of a node whose pods are gone: the node is still queued and released from its
 * zone's eviction queue, and DeletePods then finds nothing to delete or mark. "Its pods evicted at T"
 * named a time when nothing came (the why-not hunt's outage-1.12 seed 203: node-a2's one pod deleted by
 * a scale to 9 at +3m, "would fire at +5m35s"; with a restart at +3m, "+8m15s"). Each row asks at its
 * time, then runs forward to the end and reads the decisions about the node's pods.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { parseUntil } from '../../../src/cli/horizon';

/**
 * outage-1.12 (node-a1 and node-a2 stopped at +30s) with node-a2's DaemonSet pod deleted at +1m and web-7d9f scaled to 9
 * at +3m, which deletes node-a2's other pod; `more`: events after
 */
function scaledAway(dir: string, name: string, more = ''): string {
  mkdirSync(join(dir, 'clusters'), { recursive: true });
  copyFileSync('examples/clusters/three-zones.yaml', join(dir, 'clusters', 'three-zones.yaml'));
  const text = readFileSync('examples/outage-1.12.yaml', 'utf8').replace(/\nexpect:[\s\S]*$/, '\n');
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `${text}  - at: 1m\n    delete: Pod/kube-system/kube-proxy-a2\n  - at: 3m\n    scale: {replicaSet: default/web-7d9f, replicas: 9}\n${more}`,
  );
  return file;
}

interface Case {
  name: string;
  more?: string;
  until: string;
  node: string;
  /** the time named, or never */
  said: { at: string } | 'never';
  /** the decisions about the node's pods (PodEvicted, PodStatusUpdated) by +12m: their first time, or none */
  first: string | undefined;
}

const cases: Case[] = [
  { name: 'node-a2, its pod scaled away: never', until: '3m30s', node: 'node-a2', said: 'never', first: undefined },
  {
    name: 'node-a2 after a restart at +3m: never',
    more: '  - at: 3m\n    restartControllerManager: true\n',
    until: '3m30s',
    node: 'node-a2',
    said: 'never',
    first: undefined,
  },
  {
    name: 'node-a1, its pods still there: named, and it comes',
    until: '3m30s',
    node: 'node-a1',
    said: { at: '2026-01-01T00:05:25.000Z' },
    first: '2026-01-01T00:05:25.000Z',
  },
  {
    name: 'node-a2 before the scale: named (the scale is on the way)',
    until: '2m30s',
    node: 'node-a2',
    said: { at: '2026-01-01T00:05:35.000Z' },
    first: undefined,
  },
];

describe('1.12 pod eviction of a node with no pods left', () => {
  for (const c of cases)
    it(c.name, () => {
      const dir = mkdtempSync(join(tmpdir(), 'nothing-to-evict-'));
      try {
        const sim = createSimulation(loadScenario(scaledAway(dir, 'case', c.more), nodeFs()));
        sim.runUntil(parseUntil(c.until, sim.startTime));
        const w = sim.explain(`Node/${c.node}`).whyNot.find((x) => x.outcome === 'NodePodsEvicted');
        assert.ok(w, 'an answer for its pods');
        if (c.said === 'never') assert.equal(w.never, true, JSON.stringify(w));
        else assert.equal(w.wouldFireAt, c.said.at, JSON.stringify(w));
        sim.runUntil(parseUntil('12m', sim.startTime));
        const first = sim.trace.find(
          (d) =>
            d.controller === 'node-lifecycle' &&
            (d.action === 'PodEvicted' || d.action === 'PodStatusUpdated') &&
            (d.details as { node?: string })?.node === c.node,
        );
        assert.equal(first?.time, c.first);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
});
