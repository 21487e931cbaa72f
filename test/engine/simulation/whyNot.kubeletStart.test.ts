/**
 * An answer through a kubelet the timeline stops, read against a later `kubelet: start` of the same
 * node: the start posts Ready True at once, and the monitor pass that reads it (at the same instant
 * it runs after the timeline's event) keeps the node from going Unknown, or takes it out of its
 * zone's queue and removes its taint, which cancels its pods' deletions. On main (9899136) each of
 * these answers named the time the stop alone gives ("if the timeline stops the kubelet at +30s: at
 * +1m05s"), for an outcome that never came.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { parseUntil } from '../../../src/cli/horizon';
import { formatWhyNotWhen } from '../../../src/engine/trace/text';
import type { WhyNotOutcome } from '../../../src/engine/trace/whyNot';

/** outage-1.31's stop of node-a1 and node-a2 at +30s, and a start of one of them at `at` */
function restart(dir: string, node: string, at: string, stopAgain?: string): string {
  mkdirSync(join(dir, 'clusters'), { recursive: true });
  copyFileSync('examples/clusters/three-zones.yaml', join(dir, 'clusters', 'three-zones.yaml'));
  const file = join(dir, `restart-${node}-${at}.yaml`);
  writeFileSync(
    file,
    [
      'apiVersion: controllerstepper.io/v1alpha1',
      'kind: Scenario',
      'metadata:',
      '  name: restart',
      'kubernetesVersion: "1.31"',
      'startTime: "2026-01-01T00:00:00Z"',
      'snapshot: ./clusters/three-zones.yaml',
      'events:',
      '  - at: 30s',
      '    kubelet: stop',
      '    nodes: [node-a1, node-a2]',
      `  - at: ${at}`,
      '    kubelet: start',
      `    nodes: [${node}]`,
      ...(stopAgain ? [`  - at: ${stopAgain}`, '    kubelet: stop', `    nodes: [${node}]`] : []),
      '',
    ].join('\n'),
  );
  return file;
}

const OUTCOME_DECISION: Record<string, (d: { action: string; summary: string; controller: string }) => boolean> = {
  NodeStatusUnknown: (d) => d.action === 'NodeStatusUnknown',
  NodeTaintedNoExecute: (d) => d.action === 'TaintAdded' && d.summary.includes(':NoExecute'),
  PodDeletedByTaintEviction: (d) => d.action === 'PodEvicted' && d.controller === 'taint-eviction',
};

const cases: {
  name: string;
  start: [string, string];
  /** the same kubelet stopped again after its start */
  stopAgain?: string;
  until: string;
  object: string;
  outcome: WhyNotOutcome;
  /** what the answer says (formatWhyNotWhen, times as RFC 3339) */
  when: string;
  /** when it came in the run, or never (within 10 minutes) */
  happened?: string;
}[] = [
  {
    name: 'started at the very pass that would set Unknown: the node never goes Unknown',
    start: ['node-a1', '1m5s'],
    until: '0s',
    object: 'Node/node-a1',
    outcome: 'NodeStatusUnknown',
    when: 'never, if the timeline stops the kubelet at 2026-01-01T00:00:30.000Z and starts it again at 2026-01-01T00:01:05.000Z',
  },
  {
    name: 'started while queued for tainting, before its token: never tainted',
    start: ['node-a2', '1m15s'],
    until: '0s',
    object: 'Node/node-a2',
    outcome: 'NodeTaintedNoExecute',
    when: 'never, if the timeline stops the kubelet at 2026-01-01T00:00:30.000Z and starts it again at 2026-01-01T00:01:15.000Z',
  },
  {
    name: 'the other node of the zone, when node-a1 never reaches the queue: the first token, +1m10s',
    start: ['node-a1', '1m5s'],
    until: '0s',
    object: 'Node/node-a2',
    outcome: 'NodeTaintedNoExecute',
    when: 'if the timeline stops the kubelet at 2026-01-01T00:00:30.000Z: at 2026-01-01T00:01:10.000Z',
    happened: '2026-01-01T00:01:10.000Z',
  },
  {
    name: 'started before its pod’s toleration runs out: the pod is never deleted',
    start: ['node-a1', '6m5s'],
    until: '0s',
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    when: 'never, if the timeline stops the kubelet at 2026-01-01T00:00:30.000Z and starts it again at 2026-01-01T00:06:05.000Z',
  },
  {
    name: 'the same pod asked once its node is tainted (a certain time on main): the start cancels it',
    start: ['node-a1', '6m5s'],
    until: '2m',
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    when: 'never, if the timeline starts the kubelet again at 2026-01-01T00:06:05.000Z',
  },
  {
    name: 'started at the instant of the deletion: the pass comes before the taint eviction’s timer, never',
    start: ['node-a1', '6m10s'],
    until: '2m',
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    when: 'never, if the timeline starts the kubelet again at 2026-01-01T00:06:10.000Z',
  },
  {
    name: 'started, then stopped again before its pod’s toleration would run out: no "never" (the second stop evicts it), no time',
    start: ['node-a1', '2m'],
    stopAgain: '3m',
    until: '0s',
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    when: '',
    happened: '2026-01-01T00:08:40.000Z',
  },
  {
    name: 'the same asked once its node is tainted: no "never" either',
    start: ['node-a1', '2m'],
    stopAgain: '3m',
    until: '1m30s',
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    when: '',
    happened: '2026-01-01T00:08:40.000Z',
  },
  {
    name: 'the other node of the zone, when node-a1 starts and stops again: node-a1 may still go Unknown and queue first, so not the stop alone',
    start: ['node-a1', '50s'],
    stopAgain: '55s',
    until: '0s',
    object: 'Node/node-a2',
    outcome: 'NodeTaintedNoExecute',
    // main said 'if the timeline stops the kubelet at +30s: at +1m10s', as if node-a1's start kept it out for good
    when: "if the timeline stops the kubelet at 2026-01-01T00:00:30.000Z, and its zone's rate and queue let it through at once: at 2026-01-01T00:01:10.000Z",
    happened: '2026-01-01T00:01:10.000Z',
  },
  {
    name: 'started after the taint: the taint comes as named',
    start: ['node-a1', '1m15s'],
    until: '0s',
    object: 'Node/node-a1',
    outcome: 'NodeTaintedNoExecute',
    when: 'if the timeline stops the kubelet at 2026-01-01T00:00:30.000Z: at 2026-01-01T00:01:10.000Z',
    happened: '2026-01-01T00:01:10.000Z',
  },
];

describe('a kubelet the timeline starts again: the answer through its stop reads the start', () => {
  for (const c of cases) {
    it(c.name, () => {
      const dir = mkdtempSync(join(tmpdir(), 'cs-kubelet-start-'));
      try {
        const sim = createSimulation(loadScenario(restart(dir, ...c.start, c.stopAgain), nodeFs()));
        const from = parseUntil(c.until, sim.startTime)!;
        sim.runUntil(from);
        const w = sim.explain(c.object).whyNot.find((x) => x.outcome === c.outcome);
        assert.ok(w, 'an answer');
        assert.equal(formatWhyNotWhen(w), c.when);
        sim.runUntil(parseUntil('10m', sim.startTime)!);
        const [, ns, name] = c.object.split('/');
        const object = c.object.startsWith('Pod/') ? `Pod/${ns}/${name}` : c.object;
        const came = sim.trace.find((d) => d.object === object && OUTCOME_DECISION[c.outcome](d) && Date.parse(d.time) * 1000 > from);
        assert.equal(came?.time, c.happened, 'the run agrees');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
