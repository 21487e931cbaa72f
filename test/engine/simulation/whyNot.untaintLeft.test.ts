/**
 * The timeline removes one NoExecute taint of a node that keeps another the pod tolerates. The taint
 * manager runs processPodOnNode again (handleNodeUpdate): with a deletion already scheduled and a
 * finite toleration left it keeps the scheduled work (its CreatedAt + min is before now + min, in
 * 1.12's taint_manager.go as in the newest tainteviction), so the deadline does not move; with
 * every taint left tolerated forever 1.19+ cancels it and 1.12 leaves it scheduled ("Scheduled
 * deletion won't be cancelled if already scheduled"). Each case is asked, run forward and audited,
 * under 1.12 and the newest release.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { seconds } from '../../../src/engine/model/time';
import { audit, missText, unsoundText } from '../../helpers/whyNotAudit';

const MAINT = 'example.com/maint';
const DRAIN = 'example.com/drain';

function pod(drainSeconds: number | undefined): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'tol', namespace: 'default', uid: 'u-tol', creationTimestamp: '2025-12-31T22:00:00Z' },
    spec: {
      nodeName: 'node-c1',
      tolerations: [
        { key: MAINT, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
        { key: DRAIN, operator: 'Exists', effect: 'NoExecute', ...(drainSeconds !== undefined ? { tolerationSeconds: drainSeconds } : {}) },
      ],
      containers: [{ name: 'c', image: 'i' }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T23:00:00Z' }] },
  });
}

function scenario(dir: string, version: string, drainSeconds: number | undefined, events: string[]): string {
  const file = join(dir, 'left.yaml');
  writeFileSync(
    file,
    [
      'apiVersion: controllerstepper.io/v1alpha1',
      'kind: Scenario',
      'metadata: {name: untaint-left}',
      `kubernetesVersion: "${version}"`,
      'startTime: "2026-01-01T00:00:00Z"',
      'snapshot: ./clusters/three-zones.yaml',
      'events:',
      `  - {at: 0s, apply: ${pod(drainSeconds)}}`,
      // maint at +30s schedules the deletion at +1m30s; drain at +40s keeps it (a deletion is scheduled)
      `  - {at: 30s, taint: {key: ${MAINT}, effect: NoExecute}, node: node-c1}`,
      `  - {at: 40s, taint: {key: ${DRAIN}, effect: NoExecute}, node: node-c1}`,
      ...events.map((e) => `  - ${e}`),
      '',
    ].join('\n'),
  );
  return file;
}

const untaint = (key: string, at: number) => `{at: ${at}s, untaint: {key: ${key}, effect: NoExecute}, node: node-c1}`;
const T = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();

interface Case {
  name: string;
  /** drain's tolerationSeconds (undefined: tolerated forever) */
  drain: number | undefined;
  events: string[];
  /** asked at this offset (s): `at` the time named with its condition, `never` with its never-if, or no time */
  asked: [number, { at: number; if: string } | { never: string } | 'none' | `said ${string}`][];
  deletedAt: number | undefined;
}

const removes = (...parts: [string, number][]) => `the timeline removes ${parts.map(([k, s]) => `the taint ${k} at ${T(s)}`).join(' and ')}`;

function cases(minor: number): Case[] {
  return [
    {
      name: 'maint removed, drain tolerated for 300s left: the scheduled deletion is kept',
      drain: 300,
      events: [untaint(MAINT, 80)],
      // before the taints: a second taint the timeline adds on the way (drain) gives no time
      asked: [
        [20, 'none'],
        // the deadline stands with the removal or without it: certain (main, bbafcb2, named it "if the timeline removes …")
        [50, `said ${T(90)}`],
      ],
      deletedAt: 90,
    },
    {
      name: 'maint removed, drain tolerated forever left: 1.19+ cancels, 1.12 keeps the deletion',
      drain: undefined,
      events: [untaint(MAINT, 80)],
      asked: [[50, minor >= 19 ? { never: removes([MAINT, 80]) } : `said ${T(90)}`]],
      deletedAt: minor >= 19 ? undefined : 90,
    },
    {
      name: 'maint removed, then drain: the last removal cancels',
      drain: 300,
      events: [untaint(MAINT, 80), untaint(DRAIN, 85)],
      asked: [[50, { never: removes([MAINT, 80], [DRAIN, 85]) }]],
      deletedAt: undefined,
    },
  ];
}

// 1.18 and 1.19: the last release that keeps the deletion under a taint tolerated forever, and the first that cancels it
for (const [version, minor] of [
  ['1.12', 12],
  ['1.18', 18],
  ['1.19', 19],
  ['1.37', 37],
] as const) {
  for (const c of cases(minor)) {
    test(`untaint leaving a taint the pod tolerates (${version}): ${c.name}`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'cs-untaint-left-'));
      try {
        mkdirSync(join(dir, 'clusters'));
        copyFileSync('examples/clusters/three-zones.yaml', join(dir, 'clusters', 'three-zones.yaml'));
        const sc = loadScenario(scenario(dir, version, c.drain, c.events), nodeFs());
        const sim = createSimulation(sc);
        for (const [at, said] of c.asked) {
          sim.runUntil(sim.startTime + seconds(at));
          const w = whyNotOfControllers(sim, 'Pod/default/tol').find((x) => x.outcome === 'PodDeletedByTaintEviction');
          assert.ok(w, `asked at +${at}s`);
          const got = w.conditional
            ? { at: (Date.parse(w.conditional.at) - Date.UTC(2026, 0, 1)) / 1000, if: w.conditional.if }
            : w.never && w.neverIf
              ? { never: w.neverIf }
              : w.wouldFireAt !== undefined || w.never
                ? `said ${w.wouldFireAt ?? 'never'}`
                : 'none';
          assert.deepEqual(got, said, `asked at +${at}s`);
        }
        sim.runUntil(sim.startTime + seconds(400));
        const evicted = sim.trace.find((d) => d.controller === 'taint-eviction' && d.action === 'PodEvicted' && d.object === 'Pod/default/tol');
        assert.equal(evicted?.time, c.deletedAt === undefined ? undefined : T(c.deletedAt), 'the run forward');
        const a = audit(sc, sim.startTime + seconds(400));
        assert.deepEqual(a.misses.filter((m) => !m.exempt).map(missText), []);
        assert.deepEqual(a.unsound.map(unsoundText), []);
        // the answers under the removals were checked against the run: a time named exactly, a never not contradicted
        const said = c.asked.map(([, x]) => x);
        if (said.some((x) => typeof x === 'object' && 'at' in x))
          assert.ok((a.exactBy.get('timeline:PodDeletedByTaintEviction' as never) ?? 0) > 0, 'named exactly');
        if (said.some((x) => typeof x === 'object' && 'never' in x)) assert.ok(a.untaintChecked > 0, 'never checked');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
}
