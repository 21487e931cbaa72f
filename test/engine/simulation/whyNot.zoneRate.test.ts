/**
 * A zone whose state changes on the way: the nodes going Unknown push it from Normal to
 * PartialDisruption (or on to FullDisruption), and the monitor pass that sees it swaps the zone's
 * limiter (handleDisruption / setLimiterInZone / SwapLimiter: a new bucket at the new rate, drained
 * when the old one had no token). The why-not's forecast of the zone's queue swaps it at the same
 * pass, so the time it names is the one the run gives. On main (9899136) each of these answers was
 * conditional on "its zone's rate and queue let it through at once" and named +1m10s, the first
 * token at the old rate: a time that came minutes early. A small zone at rate 0 (PartialDisruption) was said never
 * tainted, though its other nodes on the way made it FullDisruption at the normal rate (main 4184d34).
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
import { parseTimestamp } from '../../../src/engine/model/time';
import type { WhyNotOutcome } from '../../../src/engine/trace/whyNot';

const STOP = 'the timeline stops the kubelet at 2026-01-01T00:00:30.000Z';

/** zone-large-partial with the zone's other 20 nodes stopped at +3m: Normal, PartialDisruption (0.01/s) at +1m05s, FullDisruption (0.1/s) at +3m35s */
function partialThenFull(dir: string): string {
  // a scenario reads files of its own folder only: the snapshot is copied beside it
  mkdirSync(join(dir, 'clusters'));
  copyFileSync('examples/clusters/large-zone.yaml', join(dir, 'clusters', 'large-zone.yaml'));
  const text = readFileSync('examples/zone-large-partial.yaml', 'utf8').replace(/\nexpect:[\s\S]*$/, '\n');
  const more = Array.from({ length: 20 }, (_, i) => `node-a${41 + i}`).join(', ');
  const file = join(dir, 'partial-then-full.yaml');
  writeFileSync(file, `${text}  - at: 3m\n    kubelet: stop\n    nodes: [${more}]\n`);
  return file;
}

/**
 * zone-small-partial (six nodes, four stopped at +30s) with node-a6 set Ready=False and node-a3 stopped at +10s, and
 * node-a5 stopped at `a5`: PartialDisruption at +1m05s, rate 0 (a small zone), then FullDisruption once node-a5 goes
 * Unknown, at the normal 0.1/s while the other zones stay up (the why-not hunt's zone-small-partial seed 129).
 */
function smallThenFull(dir: string, a5: string): string {
  mkdirSync(join(dir, 'clusters'));
  copyFileSync('examples/clusters/three-zones.yaml', join(dir, 'clusters', 'three-zones.yaml'));
  const text = readFileSync('examples/zone-small-partial.yaml', 'utf8').replace(/\nexpect:[\s\S]*$/, '\n');
  const more = `  - at: 10s\n    condition: {type: Ready, status: "False"}\n    nodes: [node-a6]\n  - at: 10s\n    kubelet: stop\n    nodes: [node-a3]\n  - at: ${a5}\n    kubelet: stop\n    nodes: [node-a5]\n`;
  const file = join(dir, 'small-then-full.yaml');
  writeFileSync(file, text + more);
  return file;
}

const generated: Record<string, (dir: string) => string> = {
  'partial-then-full': partialThenFull,
  'small-then-full-45s': (dir) => smallThenFull(dir, '45s'),
  'small-then-full-75s': (dir) => smallThenFull(dir, '75s'),
};

interface Case {
  name: string;
  file: string;
  until: string;
  object: string;
  outcome: WhyNotOutcome;
  /** the time named: certain (`at`) or under the timeline's stop alone (`if`) */
  at: string;
  if?: string;
  decision: string;
  /** the rate swaps the answer's queue check names on the way */
  rateOnTheWay?: string[];
}

