/**
 * The decisions of a replaced pod's path record their checks to be made when first read: taint
 * eviction's PodEvicted, the ReplicaSet controller's PodsCreated, the binder's PodBound and the
 * simplified kubelet's PodStarted (scheduler/podBound.ts). The trace read after steps back into the
 * middle and forward again is the one a host that makes every `because` at once gives, so that the
 * checks read nothing a later step changes (a node's usage, its allocatable, a work item, the
 * ReplicaSet's removed pods). Rows: nodes filtered out, nodes reporting no allocatable, evictions.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createSimulation, loadScenario } from '../../../src/engine';
import { SimHost } from '../../../src/engine/simulation/simHost';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import type { Decision } from '../../../src/engine/trace/decision';
import type { Scenario } from '../../../src/engine/snapshot/types';
import { nodeFs } from '../../../src/platform/nodeFs';
import { loadSmallOutage } from '../../helpers/generatedOutage';
import { node, pod, replicaSet, scenarioOf } from '../../helpers/scenario';

const root = new URL('../../..', import.meta.url).pathname;
const ACTIONS = new Set(['PodEvicted', 'PodsCreated', 'PodBound', 'PodStarted']);
const made = (d: Decision) => Object.getOwnPropertyDescriptor(d, 'because')?.get === undefined;

const labels = { app: 'web' };
const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
const rows: { name: string; load: (dir: string) => Scenario; until: number; want: (path: Decision[]) => boolean }[] = [
  { name: 'rs-slow-start example', load: () => loadScenario(join(root, 'examples', 'rs-slow-start.yaml'), nodeFs()), until: 20, want: () => true },
  {
    name: 'small generated outage (1.31): pods evicted and replaced, bound with nodes filtered out',
    load: (dir) => loadSmallOutage(dir, 'replaced-later', '1.31'),
    until: 200,
    want: (path) => ['PodEvicted', 'PodsCreated'].every((a) => path.some((d) => d.action === a)) && path.some((d) => (d.details!.filtered as number) > 0),
  },
  {
    name: 'nodes that report no allocatable',
    load: () => scenarioOf({ objects: [node('a'), node('b'), replicaSet('default', 'web', 3, labels), pod('default', 'web-1', 'a', { labels, owner })] }),
    until: 6,
    want: (path) => path.some((d) => d.because[0]!.rule.includes('reports no allocatable')),
  },
];

function run(row: (typeof rows)[number], dir: string, eager: boolean): { back: string; again: string; decisions: Decision[]; lazy: number } {
  const proto = SimHost.prototype as { decideExplainedLater?: unknown };
  const kept = proto.decideExplainedLater;
  if (eager) proto.decideExplainedLater = undefined;
  try {
    const sim = createSimulation(row.load(dir), { checkpointEvery: 2 });
    const last = Math.min(sim.lastPass, row.until);
    sim.goToPass(last);
    const decisions = sim.trace.filter((d) => ACTIONS.has(d.action));
    const lazy = decisions.filter((d) => !made(d)).length;
    // read only now: the checks of the decisions kept are made after the steps back
    sim.goToPass(Math.floor(last / 2));
    sim.goToPass(Math.floor(last / 2) - 1);
    const back = traceToJsonLines(sim.trace);
    sim.goToPass(last);
    return { back, again: traceToJsonLines(sim.trace), decisions, lazy };
  } finally {
    proto.decideExplainedLater = kept;
  }
}

describe("a replaced pod's decisions explained later", () => {
  for (const row of rows) {
    it(`gives the trace of checks made at once: ${row.name}`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'replaced-later-'));
      try {
        const lazy = run(row, dir, false);
        const eager = run(row, dir, true);
        for (const a of ['PodsCreated', 'PodBound', 'PodStarted'])
          assert.ok(
            eager.decisions.some((d) => d.action === a),
            a,
          );
        assert.ok(row.want(eager.decisions), 'the row decides as its name says');
        assert.equal(lazy.lazy, lazy.decisions.length, 'every decision of the path is made when first read');
        assert.equal(eager.lazy, 0);
        assert.equal(lazy.back, eager.back);
        assert.equal(lazy.again, eager.again);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