const cases: Case[] = [
  {
    name: 'zone-large-partial at +0s: node-a11 is tainted at the second token of PartialDisruption’s 0.01/s, +4m30.2s',
    file: 'examples/zone-large-partial.yaml',
    until: '0s',
    object: 'Node/node-a11',
    outcome: 'NodeTaintedNoExecute',
    if: STOP,
    at: '2026-01-01T00:04:30.200Z',
    decision: 'TaintAdded',
  },
  {
    name: 'zone-large-partial at +35s (kubelets stopped, not Unknown yet): node-a12 at +6m10.3s, certain',
    file: 'examples/zone-large-partial.yaml',
    until: '35s',
    object: 'Node/node-a12',
    outcome: 'NodeTaintedNoExecute',
    at: '2026-01-01T00:06:10.300Z',
    decision: 'TaintAdded',
  },
  {
    name: 'zone-large-partial at +35s: node-a10’s pod goes 300 s after its node’s taint at +2m50.1s',
    file: 'examples/zone-large-partial.yaml',
    until: '35s',
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    at: '2026-01-01T00:06:10.000Z',
    decision: 'PodEvicted',
  },
  {
    name: 'zone-large-partial at +0s: web-7d9f’s first replacement comes with that pod’s deletion, +6m10s',
    file: 'examples/zone-large-partial.yaml',
    until: '0s',
    object: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsCreated',
    if: STOP,
    at: '2026-01-01T00:06:10.000Z',
    decision: 'PodsCreated',
  },
  {
    name: 'PartialDisruption then FullDisruption at +3m10s: node-a20, 10 behind at 0.01/s, leaves at 0.1/s from +3m35s (the new bucket drained), +5m25s',
    file: 'generated:partial-then-full',
    until: '3m10s',
    object: 'Node/node-a20',
    outcome: 'NodeTaintedNoExecute',
    at: '2026-01-01T00:05:25.000Z',
    decision: 'TaintAdded',
    rateOnTheWay: ['2026-01-01T00:03:35.000Z: 0.1'],
  },
  {
    name: 'a small zone at rate 0 (PartialDisruption) at +1m10s, node-a5 stopped at +45s: FullDisruption at +1m25s brings 0.1/s back, node-a1 at +1m35s',
    file: 'generated:small-then-full-45s',
    until: '1m10s',
    object: 'Node/node-a1',
    outcome: 'NodeTaintedNoExecute',
    at: '2026-01-01T00:01:35.000Z',
    decision: 'TaintAdded',
    rateOnTheWay: ['2026-01-01T00:01:25.000Z: 0.1'],
  },
  {
    name: 'the same: toleration-sixty on node-a1 goes 60 s after its taint, +2m35s',
    file: 'generated:small-then-full-45s',
    until: '1m10s',
    object: 'Pod/default/toleration-sixty',
    outcome: 'PodDeletedByTaintEviction',
    at: '2026-01-01T00:02:35.000Z',
    decision: 'PodEvicted',
  },
  {
    name: 'a small zone at rate 0 at +1m10s, node-a5 stopped by the timeline at +1m15s: node-a4, third in the queue, at +2m25s under that stop',
    file: 'generated:small-then-full-75s',
    until: '1m10s',
    object: 'Node/node-a4',
    outcome: 'NodeTaintedNoExecute',
    if: "the timeline's events on 1 other node of the zone when it says",
    at: '2026-01-01T00:02:25.000Z',
    decision: 'TaintAdded',
    rateOnTheWay: ['2026-01-01T00:01:55.000Z: 0.1'],
  },
];

describe('a zone whose rate changes on the way: the time named is the run’s', () => {
  for (const c of cases) {
    it(c.name, () => {
      const dir = mkdtempSync(join(tmpdir(), 'cs-zone-rate-'));
      try {
        const file = c.file.startsWith('generated:') ? generated[c.file.slice('generated:'.length)]!(dir) : c.file;
        const sim = createSimulation(loadScenario(file, nodeFs()));
        sim.runUntil(parseUntil(c.until, sim.startTime));
        const w = sim.explain(c.object).whyNot.find((x) => x.outcome === c.outcome);
        if (c.if) {
          assert.equal(w?.wouldFireAt, undefined);
          assert.deepEqual(w?.conditional, { if: c.if, at: c.at });
        } else {
          assert.equal(w?.conditional, undefined, JSON.stringify(w?.conditional));
          assert.equal(w?.wouldFireAt, c.at);
        }
        if (c.rateOnTheWay) {
          const named = JSON.stringify(w);
          for (const r of c.rateOnTheWay) assert.ok(named.includes(JSON.stringify(r)), `the answer names the rate swap ${r}`);
        }
        sim.runUntil(parseTimestamp(c.at)!);
        const first = sim.trace.find(
          (d) =>
            d.object === c.object &&
            d.action === c.decision &&
            (d.action !== 'TaintAdded' || d.summary.includes(':NoExecute')) &&
            parseTimestamp(d.time)! > parseUntil(c.until, sim.startTime)!,
        );
        assert.equal(first?.time, c.at, 'the run does it at that time');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
